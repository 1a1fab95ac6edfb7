"""The match store: creation, one transaction per action, refusals that write nothing, the log."""

from __future__ import annotations

import hashlib
import random

import pytest
from support.databases import count, session
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError, IntegrityError

from db import matches, teams
from db.errors import (
    ChannelBusyError,
    InvalidInputError,
    LogCorruptError,
    MatchChangedError,
    MatchNotActiveError,
    MatchNotFoundError,
    NotYourSideError,
    UnknownTeamError,
)
from service.match_rules import MatchSide
from db.models import EventKind, MatchPublic, MatchStatus
from service import authority, match_rules
from engine import commands as C
from engine.dice import HashDice, ReplayDice
from engine.errors import ElfballError, IllegalCommandError, MalformedInputError, RosterError
from engine.field import standard_field
from engine.fuzz import RandomCoach
from engine.match import pending
from engine.state import Phase

GUILD, CHANNEL, WEST, EAST = 1, 500, 1001, 1002


def _friendly(s, channel: int = CHANNEL, **kwargs):  # type: ignore[no-untyped-def]
    return match_rules.create_match(
        session=s, guild_id=GUILD, channel_id=channel,
        west=MatchSide(WEST, team_list="night elves"), east=MatchSide(EAST, team_list="orcs"), **kwargs,
    )


def _play(s, match, n: int, seed: int = 7):  # type: ignore[no-untyped-def]
    """Submit ``n`` random legal commands; returns the match as stored after them."""
    coach, fld = RandomCoach(random.Random(seed)), standard_field()
    for _ in range(n):
        if not match.active:
            break
        state = match.engine_state()
        side = pending(state).side
        cmd = coach.choose(state, side, fld)
        user = WEST if side == "west" else EAST
        match = match_rules.submit(session=s, match_id=match.id, by_side=side, actor_user_id=user, command=cmd,
                               expected_version=match.version).match
    return match


# --- creation ------------------------------------------------------------------------------------
def test_create_stores_state_log_row_and_a_commitment(db_engine) -> None:
    with session(db_engine) as s:
        created = _friendly(s, seed="s3cret")
        m = created.match
        assert (m.version, m.status, m.channel_id) == (0, "active", CHANNEL)
        assert m.state == created.state.to_dict()
        assert m.seed is None, "the seed stays secret while the match is active"
        assert m.seed_commitment == hashlib.sha256(b"s3cret").hexdigest()
        assert m.deciding_side == pending(created.state).side
        assert m.deciding_user_id == (WEST if m.deciding_side == "west" else EAST)
        log = matches.match_events(session=s, match_id=m.id)
        assert [(e.seq, e.kind) for e in log] == [(0, "create")]
        assert log[0].dice == created.result.dice and log[0].dice, "the dice-off is in the log"
        assert set(log[0].command) == {"west", "east", "options"}
        assert log[0].events[0]["kind"] == created.result.events[0].to_dict()["kind"]
        # The stored seed really drew those dice.
        assert created.state.dice_drawn == len(log[0].dice)


def test_stored_teams_play_with_their_names(db_engine) -> None:
    with session(db_engine) as s:
        teams.create_team(session=s, guild_id=GUILD, coach_id=WEST, name="Moon Runners", team_list="night elves",
                          player_names=["Ilyra", "Faen"])
        teams.create_team(session=s, guild_id=GUILD, coach_id=EAST, name="Grunts", team_list="orcs")
        m = match_rules.create_match(session=s, guild_id=GUILD, channel_id=CHANNEL,
                                 west=MatchSide(WEST, team="moon runners"), east=MatchSide(EAST, team="Grunts")).match
        state = m.engine_state()
        assert state.teams["west"].name == "Moon Runners"
        assert [state.players["w1"].name, state.players["w2"].name] == ["Ilyra", "Faen"]
        assert m.west_team_id is not None and m.east_team_id is not None
        assert match_rules.rebuild(session=s, match_id=m.id).to_dict() == m.state


