"""Coach ratings per server (``service.ladder``): the library's own numbers, what is rated and
what is not, and a corrected league result re-rated in its place."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from db.models import MatchPublic
from engine import MatchState
from service.ladder import MODEL, LadderService, RatedResult, casual_result, rate
from service.leagues import LeagueService
from service.match_rules import MatchSide
from service.matches import AI_COACH_ID, MatchService
from support.leagues import ALICE, BOB, CAROL, GUILD, season, start

OTHER_GUILD = 2


@pytest.fixture
def services(database):
    matches = MatchService(render=False)
    league = LeagueService(matches, render=False)
    return matches, league, LadderService(matches)


def _casual(matches: MatchService, channel: int, west: int, east: int, guild: int = GUILD):
    return matches.start(guild_id=guild, channel_id=channel, west=MatchSide(west, team_list="gnolls"),
                         east=MatchSide(east, team_list="night-elves"), seed=f"ladder-{channel}")


def test_the_model_gives_openskills_documented_numbers() -> None:
    # openskill 6.2.0's README ("Usage"): two teams of two fresh players, the first team wins.
    r = MODEL.rating
    assert (r().mu, r().sigma) == (25.0, 8.333333333333334)
    [[a, b], [x, y]] = MODEL.rate([[r(), r()], [r(), r()]])
    assert (a.mu, a.sigma) == (26.964294621803063, 8.177962604389991)
    assert (x.mu, x.sigma) == (23.035705378196937, 8.177962604389991)
    assert a == b and x == y
    # Our ladder rates one member against another with the same model and its ranks.
    when = datetime(2026, 1, 1, tzinfo=UTC)
    table, history = rate([RatedResult(when, "match", 1, ALICE, BOB, "west")])
    [[w], [e]] = MODEL.rate([[r()], [r()]], ranks=[1, 2])
    assert [(row.coach_id, row.rating.mu, row.rating.sigma) for row in table] == [(ALICE, w.mu, w.sigma),
                                                                              (BOB, e.mu, e.sigma)]
    assert w.mu > 25 > e.mu and history[ALICE][0].before == 0.0 and history[ALICE][0].after == table[0].shown
    # A draw between equals moves neither mean.
    table, _ = rate([RatedResult(when, "match", 1, ALICE, BOB, "draw")])
    assert [round(row.rating.mu, 9) for row in table] == [25.0, 25.0] and table[0].drawn == 1


def test_results_are_rated_in_the_order_they_ended() -> None:
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    first = RatedResult(t0, "match", 2, ALICE, BOB, "west")
    later = RatedResult(t0 + timedelta(hours=1), "league", 1, BOB, ALICE, "west")
    table, history = rate([later, first])
    assert [h.result.ref for h in history[ALICE]] == [2, 1]
    # The same results given in order rate the same; the reverse order does not.
    assert [r.rating for r in rate([first, later])[0]] == [r.rating for r in table]
    swapped = rate([RatedResult(t0, "league", 1, BOB, ALICE, "west"),
                    RatedResult(t0 + timedelta(hours=1), "match", 2, ALICE, BOB, "west")])[0]
    assert {r.coach_id: r.rating.mu for r in swapped} != {r.coach_id: r.rating.mu for r in table}


def test_a_concession_is_a_loss_and_both_coaches_are_rated(services) -> None:
    matches, _league, ladder = services
    _casual(matches, 600, ALICE, BOB)
    out = matches.concede(600, ALICE)
    assert out.finished
    table = ladder.table(GUILD)
    assert [(r.rank, r.coach_id, r.won, r.lost) for r in table] == [(1, BOB, 1, 0), (2, ALICE, 0, 1)]
    assert table[0].shown > table[1].shown
    mine = ladder.history(GUILD, ALICE)
    [line] = mine.lines
    assert (line.opponent, line.outcome, line.conceded, line.by_me) == (BOB, "loss", True, True)
    assert line.after == mine.row.shown and line.result.kind == "match"  # type: ignore[union-attr]
    theirs = ladder.history(GUILD, BOB).lines[0]
    assert (theirs.opponent, theirs.outcome, theirs.by_me) == (ALICE, "win", False)


def test_matches_against_the_ai_and_abandoned_matches_are_not_rated(services) -> None:
    matches, _league, ladder = services
    _casual(matches, 601, ALICE, AI_COACH_ID)
    assert matches.concede(601, ALICE).finished
    _casual(matches, 602, ALICE, BOB)
    matches.abandon(602, ALICE, reason="both agreed")
    assert ladder.table(GUILD) == []
    assert ladder.history(GUILD, ALICE).row is None and ladder.history(GUILD, ALICE).lines == []


def test_a_concession_wins_whatever_the_score() -> None:
    state = MatchState.__new__(MatchState)
    state.winner, state.end_reason = "west", "west conceded"  # the engine's winner would be east; say it anyway
    match = MatchPublic.model_construct(id=9, guild_id=GUILD, west_coach_id=ALICE, east_coach_id=BOB,
                                        updated_at=datetime(2026, 1, 1, tzinfo=UTC))
    kept = casual_result(match, state)
    assert kept is not None and (kept.winner, kept.conceded) == ("east", "west")
    state.winner, state.end_reason = "draw", "time"
    assert casual_result(match, state).winner == "draw"  # type: ignore[union-attr]
    ai = MatchPublic.model_construct(id=9, guild_id=GUILD, west_coach_id=ALICE, east_coach_id=AI_COACH_ID,
                                     updated_at=datetime(2026, 1, 1, tzinfo=UTC))
    assert casual_result(ai, state) is None
    himself = MatchPublic.model_construct(id=9, guild_id=GUILD, west_coach_id=ALICE, east_coach_id=ALICE,
                                          updated_at=datetime(2026, 1, 1, tzinfo=UTC))
    assert casual_result(himself, state) is None


def test_a_league_result_and_a_casual_result_are_both_rated_and_a_correction_rerates(services) -> None:
    matches, league, ladder = services
    season(league, ALICE, BOB)
    view, _out = start(league)
    assert matches.concede(500, view.away_coach).finished  # the away coach concedes the fixture
    _casual(matches, 603, view.away_coach, view.home_coach)
    matches.concede(603, view.home_coach)  # and wins a casual match afterwards
    results = ladder.results(GUILD)
    assert [(r.kind, r.winner, r.conceded) for r in results] == [("league", "west", "east"), ("match", "west", "east")]
    assert results[0].league == "Elf Cup"
    before = {r.coach_id: (r.won, r.drawn, r.lost, r.shown) for r in ladder.table(GUILD)}
    assert before[view.home_coach][:3] == (1, 0, 1) and before[view.away_coach][:3] == (1, 0, 1)
    # The commissioner corrects the league match to a draw: it is re-rated in its place, and the
    # casual match after it is rated from the corrected ratings.
    league.correct(GUILD, ALICE, view.id, home_score=1, away_score=1, reason="replayed")
    after = {r.coach_id: (r.won, r.drawn, r.lost, r.shown) for r in ladder.table(GUILD)}
    assert after[view.home_coach][:3] == (0, 1, 1) and after[view.away_coach][:3] == (1, 1, 0)
    expected, _ = rate([RatedResult(results[0].when, "league", view.id, view.home_coach, view.away_coach, "draw"),
                        RatedResult(results[1].when, "match", results[1].ref, view.away_coach, view.home_coach, "west")])
    assert after == {r.coach_id: (r.won, r.drawn, r.lost, r.shown) for r in expected}
    history = ladder.history(GUILD, view.home_coach).lines
    assert [(h.result.kind, h.outcome) for h in history] == [("match", "loss"), ("league", "draw")]


def test_a_walkover_given_by_the_commissioner_is_rated_between_the_owners(services) -> None:
    _matches, league, ladder = services
    season(league, ALICE, BOB, CAROL)
    fixture = next(f for f in league.fixtures(GUILD, "Elf Cup") if f.fixture.status == "scheduled")
    league.correct(GUILD, ALICE, fixture.id, home_score=2, away_score=0, reason="walkover: no show")
    [row_won, row_lost] = ladder.table(GUILD)
    assert (row_won.coach_id, row_lost.coach_id) == (fixture.home_coach, fixture.away_coach)


def test_matches_that_ended_without_the_listener_are_caught_up_and_servers_are_apart(services) -> None:
    _m, _l, ladder = services
    plain = MatchService(render=False)  # no ladder listening: as before this existed, or a crash
    _casual(plain, 604, ALICE, BOB)
    plain.concede(604, BOB)
    _casual(plain, 605, CAROL, BOB, guild=OTHER_GUILD)
    plain.concede(605, BOB)
    # Read without keeping (a read-only database): rated all the same, nothing written.
    assert [(r.coach_id, r.won) for r in ladder.table(GUILD, keep=False)] == [(ALICE, 1), (BOB, 0)]
    assert len(ladder.catch_up(GUILD, keep=False)) == 1
    assert [(r.coach_id, r.won) for r in ladder.table(GUILD)] == [(ALICE, 1), (BOB, 0)]
    assert ladder.catch_up(GUILD) == [], "kept once"
    assert [(r.coach_id, r.won) for r in ladder.table(OTHER_GUILD)] == [(CAROL, 1), (BOB, 0)]
    assert ladder.history(OTHER_GUILD, ALICE).lines == []
