"""A league's next season (issue 34): what a team carries over by the rules, what stays of the
finished season, who may start it, and a coach withdrawing at the season's change."""

from __future__ import annotations

import time

import pytest
from support.databases import at_once

from db import limits as db_limits
from db import seasons as db_seasons

from db.errors import InvalidInputError, NotAllowedError, NotFoundError, StoreError
from db.models import PlayerStatus
from engine.state import Location
from service.leagues import LeagueService
from service.matches import MatchService
from service.seasons import SeasonService
from service.site import SiteError, build_site, find_league
from support.leagues import ALICE, BOB, CAROL, DAVE, GUILD, finish_with, season

MOD = 99


@pytest.fixture
def league(database):
    return LeagueService(MatchService(render=False), render=False)


def _finish_season(league: LeagueService):
    """Alice's first fixture is played (XP, a lasting injury, a career's end, a player in the
    Infirmary for the game); every other one gets a result from the commissioner."""
    def change(state):
        w1, w2, w3, w4 = (state.players[f"w{i}"] for i in (1, 2, 3, 4))
        w1.xp = 2
        w2.injury = {"kind": "lasting", "attributes": ["jog"]}
        w2.location = Location.INFIRMARY
        w3.injury = {"kind": "career_ending"}
        w3.location = Location.INFIRMARY
        w4.location = Location.INFIRMARY  # out for the game only: nothing to carry

    view, _ = finish_with(league, change)
    for v in league.fixtures(GUILD, "Elf Cup"):
        if not v.fixture.played:
            league.correct(GUILD, ALICE, v.id, home_score=1, away_score=0, reason="walkover")
    return view


def test_a_new_season_carries_the_teams_as_the_rules_keep_them(league) -> None:
    seasons = SeasonService(league)
    season(league, ALICE, BOB, CAROL)
    league.support(GUILD, BOB, "Gnashers", "cheerleader", 2)
    with pytest.raises(InvalidInputError, match="not over: 3 fixture"):
        seasons.start(GUILD, ALICE, "Elf Cup")
    view = _finish_season(league)
    home = league.sheet(GUILD, view.home, image=False).team
    before = {p.number: p for p in home.players}
    old_table = league.standings(GUILD, "Elf Cup")[1]
    old_results = [(v.id, v.home, v.away, v.score()) for v in league.results(GUILD, "Elf Cup")]
    old_id = league.league(GUILD, "Elf Cup").id

    started = seasons.start(GUILD, ALICE, "elf cup")
    assert started.previous.id == old_id and started.league.season == 2 and started.league.name == "Elf Cup"
    assert started.league.settings == started.previous.settings
    assert sorted(t.name for t in started.teams) == ["Gnashers", "Moonblades", "Tinkers"]

    # The name finds the new season; the server lists one league.
    current = league.league(GUILD, "Elf Cup")
    assert current.id == started.league.id and [lg.id for lg in league.leagues(GUILD)] == [current.id]
    with league.sessions() as s:  # a season is no extra league against the commissioner's cap
        assert db_limits.league_count(s, GUILD, ALICE) == 1 == db_limits.league_count(s, GUILD)
    assert league.fixtures(GUILD, "Elf Cup") == []
    teams = league.teams(GUILD, "Elf Cup")
    assert {t.name for t in teams} == {"Moonblades", "Gnashers", "Tinkers"}
    assert all(t.points == 0 for t in teams)

    # The same team, the same rows: XP, the lowered attribute and its record, the player whose
    # career ended (a former player), support; the Infirmary was for the game only.
    after = {p.number: p for p in league.sheet(GUILD, view.home, image=False).team.players}
    assert after[1].xp == before[1].xp == 2
    assert after[2].attributes == before[2].attributes and after[2].injuries[-1]["kind"] == "lasting"
    assert after[2].status == PlayerStatus.ACTIVE
    assert after[3].status == PlayerStatus.RETIRED
    assert after[4].status == PlayerStatus.ACTIVE and after[4].injuries == [] and after[4].attributes == before[4].attributes
    gnashers = league.sheet(GUILD, "Gnashers", image=False).team
    assert gnashers.support.get("cheerleaders") == 2

    # The finished season stays readable, as it was.
    assert seasons.season(GUILD, "Elf Cup", 1).id == old_id
    _, table = league.standings(GUILD, old_id)
    assert [(r.name, r.played, r.points) for r in table] == [(r.name, r.played, r.points) for r in old_table]
    assert [(v.id, v.home, v.away, v.score()) for v in league.results(GUILD, old_id)] == old_results
    history = seasons.seasons(GUILD, "Elf Cup")
    assert [(h.league.season, h.current, h.played, h.fixtures) for h in history] == [(1, False, 3, 3), (2, True, 0, 0)]
    assert history[0].champion is not None and history[0].champion.name == old_table[0].name
    assert history[1].champion is None
    with pytest.raises(NotFoundError, match="no season 3"):
        seasons.season(GUILD, "Elf Cup", 3)

    # A finished season's result may still be corrected: its table follows, the new season's points do not.
    fixed = league.results(GUILD, old_id)[0]
    league.correct(GUILD, ALICE, fixed.id, home_score=0, away_score=3, reason="a ruling after the season")
    assert [v.score() for v in league.results(GUILD, old_id) if v.id == fixed.id] == ["0-3"]
    assert all(t.points == 0 for t in league.teams(GUILD, "Elf Cup"))

    # The new season plays: its schedule is drawn among the carried teams; the old one has none to make.
    fixtures = league.schedule(GUILD, ALICE, "Elf Cup")
    assert len(fixtures) == 3 and {f.fixture.league_id for f in fixtures} == {current.id}
    assert len(league.fixtures(GUILD, old_id)) == 3
    with pytest.raises(InvalidInputError, match="not the current one"):
        seasons.start(GUILD, ALICE, old_id)
    audit = [a.action for a in league.audit(GUILD, "Elf Cup")]
    assert "season_started" in audit and "season_followed" in [a.action for a in league.audit(GUILD, old_id)]


