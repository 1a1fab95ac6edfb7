"""A knockout and a Swiss played through the league service: the draw, byes, the next round
drawn when a round's results are in, the ruling for a drawn tie, the champion; and the
commissioner's preview, which the draw then follows exactly."""

from __future__ import annotations

import pytest

from db.errors import InvalidInputError
from db.models import FixtureStatus
from service import formats
from service.leagues import CommitmentNotPosted, LeagueService
from service.matches import MatchService
from support.leagues import ALICE, BOB, CAROL, DAVE, GUILD, team

ERIN = 15
TEAMS = {ALICE: ("Moonblades", "night elves"), BOB: ("Gnashers", "gnolls"), CAROL: ("Tinkers", "gnomes"),
         DAVE: ("Widows", "black widows"), ERIN: ("Starlings", "night elves")}


@pytest.fixture
def league(database):
    return LeagueService(MatchService(render=False), render=False)


def cup(league: LeagueService, coaches: tuple[int, ...], **settings) -> None:
    league.create(GUILD, ALICE, "Elf Cup", settings)
    for c in coaches:
        name, lst = TEAMS[c]
        team(c, name, lst)
        league.join(GUILD, c, "Elf Cup", name)


def play_won_by_home(league: LeagueService, fixture_id: int, channel: int) -> list[str]:
    """The fixture's home coach starts it; the away coach concedes. The lines said at the end."""
    view = league.fixture(GUILD, fixture_id)
    try:
        league.play(GUILD, channel, view.home_coach, fixture_id)
    except CommitmentNotPosted as unposted:  # a later round's tie: its commitments go out first
        league.commitments_shown([unposted.view])
        league.play(GUILD, channel, view.home_coach, fixture_id)
    out = league.matches.concede(channel, view.away_coach)
    return [str(line) for line in out.lines]


def scheduled(league: LeagueService) -> list:
    return [v for v in league.fixtures(GUILD, "Elf Cup") if v.fixture.status == FixtureStatus.SCHEDULED]


def test_a_seeded_four_team_knockout_played_to_its_champion(league) -> None:
    cup(league, (ALICE, BOB, CAROL, DAVE), format="knockout")
    league.change_settings(GUILD, ALICE, "Elf Cup", {"seeding": "seeded"})
    with pytest.raises(InvalidInputError, match="give the seeds"):
        league.schedule(GUILD, ALICE, "Elf Cup")
    with pytest.raises(InvalidInputError, match="Dragons is not a team of Elf Cup"):
        league.schedule(GUILD, ALICE, "Elf Cup", seeds=["Dragons"])
    views = league.schedule(GUILD, ALICE, "Elf Cup", seeds=["Widows", "tinkers", "Gnashers", "Moonblades"])
    # Seed 1 v seed 4, seed 2 v seed 3, the higher seed at home; nothing else is drawn yet.
    assert [(v.fixture.round, v.home, v.away, v.fixture.slot) for v in views] == [
        (1, "Widows", "Moonblades", 0), (1, "Tinkers", "Gnashers", 1)]
    lg = league.league(GUILD, "Elf Cup")
    assert lg.draw["secret"] and formats.draw_order([1], lg.draw["secret"]) == [1]
    progress = league.progress(GUILD, "Elf Cup")
    assert (progress.format, progress.round, progress.rounds, progress.champion) == ("knockout", 1, 2, None)
    with pytest.raises(InvalidInputError, match="format, seeding and Swiss rounds can no longer change"):
        league.change_settings(GUILD, ALICE, "Elf Cup", {"format": "swiss"})

    lines = play_won_by_home(league, views[0].id, 500)
    assert not any("next ties" in ln for ln in lines), "the final waits for the other semi-final"
    lines = play_won_by_home(league, views[1].id, 501)
    assert any("next ties are drawn" in ln for ln in lines) and any("Widows v Tinkers" in ln for ln in lines)
    final = scheduled(league)
    assert [(v.fixture.round, v.home, v.away, v.fixture.slot) for v in final] == [(2, "Widows", "Tinkers", 0)]
    assert final[0].fixture.posted_commitment == "", "a later round's dice are posted before it is played"
    decided = {v.id: (v.fixture.winner_team_id, v.fixture.ruling) for v in league.fixtures(GUILD, "Elf Cup")}
    assert decided[views[0].id][1] == "conceded"

    lines = play_won_by_home(league, final[0].id, 502)
    assert any("Widows** wins **Elf Cup" in ln for ln in lines)
    progress = league.progress(GUILD, "Elf Cup")
    assert progress.over and progress.champion == "Widows" and progress.round == 2
    assert len(league.fixtures(GUILD, "Elf Cup")) == 3
    assert "round_drawn" in [a.action for a in league.audit(GUILD, "Elf Cup", limit=None)]


