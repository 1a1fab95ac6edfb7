"""Lessons: each member's progress and the thread his lessons are played in.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-27

``/learn`` plays short lessons in a member's private thread (``service.lessons``). Progress is
kept per member (server and user) and lesson: tries, when last started, when first done
(``lesson_progress``); ``lesson_threads`` finds his thread again from the channel he asked in.
The lesson being played is an ordinary match row (its ``options`` name the lesson), so no
other table changes. Downgrading drops both tables: the members start their lessons afresh.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "lesson_progress",
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("lesson_id", sa.String(64), nullable=False),
        sa.Column("tries", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("done_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("guild_id", "user_id", "lesson_id", name="pk_lesson_progress"),
    )
    op.create_table(
        "lesson_threads",
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("parent_id", sa.BigInteger(), nullable=False),
        sa.Column("thread_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "user_id", "parent_id", name="pk_lesson_threads"),
    )
    op.create_index("ix_lesson_threads_thread_id", "lesson_threads", ["thread_id"])


def downgrade() -> None:
    op.drop_index("ix_lesson_threads_thread_id", table_name="lesson_threads")
    op.drop_table("lesson_threads")
    op.drop_table("lesson_progress")
