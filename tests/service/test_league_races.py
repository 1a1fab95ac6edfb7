"""A season's everyday races, on SQLite and PostgreSQL, with real threads (issue 18).

Each test lines two requests up on a barrier and widens the window between what a request reads
and what it writes (the rule check sleeps), so without the row locks of ``db.locks`` both would
check the same reading: a budget passed twice, a purchase lost, one shirt number given twice, a
coach entered twice. With them the second request waits for the first, checks what it wrote,
and is either stored or refused, and what its caller is told is what was stored.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from support.databases import at_once as shared_at_once
from sqlmodel import select

from db import teams as db_teams
from db.errors import InvalidInputError, MatchChangedError, StoreError
from db.models import Fixture, RosterPlayer, Team
from engine import teambuilding as tb
from engine.errors import ElfballError
from service.leagues import LeagueService

GUILD, ALICE, BOB, CAROL = 1, 11, 12, 13
WINDOW = 0.25  # seconds each rule check takes here: both requests are inside it at once




def slow(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """``engine.teambuilding.<name>`` takes ``WINDOW`` seconds after it has checked."""
    real = getattr(tb, name)

    def checked(*args: Any, **kwargs: Any) -> Any:
        out = real(*args, **kwargs)
        time.sleep(WINDOW)
        return out

    monkeypatch.setattr(tb, name, checked)


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls in threads released together; each result, or the refusal it raised."""
    return shared_at_once(*calls, catch=(StoreError, ElfballError))


def refused(results: list[Any]) -> list[Exception]:
    return [r for r in results if isinstance(r, Exception)]


def make_team(league: LeagueService, coach: int, name: str, lst: str = "night elves") -> None:
    with league.sessions() as s:
        db_teams.create_team(session=s, guild_id=GUILD, coach_id=coach, name=name, team_list=lst)


def stored(league: LeagueService, name: str) -> Any:
    return league.sheet(GUILD, name, image=False)


def test_two_purchases_at_once_are_both_kept(league, monkeypatch) -> None:
    make_team(league, ALICE, "Moonblades")
    slow(monkeypatch, "check_support")
    results = at_once(lambda: league.support(GUILD, ALICE, "Moonblades", "potion", 1),
                      lambda: league.support(GUILD, ALICE, "Moonblades", "potion", 1))
    assert refused(results) == []
    counts = sorted(r[2] for r in results)
    assert counts == [1, 2], "each purchase was told the count it made"
    sheet = stored(league, "Moonblades")
    assert sheet.team.support == {"potions": 2} and sheet.value == 160


def test_a_hire_and_a_purchase_at_once_keep_the_budget(league, monkeypatch) -> None:
    make_team(league, ALICE, "Moonblades")
    league.hire(GUILD, ALICE, "Moonblades", "Imps")  # 165 of 180
    slow(monkeypatch, "check_hire")
    slow(monkeypatch, "check_support")
    results = at_once(lambda: league.hire(GUILD, ALICE, "Moonblades", "Imps"),
                      lambda: league.support(GUILD, ALICE, "Moonblades", "potion", 1))
    assert len(refused(results)) == 1 and "180" in str(refused(results)[0])
    sheet = stored(league, "Moonblades")
    assert sheet.value <= 180
    # What the winner was told is what was stored.
    if isinstance(results[0], Exception):
        assert sheet.team.support == {"potions": 1} and len(sheet.team.players) == 11
    else:
        assert sheet.team.support == {} and len(sheet.team.players) == 12


def test_two_hires_at_once_get_their_own_numbers(league, monkeypatch) -> None:
    make_team(league, ALICE, "Moonblades")
    slow(monkeypatch, "check_hire")
    results = at_once(lambda: league.hire(GUILD, ALICE, "Moonblades", "Imps", "Quill"),
                      lambda: league.hire(GUILD, ALICE, "Moonblades", "Imps", "Sorrel"))
    assert refused(results) == []
    labels = sorted(label for _sheet, label in results)
    assert labels == ["#11 Quill (Imps)", "#12 Sorrel (Imps)"] or labels == ["#11 Sorrel (Imps)", "#12 Quill (Imps)"]
    numbers = sorted(p.number for p in stored(league, "Moonblades").team.players)
    assert numbers == list(range(1, 13))