def test_a_snapshot_is_parsed_once_and_again_only_when_it_is_replaced(db_engine) -> None:
    with session(db_engine) as s:
        m = _play(s, _friendly(s).match, 4)
        first = m.engine_state()
        assert m.engine_state() is first, "one parse serves every reader of this snapshot"
        assert first.to_dict() == m.state
        played = _play(s, m, 3)
        assert played.engine_state() is not first and played.engine_state().to_dict() == played.state
        m.state = played.state  # a snapshot replaced on the same object is parsed afresh
        assert m.engine_state() is not first and m.engine_state().to_dict() == played.state


@pytest.mark.parametrize(
    ("west", "east", "options", "error"),
    [
        (MatchSide(WEST, team=999), MatchSide(EAST, team_list="orcs"), None, UnknownTeamError),
        (MatchSide(WEST, team="No Such Team"), MatchSide(EAST, team_list="orcs"), None, UnknownTeamError),
        (MatchSide(WEST), MatchSide(EAST, team_list="orcs"), None, InvalidInputError),
        (MatchSide(WEST, team_list="no such list"), MatchSide(EAST, team_list="orcs"), None, RosterError),
        (MatchSide(WEST, team_list="orcs", lineup="10 orcs"), MatchSide(EAST, team_list="orcs"), None, RosterError),
        (MatchSide(WEST, team_list="orcs"), MatchSide(EAST, team_list="orcs"), {"goals": 2}, InvalidInputError),
        (MatchSide(WEST, team_list="orcs"), MatchSide(EAST, team_list="orcs"), {"goals_to_win": 9},
         MalformedInputError),
    ],
)
def test_bad_creation_input_is_refused_and_writes_nothing(db_engine, west, east, options, error) -> None:
    with session(db_engine) as s:
        with pytest.raises(error):
            match_rules.create_match(session=s, guild_id=GUILD, channel_id=CHANNEL, west=west, east=east, options=options)
    assert count(db_engine, "matches") == 0
    assert count(db_engine, "match_events") == 0


def test_the_ai_level_is_stored_beside_the_rules_and_an_unknown_one_writes_nothing(db_engine) -> None:
    with session(db_engine) as s:
        with pytest.raises(InvalidInputError, match="unknown AI level 'expert'"):
            _friendly(s, ai_level="expert")
    assert count(db_engine, "matches") == 0
    with session(db_engine) as s:
        hard = _friendly(s, ai_level="hard").match
        plain = _friendly(s, channel=CHANNEL + 1).match
    with session(db_engine) as s:
        assert matches.get_match(session=s, match_id=hard.id).options["ai_level"] == "hard"
        assert "ai_level" not in matches.get_match(session=s, match_id=plain.id).options
        # The engine's options never see it: the stored state's rules are the same.
        assert hard.engine_state().options == plain.engine_state().options


def test_a_team_cannot_play_itself(db_engine) -> None:
    with session(db_engine) as s:
        t = teams.create_team(session=s, guild_id=GUILD, coach_id=WEST, name="Solo", team_list="orcs")
        with pytest.raises(InvalidInputError, match="itself"):
            match_rules.create_match(session=s, guild_id=GUILD, channel_id=CHANNEL,
                                 west=MatchSide(WEST, team=t.id), east=MatchSide(EAST, team="solo"))
    assert count(db_engine, "matches") == 0


def test_a_team_of_another_server_is_unknown(db_engine) -> None:
    with session(db_engine) as s:
        t = teams.create_team(session=s, guild_id=2, coach_id=WEST, name="Elsewhere", team_list="orcs")
        with pytest.raises(UnknownTeamError, match="west"):
            match_rules.create_match(session=s, guild_id=GUILD, channel_id=CHANNEL,
                                 west=MatchSide(WEST, team=t.id), east=MatchSide(EAST, team_list="orcs"))
    assert count(db_engine, "matches") == 0


# --- one active match per channel ----------------------------------------------------------------
def test_a_busy_channel_refuses_a_second_match(db_engine) -> None:
    with session(db_engine) as s:
        first = _friendly(s).match
        with pytest.raises(ChannelBusyError, match="already has an active match"):
            _friendly(s)
        other = _friendly(s, channel=CHANNEL + 1).match  # another channel is free
        assert matches.active_match(session=s, channel_id=CHANNEL).id == first.id
        assert matches.active_match(session=s, channel_id=CHANNEL + 1).id == other.id
    assert count(db_engine, "matches") == 2
    assert count(db_engine, "match_events") == 2