def test_a_drawn_tie_is_replayed(league) -> None:
    cup(league, (ALICE, BOB, CAROL, DAVE), format="knockout", draw_rule="replay")
    views = league.schedule(GUILD, ALICE, "Elf Cup")
    first = views[0]
    league.correct(GUILD, ALICE, first.id, home_score=1, away_score=1, reason="a timed game drawn")
    replay = [v for v in scheduled(league) if v.fixture.slot == first.fixture.slot and v.fixture.round == 1]
    assert len(replay) == 1 and replay[0].id != first.id and {replay[0].home, replay[0].away} == {first.home, first.away}
    assert league.fixture(GUILD, first.id).fixture.ruling == "replay"
    # The commissioner makes it a win after all: the replay nobody played is withdrawn.
    league.correct(GUILD, ALICE, first.id, home_score=2, away_score=1, reason="a goal was missed")
    assert not [v for v in scheduled(league) if v.fixture.round == 1 and v.fixture.slot == first.fixture.slot]
    assert "fixture_withdrawn" in [a.action for a in league.audit(GUILD, "Elf Cup", limit=None)]


def test_higher_seed_ruling_sends_the_higher_seed_through(league) -> None:
    cup(league, (ALICE, BOB, CAROL, DAVE), format="knockout", draw_rule="higher_seed")
    views = league.schedule(GUILD, ALICE, "Elf Cup", seeds=["Moonblades", "Gnashers", "Tinkers", "Widows"])
    top = views[0]
    assert (top.home, top.away) == ("Moonblades", "Widows")
    league.correct(GUILD, ALICE, top.id, home_score=0, away_score=0, reason="walkover refused by both")
    f = league.fixture(GUILD, top.id).fixture
    assert (f.ruling, f.winner_team_id) == ("higher_seed", league.sheet(GUILD, "Moonblades", image=False).team.id)
    league.correct(GUILD, ALICE, views[1].id, home_score=0, away_score=2, reason="walkover")
    final = scheduled(league)
    assert [(v.fixture.round, v.home, v.away) for v in final] == [(2, "Moonblades", "Tinkers")]
    # Once the final has started, the semi-final's winner can no longer be corrected away.
    league.commitments_shown(final)
    league.play(GUILD, 600, ALICE, final[0].id)
    with pytest.raises(InvalidInputError, match="already went on to fixture"):
        league.correct(GUILD, ALICE, top.id, home_score=0, away_score=1, reason="late appeal")


def test_a_five_team_knockout_gives_byes_to_the_top_seeds(league) -> None:
    cup(league, (ALICE, BOB, CAROL, DAVE, ERIN), format="knockout")
    views = league.schedule(GUILD, ALICE, "Elf Cup", seeds=["Moonblades", "Gnashers", "Tinkers", "Widows", "Starlings"])
    # 4 v 5 now, and 2 v 3 too (both had byes); seed 1 waits for the winner of 4 v 5.
    assert [(v.fixture.round, v.home, v.away) for v in views] == [(1, "Widows", "Starlings"), (2, "Gnashers", "Tinkers")]
    progress = league.progress(GUILD, "Elf Cup")
    assert progress.byes == {1: ["Moonblades", "Gnashers", "Tinkers"]} and progress.rounds == 3


def test_a_five_team_swiss_played_through(league) -> None:
    cup(league, (ALICE, BOB, CAROL, DAVE, ERIN), format="swiss", swiss_rounds=3)
    views = league.schedule(GUILD, ALICE, "Elf Cup")
    assert len(views) == 2 and {v.fixture.round for v in views} == {1}
    met: set[frozenset[str]] = set()
    byes: list[str] = []
    for rnd in (1, 2, 3):
        progress = league.progress(GUILD, "Elf Cup")
        assert progress.round == rnd and len(progress.byes[rnd]) == 1
        byes += progress.byes[rnd]
        this_round = [v for v in scheduled(league) if v.fixture.round == rnd]
        assert len(this_round) == 2
        for i, v in enumerate(this_round):
            pair = frozenset((v.home, v.away))
            assert pair not in met
            met.add(pair)
            if rnd == 1 and i == 0:
                play_won_by_home(league, v.id, 700)  # one through a real match
            else:
                league.correct(GUILD, ALICE, v.id, home_score=1, away_score=0, reason="result sent by mail")
    assert len(set(byes)) == 3, "no team sits out twice"
    progress = league.progress(GUILD, "Elf Cup")
    assert progress.over and progress.round == 3
    _lg, rows = league.standings(GUILD, "Elf Cup")
    assert progress.champion == rows[0].name
    assert all(r.played + r.byes == 3 for r in rows)
    bye_team = next(r for r in rows if r.name == byes[0])
    assert bye_team.byes == 1 and bye_team.points >= 3
    assert not scheduled(league), "three rounds, then nothing more"


