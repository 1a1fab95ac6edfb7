"""Turn deadlines on matches and a screen-reader preference for coaches.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22

``matches.deadline``: when the deciding coach's time runs out (NULL: no deadline), indexed for
the sweep that applies the safe default. ``coach_preferences.screen_reader``: existing coaches
get ``false``.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("deadline", sa.DateTime(timezone=True), nullable=True))
        batch.create_index("ix_matches_deadline", ["deadline"])
    with op.batch_alter_table("coach_preferences") as batch:
        batch.add_column(sa.Column("screen_reader", sa.Boolean(), server_default="0", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("coach_preferences") as batch:
        batch.drop_column("screen_reader")
    with op.batch_alter_table("matches") as batch:
        batch.drop_index("ix_matches_deadline")
        batch.drop_column("deadline")
