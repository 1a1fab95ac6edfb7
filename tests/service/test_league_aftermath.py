"""A post-match report closes exactly when nothing is left to decide (issue 18).

The report's potions end by themselves when the last potion is drunk or the last hurt player is
cured: the injuries left reach the roster in the same write, the report is done when no lasting
injury waits for a choice, and the team plays its next fixture. A report an older version left
waiting with nothing to drink is closed when it is next read.
"""

from __future__ import annotations

import pytest
from sqlmodel import select

from db.engine import session_scope
from db.models import Aftermath, PlayerStatus, RosterPlayer
from engine.dice import ScriptedDice
from engine.state import Location
from service.leagues import LeagueService
from service.matches import MatchService
from support.leagues import ALICE, BOB, CAROL, GUILD, three_teams

CURED = "- *"  # blank + star: "the player's eyes gloss over", cured of this game's injuries


@pytest.fixture
def league(database, monkeypatch):
    import service.leagues as svc

    monkeypatch.setattr(svc, "HashDice", lambda seed, offset=0: ScriptedDice(faces=CURED))
    return LeagueService(MatchService(render=False), render=False)


def first_match(league: LeagueService, potions: int, hurt: dict[str, dict]) -> tuple:
    """The first fixture's home team buys ``potions``, then the match ends (a concession) with
    ``hurt`` players of the home side injured as given; its open report."""
    three_teams(league)
    fixture = min((v for c in (ALICE, BOB, CAROL) for v in league.next_fixtures(GUILD, c)), key=lambda v: v.id)
    league.support(GUILD, fixture.home_coach, fixture.home, "potion", potions)
    view, _ = league.play(GUILD, 500, fixture.home_coach, fixture.id)
    league.matches.on_finish.clear()
    out = league.matches.concede(500, view.away_coach)
    state = out.state.copy()
    state.teams["west"].support = {"potions": potions}
    for pid, injury in hurt.items():
        state.players[pid].location = Location.INFIRMARY
        state.players[pid].injury = injury
    league.match_finished(out.match, state)
    (am,) = league.open_aftermaths(GUILD, view.home_coach)
    return view, am


def next_fixture_plays(league: LeagueService, view) -> None:
    nxt = [v for v in league.next_fixtures(GUILD, view.home_coach) if view.home in (v.home, v.away)]
    played, _ = league.play(GUILD, 600, view.home_coach, nxt[0].id)
    assert played.fixture.status == "playing"


def test_the_last_potion_drunk_closes_the_potions_and_applies_what_is_left(league) -> None:
    lasting = {"kind": "lasting", "attributes": ["jog"]}
    view, am = first_match(league, 1, {"w2": dict(lasting), "w3": dict(lasting)})
    assert [o.kind for o in am.offers] == ["potion"] and not am.aftermath.potions_done
    am = league.drink(am.aftermath.id, am.aftermath.version, view.home_coach, "w2")
    # The one potion is gone: no "no more potions" is offered, and none is needed.
    assert am.offers == [] and am.aftermath.potions_done and am.aftermath.done and am.settled
    assert any("Jog -1" in ln for ln in am.lines)  # w3's injury reached the roster
    players = sorted(league.sheet(GUILD, view.home, image=False).team.players, key=lambda p: p.number)
    assert players[1].injuries == [] and players[2].injuries[-1]["kind"] == "lasting"
    assert league.open_aftermaths(GUILD, view.home_coach) == []
    next_fixture_plays(league, view)


def test_the_last_hurt_player_cured_closes_the_potions_with_potions_left(league) -> None:
    view, am = first_match(league, 2, {"w2": {"kind": "lasting", "attributes": ["jog"]}})
    am = league.drink(am.aftermath.id, am.aftermath.version, view.home_coach, "w2")
    assert am.offers == [] and am.aftermath.potions_done and am.aftermath.done
    assert league.open_aftermaths(GUILD, view.home_coach) == []
    next_fixture_plays(league, view)


def test_a_tied_lasting_injury_still_waits_for_its_choice(league) -> None:
    """The potions close by themselves, but a choice that is the coach's stays open."""
    view, am = first_match(league, 1, {"w2": {"kind": "lasting", "attributes": ["jog"]},
                                       "w3": {"kind": "lasting", "attributes": ["jog", "dodge"]}})
    am = league.drink(am.aftermath.id, am.aftermath.version, view.home_coach, "w2")
    assert am.aftermath.potions_done and not am.aftermath.done and [o.kind for o in am.offers] == ["injury"]
    (injury,) = am.offers
    am = league.choose_injury(am.aftermath.id, am.aftermath.version, view.home_coach, int(injury.key), "dodge")
    assert am.aftermath.done and am.settled
    next_fixture_plays(league, view)


def test_a_report_left_waiting_with_nothing_to_drink_is_closed_when_read(league) -> None:
    """Reports written before this fix stayed open after the last potion: reading them (the
    coach's /league aftermath, or the next /league play) closes them."""
    view, am = first_match(league, 1, {"w2": {"kind": "lasting", "attributes": ["jog"]},
                                       "w3": {"kind": "career_ending"}})
    am = league.drink(am.aftermath.id, am.aftermath.version, view.home_coach, "w2")
    with session_scope() as s:  # as the old code left it: potions open, the roster untouched
        row = s.exec(select(Aftermath).where(Aftermath.id == am.aftermath.id)).one()
        row.potions_done, row.done, row.applied = False, False, row.applied[:-1]
        w3 = s.exec(select(RosterPlayer).where(RosterPlayer.team_id == row.team_id, RosterPlayer.number == 3)).one()
        w3.status, w3.injuries = PlayerStatus.ACTIVE.value, []
        s.add_all([row, w3])
        s.commit()
    assert league.aftermath(am.aftermath.id).offers == []  # the panel offers nothing: the old deadlock
    next_fixture_plays(league, view)
    row = league.aftermath(am.aftermath.id)
    assert row.aftermath.potions_done and row.aftermath.done and row.settled
    w3 = sorted(league.sheet(GUILD, view.home, image=False).team.players, key=lambda p: p.number)[2]
    assert w3.status == PlayerStatus.RETIRED
