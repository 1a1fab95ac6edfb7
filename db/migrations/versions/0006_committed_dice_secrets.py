"""Dice secrets committed before the coaches' entropy: challenges, fixtures, potion reports.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25

A match's seed becomes ``secret + "+" + entropy`` (``engine.dice.commit``): the secret is
drawn and its SHA-256 posted with the challenge (``challenges.dice_secret`` sealed,
``dice_commitment``, the challenger's ``entropy``) or with a league's schedule
(``league_fixtures.dice_secret``/``dice_commitment``, and ``potion_secret``/
``potion_commitment`` for the post-match potion dice); ``league_aftermaths.seed_commitment``
is the commitment a report's potion dice are checked against. ``matches.dice_seed`` and
``league_aftermaths.seed`` keep holding the secret alone (sealed, in clear once revealed);
the entropy joined to it is public from the start, in ``matches.dice_entropy`` and
``league_aftermaths.entropy``. Rows from before get "" (no entropy, no commitment): they keep
the old scheme, a secret drawn when the match starts. Downgrading drops the columns.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SECRET, COMMITMENT = sa.String(255), sa.String(64)
NEW_COLUMNS = {
    "challenges": (("dice_secret", SECRET), ("dice_commitment", COMMITMENT), ("entropy", COMMITMENT)),
    "league_fixtures": (("dice_secret", SECRET), ("dice_commitment", COMMITMENT), ("potion_secret", SECRET),
                        ("potion_commitment", COMMITMENT)),
    "league_aftermaths": (("seed_commitment", COMMITMENT), ("entropy", COMMITMENT)),
    "matches": (("dice_entropy", COMMITMENT),),
}


def upgrade() -> None:
    for table, columns in NEW_COLUMNS.items():
        with op.batch_alter_table(table) as batch:
            for name, kind in columns:
                batch.add_column(sa.Column(name, kind, server_default="", nullable=False))


def downgrade() -> None:
    # Plain ALTER TABLE ... DROP COLUMN (SQLite 3.35+), not a batch rebuild: rebuilding
    # ``matches`` drops the table, whose implicit DELETE cascades to its log and votes.
    for table, columns in NEW_COLUMNS.items():
        for name, _ in reversed(columns):
            op.drop_column(table, name)
