"""The league service without Discord: a season from creation to standings, and what a match
leaves behind (XP, potions, lasting and career-ending injuries, abilities)."""

from __future__ import annotations


from itertools import combinations

import pytest

from db.engine import session_scope
from db.errors import InvalidInputError, NotAllowedError
from db.models import FixtureStatus, PlayerStatus
from engine.state import Location, MatchState
from engine.teambuilding import TeamBuildingError
from service.leagues import LeagueService, round_robin, standings_rows
from service.matches import MatchService
from support.leagues import ALICE, BOB, CAROL, DAVE, finish_with, GUILD, season, start, team


@pytest.fixture
def league(database):
    return LeagueService(MatchService(render=False), render=False)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8])
def test_round_robin_pairs_everyone_once_with_fair_homes(n: int) -> None:
    ids = list(range(1, n + 1))
    games = round_robin(ids)
    assert sorted(tuple(sorted((h, a))) for _, h, a in games) == list(combinations(ids, 2))
    for rnd in {r for r, _, _ in games}:
        playing = [t for r, h, a in games if r == rnd for t in (h, a)]
        assert len(playing) == len(set(playing)), "nobody plays twice in a round"
    for t in ids:
        home = sum(1 for _, h, _ in games if h == t)
        away = sum(1 for _, _, a in games if a == t)
        assert abs(home - away) <= 1
    double = round_robin(ids, double=True)
    assert len(double) == 2 * len(games)
    assert sorted((h, a) for _, h, a in double) == sorted({(h, a) for _, h, a in games} | {(a, h) for _, h, a in games})


def test_create_join_schedule_and_refusals(league) -> None:
    fixtures = season(league, ALICE, BOB, CAROL)
    assert len(fixtures) == 3 and {f.fixture.round for f in fixtures} == {1, 2, 3}
    assert all(f.fixture.status == FixtureStatus.SCHEDULED for f in fixtures)
    assert "<@" in fixtures[0].line()
    with pytest.raises(InvalidInputError, match="already has its schedule"):
        league.schedule(GUILD, ALICE, "Elf Cup")
    team(DAVE, "Widows", "black widows")
    with pytest.raises(InvalidInputError, match="schedule is made"):
        league.join(GUILD, DAVE, "Elf Cup", "Widows")
    with pytest.raises(NotAllowedError, match="commissioner"):
        league.change_settings(GUILD, BOB, "Elf Cup", {"points_win": 2})
    updated = league.change_settings(GUILD, ALICE, "Elf Cup", {"points_win": 2, "star2": True})
    assert updated.settings["points_win"] == 2
    with pytest.raises(InvalidInputError, match="unknown league setting"):
        league.change_settings(GUILD, ALICE, "Elf Cup", {"dragons": 1})
    assert [a.action for a in league.audit(GUILD, "Elf Cup")][:2] == ["settings_changed", "schedule_made"]


def test_joining_checks_ownership_and_the_league_rules(league) -> None:
    league.create(GUILD, ALICE, "Tight Cup", {"budget": 140})
    team(BOB, "Gnashers", "gnolls")
    with pytest.raises(NotAllowedError):
        league.join(GUILD, ALICE, "Tight Cup", "Gnashers")
    with pytest.raises(TeamBuildingError, match="worth 150 points, over the league's 140"):
        league.join(GUILD, BOB, "Tight Cup", "Gnashers")
    league.fire(GUILD, BOB, "Gnashers", "1")
    _lg, joined, value = league.join(GUILD, BOB, "Tight Cup", "Gnashers")
    assert value == 135 and joined.league_id is not None


def test_roster_building_within_the_budget(league) -> None:
    season(league, ALICE, BOB)
    sheet, label = league.hire(GUILD, ALICE, "Moonblades", "imp", "Quill")
    assert "Quill" in label and sheet.value == 165 and len([p for p in sheet.team.players if p.status == "active"]) == 11
    sheet, item, count = league.support(GUILD, ALICE, "Moonblades", "cheerleader", 2)
    assert (item, count, sheet.value) == ("cheerleaders", 2, 175)
    with pytest.raises(TeamBuildingError, match="worth 190 points"):
        league.hire(GUILD, ALICE, "Moonblades", "imp")
    with pytest.raises(TeamBuildingError, match="at most 1 Hired Gun Wizard|worth 195"):
        league.support(GUILD, ALICE, "Moonblades", "wizard", 1)
    sheet, label = league.fire(GUILD, ALICE, "Moonblades", "Quill")
    assert sheet.value == 160
    with pytest.raises(NotAllowedError):
        league.hire(GUILD, BOB, "Moonblades", "imp")
    actions = [a.action for a in league.audit(GUILD, "Elf Cup")]
    assert {"player_hired", "player_fired", "support_bought"} <= set(actions)