def test_only_the_commissioner_starts_a_season_and_a_refusal_changes_nothing(league) -> None:
    seasons = SeasonService(league)
    season(league, ALICE, BOB)
    _finish_season(league)
    old = league.league(GUILD, "Elf Cup")
    with pytest.raises(NotAllowedError, match="only the commissioner"):
        seasons.start(GUILD, BOB, "Elf Cup")
    with pytest.raises(NotAllowedError, match="say why"):
        seasons.start(GUILD, MOD, "Elf Cup", moderator=True)
    assert league.league(GUILD, "Elf Cup").id == old.id and len(league.leagues(GUILD)) == 1
    assert {t.league_id for t in league.teams(GUILD, "Elf Cup")} == {old.id}
    started = seasons.start(GUILD, MOD, "Elf Cup", moderator=True, reason="Alice is away")
    row = next(a for a in league.audit(GUILD, "Elf Cup") if a.action == "season_started")
    assert row.actor_id == MOD and row.detail["stand_in_for"] == ALICE and row.reason == "Alice is away"
    assert started.league.commissioner_id == ALICE
    with pytest.raises(InvalidInputError, match="no schedule yet"):
        seasons.start(GUILD, ALICE, "Elf Cup")


def test_a_coach_withdraws_his_team_before_the_new_schedule(league) -> None:
    seasons = SeasonService(league)
    season(league, ALICE, BOB, CAROL)
    _finish_season(league)
    seasons.start(GUILD, ALICE, "Elf Cup")
    with pytest.raises(NotAllowedError, match="coach"):
        seasons.withdraw(GUILD, DAVE, "Elf Cup", "Tinkers")
    lg, tm = seasons.withdraw(GUILD, CAROL, "Elf Cup", "tinkers")
    assert tm.league_id is None and lg.season == 2
    with pytest.raises(InvalidInputError, match="does not play in"):
        seasons.withdraw(GUILD, CAROL, "Elf Cup", "Tinkers")
    fixtures = league.schedule(GUILD, ALICE, "Elf Cup")
    assert len(fixtures) == 1 and {fixtures[0].home, fixtures[0].away} == {"Moonblades", "Gnashers"}
    with pytest.raises(InvalidInputError, match="can no longer withdraw"):
        seasons.withdraw(GUILD, BOB, "Elf Cup", "Gnashers")
    # Season 1 still shows the Tinkers, who played it.
    assert "Tinkers" in {r.name for r in league.standings(GUILD, seasons.season(GUILD, "Elf Cup", 1).id)[1]}


def test_the_website_of_a_finished_season_is_still_exported(league) -> None:
    seasons = SeasonService(league)
    season(league, ALICE, BOB, CAROL)
    _finish_season(league)
    old = league.league(GUILD, "Elf Cup")
    seasons.start(GUILD, ALICE, "Elf Cup")
    seasons.withdraw(GUILD, CAROL, "Elf Cup", "Tinkers")
    assert find_league("Elf Cup").season == 2  # the name: the current season, not "several leagues"
    first = find_league("elf cup", season=1)
    assert first.id == old.id and find_league(str(old.id)).id == old.id
    with pytest.raises(SiteError, match="no season 4"):
        find_league("Elf Cup", season=4)
    index = build_site(first, replays=False).files["index.html"].decode()
    assert all(name in index for name in ("Moonblades", "Gnashers", "Tinkers"))


def test_two_presses_at_once_start_one_season(league, monkeypatch) -> None:
    seasons = SeasonService(league)
    season(league, ALICE, BOB)
    _finish_season(league)
    real = db_seasons._left_to_play

    def slow(*args, **kwargs):
        out = real(*args, **kwargs)
        time.sleep(0.25)  # both presses read the season inside this window without the league's lock
        return out

    monkeypatch.setattr(db_seasons, "_left_to_play", slow)
    results = at_once(lambda: seasons.start(GUILD, ALICE, "Elf Cup"),
                      lambda: seasons.start(GUILD, MOD, "Elf Cup", moderator=True, reason="Alice asked"),
                      catch=(StoreError,))
    refusals = [r for r in results if isinstance(r, Exception)]
    assert len(refusals) == 1 and "not the current one" in str(refusals[0])
    assert [h.league.season for h in seasons.seasons(GUILD, "Elf Cup")] == [1, 2]


@pytest.mark.slow  # the export draws the match's replay
def test_the_console_exports_one_season(league, database, tmp_path, monkeypatch, capsys) -> None:
    from cli.main import main

    seasons = SeasonService(league)
    season(league, ALICE, BOB)
    _finish_season(league)
    seasons.start(GUILD, ALICE, "Elf Cup")
    monkeypatch.setenv("DATABASE_URL", database.url.render_as_string(hide_password=False))
    assert main(["league", "export", "Elf Cup", str(tmp_path / "one"), "--season", "1"]) == 0
    assert "Elf Cup: " in capsys.readouterr().out
    index = (tmp_path / "one" / "index.html").read_text(encoding="utf-8")
    assert "Moonblades" in index and "Gnashers" in index
    assert main(["league", "export", "Elf Cup", str(tmp_path / "nine"), "--season", "9"]) == 2
    assert "no season 9" in capsys.readouterr().err
