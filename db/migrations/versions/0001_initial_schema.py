"""Initial schema: servers, coaches, leagues, teams, roster players, matches and their logs.

Revision ID: 0001
Revises:
Create Date: 2026-11-22

Types are spelled out here (not imported from ``db.models``) so this revision keeps meaning
what it meant when later revisions change the models.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
TS = sa.DateTime(timezone=True)
ACTIVE = sa.text("status = 'active'")

_APPEND_ONLY_SQLITE = """
CREATE TRIGGER match_events_append_only BEFORE UPDATE ON match_events
BEGIN
    SELECT RAISE(ABORT, 'match_events is append-only');
END
"""
_APPEND_ONLY_PG_FUNCTION = """
CREATE FUNCTION match_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'match_events is append-only';
END
$$
"""
_APPEND_ONLY_PG_TRIGGER = """
CREATE TRIGGER match_events_append_only BEFORE UPDATE ON match_events
FOR EACH ROW EXECUTE FUNCTION match_events_append_only()
"""


def upgrade() -> None:
    op.create_table(
        "guild_settings",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("language", sa.String(16), nullable=False),
        sa.Column("settings", JSON, nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("updated_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("guild_id", name="pk_guild_settings"),
    )
    op.create_table(
        "coach_preferences",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("language", sa.String(16), nullable=False),
        sa.Column("settings", JSON, nullable=False),
        sa.Column("updated_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("user_id", name="pk_coach_preferences"),
    )
    op.create_table(
        "leagues",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False),
        sa.Column("commissioner_id", sa.BigInteger(), nullable=False),
        sa.Column("settings", JSON, nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_leagues"),
        sa.UniqueConstraint("guild_id", "name_key", name="uq_leagues_guild_id_name_key"),
    )
    op.create_index("ix_leagues_guild_id", "leagues", ["guild_id"])
    op.create_table(
        "teams",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=True),
        sa.Column("coach_id", sa.BigInteger(), nullable=False),
        sa.Column("team_list", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False),
        sa.Column("primary_colour", sa.String(32), nullable=False),
        sa.Column("secondary_colour", sa.String(32), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("support", JSON, nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("updated_at", TS, nullable=False),
        sa.ForeignKeyConstraint(["league_id"], ["leagues.id"], name="fk_teams_league_id_leagues", ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name="pk_teams"),
        sa.UniqueConstraint("guild_id", "name_key", name="uq_teams_guild_id_name_key"),
    )
    op.create_index("ix_teams_guild_id", "teams", ["guild_id"])
    op.create_index("ix_teams_league_id", "teams", ["league_id"])
    op.create_index("ix_teams_coach_id", "teams", ["coach_id"])
    op.create_table(
        "roster_players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("position_id", sa.String(96), nullable=False),
        sa.Column("attributes", JSON, nullable=False),
        sa.Column("xp", sa.Integer(), nullable=False),
        sa.Column("abilities", JSON, nullable=False),
        sa.Column("injuries", JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.CheckConstraint("status IN ('active', 'injured', 'dead', 'retired')", name="ck_roster_players_status"),
        sa.ForeignKeyConstraint(["team_id"], ["teams.id"], name="fk_roster_players_team_id_teams", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_roster_players"),
        sa.UniqueConstraint("team_id", "number", name="uq_roster_players_team_id_number"),
    )
    op.create_index("ix_roster_players_team_id", "roster_players", ["team_id"])
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("west_coach_id", sa.BigInteger(), nullable=False),
        sa.Column("east_coach_id", sa.BigInteger(), nullable=False),
        sa.Column("west_team_id", sa.Integer(), nullable=True),
        sa.Column("east_team_id", sa.Integer(), nullable=True),
        sa.Column("west_team_name", sa.String(64), nullable=False),
        sa.Column("east_team_name", sa.String(64), nullable=False),
        sa.Column("options", JSON, nullable=False),
        sa.Column("state", JSON, nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("deciding_side", sa.String(8), nullable=True),
        sa.Column("deciding_user_id", sa.BigInteger(), nullable=True),
        sa.Column("dice_seed", sa.String(128), nullable=False),
        sa.Column("seed_commitment", sa.String(64), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("updated_at", TS, nullable=False),
        sa.CheckConstraint("status IN ('active', 'finished', 'abandoned')", name="ck_matches_status"),
        sa.CheckConstraint(
            "deciding_side IS NULL OR deciding_side IN ('west', 'east')", name="ck_matches_deciding_side"
        ),
        sa.ForeignKeyConstraint(
            ["west_team_id"], ["teams.id"], name="fk_matches_west_team_id_teams", ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["east_team_id"], ["teams.id"], name="fk_matches_east_team_id_teams", ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_matches"),
    )
    op.create_index("ix_matches_guild_id", "matches", ["guild_id"])
    op.create_index("ix_matches_channel_id", "matches", ["channel_id"])
    # One active match per channel, enforced by the database (SQLite >= 3.8 and PostgreSQL).
    op.create_index(
        "uq_matches_active_channel", "matches", ["channel_id"], unique=True,
        sqlite_where=ACTIVE, postgresql_where=ACTIVE,
    )
    op.create_table(
        "match_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("command", JSON, nullable=True),
        sa.Column("actor_side", sa.String(8), nullable=True),
        sa.Column("actor_user_id", sa.BigInteger(), nullable=True),
        sa.Column("dice", JSON, nullable=False),
        sa.Column("events", JSON, nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.CheckConstraint(
            "kind IN ('create', 'command', 'answer', 'abandon', 'restore')", name="ck_match_events_kind"
        ),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name="fk_match_events_match_id_matches", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_match_events"),
        sa.UniqueConstraint("match_id", "seq", name="uq_match_events_match_id_seq"),
    )
    # The log is append-only: the database refuses to change a row once written.
    if op.get_bind().dialect.name == "postgresql":
        op.execute(_APPEND_ONLY_PG_FUNCTION)
        op.execute(_APPEND_ONLY_PG_TRIGGER)
    elif op.get_bind().dialect.name == "sqlite":
        op.execute(_APPEND_ONLY_SQLITE)


def downgrade() -> None:
    op.drop_table("match_events")  # drops its trigger too
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS match_events_append_only()")
    op.drop_index("uq_matches_active_channel", table_name="matches")
    op.drop_index("ix_matches_channel_id", table_name="matches")
    op.drop_index("ix_matches_guild_id", table_name="matches")
    op.drop_table("matches")
    op.drop_index("ix_roster_players_team_id", table_name="roster_players")
    op.drop_table("roster_players")
    op.drop_index("ix_teams_coach_id", table_name="teams")
    op.drop_index("ix_teams_league_id", table_name="teams")
    op.drop_index("ix_teams_guild_id", table_name="teams")
    op.drop_table("teams")
    op.drop_index("ix_leagues_guild_id", table_name="leagues")
    op.drop_table("leagues")
    op.drop_table("coach_preferences")
    op.drop_table("guild_settings")