def test_a_league_match_records_its_result_standings_and_audit(league) -> None:
    season(league, ALICE, BOB)
    view, out = start(league)
    assert view.fixture.status == FixtureStatus.PLAYING and view.fixture.channel_id == 500
    assert out.state.options.advanced and len(view.fixture.lineup["west"]) == 10
    assert [f.fixture.status for f in league.fixtures(GUILD, "Elf Cup")] == ["playing"]
    with pytest.raises(InvalidInputError, match="is playing"):
        league.play(GUILD, 501, BOB, view.id)
    with pytest.raises(InvalidInputError, match="playing in <#500>"):
        league.hire(GUILD, ALICE, "Moonblades", "imp")
    loser = view.away_coach  # the away coach concedes
    done = league.matches.concede(500, loser)
    assert done.finished and any("League result recorded" in ln for ln in done.lines)
    f = league.fixture(GUILD, view.id).fixture
    assert f.status == FixtureStatus.PLAYED and f.home_score > f.away_score and f.conceded_by == "away"
    lg, rows = league.standings(GUILD, "Elf Cup")
    assert [(r.name, r.played, r.won, r.lost, r.points) for r in rows] == [
        (view.home, 1, 1, 0, 3), (view.away, 1, 0, 1, 0)]
    assert league.sheet(GUILD, view.home, image=False).team.points == 3
    # The commissioner corrects it; the old result stays in the audit trail.
    with pytest.raises(NotAllowedError):
        league.correct(GUILD, BOB, view.id, home_score=0, away_score=0, reason="typo")
    with pytest.raises(InvalidInputError, match="reason"):
        league.correct(GUILD, ALICE, view.id, home_score=0, away_score=0, reason=" ")
    fixed, before = league.correct(GUILD, ALICE, view.id, home_score=1, away_score=1, home_casualties=2, reason="replayed")
    assert before["away_score"] == 0 and fixed.fixture.home_score == 1
    _lg, rows = league.standings(GUILD, "Elf Cup")
    assert [(r.drawn, r.points) for r in rows] == [(1, 1), (1, 1)] and rows[0].casualties == 2
    trail = league.audit(GUILD, "Elf Cup")
    assert trail[0].action == "result_corrected" and trail[0].detail["before"]["away_score"] == 0
    assert trail[0].reason == "replayed" and trail[1].action == "result_recorded"
    # Nothing was hurt and nobody had XP: the post-match reports are settled at once.
    assert league.open_aftermaths(GUILD, ALICE) == [] and league.open_aftermaths(GUILD, BOB) == []


def test_an_abandoned_league_match_goes_back_on_the_schedule(league) -> None:
    season(league, ALICE, BOB)
    view, _ = start(league)
    league.matches.abandon(500, ALICE)
    assert league.fixture(GUILD, view.id).fixture.status == FixtureStatus.PLAYING
    assert [f.fixture.status for f in league.fixtures(GUILD, "Elf Cup")] == ["scheduled"]  # synced on read


