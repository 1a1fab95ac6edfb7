"""A member's lessons (``/learn``): what he has tried and finished, and his lessons' thread.

``lesson_progress``: one row per member (server and user) and lesson: how many tries he made,
when he last started it, when he first reached its goal. ``lesson_threads``: the private thread
each member's lessons are played in, per channel he asked in, so ``/learn`` again finds it.
The lessons themselves are files (``service.lesson_book``); the lesson being played is an
ordinary match row in the thread.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import field_validator
from sqlmodel import Field, SQLModel

from ._common import Snowflake, Timestamp, as_utc

__all__ = ["MAX_LESSON_ID", "LessonProgress", "LessonProgressPublic", "LessonThread", "LessonThreadPublic"]

MAX_LESSON_ID = 64


class LessonProgressBase(SQLModel):
    guild_id: int = Field(sa_type=Snowflake, primary_key=True)
    user_id: int = Field(sa_type=Snowflake, primary_key=True)
    lesson_id: str = Field(max_length=MAX_LESSON_ID, primary_key=True)
    tries: int = 0
    started_at: datetime = Field(sa_type=Timestamp)
    #: When he first reached the goal (None: not yet).
    done_at: datetime | None = Field(default=None, sa_type=Timestamp)


class LessonProgress(LessonProgressBase, table=True):
    __tablename__ = "lesson_progress"


class LessonProgressPublic(LessonProgressBase):
    _utc = field_validator("started_at", "done_at")(as_utc)


class LessonThreadBase(SQLModel):
    guild_id: int = Field(sa_type=Snowflake, primary_key=True)
    user_id: int = Field(sa_type=Snowflake, primary_key=True)
    parent_id: int = Field(sa_type=Snowflake, primary_key=True)
    thread_id: int = Field(sa_type=Snowflake, index=True)


class LessonThread(LessonThreadBase, table=True):
    __tablename__ = "lesson_threads"


class LessonThreadPublic(LessonThreadBase):
    pass
