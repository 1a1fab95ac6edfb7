"""League round deadlines in the service (issue 34): typed deadlines, one reminder and one
notice per round claimed in the database, the commissioner's rulings, who may rule, and how
the standings count them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from support.leagues import ALICE, BOB, CAROL, DAVE, GUILD, season, team

from db.errors import InvalidInputError, NotAllowedError, NotFoundError
from service.deadlines import Deadlines, parse_when, unix
from service.leagues import LeagueService
from service.matches import MatchService

NOW = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
MOD = 99


@pytest.fixture
def clock() -> list[datetime]:
    return [NOW]


@pytest.fixture
def league(database, clock) -> LeagueService:
    return LeagueService(MatchService(render=False, clock=lambda: clock[0]), render=False)


@pytest.mark.parametrize(("text", "expected"), [
    ("in 7 days", NOW + timedelta(days=7)), ("7d", NOW + timedelta(days=7)), ("48h", NOW + timedelta(hours=48)),
    ("2 weeks", NOW + timedelta(weeks=2)), ("dans 7 jours", NOW + timedelta(days=7)), ("3j", NOW + timedelta(days=3)),
    ("tomorrow", NOW + timedelta(days=1)), ("Demain", NOW + timedelta(days=1)),
    ("2026-12-04", datetime(2026, 12, 4, 23, 59, tzinfo=UTC)),
    ("2026-12-04 20:00", datetime(2026, 12, 4, 20, 0, tzinfo=UTC)),
    ("04/12/2026 20h00", datetime(2026, 12, 4, 20, 0, tzinfo=UTC)),
    (f"<t:{unix(NOW) + 3600}:f>", NOW + timedelta(hours=1)), ("none", None), ("aucune", None),
])
def test_a_deadline_is_read_as_members_type_it(text, expected) -> None:
    assert parse_when(text, NOW) == expected


@pytest.mark.parametrize(("text", "key"), [("soon", "deadline_unreadable"), ("7 parsecs", "deadline_unreadable"),
                                           ("2026-02-30", "deadline_unreadable"), ("2026-11-01", "deadline_in_past"),
                                           ("900 days", "deadline_too_far")])
def test_an_unreadable_past_or_far_deadline_is_refused(text, key) -> None:
    with pytest.raises(InvalidInputError) as refused:
        parse_when(text, NOW)
    assert refused.value.key == key


def test_only_the_commissioner_or_a_moderator_saying_why_sets_a_deadline(league) -> None:
    season(league, ALICE, BOB, CAROL, DAVE)
    dl = Deadlines(league)
    with pytest.raises(NotAllowedError, match="only the commissioner"):
        dl.set_round(GUILD, BOB, "Elf Cup", 1, "in 7 days", channel_id=500)
    with pytest.raises(NotAllowedError, match="say why"):
        dl.set_round(GUILD, MOD, "Elf Cup", 1, "in 7 days", channel_id=500, moderator=True)
    with pytest.raises(NotFoundError):
        dl.set_round(GUILD, ALICE, "Elf Cup", 9, "in 7 days", channel_id=500)
    assert all(v.fixture.deadline is None for v in league.fixtures(GUILD, "Elf Cup"))
    lg, when, views = dl.set_round(GUILD, ALICE, "Elf Cup", 1, "in 7 days", channel_id=500)
    assert when == NOW + timedelta(days=7) and len(views) == 2
    assert {v.fixture.round for v in views} == {1}
    assert [(v.fixture.round, v.fixture.deadline) for v in league.fixtures(GUILD, "Elf Cup") if v.fixture.deadline] \
        == [(1, when), (1, when)]
    (row,) = league.audit(GUILD, "Elf Cup", limit=1)
    assert (row.action, row.actor_id, row.detail["round"], row.detail["deadline"]) == \
        ("deadline_set", ALICE, 1, "2026-12-04 12:00 UTC")


def test_a_round_is_reminded_once_then_announced_once(league, clock) -> None:
    season(league, ALICE, BOB, CAROL, DAVE)
    dl = Deadlines(league)
    _lg, when, views = dl.set_round(GUILD, ALICE, "Elf Cup", 1, "in 7 days", channel_id=500)
    assert dl.due_reminders() == [] and dl.due_lapses() == []
    clock[0] = when - timedelta(hours=25)
    assert dl.due_reminders() == []
    clock[0] = when - timedelta(hours=23)
    assert dl.due_reminders(accept=lambda guild: guild != GUILD) == []  # another process's server: left for it
    (notice,) = dl.due_reminders()
    assert (notice.round, notice.channel_id, notice.deadline) == (1, 500, when)
    assert sorted(v.id for v in notice.fixtures) == sorted(v.id for v in views)
    assert sorted(notice.coaches) == [ALICE, BOB, CAROL, DAVE]
    assert dl.due_reminders() == []  # claimed: never again
    assert Deadlines(league).due_reminders() == []  # nor by a second process (or after a restart)
    clock[0] = when + timedelta(minutes=1)
    (lapse,) = dl.due_lapses()
    assert len(lapse.fixtures) == 2 and dl.due_lapses() == []


def test_the_commissioner_rules_on_overdue_fixtures_and_each_ruling_is_audited(league, clock) -> None:
    season(league, ALICE, BOB, CAROL, DAVE)
    dl = Deadlines(league)
    _lg, when, _ = dl.set_round(GUILD, ALICE, "Elf Cup", 1, "in 2 days", channel_id=500)
    _lg, when3, _ = dl.set_round(GUILD, ALICE, "Elf Cup", 3, "in 9 days", channel_id=500)
    theirs = [v for v in league.fixtures(GUILD, "Elf Cup") if ALICE not in (v.home_coach, v.away_coach)]
    before = next(v for v in theirs if v.fixture.round == 1)  # a fixture of round 1 Alice does not play
    with pytest.raises(InvalidInputError, match="has not passed"):
        dl.rule(GUILD, ALICE, before.id, "home", unix(when))
    clock[0] = when + timedelta(hours=1)
    _lg, late = dl.overdue(GUILD, ALICE, "Elf Cup")
    assert {v.fixture.round for v in late} == {1} and len(late) == 2
    with pytest.raises(NotAllowedError, match="only the commissioner"):
        dl.overdue(GUILD, BOB, "Elf Cup")
    with pytest.raises(NotAllowedError, match="only the commissioner"):
        dl.rule(GUILD, BOB, before.id, "home", unix(when))
    ruled = dl.rule(GUILD, ALICE, before.id, "home", unix(when))
    assert (ruled.fixture.status, ruled.fixture.home_score, ruled.fixture.away_score, ruled.fixture.conceded_by) == \
        ("played", 0, 2, "home")
    with pytest.raises(InvalidInputError, match="no longer waiting"):  # a second press changes nothing
        dl.rule(GUILD, ALICE, before.id, "draw", unix(when))
    (row,) = league.audit(GUILD, "Elf Cup", limit=1)
    assert (row.action, row.actor_id, row.fixture_id, row.detail["after"]["conceded_by"]) == \
        ("deadline_forfeit_home", ALICE, before.id, "home")
    _lg, rows = league.standings(GUILD, "Elf Cup")
    by_team = {r.name: r for r in rows}
    assert (by_team[before.away].won, by_team[before.away].points) == (1, 3)
    assert (by_team[before.home].lost, by_team[before.home].points) == (1, 0)
    # Alice plays the other overdue fixture: she cannot rule on it; a moderator who does not play may.
    mine = next(v for v in late if ALICE in (v.home_coach, v.away_coach))
    with pytest.raises(NotAllowedError, match="your own fixture"):
        dl.rule(GUILD, ALICE, mine.id, "away", unix(when))
    with pytest.raises(NotAllowedError):
        dl.rule(GUILD, mine.away_coach if mine.home_coach == ALICE else mine.home_coach, mine.id, "home", unix(when),
                moderator=True)
    extended = dl.rule(GUILD, MOD, mine.id, "extend", unix(when), moderator=True)
    assert extended.fixture.deadline == when + timedelta(hours=1) + timedelta(days=3)
    assert extended.fixture.reminded_at is None and extended.fixture.lapsed_at is None
    (row,) = league.audit(GUILD, "Elf Cup", limit=1)
    assert (row.action, row.actor_id, row.detail.get("stand_in_for")) == ("deadline_extended", MOD, ALICE)
    with pytest.raises(InvalidInputError, match="changed since"):  # the old panel's press is out of date
        dl.rule(GUILD, MOD, mine.id, "draw", unix(when), moderator=True)
    # Round 3: both forfeit one, a draw the other; both forfeiting is a loss for each.
    clock[0] = when3 + timedelta(hours=1)
    r3 = [v for v in league.fixtures(GUILD, "Elf Cup") if v.fixture.round == 3]
    both = dl.rule(GUILD, MOD, r3[0].id, "both", unix(when3), moderator=True) \
        if ALICE in (r3[0].home_coach, r3[0].away_coach) else dl.rule(GUILD, ALICE, r3[0].id, "both", unix(when3))
    assert (both.fixture.home_score, both.fixture.away_score, both.fixture.conceded_by) == (0, 0, "both")
    assert "both teams forfeited" in both.score()
    drawn = dl.rule(GUILD, MOD, r3[1].id, "draw", unix(when3), moderator=True) \
        if ALICE in (r3[1].home_coach, r3[1].away_coach) else dl.rule(GUILD, ALICE, r3[1].id, "draw", unix(when3))
    assert (drawn.fixture.home_score, drawn.fixture.away_score, drawn.fixture.conceded_by) == (0, 0, None)
    _lg, rows = league.standings(GUILD, "Elf Cup")
    by_team = {r.name: r for r in rows}
    assert by_team[both.home].lost >= 1 and by_team[both.away].lost >= 1
    assert by_team[drawn.home].drawn == 1 and by_team[drawn.away].drawn == 1
    actions = [a.action for a in league.audit(GUILD, "Elf Cup", limit=2)]
    assert actions == ["deadline_draw", "deadline_forfeit_both"]


def test_a_knockout_round_drawn_later_gets_its_deadline_reminded_where_the_schedule_was(league, clock) -> None:
    league.create(GUILD, ALICE, "Elf Cup", {"format": "knockout", "round_days": 3})
    for coach, name, lst in ((ALICE, "Moonblades", "night elves"), (BOB, "Gnashers", "gnolls"),
                             (CAROL, "Tinkers", "gnomes"), (DAVE, "Widows", "black widows")):
        team(coach, name, lst)
        league.join(GUILD, coach, "Elf Cup", name)
    semis = league.schedule(GUILD, ALICE, "Elf Cup")
    dl = Deadlines(league)
    assert dl.set_default_rounds(GUILD, ALICE, "Elf Cup", channel_id=500) == 1
    semis = league.fixtures(GUILD, "Elf Cup")
    assert len(semis) == 2 and {v.fixture.deadline for v in semis} == {NOW + timedelta(days=3)}
    clock[0] = NOW + timedelta(days=2, hours=5, minutes=7, seconds=30)
    for v in semis:
        league.correct(GUILD, ALICE, v.id, home_score=2, away_score=0, reason="played at the club")
    (final,) = [v for v in league.fixtures(GUILD, "Elf Cup") if not v.fixture.played]
    assert final.fixture.round == 2
    drawn = clock[0].replace(second=0, microsecond=0)
    assert (final.fixture.deadline, final.fixture.deadline_channel_id) == (drawn + timedelta(days=3), 500)
    # Reminded like the first round: once, a day before, in the schedule's channel.
    clock[0] = drawn + timedelta(days=2, hours=1)
    (notice,) = dl.due_reminders()
    assert (notice.round, notice.channel_id, [v.id for v in notice.fixtures]) == (2, 500, [final.id])


def test_a_league_without_a_round_length_draws_later_rounds_without_deadline(league, clock) -> None:
    league.create(GUILD, ALICE, "Elf Cup", {"format": "knockout"})
    for coach, name, lst in ((ALICE, "Moonblades", "night elves"), (BOB, "Gnashers", "gnolls"),
                             (CAROL, "Tinkers", "gnomes"), (DAVE, "Widows", "black widows")):
        team(coach, name, lst)
        league.join(GUILD, coach, "Elf Cup", name)
    for v in league.schedule(GUILD, ALICE, "Elf Cup"):
        league.correct(GUILD, ALICE, v.id, home_score=2, away_score=0, reason="played at the club")
    (final,) = [v for v in league.fixtures(GUILD, "Elf Cup") if not v.fixture.played]
    assert final.fixture.deadline is None


def test_the_next_tie_drawn_after_a_played_match_is_announced_with_its_deadline(league, clock) -> None:
    league.create(GUILD, ALICE, "Elf Cup", {"format": "knockout", "round_days": 3})
    for coach, name, lst in ((ALICE, "Moonblades", "night elves"), (BOB, "Gnashers", "gnolls"),
                             (CAROL, "Tinkers", "gnomes"), (DAVE, "Widows", "black widows")):
        team(coach, name, lst)
        league.join(GUILD, coach, "Elf Cup", name)
    first, second = league.schedule(GUILD, ALICE, "Elf Cup")
    Deadlines(league).set_default_rounds(GUILD, ALICE, "Elf Cup", channel_id=500)
    league.correct(GUILD, ALICE, first.id, home_score=2, away_score=0, reason="played at the club")
    league.commitments_shown(league.fixtures(GUILD, "Elf Cup"))
    league.play(GUILD, 600, second.home_coach, second.id)
    out = league.matches.concede(600, second.away_coach)
    (final,) = [v for v in league.fixtures(GUILD, "Elf Cup") if not v.fixture.played]
    due = unix(final.fixture.deadline)
    assert due == unix(NOW + timedelta(days=3))
    lines = [str(line) for line in out.lines]
    assert f"R2 · #{final.id} {first.home} v {second.home} · due <t:{due}:f> (<t:{due}:R>)" in lines