def test_xp_injuries_and_advancement_reach_the_roster(league) -> None:
    season(league, ALICE, BOB)
    home_team = league.sheet(GUILD, league.next_fixtures(GUILD, ALICE)[0].home, image=False).team
    ids = sorted((p for p in home_team.players), key=lambda p: p.number)

    def change(state):
        w1, w2, w3, w4 = (state.players[f"w{i}"] for i in (1, 2, 3, 4))
        w1.xp = 5  # a full 5 XP: an ability is offered
        w2.injury = {"kind": "career_ending"}
        w2.location = Location.INFIRMARY
        w3.injury = {"kind": "lasting", "attributes": ["jog"]}
        w4.injury = {"kind": "lasting", "attributes": ["jog", "dodge"]}  # tied: the coach chooses

    view, state = finish_with(league, change)
    coach = view.home_coach
    (am,) = league.open_aftermaths(GUILD, coach)
    assert any("+5 XP" in ln for ln in am.lines) and any("leaves the team" in ln for ln in am.lines)
    assert any("Jog -1" in ln for ln in am.lines)
    kinds = [o.kind for o in am.offers]
    assert kinds == ["injury", "advance"]
    injury, advance = am.offers
    assert [v for _, v, _ in injury.options] == ["jog", "dodge"]
    assert "later" in [v for _, v, _ in advance.options] and "steady" in [v for _, v, _ in advance.options]
    with pytest.raises(NotAllowedError):
        league.choose_injury(am.aftermath.id, am.aftermath.version, 999, int(injury.key), "dodge")
    am2 = league.choose_injury(am.aftermath.id, am.aftermath.version, coach, int(injury.key), "dodge")
    with pytest.raises(InvalidInputError, match="out of date"):
        league.choose_injury(am.aftermath.id, am.aftermath.version, coach, int(injury.key), "dodge")
    assert am2.aftermath.done and [o.kind for o in am2.offers] == ["advance"]
    am3 = league.advance(GUILD, am2.aftermath.id, am2.aftermath.version, coach, int(advance.key), "steady")
    assert am3.settled and any("learns Steady" in ln for ln in am3.lines)
    sheet = league.sheet(GUILD, view.home, image=False)
    rows = {p.id: p for p in sheet.team.players}
    assert rows[ids[0].id].xp == 5 and rows[ids[0].id].abilities == ["steady"]
    assert rows[ids[1].id].status == PlayerStatus.RETIRED
    assert rows[ids[2].id].attributes["jog"] == ids[2].attributes["jog"] - 1
    assert rows[ids[3].id].attributes["dodge"] == ids[3].attributes["dodge"] - 1
    assert rows[ids[3].id].injuries[-1]["kind"] == "lasting"
    assert sheet.value == 150 - 15 + 5  # one player gone, one ability learned


def test_an_ability_may_wait_and_an_open_report_blocks_the_next_match(league) -> None:
    season(league, ALICE, BOB, CAROL)

    def change(state):
        state.players["w1"].xp = 6
        state.players["w2"].injury = {"kind": "lasting", "attributes": ["jog", "dodge"]}

    view, _ = finish_with(league, change)
    coach = view.home_coach
    (am,) = league.open_aftermaths(GUILD, coach)
    adv = next(o for o in am.offers if o.kind == "advance")
    am = league.advance(GUILD, am.aftermath.id, am.aftermath.version, coach, int(adv.key), "later")
    assert [o.kind for o in am.offers] == ["injury"]
    nxt = [f for f in league.next_fixtures(GUILD, coach)]
    with pytest.raises(InvalidInputError, match="post-match decisions"):
        league.play(GUILD, 600, coach, nxt[0].id)
    inj = am.offers[0]
    league.choose_injury(am.aftermath.id, am.aftermath.version, coach, int(inj.key), "jog")
    assert league.open_aftermaths(GUILD, coach) == []
    # The banked advance is taken later with /team learn.
    player = int(adv.key)
    sheet, label = league.learn(GUILD, coach, view.home, f"id:{player}", "agile")
    assert "learns Agile" in label


def test_potions_after_the_last_goal_are_offered_first(league, monkeypatch) -> None:
    season(league, ALICE, BOB)
    home = league.next_fixtures(GUILD, ALICE)[0]
    home_coach = home.home_coach
    league.support(GUILD, home_coach, home.home, "potion", 1)

    def change(state):
        state.teams["west"].support = {"potions": 1}  # the stored team's support, as team_entry passes it
        w2 = state.players["w2"]
        w2.location = Location.INFIRMARY
        w2.injury = {"kind": "lasting", "attributes": ["jog"]}

    view, state = finish_with(league, change)
    (am,) = league.open_aftermaths(GUILD, home_coach)
    assert [o.kind for o in am.offers] == ["potion"] and am.offers[0].options[0][1] == "w2"
    # The engine rolls the potion (DrinkPotion is legal once the match is over) on dice scripted
    # here: blank + star, "the player's eyes gloss over": cured of this game's injuries.
    import service.leagues as svc
    from engine.dice import ScriptedDice

    monkeypatch.setattr(svc, "HashDice", lambda seed, offset=0: ScriptedDice(faces="- *"))
    am = league.drink(am.aftermath.id, am.aftermath.version, home_coach, "w2")
    st = MatchState.from_dict(am.aftermath.state)
    assert st.in_progress is None and st.players["w2"].potion_used and st.players["w2"].injury is None
    assert st.teams["west"].used.get("potions") == 1 and any("potion" in line for line in am.lines)
    # Nothing left to drink: the report closed by itself (no "no more potions" to press).
    assert am.offers == [] and am.aftermath.potions_done and am.aftermath.done
    assert not any("Jog -1" in ln for ln in am.lines)  # cured: nothing to apply
    assert league.potions_done(am.aftermath.id, am.aftermath.version, home_coach).aftermath.done  # a late press: no-op


