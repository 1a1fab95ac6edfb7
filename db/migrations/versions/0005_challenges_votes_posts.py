"""Challenges, abandon votes, match posts and bot state get tables of their own.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25

Pending challenges (``settings["challenges"]``, keyed by channel id) and abandon votes
(``settings["abandon_votes"]``, keyed by match id) lived in ``guild_settings.settings``, a
JSON document rewritten whole by each writer: two challenges at once lost one. They become
rows (``challenges``: one per channel by a unique constraint; ``abandon_votes``: one per
match and coach) and the keys leave the JSON. Old challenges had no time limit: they lapse
``MOVED_CHALLENGE_LAPSE`` after the upgrade. Entries that cannot be rows are dropped: a
challenge missing its members, a second one for the same channel, a vote for a match that
no longer exists. ``match_posts`` and ``bot_state`` are new. Downgrading writes the
challenges and votes back into the JSON.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
TS = sa.DateTime(timezone=True)
MOVED_CHALLENGE_LAPSE = timedelta(days=1)
MAX_TEAM = 100

# The tables as this revision knows them (the models may change later).
guild_settings = sa.table("guild_settings", sa.column("guild_id", sa.BigInteger()), sa.column("language", sa.String()),
                          sa.column("settings", JSON), sa.column("created_at", TS), sa.column("updated_at", TS))
matches = sa.table("matches", sa.column("id", sa.Integer()), sa.column("guild_id", sa.BigInteger()))
challenges = sa.table("challenges", sa.column("id", sa.Integer()), sa.column("guild_id", sa.BigInteger()),
                      sa.column("channel_id", sa.BigInteger()), sa.column("challenger_id", sa.BigInteger()),
                      sa.column("opponent_id", sa.BigInteger()), sa.column("team", sa.String()),
                      sa.column("options", JSON), sa.column("created_at", TS), sa.column("expires_at", TS),
                      sa.column("version", sa.Integer()))
abandon_votes = sa.table("abandon_votes", sa.column("match_id", sa.Integer()), sa.column("user_id", sa.BigInteger()),
                         sa.column("voted_at", TS))


def upgrade() -> None:
    op.create_table(
        "challenges",
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("challenger_id", sa.BigInteger(), nullable=False),
        sa.Column("opponent_id", sa.BigInteger(), nullable=False),
        sa.Column("team", sa.String(MAX_TEAM), nullable=False),
        sa.Column("options", JSON, nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("expires_at", TS, nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_challenges"),
        sa.UniqueConstraint("channel_id", name="uq_challenges_channel_id"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_challenges_guild_id", "challenges", ["guild_id"])
    op.create_table(
        "abandon_votes",
        sa.Column("voted_at", TS, nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_abandon_votes_match_id_matches",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", "user_id", name="pk_abandon_votes"),
    )
    op.create_table(
        "match_posts",
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("side", sa.String(16), nullable=True),
        sa.Column("first_version", sa.Integer(), nullable=False),
        sa.Column("shown_version", sa.Integer(), nullable=False),
        sa.Column("header", sa.Text(), nullable=False),
        sa.Column("closed", sa.Boolean(), nullable=False),
        sa.Column("owed", sa.Boolean(), nullable=False),
        sa.Column("owed_since", TS, nullable=True),
        sa.Column("owed_version", sa.Integer(), nullable=True),
        sa.Column("claimed_until", TS, nullable=True),
        sa.Column("updated_at", TS, nullable=False),
        sa.Column("match_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_match_posts_match_id_matches",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", name="pk_match_posts"),
    )
    op.create_index("ix_match_posts_owed", "match_posts", ["owed"])
    op.create_table(
        "bot_state",
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("updated_at", TS, nullable=False),
        sa.Column("key", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("key", name="pk_bot_state"),
    )
    _move_out_of_settings()


def downgrade() -> None:
    _move_into_settings()
    op.drop_table("bot_state")
    op.drop_index("ix_match_posts_owed", table_name="match_posts")
    op.drop_table("match_posts")
    op.drop_table("abandon_votes")
    op.drop_index("ix_challenges_guild_id", table_name="challenges")
    op.drop_table("challenges")


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _challenge_row(guild_id: int, channel: Any, entry: Any, now: datetime) -> dict[str, Any] | None:
    """The row of one JSON challenge (as the bot wrote it), or None if it cannot be one."""
    if not isinstance(entry, dict):
        return None
    channel_id, challenger, opponent = _int(channel), _int(entry.get("challenger")), _int(entry.get("opponent"))
    team = entry.get("team")
    if None in (channel_id, challenger, opponent) or not isinstance(team, str) or not 0 < len(team) <= MAX_TEAM:
        return None
    options = entry.get("options")
    if not isinstance(options, dict) or not options:  # the oldest challenges kept only these two
        options = {"goals_to_win": entry.get("goals", 2), "clock_hours": entry.get("clock_hours", 0)}
    return {"guild_id": guild_id, "channel_id": channel_id, "challenger_id": challenger, "opponent_id": opponent,
            "team": team, "options": options, "created_at": now, "expires_at": now + MOVED_CHALLENGE_LAPSE,
            "version": 0}


def _move_out_of_settings() -> None:
    bind = op.get_bind()
    now = datetime.now(UTC)
    known_matches = {row.id for row in bind.execute(sa.select(matches.c.id))}
    taken_channels: set[int] = set()
    rows = bind.execute(sa.select(guild_settings.c.guild_id, guild_settings.c.settings)
                        .order_by(guild_settings.c.guild_id)).all()
    for guild_id, settings in rows:
        if not isinstance(settings, dict) or not ({"challenges", "abandon_votes"} & settings.keys()):
            continue
        moved_challenges = []
        for channel, entry in (settings.get("challenges") or {}).items():
            row = _challenge_row(guild_id, channel, entry, now)
            if row is not None and row["channel_id"] not in taken_channels:
                taken_channels.add(row["channel_id"])
                moved_challenges.append(row)
        moved_votes = []
        for match, voters in (settings.get("abandon_votes") or {}).items():
            match_id = _int(match)
            if match_id not in known_matches or not isinstance(voters, list):
                continue
            users = {u for u in map(_int, voters) if u is not None}
            moved_votes += [{"match_id": match_id, "user_id": u, "voted_at": now} for u in sorted(users)]
        if moved_challenges:
            bind.execute(challenges.insert(), moved_challenges)
        if moved_votes:
            bind.execute(abandon_votes.insert(), moved_votes)
        rest = {k: v for k, v in settings.items() if k not in ("challenges", "abandon_votes")}
        bind.execute(guild_settings.update().where(guild_settings.c.guild_id == guild_id)
                     .values(settings=rest, updated_at=now))


def _move_into_settings() -> None:
    bind = op.get_bind()
    now = datetime.now(UTC)
    back: dict[int, dict[str, dict[str, Any]]] = {}
    for row in bind.execute(sa.select(challenges).order_by(challenges.c.id)):
        options = dict(row.options or {})
        back.setdefault(row.guild_id, {}).setdefault("challenges", {})[str(row.channel_id)] = {
            "challenger": row.challenger_id, "opponent": row.opponent_id, "team": row.team,
            "goals": options.get("goals_to_win", 2), "clock_hours": options.get("clock_hours", 0), "options": options}
    votes = sa.select(matches.c.guild_id, abandon_votes.c.match_id, abandon_votes.c.user_id).join(
        matches, matches.c.id == abandon_votes.c.match_id).order_by(abandon_votes.c.match_id, abandon_votes.c.user_id)
    for guild_id, match_id, user_id in bind.execute(votes):
        back.setdefault(guild_id, {}).setdefault("abandon_votes", {}).setdefault(str(match_id), []).append(user_id)
    for guild_id, keys in back.items():
        found = bind.execute(sa.select(guild_settings.c.settings).where(guild_settings.c.guild_id == guild_id)).first()
        if found is None:
            bind.execute(guild_settings.insert().values(guild_id=guild_id, language="auto", settings=keys,
                                                        created_at=now, updated_at=now))
        else:
            bind.execute(guild_settings.update().where(guild_settings.c.guild_id == guild_id)
                         .values(settings={**(found.settings or {}), **keys}, updated_at=now))
