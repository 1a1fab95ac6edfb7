"""League seasons: a league's season number and the season it follows.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-27

``leagues.season``: the season's number (1 for every league made before). ``leagues.previous_id``:
the league row of the season before (NULL for a first season), so every season of a league can
be read from its current one. A new season is a new league row with the same name and settings;
the finished season's row keeps its fixtures, results and audit, and its ``name_key`` gets the
suffix ``\\x1f<season>`` (a character no name may hold) so the name finds the current season.
Downgrading drops the two columns (the seasons stay separate leagues).

(Numbered 0014 for this session; it follows whatever revision is the head when merged.)
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("leagues") as batch:
        batch.add_column(sa.Column("season", sa.Integer(), nullable=False, server_default="1"))
        batch.add_column(sa.Column("previous_id", sa.Integer(), nullable=True))
        batch.create_index("ix_leagues_previous_id", ["previous_id"])
        batch.create_foreign_key("fk_leagues_previous_id_leagues", "leagues", ["previous_id"], ["id"],
                                 ondelete="SET NULL")


def downgrade() -> None:
    with op.batch_alter_table("leagues") as batch:
        batch.drop_constraint("fk_leagues_previous_id_leagues", type_="foreignkey")
        batch.drop_index("ix_leagues_previous_id")
        batch.drop_column("previous_id")
        batch.drop_column("season")
