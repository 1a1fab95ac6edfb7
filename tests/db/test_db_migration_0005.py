"""Migration 0005 moves pending challenges and abandon votes out of the settings JSON into rows,
and back on downgrade, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from support.databases import fresh_engine
from sqlalchemy import MetaData, inspect, select
from sqlmodel import Session

from db import abandon, challenges, settings
from db.errors import ChallengePendingError
from service.match_rules import MatchSide
from db.engine import make_engine
from db.migrate import current_revision, downgrade, head_revision, upgrade
from db.models import Match, MatchEvent
from service import match_rules

FULL = {"challenger": 11, "opponent": 22, "team": "orcs", "goals": 1, "clock_hours": 4,
        "options": {"goals_to_win": 1, "clock_hours": 4}}
OLDEST = {"challenger": 33, "opponent": 44, "team": "Night Elves", "goals": 3}  # before options were kept


def _match_at_0004(engine, **create) -> int:
    """A match as the code of schema 0004 stored it (today's models have columns 0004 lacks, and
    seeds were kept in clear then): made at head in memory, its rows copied with 0004's columns."""
    seed = "seed-0005"
    scratch = make_engine("sqlite://")
    upgrade(scratch)
    old = MetaData()
    old.reflect(engine)
    try:
        with Session(scratch) as s:
            match_id = match_rules.create_match(session=s, seed=seed, **create).match.id
        with scratch.connect() as src, engine.begin() as dst:
            row = src.execute(select(Match.__table__).where(Match.__table__.c.id == match_id)).one()._asdict()
            keep = set(old.tables["matches"].c.keys()) - {"id"}
            new_id = dst.execute(old.tables["matches"].insert().values(
                {**{k: v for k, v in row.items() if k in keep}, "dice_seed": seed})).inserted_primary_key[0]
            events = [{**e._asdict(), "match_id": new_id} for e in
                      src.execute(select(MatchEvent.__table__).where(MatchEvent.__table__.c.match_id == match_id))]
            keep = set(old.tables["match_events"].c.keys()) - {"id"}
            dst.execute(old.tables["match_events"].insert(), [{k: v for k, v in e.items() if k in keep} for e in events])
    finally:
        scratch.dispose()
    return int(new_id)


@pytest.fixture
def at_0004(backend, tmp_path):
    for engine in fresh_engine(backend, tmp_path, migrate=False):
        upgrade(engine, "0004")
        yield engine


def test_challenges_and_votes_leave_the_settings_for_rows_and_come_back(at_0004) -> None:
    before = datetime.now(UTC)
    voted_id = _match_at_0004(at_0004, guild_id=1, channel_id=500, west=MatchSide(11, team_list="orcs"),
                              east=MatchSide(22, team_list="gnomes"))
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
    assert current_revision(at_0004) == head_revision()  # through 0005 (and later ones)
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
