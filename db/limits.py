"""The counts behind a server's caps (``service.limits``), and the lock that makes a count hold.

A cap is checked by counting rows and then inserting one; two members (or one member's two
commands) at the same instant must not both count 2 under a cap of 3 and both insert. So the
count runs after ``hold_count``, held until the session commits:

* SQLite: ``BEGIN IMMEDIATE`` (``db.locks.begin_write``): the database's one write lock, taken
  before the count, so a second writer counts after the first committed.
* PostgreSQL: a transaction-scoped advisory lock on (the server, what is counted), so two
  writers of the same server's count queue; other servers never wait.

Nothing here decides what a cap is: the service does (``service.limits``).
"""

from __future__ import annotations

import hashlib
from datetime import datetime

from sqlalchemy import func, or_, text
from sqlmodel import Session, col, select

from ._util import ARCHIVED, in_utc
from .locks import begin_write
from .models import Challenge, League, Match, Team
from .models.match import MatchStatus

__all__ = ["hold_count", "ai_matches", "pending_challenges", "team_count", "league_count"]


def hold_count(session: Session, guild_id: int, what: str) -> None:
    """Hold the right to count (and then add to) ``what`` on ``guild_id`` until the session
    commits or rolls back."""
    begin_write(session)
    if session.connection().dialect.name == "postgresql":
        digest = hashlib.sha256(f"elfball-limit:{guild_id}:{what}".encode()).digest()
        key = int.from_bytes(digest[:8], "big", signed=True)
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})


def ai_matches(session: Session, guild_id: int, ai_coach_id: int, user_id: int | None = None) -> list[tuple[int, int]]:
    """The active matches against the AI coach on ``guild_id`` (only ``user_id``'s when given):
    (match id, channel id), oldest first."""
    query = select(Match.id, Match.channel_id).where(
        Match.guild_id == guild_id, Match.status == MatchStatus.ACTIVE,
        or_(col(Match.west_coach_id) == ai_coach_id, col(Match.east_coach_id) == ai_coach_id))
    if user_id is not None:
        query = query.where(or_(col(Match.west_coach_id) == user_id, col(Match.east_coach_id) == user_id))
    return [(int(i or 0), int(c)) for i, c in session.exec(query.order_by(col(Match.id))).all()]


def pending_challenges(session: Session, guild_id: int, now: datetime,
                       user_id: int | None = None) -> list[tuple[int, datetime]]:
    """The challenges still waiting on ``guild_id`` (only those ``user_id`` made, when given):
    (channel id, when it lapses), soonest lapse first."""
    query = select(Challenge.channel_id, Challenge.expires_at).where(
        Challenge.guild_id == guild_id, col(Challenge.expires_at) > in_utc(now))
    if user_id is not None:
        query = query.where(Challenge.challenger_id == user_id)
    return [(int(c), in_utc(e)) for c, e in session.exec(query.order_by(col(Challenge.expires_at))).all()]


def team_count(session: Session, guild_id: int, coach_id: int | None = None) -> int:
    """The teams of ``guild_id`` (only ``coach_id``'s, when given)."""
    query = select(func.count()).select_from(Team).where(Team.guild_id == guild_id)
    if coach_id is not None:
        query = query.where(Team.coach_id == coach_id)
    return int(session.exec(query).one())


def league_count(session: Session, guild_id: int, commissioner_id: int | None = None) -> int:
    """The leagues of ``guild_id`` (only those ``commissioner_id`` runs, when given); a league's
    finished seasons are not more leagues (``db.seasons``)."""
    query = select(func.count()).select_from(League).where(League.guild_id == guild_id,
                                                            ~col(League.name_key).contains(ARCHIVED))
    if commissioner_id is not None:
        query = query.where(League.commissioner_id == commissioner_id)
    return int(session.exec(query).one())