def test_the_database_itself_allows_one_active_match_per_channel(db_engine) -> None:
    with session(db_engine) as s:
        m = _friendly(s).match
    insert = text(
        "INSERT INTO matches (guild_id, channel_id, west_coach_id, east_coach_id, west_team_name, east_team_name,"
        " options, state, version, status, dice_seed, seed_commitment, created_at, updated_at)"
        " VALUES (1, :channel, 1, 2, 'A', 'B', '{}', '{}', 0, :status, 'x', 'y', :now, :now)"
    )
    now = m.created_at
    with db_engine.connect() as conn:
        with pytest.raises(IntegrityError):
            conn.execute(insert, {"channel": CHANNEL, "status": "active", "now": now})
        conn.rollback()
        # Finished and abandoned matches may pile up in the same channel.
        conn.execute(insert, {"channel": CHANNEL, "status": "finished", "now": now})
        conn.execute(insert, {"channel": CHANNEL, "status": "abandoned", "now": now})
        conn.commit()
        with pytest.raises(IntegrityError):
            conn.execute(text("UPDATE matches SET status = 'active' WHERE status = 'finished'"))
        conn.rollback()


def test_two_creations_racing_for_a_channel(db_engine, monkeypatch) -> None:
    """Past the code's check (as a concurrent creation would get), the index still refuses."""
    with session(db_engine) as s:
        _friendly(s)
    original = matches.select

    def blind_select(*args):  # type: ignore[no-untyped-def]
        query = original(*args)
        return query.where(matches.Match.id == -1) if args and args[0] is matches.Match.id else query

    monkeypatch.setattr(matches, "select", blind_select)
    with session(db_engine) as s, pytest.raises(ChannelBusyError, match="already has an active match"):
        _friendly(s)
    assert count(db_engine, "matches") == 1
    assert count(db_engine, "match_events") == 1


def test_a_finished_match_frees_the_channel_and_reveals_the_seed(db_engine) -> None:
    with session(db_engine) as s:
        m = _friendly(s, seed="open-sesame").match
        done = match_rules.submit(session=s, match_id=m.id, by_side="east", actor_user_id=EAST, command=C.Concede())
        assert done.state.phase is Phase.MATCH_OVER and done.state.winner == "west"
        assert (done.match.status, done.match.version, done.match.deciding_side) == ("finished", 1, None)
        assert done.match.seed == "open-sesame"
        assert matches.active_match(session=s, channel_id=CHANNEL) is None
        with pytest.raises(MatchNotActiveError):
            match_rules.submit(session=s, match_id=m.id, by_side="west", actor_user_id=WEST, command=C.Concede())
        assert _friendly(s).match.id != m.id


def test_abandon_is_logged_frees_the_channel_and_reveals_the_seed(db_engine) -> None:
    with session(db_engine) as s:
        m = _play(s, _friendly(s, seed="abc").match, 5)
        gone = matches.abandon(session=s, match_id=m.id, actor_user_id=WEST, reason="coach left")
        assert (gone.status, gone.version, gone.seed) == ("abandoned", 6, "abc")
        log = matches.match_events(session=s, match_id=m.id)
        assert log[-1].kind == EventKind.ABANDON and log[-1].seq == 6
        with pytest.raises(MatchNotActiveError):
            matches.abandon(session=s, match_id=m.id)
        assert match_rules.rebuild(session=s, match_id=m.id).to_dict() == gone.state
        assert matches.active_match(session=s, channel_id=CHANNEL) is None
        assert [x.status for x in matches.list_matches(session=s, guild_id=GUILD)] == [MatchStatus.ABANDONED]


def test_finish_marks_a_match_that_is_over(db_engine) -> None:
    with session(db_engine) as s:
        m = _friendly(s).match
        with pytest.raises(InvalidInputError, match="not over"):
            matches.finish(session=s, match_id=m.id)
        with pytest.raises(MatchNotFoundError):
            matches.finish(session=s, match_id=m.id + 100)


