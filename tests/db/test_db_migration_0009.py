"""Migration 0009 adds the recorded answer's entropy, a challenge to the AI coach's level and team,
and each fixture's posted commitment; a challenge made before it is accepted as it always was,
and the columns go again on downgrade (SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import inspect, text
from sqlmodel import Session
from support.databases import fresh_engine

from db import challenges
from db.migrate import downgrade, upgrade
from engine.dice.commit import entropy_part

NEW = {"challenges": {"accept_entropy", "ai_level", "ai_team"}, "league_fixtures": {"posted_commitment"}}


@pytest.fixture
def at_0007(backend, tmp_path):
    for engine in fresh_engine(backend, tmp_path, migrate=False):
        upgrade(engine, "0007")
        yield engine


def _columns(engine, table: str) -> set[str]:
    return {c["name"] for c in inspect(engine).get_columns(table)}


def test_a_challenge_from_before_is_accepted_as_before_and_the_columns_downgrade(at_0007) -> None:
    now = datetime.now(UTC)
    with at_0007.begin() as conn:
        conn.execute(text(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, team, options, created_at,"
            " expires_at, version, dice_commitment, entropy, dice_secret)"
            " VALUES (1, 7, 11, 22, 'orcs', '{}', :now, :later, 0, '', 'c123', '')"),
            {"now": now, "later": now + timedelta(hours=1)})
    upgrade(at_0007, "0009")
    assert all(NEW[t] <= _columns(at_0007, t) for t in NEW)
    with Session(at_0007) as s:
        ch = challenges.pending_challenge(session=s, channel_id=7, now=now)
        assert (ch.accept_entropy, ch.ai_level, ch.ai_team) == ("", "", "")  # a member's challenge
        ch = challenges.record_answer(session=s, challenge_id=ch.id, version=ch.version, user_id=22, entropy="a456",
                                      now=now)
        assert ch.accept_entropy == "a456"
    downgrade(at_0007, "0007")
    assert not any(NEW[t] & _columns(at_0007, t) for t in NEW)


def test_an_old_challenges_seed_joins_its_entropy_as_before(at_0007) -> None:
    upgrade(at_0007, "0009")
    with Session(at_0007) as s:
        ch = challenges.propose_challenge(session=s, guild_id=1, channel_id=8, challenger_id=11, opponent_id=22,
                                          team="orcs", options={}, now=datetime.now(UTC),
                                          lapse_after=timedelta(hours=1), entropy="c1")
        # Before answers were recorded, the accept's id was handed in: it still counts then.
        assert entropy_part(challenges.challenge_seed(session=s, challenge_id=ch.id, entropy="a2")) == "c1.a2"
