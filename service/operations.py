"""The bot's housekeeping in the store: the schema brought up to date at start-up, the
slash-command sync claimed by one process, owed boards claimed by one process, and the
metrics' gauges. ``sessions`` is the match service's (``MatchService.sessions``)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

from sqlalchemy import text
from sqlmodel import Session

from db import bot_state, migrate_child, seeds
from db import matches as db_matches
from db import posts as db_posts
from db.engine import get_engine
from db.models.match import MatchPublic
from db.settings import forget_remembered

__all__ = ["upgrade_database", "claim_command_sync", "release_command_sync", "owed_page", "claim_owed",
           "database_gauges", "database_answers"]

Sessions = Callable[[], AbstractContextManager[Session]]


def upgrade_database() -> None:
    """Run the schema's migrations up to the newest (start-up; never ``create_all``), then check
    the dice key (``db.seeds.check_key``): a weak ``ELFBALL_SECRET`` or an empty or damaged key
    file is refused now, with what to do, not at the first die; a new key file is made now.

    The migrations run in a child process (``db.migrate_child``): the bot never imports Alembic,
    which it would otherwise hold in memory for its whole life for this one moment."""
    migrate_child.upgrade_in_child()
    engine = get_engine()
    forget_remembered(engine)  # the migration may have rewritten settings rows read before it
    seeds.check_key(engine)


def claim_command_sync(sessions: Sessions, key: str, digest: str) -> bool:
    """True if this process is the one to sync the command tree whose digest is ``digest``."""
    with sessions() as s:
        return bot_state.claim_command_sync(session=s, key=key, digest=digest)


def release_command_sync(sessions: Sessions, key: str, digest: str) -> bool:
    """Give a claimed sync back (it failed: another process or restart may try again)."""
    with sessions() as s:
        return bot_state.release_command_sync(session=s, key=key, digest=digest)


def owed_page(session: Session, *, now: datetime, limit: int, offset: int) -> list[MatchPublic]:
    """A page of matches whose board is owed to their channel."""
    return [match for match, _post in db_posts.owed_posts(session=session, now=now, limit=limit, offset=offset)]


def claim_owed(session: Session, *, match_id: int, now: datetime, until: datetime) -> bool:
    """Claim an owed board until ``until`` (one process posts it)."""
    return db_posts.claim_owed(session=session, match_id=match_id, now=now, until=until)


def database_gauges(sessions: Sessions) -> tuple[dict[int, int], int]:
    """(matches in progress by rules edition, boards owed) for the metrics."""
    with sessions() as s:
        return db_matches.active_count(session=s), db_posts.owed_count(session=s)


def database_answers(sessions: Callable[[], Any]) -> str | None:
    """None if the database answers a trivial query, else why not (blocking)."""
    try:
        with sessions() as s:
            s.execute(text("SELECT 1")).scalar_one()
    except Exception as exc:  # noqa: BLE001 - any failure is the answer
        return f"unreachable ({type(exc).__name__})"
    return None