def test_two_abilities_at_once_keep_the_budget(league, monkeypatch) -> None:
    make_team(league, ALICE, "Moonblades")
    league.hire(GUILD, ALICE, "Moonblades", "Imps")
    league.support(GUILD, ALICE, "Moonblades", "potion", 1)  # 170 of 180: room for two abilities
    league.support(GUILD, ALICE, "Moonblades", "kegs", 1)  # 175: room for one
    with league.sessions() as s:
        for p in s.exec(select(RosterPlayer).where(RosterPlayer.number.in_([1, 2]))).all():  # type: ignore[attr-defined]
            p.xp = 5
            s.add(p)
        s.commit()
    slow(monkeypatch, "check_learn")
    results = at_once(lambda: league.learn(GUILD, ALICE, "Moonblades", "1", "steady"),
                      lambda: league.learn(GUILD, ALICE, "Moonblades", "2", "steady"))
    (no,) = refused(results)
    assert "180" in str(no)
    sheet = stored(league, "Moonblades")
    assert sheet.value == 180
    assert sorted(len(p.abilities) for p in sheet.team.players if p.number in (1, 2)) == [0, 1]


def test_one_coach_cannot_enter_two_teams_at_once(league, monkeypatch) -> None:
    league.create(GUILD, CAROL, "Elf Cup")
    make_team(league, ALICE, "Moonblades")
    make_team(league, ALICE, "Starlings")
    slow(monkeypatch, "check_team")
    results = at_once(lambda: league.join(GUILD, ALICE, "Elf Cup", "Moonblades"),
                      lambda: league.join(GUILD, ALICE, "Elf Cup", "Starlings"))
    (no,) = refused(results)
    assert isinstance(no, InvalidInputError) and "already coach a team" in str(no)
    assert [t.name for t in league.teams(GUILD, "Elf Cup")] in (["Moonblades"], ["Starlings"])


def test_the_schedule_drawn_twice_at_once_is_stored_once(league, monkeypatch) -> None:
    league.create(GUILD, ALICE, "Elf Cup")
    for coach, name in ((ALICE, "Moonblades"), (BOB, "Gnashers"), (CAROL, "Tinkers"), (99, "Widows")):
        make_team(league, coach, name)
        league.join(GUILD, coach, "Elf Cup", name)
    import service.leagues as svc

    real = svc.round_robin

    def drawn(*args: Any, **kwargs: Any) -> Any:  # the draw takes a while: both requests are in it
        time.sleep(WINDOW)
        return real(*args, **kwargs)

    monkeypatch.setattr(svc, "round_robin", drawn)
    results = at_once(lambda: league.schedule(GUILD, ALICE, "Elf Cup"),
                      lambda: league.schedule(GUILD, ALICE, "Elf Cup"))
    (no,) = refused(results)
    assert "already has its schedule" in str(no)
    with league.sessions() as s:
        assert len(s.exec(select(Fixture)).all()) == 6  # 4 teams: 6 fixtures, not 12


def test_a_team_change_and_its_check_see_the_other_request(league, monkeypatch) -> None:
    """A sale racing a purchase of the same item: both are applied, in some order."""
    make_team(league, ALICE, "Moonblades")
    league.support(GUILD, ALICE, "Moonblades", "cheerleaders", 2)
    slow(monkeypatch, "check_support")
    results = at_once(lambda: league.support(GUILD, ALICE, "Moonblades", "cheerleaders", 1),
                      lambda: league.support(GUILD, ALICE, "Moonblades", "cheerleaders", -1))
    assert refused(results) == []
    assert stored(league, "Moonblades").team.support == {"cheerleaders": 2}
    with league.sessions() as s:
        assert s.exec(select(Team)).one().support == {"cheerleaders": 2}


# --- post-match choices ----------------------------------------------------------------------------
def finished(league: LeagueService, change: Callable[[Any], None]) -> Any:
    """A two-team league whose fixture ended (by concession) with ``change`` made to its final
    state, as the engine's Advanced rules could have left it; the home team's report."""
    league.create(GUILD, ALICE, "Elf Cup")
    make_team(league, ALICE, "Moonblades")
    make_team(league, BOB, "Gnashers", "gnolls")
    league.join(GUILD, ALICE, "Elf Cup", "Moonblades")
    league.join(GUILD, BOB, "Elf Cup", "Gnashers")
    (fixture,) = league.schedule(GUILD, ALICE, "Elf Cup")
    view, _ = league.play(GUILD, 500, fixture.home_coach, fixture.id)
    league.matches.on_finish.clear()
    out = league.matches.concede(500, view.away_coach)
    state = out.state.copy()
    change(state)
    league.match_finished(out.match, state)
    return view, league.open_aftermaths(GUILD, view.home_coach)[0]


