"""The server's coach ratings: the few facts of each casual match between two members.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27

``/ladder`` rates every finished match between two members of a server, in the order they
ended. A league match's result is its fixture's (already stored, and corrected there); a casual
match's result is inside its state snapshot, too large to read for every match on each request,
so ``ladder_matches`` keeps who played whom, who won, who conceded and when. It is filled when a
match ends, and for matches that ended before this revision the first time the ladder is read
(``service.ladder``): the rules of rating live in the service, this revision only makes the
table. Downgrading drops it; the ladder then has nothing to read.

(Numbered 0011 for this session; it follows whatever revision is the head when merged: set
``down_revision`` to that head.)
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "ladder_matches",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("west_coach_id", sa.BigInteger(), nullable=False),
        sa.Column("east_coach_id", sa.BigInteger(), nullable=False),
        sa.Column("winner", sa.String(8), nullable=False),
        sa.Column("conceded", sa.String(8), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("winner IN ('west', 'east', 'draw')", name="ck_ladder_matches_winner"),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_ladder_matches_match_id_matches",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", name="pk_ladder_matches"),
    )
    op.create_index("ix_ladder_matches_guild_id", "ladder_matches", ["guild_id"])


def downgrade() -> None:
    op.drop_index("ix_ladder_matches_guild_id", table_name="ladder_matches")
    op.drop_table("ladder_matches")
