"""Each match records the member who owns each side's stored team.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27

A stored team is played only by its owner (``service.authority.require_team_owner``), but a
match started before that check may be played by someone else with it, and then the team is
busy: its league fixture and its roster changes are refused. ``matches.west_owner_id`` and
``east_owner_id`` say who owned each side's team when the match started (NULL for a team
list's team), so that owner may end the match even when he is not one of its coaches
(``service.authority.abandon_right``). Existing rows get their teams' current owners (a match
whose team was deleted keeps NULL). Downgrading drops the columns.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = (("west_owner_id", "west_team_id"), ("east_owner_id", "east_team_id"))
teams = sa.table("teams", sa.column("id", sa.Integer()), sa.column("coach_id", sa.BigInteger()))


def upgrade() -> None:
    # Plain ADD COLUMN, on SQLite too: a batch copy would drop and recreate ``matches``, and
    # dropping it with foreign keys on deletes every match's log (ON DELETE CASCADE).
    for owner, _ in COLUMNS:
        op.add_column("matches", sa.Column(owner, sa.BigInteger(), nullable=True))
    matches = sa.table("matches", *(sa.column(name, sa.BigInteger()) for pair in COLUMNS for name in pair))
    for owner, team in COLUMNS:
        coach = sa.select(teams.c.coach_id).where(teams.c.id == matches.c[team]).scalar_subquery()
        op.get_bind().execute(sa.update(matches).where(matches.c[team].is_not(None)).values({owner: coach}))


def downgrade() -> None:
    for owner, _ in reversed(COLUMNS):
        if op.get_bind().dialect.name == "sqlite":  # SQLite 3.35+ drops a column in place (no batch copy: see above)
            op.execute(f"ALTER TABLE matches DROP COLUMN {owner}")
        else:
            op.drop_column("matches", owner)