@pytest.mark.slow
def test_two_abilities_pressed_at_once_on_the_panel(league, monkeypatch) -> None:
    """One is learned and reported learned; the other is refused and nothing of it is stored."""

    def change(state: Any) -> None:
        state.players["w1"].xp = 5
        state.players["w2"].xp = 5

    view, am = finished(league, change)
    coach = view.home_coach
    offers = [o for o in am.offers if o.kind == "advance"]
    assert len(offers) == 2
    slow(monkeypatch, "check_learn")
    a = am.aftermath
    results = at_once(*(lambda o=o: league.advance(GUILD, a.id, a.version, coach, int(o.key), "steady") for o in offers))
    (no,) = refused(results)
    assert isinstance(no, (MatchChangedError, InvalidInputError))
    (won,) = [r for r in results if not isinstance(r, Exception)]
    assert any("learns Steady" in ln for ln in won.lines)
    sheet = stored(league, view.home)
    learned = [p for p in sheet.team.players if "steady" in p.abilities]
    assert len(learned) == 1 and sheet.value == 150 + 5
    assert [ln for ln in league.aftermath(a.id).lines if "learns" in ln] == [ln for ln in won.lines if "learns" in ln]


def test_an_ability_racing_another_choice_is_told_as_stored(league, monkeypatch) -> None:
    """An ability and a "later" for another player at once: whichever loses is refused and left
    unwritten, so nobody is told "refused" about an ability that was learned."""

    def change(state: Any) -> None:
        state.players["w1"].xp = 5
        state.players["w2"].xp = 5

    view, am = finished(league, change)
    coach = view.home_coach
    first, second = [o for o in am.offers if o.kind == "advance"]
    slow(monkeypatch, "check_learn")
    a = am.aftermath
    results = at_once(lambda: league.advance(GUILD, a.id, a.version, coach, int(first.key), "steady"),
                      lambda: league.advance(GUILD, a.id, a.version, coach, int(second.key), "later"))
    assert len(refused(results)) == 1
    learned = [p for p in stored(league, view.home).team.players if "steady" in p.abilities]
    if isinstance(results[0], Exception):  # the ability lost: not learned
        assert learned == [] and league.aftermath(a.id).aftermath.deferred == [int(second.key)]
    else:  # the ability won: learned, and the "later" was refused
        assert [p.id for p in learned] == [int(first.key)] and league.aftermath(a.id).aftermath.deferred == []


def test_a_team_joining_while_the_schedule_is_drawn_is_not_left_out(league, monkeypatch) -> None:
    """The draw reads the teams, then stores the fixtures under the league's lock: a team that
    joined in between makes the draw refused (draw again), never a season without that team."""
    league.create(GUILD, ALICE, "Elf Cup")
    for coach, name in ((ALICE, "Moonblades"), (BOB, "Gnashers"), (CAROL, "Tinkers")):
        make_team(league, coach, name)
    league.join(GUILD, ALICE, "Elf Cup", "Moonblades")
    league.join(GUILD, BOB, "Elf Cup", "Gnashers")
    import service.leagues as svc

    real = svc.round_robin
    drawing = threading.Event()

    def drawn(*args: Any, **kwargs: Any) -> Any:
        drawing.set()
        time.sleep(WINDOW)
        return real(*args, **kwargs)

    monkeypatch.setattr(svc, "round_robin", drawn)

    def join_while_drawing() -> Any:
        drawing.wait(5)
        return league.join(GUILD, CAROL, "Elf Cup", "Tinkers")

    results = at_once(lambda: league.schedule(GUILD, ALICE, "Elf Cup"), join_while_drawing)
    assert isinstance(results[0], InvalidInputError) and "draw it again" in str(results[0])
    assert not isinstance(results[1], Exception)
    monkeypatch.setattr(svc, "round_robin", real)
    assert len(league.schedule(GUILD, ALICE, "Elf Cup")) == 3  # all three teams