# --- actions ---------------------------------------------------------------------------------------
def test_each_action_bumps_the_version_and_logs_one_row(db_engine) -> None:
    with session(db_engine) as s:
        m = _play(s, _friendly(s).match, 30)
        assert m.version == 30
        log = matches.match_events(session=s, match_id=m.id)
        assert [e.seq for e in log] == list(range(31))
        assert all(e.kind in ("command", "answer") and e.actor_side in ("west", "east") for e in log[1:])
        assert all((e.actor_user_id == WEST) == (e.actor_side == "west") for e in log[1:])
        stored = matches.get_match(session=s, match_id=m.id)
        assert stored.state == m.state and stored.version == 30
        assert stored.deciding_side == pending(stored.engine_state()).side


def test_dice_come_from_the_committed_seed(db_engine) -> None:
    """Once the seed is revealed, every logged roll is HashDice(seed) at its offset."""
    with session(db_engine) as s:
        m = _play(s, _friendly(s, seed="audit me").match, 40)
        m = matches.abandon(session=s, match_id=m.id)
        assert hashlib.sha256(m.seed.encode()).hexdigest() == m.seed_commitment
        drawn = [d for e in matches.match_events(session=s, match_id=m.id) for d in e.dice]
        assert len(drawn) == m.engine_state().dice_drawn > 0
        check = HashDice(m.seed)
        again = [["face", check.face().symbol] if kind == "face" else ["d6", check.d6()] for kind, _ in drawn]
        assert again == drawn
        ReplayDice(drawn)  # well-formed record


def test_an_illegal_command_writes_nothing(db_engine) -> None:
    with session(db_engine) as s:
        m = _friendly(s).match
        wrong = "east" if m.deciding_side == "west" else "west"
        with pytest.raises(IllegalCommandError):
            match_rules.submit(session=s, match_id=m.id, by_side=wrong, actor_user_id=None, command=C.SetupDone())
        with pytest.raises(MalformedInputError):
            match_rules.submit(session=s, match_id=m.id, by_side=m.deciding_side, actor_user_id=None,
                           command={"name": "fly_away"})
        with pytest.raises(InvalidInputError):
            match_rules.submit(session=s, match_id=m.id, by_side="north", actor_user_id=None, command=C.Concede())
        assert matches.get_match(session=s, match_id=m.id).version == 0
    assert count(db_engine, "match_events") == 1


def test_only_the_sides_coach_may_act(db_engine) -> None:
    with session(db_engine) as s:
        m = _friendly(s).match
        with pytest.raises(NotYourSideError):  # the service asks before it submits (service.authority)
            authority.coach_side(m, EAST, "west")
    assert count(db_engine, "match_events") == 1


def test_a_stale_version_is_refused(db_engine) -> None:
    with session(db_engine) as s:
        m = _friendly(s).match
        side = m.deciding_side
        match_rules.submit(session=s, match_id=m.id, by_side=side, actor_user_id=None, command=C.AutoSetup(),
                       expected_version=0)
        with pytest.raises(MatchChangedError, match="the match changed, try again"):
            match_rules.submit(session=s, match_id=m.id, by_side=side, actor_user_id=None, command=C.AutoSetup(),
                           expected_version=0)
        # append() with a stale view: the guarded UPDATE matches no row, nothing is written.
        state = m.engine_state()
        from engine.match import apply

        result = apply(state, C.AutoSetup(), HashDice("x"), by=side)
        with pytest.raises(MatchChangedError):
            matches.append(session=s, match=m, result=result, command=C.AutoSetup(), by_side=side, actor_user_id=None,
                           deciding_side=pending(result.state).side)
        assert matches.get_match(session=s, match_id=m.id).version == 1
    assert count(db_engine, "match_events") == 2


