"""What the bot last posted for each match, so every action updates one message and no board
is ever lost.

``save_post`` is one ``INSERT ... ON CONFLICT DO UPDATE ... WHERE shown_version <= new
RETURNING`` (a row back: saved; psycopg gives no row count for an upsert): an
outcome posted late (the bot answers actions concurrently) never replaces a newer one, and
racing writers need no retry. A post that failed for good is marked ``owed`` (``mark_owed``);
a sweep lists the owed rows (``owed_posts``), claims one (``claim_owed``: a guarded UPDATE,
so among several bot processes exactly one posts it), posts the match's board and saves it,
which clears the debt.

Every function takes ``session`` keyword-only and commits its own unit of work.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, case, func, or_, update
from sqlalchemy import select as core_select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlmodel import Session, col, select

from ._util import in_utc, upsert
from .matches import public_match
from .models import Match, MatchPost, MatchPostPublic, MatchPublic
from .models._common import utcnow

__all__ = ["get_post", "save_post", "mark_owed", "owed_posts", "claim_owed", "owed_count"]

_posts = MatchPost.__table__  # type: ignore[attr-defined]  # SQLModel table classes get __table__ from SQLAlchemy


#: The columns ``save_post`` writes (besides the key and the debt it clears).
_SAVED = ("channel_id", "message_id", "side", "first_version", "shown_version", "header", "closed", "updated_at")
_save_statements: dict[str, Any] = {}


def _save_statement(dialect: str) -> Any:
    """``save_post``'s upsert, built once per dialect with its values as parameters: building it
    (the ``excluded`` columns, four ``CASE``) cost more than running it, on every action."""
    stmt = _save_statements.get(dialect)
    if stmt is None:
        stmt = (pg_insert if dialect == "postgresql" else sqlite_insert)(_posts).values(
            match_id=bindparam("match_id"), owed=False, **{k: bindparam(k) for k in _SAVED})
        pays = or_(_posts.c.owed_version.is_(None), _posts.c.owed_version <= stmt.excluded.shown_version)
        stmt = _save_statements[dialect] = stmt.on_conflict_do_update(
            index_elements=["match_id"],
            set_={**{k: stmt.excluded[k] for k in _SAVED},
                  "owed": case((pays, False), else_=_posts.c.owed),
                  "owed_since": case((pays, None), else_=_posts.c.owed_since),
                  "owed_version": case((pays, None), else_=_posts.c.owed_version),
                  "claimed_until": case((pays, None), else_=_posts.c.claimed_until)},
            where=_posts.c.shown_version <= stmt.excluded.shown_version,
        ).returning(_posts.c.match_id)
    return stmt


#: ``get_post``'s read (every action's), built once and run through Core: a plain row is all it needs.
_GET_POST = core_select(_posts).where(_posts.c.match_id == bindparam("match_id"))


def get_post(*, session: Session, match_id: int) -> MatchPostPublic | None:
    row = session.execute(_GET_POST, {"match_id": match_id}).first()
    return MatchPostPublic.model_validate(row) if row is not None else None


def save_post(
    *,
    session: Session,
    match_id: int,
    channel_id: int,
    message_id: int | None,
    side: str | None,
    first_version: int,
    shown_version: int,
    header: str,
    closed: bool,
) -> bool:
    """Record that ``message_id`` now shows the match at ``shown_version``: True if saved,
    False (nothing written) when the stored post already shows a newer version (an equal one
    is saved). Saving the owed version or a newer one clears the debt and its claim."""
    values = {"channel_id": channel_id, "message_id": message_id, "side": side, "first_version": first_version,
              "shown_version": shown_version, "header": header, "closed": closed, "updated_at": utcnow()}
    stmt = _save_statement(session.get_bind().dialect.name)
    saved = session.execute(stmt, {"match_id": match_id, **values}).first() is not None
    session.commit()
    return saved


def mark_owed(*, session: Session, match_id: int, channel_id: int, version: int, now: datetime) -> bool:
    """The post of the match at ``version`` failed for good: the board is owed (the row's other
    fields are kept; a new row has no message and shows nothing of this version). False, and
    nothing written, when a post of this version or a newer one was saved meanwhile."""
    now = in_utc(now)
    stmt = upsert(session, _posts).values(
        match_id=match_id, channel_id=channel_id, message_id=None, side=None, first_version=version,
        shown_version=version - 1, header="", closed=False, owed=True, owed_since=now, owed_version=version,
        claimed_until=None, updated_at=now)
    newer = or_(_posts.c.owed_version.is_(None), _posts.c.owed_version < stmt.excluded.owed_version)
    stmt = stmt.on_conflict_do_update(
        index_elements=["match_id"],
        set_={"owed": True,
              "owed_since": case((_posts.c.owed_since.is_(None), stmt.excluded.owed_since), else_=_posts.c.owed_since),
              "owed_version": case((newer, stmt.excluded.owed_version), else_=_posts.c.owed_version),
              "updated_at": stmt.excluded.updated_at},
        where=_posts.c.shown_version < stmt.excluded.owed_version,
    ).returning(_posts.c.match_id)
    marked = session.execute(stmt).first() is not None
    session.commit()
    return marked


def owed_posts(*, session: Session, now: datetime, limit: int = 20, offset: int = 0) -> list[tuple[MatchPublic, MatchPostPublic]]:
    """Owed posts nobody has claimed (or whose claim ran out by ``now``), longest owed first,
    with their matches (finished ones too: their last board is owed as well)."""
    now = in_utc(now)
    query = (
        select(Match, MatchPost)
        .join(MatchPost, col(MatchPost.match_id) == col(Match.id))
        .where(col(MatchPost.owed).is_(True),
               or_(col(MatchPost.claimed_until).is_(None), col(MatchPost.claimed_until) < now))
        .order_by(col(MatchPost.owed_since), col(MatchPost.match_id))
        .offset(offset)
        .limit(limit)
        .execution_options(populate_existing=True)
    )
    return [(public_match(m), MatchPostPublic.model_validate(p)) for m, p in session.exec(query).all()]


def claim_owed(*, session: Session, match_id: int, now: datetime, until: datetime) -> bool:
    """Take the owed post of the match until ``until``: True for exactly one of several
    claimers (the one that then posts it and calls ``save_post``); False when it is not owed
    or someone else's claim still runs."""
    now = in_utc(now)
    stmt = (
        update(MatchPost)
        .where(col(MatchPost.match_id) == match_id, col(MatchPost.owed).is_(True),
               or_(col(MatchPost.claimed_until).is_(None), col(MatchPost.claimed_until) < now))
        .values(claimed_until=in_utc(until))
        .execution_options(synchronize_session=False)
    )
    claimed = session.execute(stmt).rowcount == 1  # type: ignore[attr-defined]  # an UPDATE's result is a CursorResult, which has rowcount
    session.commit()
    return claimed


def owed_count(*, session: Session) -> int:
    """How many boards are owed right now, claimed or not (the metrics' pending gauge)."""
    query = select(func.count()).select_from(MatchPost).where(col(MatchPost.owed).is_(True))
    return int(session.exec(query).one())
