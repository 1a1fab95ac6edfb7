"""Each match names the rules edition it plays, in a column of its own.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25

The edition (``engine.state.RULES_EDITION``) already lived inside ``matches.options`` (JSON;
absent before editions existed, which means edition 1). A column lets the operator ask the
database, on SQLite and PostgreSQL alike, which editions the matches in progress play before an
upgrade that changes the rulings (``docs/operating.md``), and the bot reports them by edition.
Existing rows get the edition their options say, 1 when they say none; the JSON keeps it too
(the engine reads the options, the column is for people and queries).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
matches = sa.table("matches", sa.column("id", sa.Integer()), sa.column("options", JSON),
                   sa.column("rules_edition", sa.Integer()))


def upgrade() -> None:
    # A plain ADD COLUMN, on SQLite too: a batch copy would drop and recreate ``matches``, and
    # dropping it with foreign keys on deletes every match's log (ON DELETE CASCADE).
    op.add_column("matches", sa.Column("rules_edition", sa.Integer(), nullable=False, server_default=sa.text("1")))
    conn = op.get_bind()
    by_edition: dict[int, list[int]] = {}
    for match_id, options in conn.execute(sa.select(matches.c.id, matches.c.options)):
        edition = (options or {}).get("edition", 1)
        if edition != 1:
            by_edition.setdefault(int(edition), []).append(match_id)
    for edition, ids in by_edition.items():
        for start in range(0, len(ids), 500):
            conn.execute(sa.update(matches).where(matches.c.id.in_(ids[start:start + 500]))
                         .values(rules_edition=edition))


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":  # SQLite 3.35+ drops a column in place (no batch copy: see above)
        op.execute("ALTER TABLE matches DROP COLUMN rules_edition")
    else:
        op.drop_column("matches", "rules_edition")
