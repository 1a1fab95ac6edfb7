"""Facts the bot keeps by key across restarts and shares between its processes.

``claim_command_sync``: the slash commands are synced with Discord when their digest changed
since the last sync. Several processes starting together must sync once, so the claim is one
``INSERT ... ON CONFLICT DO UPDATE ... WHERE value <> new`` that stores the new digest: it
changes a row for exactly one caller. If that caller's sync fails, ``release_command_sync``
forgets the digest so the next start tries again.
"""

from __future__ import annotations

from sqlalchemy import delete
from sqlmodel import Session, col

from ._util import upsert
from .models import MAX_BOT_STATE_KEY, BotState, BotStatePublic
from .models._common import utcnow

__all__ = ["get_state", "claim_command_sync", "release_command_sync"]

_state = BotState.__table__  # type: ignore[attr-defined]  # SQLModel table classes get __table__ from SQLAlchemy


def _key(key: str) -> str:
    if not 0 < len(key) <= MAX_BOT_STATE_KEY:
        raise ValueError("a bot state key has 1 to 64 characters")  # the bot's own keys: a bug, not a refusal
    return key


def get_state(*, session: Session, key: str) -> BotStatePublic | None:
    row = session.get(BotState, _key(key), populate_existing=True)
    return BotStatePublic.model_validate(row) if row is not None else None


def claim_command_sync(*, session: Session, key: str, digest: str) -> bool:
    """Store ``digest`` under ``key`` if it differs from the stored one: True for exactly one
    caller (who then syncs), False when the digest is already stored (synced, or being synced
    by another process)."""
    stmt = upsert(session, _state).values(key=_key(key), value=digest, updated_at=utcnow())
    stmt = stmt.on_conflict_do_update(index_elements=["key"],
                                      set_={"value": stmt.excluded.value, "updated_at": stmt.excluded.updated_at},
                                      where=_state.c.value != stmt.excluded.value).returning(_state.c.key)
    claimed = session.execute(stmt).first() is not None  # a row back: inserted or changed
    session.commit()
    return claimed


def release_command_sync(*, session: Session, key: str, digest: str) -> bool:
    """The sync of ``digest`` failed: forget it (if it is still the stored one), so the next
    start claims it again. True if it was forgotten."""
    stmt = (delete(BotState).where(col(BotState.key) == _key(key), col(BotState.value) == digest)
            .execution_options(synchronize_session=False))
    released = session.execute(stmt).rowcount == 1  # type: ignore[attr-defined]  # an UPDATE's result is a CursorResult, which has rowcount
    session.commit()
    return released