def test_standings_order_by_points_then_goal_difference() -> None:
    from datetime import UTC, datetime

    from db.models import FixturePublic

    now = datetime.now(UTC)

    def fx(i, h, a, hs, as_, hc=0, ac=0):
        return FixturePublic(id=i, league_id=1, round=1, home_team_id=h, away_team_id=a, status="played", home_score=hs,
                             away_score=as_, home_casualties=hc, away_casualties=ac, created_at=now, updated_at=now)

    settings = {"points_win": 3, "points_draw": 1, "points_loss": 0}
    rows = standings_rows([(1, "A", 0), (2, "B", 0), (3, "C", 0)],
                          [fx(1, 1, 2, 2, 0), fx(2, 2, 3, 1, 1, 3, 0), fx(3, 3, 1, 1, 0)], settings)
    assert [(r.name, r.played, r.won, r.drawn, r.lost, r.points, r.goal_difference, r.casualties) for r in rows] == [
        ("C", 2, 1, 1, 0, 4, 1, 0), ("A", 2, 1, 0, 1, 3, 1, 0), ("B", 2, 0, 1, 1, 1, -2, 3)]


def test_every_fixture_plays_the_league_rules(league) -> None:
    """A league chooses its rules once (a profile and a rules string); each fixture's match
    starts with them, under the Advanced Rules, and a change is audited."""
    league.create(GUILD, ALICE, "French Cup", {"budget": 180, "rules": "fr double"})
    for c, name, lst in ((ALICE, "Moonblades", "night elves"), (BOB, "Gnashers", "gnolls")):
        team(c, name, lst)
        league.join(GUILD, c, "french cup", name)
    (fixture,) = league.schedule(GUILD, ALICE, "French Cup")
    league.change_settings(GUILD, ALICE, "French Cup", {"rules": "fr double fr_dash"})
    with pytest.raises(InvalidInputError):
        league.change_settings(GUILD, ALICE, "French Cup", {"rules": "double bogus"})
    _, out = league.play(GUILD, 700, ALICE, fixture.id)
    opts = out.state.options
    assert opts.profile == "fr-0.0.6" and opts.double and opts.advanced and "fr_dash" in opts.variants
    assert league.settings(GUILD, "French Cup")["rules"] == "profile=fr-0.0.6 double"


def test_a_league_team_s_career_and_support_reach_its_next_match(league) -> None:
    """What a season changed (a learned ability, an attribute a lasting injury lowered, the
    support bought) is what takes the field, under the Advanced rules."""
    from sqlmodel import select

    from db.models import RosterPlayer, Team

    season(league, ALICE, BOB)
    fixture = league.next_fixtures(GUILD, ALICE)[0]
    home = fixture.home
    league.support(GUILD, fixture.home_coach, home, "cheerleader", 2)
    with session_scope() as s:
        team_row = s.exec(select(Team).where(Team.id == fixture.fixture.home_team_id)).one()
        first = min((p for p in team_row.players), key=lambda p: p.number)
        rp = s.get(RosterPlayer, first.id)
        rp.abilities = ["agile"]
        rp.attributes = {**rp.attributes, "skill": rp.attributes.get("skill", 3) - 1}
        s.add(rp)
        s.commit()
        skill = rp.attributes["skill"]
    _, out = league.play(GUILD, 700, fixture.home_coach, fixture.id)
    st = out.state
    w1 = st.players["w1"]
    assert st.options.advanced
    assert "agile" in w1.abilities and w1.skill == skill
    assert st.teams["west"].support.get("cheerleaders") == 2
