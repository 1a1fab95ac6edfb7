"""The lessons' store: each member's tries and finished lessons, and his lessons' thread.

Only storage: which lesson comes next and when a goal is reached are ``service.lessons``'s.
Every function takes ``session`` keyword-only and is one unit of work on it.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from .models import LessonProgress, LessonProgressPublic, LessonThread
from .models._common import utcnow

__all__ = ["started", "finished", "progress", "thread_for", "thread_owner", "remember_thread"]


def _row(session: Session, guild_id: int, user_id: int, lesson_id: str) -> LessonProgress | None:
    return session.get(LessonProgress, (guild_id, user_id, lesson_id), populate_existing=True)


def started(*, session: Session, guild_id: int, user_id: int, lesson_id: str, now: datetime | None = None) -> int:
    """Count a new try of ``lesson_id`` for the member; his number of tries so far."""
    now = now or utcnow()
    row = _row(session, guild_id, user_id, lesson_id)
    if row is None:
        session.add(LessonProgress(guild_id=guild_id, user_id=user_id, lesson_id=lesson_id, tries=1, started_at=now))
        try:
            session.commit()
            return 1
        except IntegrityError:  # the same member's two presses at once: count it on the row the other made
            session.rollback()
            row = _row(session, guild_id, user_id, lesson_id)
            assert row is not None
    row.tries += 1
    row.started_at = now
    session.add(row)
    session.commit()
    return row.tries


def finished(*, session: Session, guild_id: int, user_id: int, lesson_id: str, now: datetime | None = None) -> bool:
    """Mark the lesson done (the first time only); True if this was the first time."""
    row = _row(session, guild_id, user_id, lesson_id)
    if row is None:
        row = LessonProgress(guild_id=guild_id, user_id=user_id, lesson_id=lesson_id, tries=1,
                             started_at=now or utcnow())
    elif row.done_at is not None:
        return False
    row.done_at = now or utcnow()
    session.add(row)
    session.commit()
    return True


def progress(*, session: Session, guild_id: int, user_id: int) -> list[LessonProgressPublic]:
    """The member's rows, the most recently started first."""
    rows = session.exec(select(LessonProgress).where(LessonProgress.guild_id == guild_id,
                                                     LessonProgress.user_id == user_id)
                        .order_by(col(LessonProgress.started_at).desc())).all()
    return [LessonProgressPublic.model_validate(r) for r in rows]


def thread_for(*, session: Session, guild_id: int, user_id: int, parent_id: int) -> int | None:
    row = session.get(LessonThread, (guild_id, user_id, parent_id), populate_existing=True)
    return row.thread_id if row is not None else None


def thread_owner(*, session: Session, thread_id: int) -> tuple[int, int] | None:
    """The (server, member) whose lessons' thread ``thread_id`` is, if it is one."""
    row = session.exec(select(LessonThread).where(LessonThread.thread_id == thread_id)).first()
    return (row.guild_id, row.user_id) if row is not None else None


def remember_thread(*, session: Session, guild_id: int, user_id: int, parent_id: int, thread_id: int) -> None:
    row = session.get(LessonThread, (guild_id, user_id, parent_id), populate_existing=True)
    if row is None:
        row = LessonThread(guild_id=guild_id, user_id=user_id, parent_id=parent_id, thread_id=thread_id)
    row.thread_id = thread_id
    session.add(row)
    try:
        session.commit()
    except IntegrityError:  # two /learn at once made two threads: the first one stays
        session.rollback()