def test_the_preview_is_what_the_draw_makes(league) -> None:
    cup(league, (ALICE, BOB, CAROL), format="knockout")
    lg = league.league(GUILD, "Elf Cup")
    assert len(lg.draw_commitment) == 64, "committed when the league was made"
    with pytest.raises(Exception, match="commissioner"):
        league.preview(GUILD, BOB, "Elf Cup")
    seen = league.preview(GUILD, ALICE, "Elf Cup")
    again = league.preview(GUILD, ALICE, "Elf Cup")
    assert seen.fingerprint == again.fingerprint, "previewing again draws nothing new"
    assert seen.rounds == 2 and len(seen.pairings) == 1 and len(seen.byes) == 1
    assert not league.fixtures(GUILD, "Elf Cup"), "a preview draws nothing"
    team(DAVE, *TEAMS[DAVE])
    league.join(GUILD, DAVE, "Elf Cup", "Widows")
    with pytest.raises(InvalidInputError, match="no longer the one you previewed"):
        league.schedule(GUILD, ALICE, "Elf Cup", confirm=seen.fingerprint)
    seen = league.preview(GUILD, ALICE, "Elf Cup")
    views = league.schedule(GUILD, ALICE, "Elf Cup", confirm=seen.fingerprint)
    assert [(v.fixture.round, v.fixture.home_team_id, v.fixture.away_team_id) for v in views] == [
        (p.round, p.home, p.away) for p in seen.pairings]
    assert league.league(GUILD, "Elf Cup").draw["commitment"] == lg.draw_commitment


def test_a_four_team_double_elimination_played_through(league) -> None:
    cup(league, (ALICE, BOB, CAROL, DAVE), format="double_elimination", draw_rule="higher_seed")
    views = league.schedule(GUILD, ALICE, "Elf Cup", seeds=["Moonblades", "Gnashers", "Tinkers", "Widows"])
    assert [(v.home, v.away) for v in views] == [("Moonblades", "Widows"), ("Gnashers", "Tinkers")]
    assert league.progress(GUILD, "Elf Cup").rounds == 4
    play_won_by_home(league, views[0].id, 800)  # a real match: Widows concede
    losses: dict[str, int] = {}
    while (todo := scheduled(league)):
        for v in todo:
            # The away team wins every tie from now on (the losers' bracket's team takes the grand final).
            league.correct(GUILD, ALICE, v.id, home_score=0, away_score=1, reason="played at the club")
    for v in league.fixtures(GUILD, "Elf Cup"):
        f = v.fixture
        loser = v.home if f.winner_team_id == f.away_team_id else v.away
        losses[loser] = losses.get(loser, 0) + 1
    progress = league.progress(GUILD, "Elf Cup")
    assert progress.over and progress.champion is not None and losses.get(progress.champion, 0) <= 1
    assert all(n == 2 for team, n in losses.items() if team != progress.champion)
    assert len(league.fixtures(GUILD, "Elf Cup")) in (6, 7)


def test_two_divisions_then_a_play_off_between_their_leaders(league) -> None:
    cup(league, (ALICE, BOB, CAROL, DAVE, ERIN), format="divisions", divisions=3)
    with pytest.raises(InvalidInputError, match="3 divisions need at least two teams each: 5 teams"):
        league.schedule(GUILD, ALICE, "Elf Cup")
    league.change_settings(GUILD, ALICE, "Elf Cup", {"divisions": 2})
    seen = league.preview(GUILD, ALICE, "Elf Cup")
    assert sorted(len(d) for d in seen.divisions) == [2, 3]
    views = league.schedule(GUILD, ALICE, "Elf Cup", confirm=seen.fingerprint)
    groups = [set(d) for d in seen.divisions]
    # Each division's round robin: 3 + 1 fixtures, nobody meets a team of the other division.
    assert len(views) == 4 and all(any({v.fixture.home_team_id, v.fixture.away_team_id} <= g for g in groups)
                                   for v in views)
    assert league.progress(GUILD, "Elf Cup").rounds == 3 + 1
    for v in views:
        league.correct(GUILD, ALICE, v.id, home_score=1, away_score=0, reason="played at the club")
    tables = league.division_standings(GUILD, "Elf Cup")
    leaders = {tables[0][0].name, tables[1][0].name}
    final = scheduled(league)
    assert len(final) == 1 and {final[0].home, final[0].away} == leaders and final[0].fixture.round == 4
    play_won_by_home(league, final[0].id, 900)
    progress = league.progress(GUILD, "Elf Cup")
    assert progress.over and progress.champion == final[0].home
