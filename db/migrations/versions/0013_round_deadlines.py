"""League round deadlines: when each fixture is due, where its round is reminded, and what was sent.

Revision ID: 0013
Revises: 0010
Create Date: 2026-11-27

``league_fixtures.deadline``: when the fixture must be played by (NULL: no deadline), set for a
whole round by its commissioner (``/league deadline``) and moved for one fixture when he
extends it. ``deadline_channel_id``: the channel where the round is reminded and its lapse
announced (where the deadline was set). ``reminded_at`` / ``lapsed_at``: when the reminder
before the deadline and the notice after it were sent, claimed in the database so that neither
is ever sent twice, by several processes or after a restart. Indexed on ``deadline`` for the
sweep. Downgrading drops the four columns (the deadlines are lost, nothing else).

(Numbered 0013 for this session; it follows whatever revision is the head when merged.)
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("league_fixtures") as batch:
        batch.add_column(sa.Column("deadline", TS, nullable=True))
        batch.add_column(sa.Column("deadline_channel_id", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("reminded_at", TS, nullable=True))
        batch.add_column(sa.Column("lapsed_at", TS, nullable=True))
        batch.create_index("ix_league_fixtures_deadline", ["deadline"])


def downgrade() -> None:
    with op.batch_alter_table("league_fixtures") as batch:
        batch.drop_index("ix_league_fixtures_deadline")
        batch.drop_column("lapsed_at")
        batch.drop_column("reminded_at")
        batch.drop_column("deadline_channel_id")
        batch.drop_column("deadline")
