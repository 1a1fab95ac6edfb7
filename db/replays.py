"""Finished matches' replays, kept: read by any process, written once (``kept_replays``)."""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from .models import KeptReplay

__all__ = ["kept_replay", "keep_replay"]


def kept_replay(*, session: Session, match_id: int, language: str, width: int, version: int) -> bytes | None:
    """The GIF kept for the match at ``version`` in ``language`` and ``width``, or None."""
    row = session.get(KeptReplay, (match_id, language, width))
    return row.gif if row is not None and row.version == version else None


def keep_replay(*, session: Session, match_id: int, language: str, width: int, version: int, gif: bytes) -> None:
    """Keep a finished match's ``gif``; committed. Two processes drawing it at once: the first
    kept stays (they drew the same frames)."""
    row = session.get(KeptReplay, (match_id, language, width))
    if row is not None:
        if row.version == version:
            return
        session.delete(row)
        session.flush()
    session.add(KeptReplay(match_id=match_id, language=language, width=width, version=version, gif=gif))
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
