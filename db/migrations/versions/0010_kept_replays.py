"""A finished match's replay is kept in the database, drawn once.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27

``/match replay`` and ``/league replay`` drew every frame of a match on each request (an
878-row match: over a second of CPU). A finished match never changes, so its GIF is drawn once
per language and width and kept in ``kept_replays``, where every process finds it, also after a
restart (a per-process cache was lost with the process and not shared between shards).
Downgrading drops the table: the replays are drawn again when asked for.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "kept_replays",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("width", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("gif", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_kept_replays_match_id_matches",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", "language", "width", name="pk_kept_replays"),
    )


def downgrade() -> None:
    op.drop_table("kept_replays")