def test_losing_to_an_action_that_ended_the_match_says_it_changed(db_engine) -> None:
    from engine.match import apply

    with session(db_engine) as s:
        m = _friendly(s).match
        side = m.deciding_side
        result = apply(m.engine_state(), C.AutoSetup(), HashDice("x"), by=side)
        match_rules.submit(session=s, match_id=m.id, by_side="east", actor_user_id=EAST, command=C.Concede())
        with pytest.raises(MatchChangedError):
            matches.append(session=s, match=m, result=result, command=C.AutoSetup(), by_side=side, actor_user_id=None,
                           deciding_side=pending(result.state).side)
        # Trying again with a fresh view: the match is over.
        with pytest.raises(MatchNotActiveError):
            match_rules.submit(session=s, match_id=m.id, by_side=side, actor_user_id=None, command=C.AutoSetup(),
                           expected_version=1)
    assert count(db_engine, "match_events") == 2


def test_a_write_on_a_match_just_read_reads_nothing_again(db_engine) -> None:
    """A match as ``active_match``/``get_match`` read it carries its sealed seed: the write opens
    it without a statement. One known otherwise (rebuilt from its fields) reads only the status,
    version and seed columns, never the state again."""
    from sqlalchemy import event

    statements: list[str] = []

    def seen(_conn, _cursor, statement, *_args) -> None:  # type: ignore[no-untyped-def]
        statements.append(statement)

    with session(db_engine) as s:
        m = matches.get_match(session=s, match_id=_friendly(s).match.id)
        full, seed = matches.load_for_write(session=s, match_id=m.id, expected_version=0)
        rebuilt = MatchPublic.model_validate(m.model_dump())
        event.listen(db_engine, "before_cursor_execute", seen)
        try:
            known, same_seed = matches.load_for_write(session=s, match_id=m.id, expected_version=0, known=m)
            assert statements == []
            _, rebuilt_seed = matches.load_for_write(session=s, match_id=m.id, expected_version=0, known=rebuilt)
        finally:
            event.remove(db_engine, "before_cursor_execute", seen)
        assert known is m and same_seed == seed == rebuilt_seed and full.state == m.state
        (select,) = [q for q in statements if q.lstrip().upper().startswith("SELECT")]
        assert "state" not in select.split("FROM")[0]  # the status, version and seed columns only
        assert "seal" not in m.model_dump() and "seal" not in m.model_dump_json()
        # The same command through either path gives the same stored match.
        a = match_rules.submit(session=s, match_id=m.id, by_side=m.deciding_side, actor_user_id=None,
                               command=C.AutoSetup(), expected_version=0, known=m).match
        assert a.version == 1 and a.engine_state().to_dict() == matches.get_match(session=s, match_id=m.id).state


def test_a_command_refused_on_a_stale_read_is_told_the_match_changed(db_engine) -> None:
    """Read, then another command saved, then this one, illegal on the state it was read against:
    the coach hears that the match moved on, not the engine's reason on an old position."""
    from engine.match import apply

    with session(db_engine) as s:
        m = matches.get_match(session=s, match_id=_friendly(s).match.id)
        side = m.deciding_side
        with pytest.raises(ElfballError):  # no action to end during the set-up, before or after
            apply(m.engine_state(), C.EndAction(), HashDice("x"), by=side)
        match_rules.submit(session=s, match_id=m.id, by_side=side, actor_user_id=None, command=C.AutoSetup(),
                           expected_version=0)
        with pytest.raises(MatchChangedError):
            match_rules.submit(session=s, match_id=m.id, by_side=side, actor_user_id=None, command=C.EndAction(),
                               known=m)
        with pytest.raises(ElfballError) as refused:  # on the match as it is, the engine's own reason
            match_rules.submit(session=s, match_id=m.id, by_side=side, actor_user_id=None, command=C.EndAction(),
                               known=matches.get_match(session=s, match_id=m.id))
        assert not isinstance(refused.value, MatchChangedError)


