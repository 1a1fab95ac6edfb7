"""Competition formats: a league's draw, a knockout tie's bracket slot and who went through.

Revision ID: 0012
Revises: 0010
Create Date: 2026-11-27

A league plays a round robin, a knockout or a Swiss (its ``settings``: ``format``, ``seeding``,
``draw_rule``, ``swiss_rounds``; no column, the settings are JSON). What the draw needs is
stored here:

``leagues.draw_secret`` / ``draw_commitment``: the secret the draw's order comes from, sealed
(``db.seeds``) and its SHA-256, shown when the league is created; the schedule reveals it, so
the draw can be checked (``service.formats.draw_order``) and nobody, the commissioner included,
can draw again until he likes it. ``leagues.draw``: the draw once made (the teams in seed order,
the bracket, the byes per round, the secret in clear). Leagues from before get ``""`` and ``{}``:
a secret is drawn when they next need one.

``league_fixtures.slot``: a knockout tie's place in its round (0 at the top), None otherwise.
``winner_team_id`` and ``ruling``: who went through a knockout tie and why (``score``,
``conceded``, ``higher_seed``, ``coin``, ``replay`` for a draw played again).

Downgrading drops the columns (a knockout's later rounds stay as plain fixtures).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("leagues") as batch:
        batch.add_column(sa.Column("draw_secret", sa.String(255), server_default="", nullable=False))
        batch.add_column(sa.Column("draw_commitment", sa.String(64), server_default="", nullable=False))
        batch.add_column(sa.Column("draw", JSON, server_default=sa.text("'{}'"), nullable=False))
    with op.batch_alter_table("league_fixtures") as batch:
        batch.add_column(sa.Column("slot", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("winner_team_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("ruling", sa.String(16), nullable=True))


def downgrade() -> None:
    # Plain DROP COLUMN (SQLite 3.35+), not a batch rebuild, whose implicit DELETE of a rebuilt
    # ``leagues`` would cascade to its fixtures (as 0006 says of ``matches``).
    for name in ("ruling", "winner_team_id", "slot"):
        op.drop_column("league_fixtures", name)
    for name in ("draw", "draw_commitment", "draw_secret"):
        op.drop_column("leagues", name)
