"""Abandoning a match by agreement: every coach votes, and the last vote ends it, exactly once.

A vote is a row of ``abandon_votes`` (``(match_id, user_id)`` primary key: voting twice counts
once). Votes on one match are serialized by locking the match first: ``SELECT ... FOR UPDATE``
on PostgreSQL; on SQLite, whose driver opens the transaction only at the first write (reads
before it see no lock), a write to the match row (``UPDATE matches SET status = status``)
takes the database's write lock before anything is read. So of two coaches voting at the
same instant the second sees the first's vote, exactly one caller is told ``complete``, and
that caller's transaction abandons the match (``db.matches.abandon``) with its vote.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import update
from sqlmodel import Session, col, select

from . import matches
from ._util import is_sqlite
from engine import Term
from .errors import MatchNotActiveError, MatchNotFoundError
from .models import AbandonBallot, Match, MatchPublic, MatchStatus

__all__ = ["AbandonVote", "vote_abandon", "abandon_voters"]


@dataclass(frozen=True)
class AbandonVote:
    """Where the vote stands: who has voted, whether that was every coach, and then the
    abandoned match (its seed revealed, or none if the dice key was lost:
    ``db.matches.dice_unverifiable``); ``match`` is None while votes are missing."""

    voters: frozenset[int]
    complete: bool
    match: MatchPublic | None = None


def _lock_match(session: Session, match_id: int) -> Match:
    """The match, locked until this transaction ends (other voters wait)."""
    if is_sqlite(session):
        session.execute(update(Match).where(col(Match.id) == match_id).values(status=Match.status)
                        .execution_options(synchronize_session=False))
    row = session.exec(select(Match).where(col(Match.id) == match_id).with_for_update()
                       .execution_options(populate_existing=True)).first()
    if row is None:
        session.rollback()
        raise MatchNotFoundError("no_match", match=match_id)
    return row


def abandon_voters(*, session: Session, match_id: int) -> frozenset[int]:
    """Who has voted to abandon the match so far."""
    return frozenset(session.exec(select(AbandonBallot.user_id).where(col(AbandonBallot.match_id) == match_id)).all())


def vote_abandon(*, session: Session, match_id: int, user_id: int, coaches: frozenset[int], reason: str) -> AbandonVote:
    """``user_id`` votes to abandon the match; committed. ``coaches``: whose votes are needed
    (the caller leaves out the AI coach); that ``user_id`` is one of them, the service asked
    first (``service.authority.require_match_coach``). When they have all voted, the match is
    abandoned with ``reason`` in the same transaction and ``complete`` is True, for this one caller.

    Refused with nothing written: ``MatchNotActiveError`` (the match is over, perhaps
    abandoned by the vote that just completed), ``MatchNotFoundError``.
    """
    row = _lock_match(session, match_id)
    if row.status != MatchStatus.ACTIVE:
        status = row.status
        session.rollback()
        raise MatchNotActiveError("match_status", match=match_id, status=Term("status", status))
    voters = abandon_voters(session=session, match_id=match_id)
    if user_id not in voters:
        session.add(AbandonBallot(match_id=match_id, user_id=user_id))
        voters |= {user_id}
    if not coaches <= voters:
        session.commit()
        return AbandonVote(voters=voters, complete=False)
    session.flush()
    ended = matches.abandon(session=session, match_id=match_id, actor_user_id=user_id, reason=reason)  # commits
    return AbandonVote(voters=voters, complete=True, match=ended)
