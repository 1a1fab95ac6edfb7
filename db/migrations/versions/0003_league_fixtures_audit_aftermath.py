"""Leagues: the schedule's fixtures and results, the audit trail, and post-match decisions.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29

``league_fixtures``: who plays whom in which round, the match that played it and its result.
``league_audit``: every result recorded or corrected and every settings change, by whom.
``league_aftermaths``: per fixture side, what the coach still has to decide after the match
(potions, lasting injuries, abilities). Types are spelled out, as in 0001.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "league_fixtures",
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("home_team_id", sa.Integer(), nullable=False),
        sa.Column("away_team_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=True),
        sa.Column("lineup", JSON, nullable=False),
        sa.Column("home_score", sa.Integer(), nullable=True),
        sa.Column("away_score", sa.Integer(), nullable=True),
        sa.Column("home_casualties", sa.Integer(), nullable=False),
        sa.Column("away_casualties", sa.Integer(), nullable=False),
        sa.Column("conceded_by", sa.String(8), nullable=True),
        sa.Column("played_at", TS, nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("updated_at", TS, nullable=False),
        sa.CheckConstraint("status IN ('scheduled', 'playing', 'played')", name="ck_league_fixtures_status"),
        sa.ForeignKeyConstraint(["league_id"], ["leagues.id"], name="fk_league_fixtures_league_id_leagues",
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["home_team_id"], ["teams.id"], name="fk_league_fixtures_home_team_id_teams",
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["away_team_id"], ["teams.id"], name="fk_league_fixtures_away_team_id_teams",
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_league_fixtures_match_id_matches",
                                ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name="pk_league_fixtures"),
    )
    op.create_index("ix_league_fixtures_league_id", "league_fixtures", ["league_id"])
    op.create_index("ix_league_fixtures_match_id", "league_fixtures", ["match_id"])
    op.create_table(
        "league_audit",
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("fixture_id", sa.Integer(), nullable=True),
        sa.Column("actor_id", sa.BigInteger(), nullable=True),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("detail", JSON, nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.ForeignKeyConstraint(["league_id"], ["leagues.id"], name="fk_league_audit_league_id_leagues",
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["fixture_id"], ["league_fixtures.id"],
                                name="fk_league_audit_fixture_id_league_fixtures", ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name="pk_league_audit"),
    )
    op.create_index("ix_league_audit_league_id", "league_audit", ["league_id"])
    op.create_table(
        "league_aftermaths",
        sa.Column("fixture_id", sa.Integer(), nullable=False),
        sa.Column("side", sa.String(8), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("coach_id", sa.BigInteger(), nullable=False),
        sa.Column("potions_done", sa.Boolean(), nullable=False),
        sa.Column("pending", JSON, nullable=False),
        sa.Column("applied", JSON, nullable=False),
        sa.Column("deferred", JSON, nullable=False),
        sa.Column("done", sa.Boolean(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("state", JSON, nullable=False),
        sa.Column("seed", sa.String(128), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("updated_at", TS, nullable=False),
        sa.CheckConstraint("side IN ('west', 'east')", name="ck_league_aftermaths_side"),
        sa.ForeignKeyConstraint(["fixture_id"], ["league_fixtures.id"],
                                name="fk_league_aftermaths_fixture_id_league_fixtures", ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["team_id"], ["teams.id"], name="fk_league_aftermaths_team_id_teams",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_league_aftermaths"),
        sa.UniqueConstraint("fixture_id", "side", name="uq_league_aftermaths_fixture_id_side"),
    )
    op.create_index("ix_league_aftermaths_fixture_id", "league_aftermaths", ["fixture_id"])
    op.create_index("ix_league_aftermaths_team_id", "league_aftermaths", ["team_id"])


def downgrade() -> None:
    op.drop_index("ix_league_aftermaths_team_id", table_name="league_aftermaths")
    op.drop_index("ix_league_aftermaths_fixture_id", table_name="league_aftermaths")
    op.drop_table("league_aftermaths")
    op.drop_index("ix_league_audit_league_id", table_name="league_audit")
    op.drop_table("league_audit")
    op.drop_index("ix_league_fixtures_match_id", table_name="league_fixtures")
    op.drop_index("ix_league_fixtures_league_id", table_name="league_fixtures")
    op.drop_table("league_fixtures")
