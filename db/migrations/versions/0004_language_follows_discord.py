"""Language preferences: "auto" (follow Discord) instead of a stored "en" nobody chose.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-06

``guild_settings.language`` and ``coach_preferences.language`` held "en" by default, but no
command could set them before ``/preferences language`` and ``server_language``: every stored
"en" is a default, so it becomes "auto" (the bot then follows the member's or the server's
Discord language). Downgrading turns "auto" back into "en".
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("guild_settings", "coach_preferences")


def upgrade() -> None:
    for table in TABLES:
        op.execute(f"UPDATE {table} SET language = 'auto' WHERE language = 'en'")


def downgrade() -> None:
    for table in TABLES:
        op.execute(f"UPDATE {table} SET language = 'en' WHERE language = 'auto'")
