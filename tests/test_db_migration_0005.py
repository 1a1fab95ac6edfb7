"""Migration 0005 moves pending challenges and abandon votes out of the settings JSON into rows,
and back on downgrade, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from db_support import backend, fresh_engine, shared_postgres  # noqa: F401
from sqlalchemy import inspect, text
from sqlmodel import Session

from db import abandon, challenges, matches, settings
from db.errors import ChallengePendingError
from engine.dice import HashDice
from engine.match import TeamEntry, new_match
from engine.rosters import default_roster
from db.migrate import current_revision, downgrade, head_revision, upgrade

FULL = {"challenger": 11, "opponent": 22, "team": "orcs", "goals": 1, "clock_hours": 4,
        "options": {"goals_to_win": 1, "clock_hours": 4}}
OLDEST = {"challenger": 33, "opponent": 44, "team": "Night Elves", "goals": 3}  # before options were kept


@pytest.fixture
def at_0004(backend, tmp_path):  # noqa: F811
    for engine in fresh_engine(backend, tmp_path, migrate=False):
        upgrade(engine, "0004")
        yield engine


def _old_match(engine) -> int:
    """An active match as the code of revision 0004 wrote it (plain SQL: today's models have
    columns that 0004 lacks)."""
    seed = "old-seed"
    state = new_match(TeamEntry("Orcs", default_roster("orcs")), TeamEntry("Gnomes", default_roster("gnomes")),
                      HashDice(seed)).state
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO matches (id, guild_id, channel_id, west_coach_id, east_coach_id,"
                          " west_team_name, east_team_name, options, state, version, status, deciding_side,"
                          " deciding_user_id, dice_seed, seed_commitment, created_at, updated_at) VALUES (1, 1, 500,"
                          " 11, 22, 'Orcs', 'Gnomes', :opts, :state, 0, 'active', :side, 11, :seed, :commit, :now,"
                          " :now)"),
                     {"opts": json.dumps(state.options.to_dict()), "state": json.dumps(state.to_dict()),
                      "side": state.setup_side, "seed": seed, "commit": matches.seed_commitment(seed),
                      "now": "2026-01-02 03:04:05+00:00"})
    return 1


def test_challenges_and_votes_leave_the_settings_for_rows_and_come_back(at_0004) -> None:
    before = datetime.now(UTC)
    voted_id = _old_match(at_0004)
    with Session(at_0004, expire_on_commit=False) as s:
        settings.update_guild_settings(session=s, guild_id=1, settings={
            "deadline_hours": 24,
            "challenges": {"100": FULL, "101": OLDEST, "nonsense": {"team": "x"}, "102": {"challenger": 1}},
            "abandon_votes": {str(voted_id): [11], "999": [5]},  # a vote for a match long gone
        })
        settings.update_guild_settings(session=s, guild_id=2, settings={"challenges": {"100": {**FULL, "team": "elves"}}})
        settings.update_guild_settings(session=s, guild_id=3, language="fr", settings={"rules": "x"})
        untouched = settings.get_guild_settings(session=s, guild_id=3).updated_at

    upgrade(at_0004)
    assert current_revision(at_0004) == head_revision()
    with Session(at_0004, expire_on_commit=False) as s:
        assert settings.get_guild_settings(session=s, guild_id=1).settings == {"deadline_hours": 24}
        assert settings.get_guild_settings(session=s, guild_id=2).settings == {}
        third = settings.get_guild_settings(session=s, guild_id=3)
        assert (third.settings, third.language, third.updated_at) == ({"rules": "x"}, "fr", untouched)
        now = datetime.now(UTC)
        full = challenges.pending_challenge(session=s, channel_id=100, now=now)
        assert (full.guild_id, full.challenger_id, full.opponent_id, full.team, full.options) == \
            (1, 11, 22, "orcs", FULL["options"])  # guild 1's, the first for that channel
        assert before <= full.created_at <= now and full.expires_at == full.created_at + timedelta(days=1)
        oldest = challenges.pending_challenge(session=s, channel_id=101, now=now)
        assert (oldest.challenger_id, oldest.team, oldest.options) == (33, "Night Elves",
                                                                       {"goals_to_win": 3, "clock_hours": 0})
        assert challenges.pending_challenge(session=s, channel_id=102, now=now) is None
        # The moved rows behave as new ones: the channel is taken, the opponent can accept.
        with pytest.raises(ChallengePendingError):
            challenges.propose_challenge(session=s, guild_id=1, channel_id=100, challenger_id=7, opponent_id=8,
                                         team="orcs", options={}, now=now, lapse_after=timedelta(hours=1))
        assert abandon.abandon_voters(session=s, match_id=voted_id) == {11}
        done = abandon.vote_abandon(session=s, match_id=voted_id, user_id=22, coaches=frozenset({11, 22}),
                                    reason="both coaches agreed")
        assert done.complete and done.match.status == "abandoned"
        challenges.withdraw_challenge(session=s, challenge_id=oldest.id, version=0, user_id=44, now=now)

    downgrade(at_0004, "0004")
    assert not {"challenges", "abandon_votes", "match_posts", "bot_state"} & set(inspect(at_0004).get_table_names())
    with Session(at_0004, expire_on_commit=False) as s:
        back = settings.get_guild_settings(session=s, guild_id=1).settings
        assert back == {"deadline_hours": 24,
                        "challenges": {"100": {**FULL, "goals": 1, "clock_hours": 4}},
                        "abandon_votes": {str(voted_id): [11, 22]}}
        assert settings.get_guild_settings(session=s, guild_id=2).settings == {}
    upgrade(at_0004)  # and up again: the same rows
    with Session(at_0004) as s:
        again = challenges.pending_challenge(session=s, channel_id=100, now=datetime.now(UTC))
        assert (again.challenger_id, again.team) == (11, "orcs")
        assert settings.get_guild_settings(session=s, guild_id=1).settings == {"deadline_hours": 24}


def test_a_challenge_in_a_server_without_settings_goes_back_into_new_settings(at_0004) -> None:
    upgrade(at_0004)
    with Session(at_0004) as s:
        challenges.propose_challenge(session=s, guild_id=8, channel_id=80, challenger_id=1, opponent_id=2, team="orcs",
                                     options={"goals_to_win": 2}, now=datetime.now(UTC), lapse_after=timedelta(hours=1))
    downgrade(at_0004, "0004")
    with Session(at_0004) as s:
        row = settings.get_guild_settings(session=s, guild_id=8)
        assert row.language == "auto"
        assert row.settings == {"challenges": {"80": {"challenger": 1, "opponent": 2, "team": "orcs", "goals": 2,
                                                      "clock_hours": 0, "options": {"goals_to_win": 2}}}}
