"""Entropy the bot cannot choose: an accept recorded before the seed, a challenge to the AI coach
that waits for its Start, and the fixture commitments known to have been posted.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27

``challenges.accept_entropy``: the part of the seed the accepting coach (or, against the AI
coach, the challenger pressing Start) added, stored and committed before the seed is computed;
an accept that could not start the match keeps it, so no retry draws other dice.
``challenges.ai_level`` / ``ai_team``: a challenge to the bot ("" for a member's challenge), which
now waits for the challenger's Start after its commitment is posted.
``league_fixtures.posted_commitment``: the dice commitment a public post of the bot last showed
for the fixture; ``/league play`` starts a fixture only when it equals the current commitment
(a fixture drawn again after an abandon is posted first). Rows from before get "": a challenge
stays a member's challenge, and an old fixture's first ``/league play`` posts its commitment
before it can be played (the schedule's post cannot be told from a re-draw never posted).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NEW_COLUMNS = {
    "challenges": (("accept_entropy", sa.String(64)), ("ai_level", sa.String(16)), ("ai_team", sa.String(64))),
    "league_fixtures": (("posted_commitment", sa.String(64)),),
}


def upgrade() -> None:
    # Plain ADD COLUMN (no batch copy, which would drop and recreate the tables).
    for table, columns in NEW_COLUMNS.items():
        for name, kind in columns:
            op.add_column(table, sa.Column(name, kind, server_default="", nullable=False))


def downgrade() -> None:
    for table, columns in NEW_COLUMNS.items():
        for name, _ in reversed(columns):
            if op.get_bind().dialect.name == "sqlite":  # SQLite 3.35+ drops a column in place
                op.execute(f"ALTER TABLE {table} DROP COLUMN {name}")
            else:
                op.drop_column(table, name)