def test_a_write_on_a_match_just_read_is_refused_if_it_moved_or_ended(db_engine) -> None:
    with session(db_engine) as s:
        m = _friendly(s).match
        side = m.deciding_side
        match_rules.submit(session=s, match_id=m.id, by_side=side, actor_user_id=None, command=C.AutoSetup(),
                           expected_version=0)
        with pytest.raises(MatchChangedError):  # another command was saved since it was read
            match_rules.submit(session=s, match_id=m.id, by_side=side, actor_user_id=None, command=C.AutoSetup(),
                               expected_version=0, known=m)
        now = matches.get_match(session=s, match_id=m.id)
        match_rules.submit(session=s, match_id=m.id, by_side="east", actor_user_id=EAST, command=C.Concede(),
                           expected_version=now.version)
        # Read before the concession or after it, the match is over: refused as the full read
        # refuses it, nothing written.
        for read in (now, matches.get_match(session=s, match_id=m.id)):
            with pytest.raises(MatchNotActiveError):
                match_rules.submit(session=s, match_id=m.id, by_side=side, actor_user_id=None,
                                   command=C.AutoSetup(), expected_version=read.version)
            with pytest.raises(MatchNotActiveError):
                match_rules.submit(session=s, match_id=m.id, by_side=side, actor_user_id=None,
                                   command=C.AutoSetup(), expected_version=read.version, known=read)
    assert count(db_engine, "match_events") == 3


def test_an_unknown_match(db_engine) -> None:
    with session(db_engine) as s:
        with pytest.raises(MatchNotFoundError):
            match_rules.submit(session=s, match_id=42, by_side="west", actor_user_id=None, command=C.Concede())
        with pytest.raises(MatchNotFoundError):
            match_rules.rebuild(session=s, match_id=42)


# --- the log -----------------------------------------------------------------------------------------
def test_rebuild_recovers_a_corrupted_snapshot(db_engine) -> None:
    with session(db_engine) as s:
        m = _play(s, _friendly(s).match, 60, seed=3)
        good = m.state
    with db_engine.begin() as conn:
        conn.execute(text("UPDATE matches SET state = :junk WHERE id = :id"), {"junk": '{"schema": 1}', "id": m.id})
    with session(db_engine) as s:
        with pytest.raises((KeyError, ValueError)):
            matches.get_match(session=s, match_id=m.id).engine_state()
        assert match_rules.rebuild(session=s, match_id=m.id).to_dict() == good
        fixed = match_rules.restore(session=s, match_id=m.id, actor_user_id=WEST)
        assert fixed.state == good and fixed.version == m.version + 1
        assert matches.match_events(session=s, match_id=m.id)[-1].kind == EventKind.RESTORE
        # Play goes on from the restored snapshot, and the log still rebuilds it.
        after = _play(s, fixed, 10, seed=4)
        assert match_rules.rebuild(session=s, match_id=m.id).to_dict() == after.state


def test_the_log_is_append_only_and_a_gap_is_detected(db_engine) -> None:
    with session(db_engine) as s:
        m = _play(s, _friendly(s).match, 5)
    with db_engine.connect() as conn:
        with pytest.raises(DBAPIError, match="append-only"):
            conn.execute(text("UPDATE match_events SET dice = '[]' WHERE match_id = :id"), {"id": m.id})
        conn.rollback()
    with db_engine.begin() as conn:
        conn.execute(text("DELETE FROM match_events WHERE match_id = :id AND seq = 3"), {"id": m.id})
    with session(db_engine) as s, pytest.raises(LogCorruptError, match="jumps"):
        match_rules.rebuild(session=s, match_id=m.id)


def test_the_log_as_read_is_the_log_as_validated(db_engine) -> None:
    """``match_events`` builds its rows without validating them again: the same fields, types
    and UTC times as validating each stored row."""
    from datetime import timedelta

    from sqlalchemy import select as core

    from db.models import MatchEvent, MatchEventPublic

    with session(db_engine) as s:
        m = _friendly(s).match
        match_rules.submit(session=s, match_id=m.id, by_side=m.deciding_side, actor_user_id=None,
                           command=C.AutoSetup(), expected_version=0)
        got = matches.match_events(session=s, match_id=m.id)
        stored = s.execute(core(MatchEvent.__table__).where(MatchEvent.__table__.c.match_id == m.id)
                           .order_by(MatchEvent.__table__.c.seq)).all()
    validated = [MatchEventPublic.model_validate(r) for r in stored]
    assert [e.model_dump() for e in got] == [e.model_dump() for e in validated] and len(got) == 2
    assert all(e.created_at.utcoffset() == timedelta(0) for e in got)  # aware, in UTC
    assert all(type(a.events) is type(b.events) and type(a.command) is type(b.command) for a, b in zip(got, validated))
