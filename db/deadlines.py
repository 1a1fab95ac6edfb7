"""Round deadlines in the database: set, extended, reminded, lapsed, ruled.

A deadline is stored on each fixture of its round (``league_fixtures.deadline``), so that one
fixture can be extended alone. The reminder before a deadline and the notice after it are each
*claimed* by a conditional UPDATE (``claim_reminder``, ``claim_lapse``): of several bot
processes, or a bot before and after a restart, exactly one caller gets True and sends it.
Every change a member makes leaves a row in ``league_audit``. Who may do what is decided in
``service.authority``; what a deadline means in ``service.deadlines``: this module only stores.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import update
from sqlmodel import Session, col, select

from .errors import InvalidInputError, NotFoundError
from .leagues import add_audit, find_league
from .locks import valid_id
from .models import Fixture, FixturePublic, FixtureStatus, League
from .models._common import utcnow

__all__ = [
    "when_text",
    "set_round_deadline",
    "set_fixture_deadline",
    "due_reminders",
    "claim_reminder",
    "due_lapses",
    "claim_lapse",
    "rule_result",
]


def when_text(when: datetime | None) -> str:
    """A deadline as the audit keeps it: ``2026-12-04 20:00 UTC`` (or ``none``)."""
    return f"{when:%Y-%m-%d %H:%M} UTC" if when is not None else "none"


def _scheduled(session: Session, league_id: int, round_no: int) -> list[Fixture]:
    return list(session.exec(select(Fixture).where(Fixture.league_id == league_id, Fixture.round == round_no,
                                                   Fixture.status == FixtureStatus.SCHEDULED.value)
                             .order_by(col(Fixture.id))).all())


def set_round_deadline(*, session: Session, guild_id: int, league: int | str, round_no: int,
                       deadline: datetime | None, channel_id: int | None, actor_id: int,
                       stand_in: Mapping[str, Any] | None = None, reason: str = "") -> list[FixturePublic]:
    """Every fixture of round ``round_no`` not played yet is due by ``deadline`` (None: no
    deadline), reminded in ``channel_id``; a new deadline is reminded anew. Audited; committed.
    Refused when the round has no fixture left to play."""
    lg = find_league(session, guild_id, league)
    rows = _scheduled(session, lg.id, round_no)  # type: ignore[arg-type]  # a stored league has its id
    if not rows:
        if session.exec(select(Fixture.id).where(Fixture.league_id == lg.id, Fixture.round == round_no)).first():
            raise InvalidInputError("round_all_played", round=round_no)
        raise NotFoundError("round_not_in_schedule", round=round_no, league=lg.name)
    for row in rows:
        row.deadline, row.deadline_channel_id = deadline, channel_id
        row.reminded_at = row.lapsed_at = None
        row.updated_at = utcnow()
    session.add_all(rows)
    add_audit(session, lg.id, "deadline_set", actor_id=actor_id,  # type: ignore[arg-type]  # a stored league has its id
              detail={"round": round_no, "deadline": when_text(deadline), "fixtures": len(rows), **(stand_in or {})},
              reason=reason.strip())
    session.commit()
    return [FixturePublic.model_validate(r) for r in rows]


def _fixture(session: Session, fixture_id: int) -> Fixture:
    row = session.get(Fixture, fixture_id, populate_existing=True) if valid_id(fixture_id) else None
    if row is None:
        raise NotFoundError("there_no_fixture", fixture=fixture_id)
    return row


def set_fixture_deadline(*, session: Session, fixture_id: int, seen: datetime | None, deadline: datetime | None,
                         channel_id: int | None, actor_id: int, stand_in: Mapping[str, Any] | None = None,
                         action: str = "deadline_extended", reason: str = "") -> FixturePublic:
    """One scheduled fixture is due by ``deadline`` instead (an extension), only if its
    deadline is still ``seen`` (a panel that showed another one is out of date). Reminded and
    announced anew; audited as ``action``; committed."""
    row = _fixture(session, fixture_id)
    if row.status != FixtureStatus.SCHEDULED.value:
        raise InvalidInputError("fixture_no_longer_to_play", fixture=fixture_id)
    before = FixturePublic.model_validate(row).deadline
    if before != seen:
        raise InvalidInputError("deadline_changed_meanwhile", fixture=fixture_id)
    row.deadline, row.reminded_at, row.lapsed_at, row.updated_at = deadline, None, None, utcnow()
    row.deadline_channel_id = channel_id or row.deadline_channel_id
    session.add(row)
    add_audit(session, row.league_id, action, actor_id=actor_id, fixture_id=fixture_id,
              detail={"round": row.round, "before": when_text(before), "deadline": when_text(deadline),
                      **(stand_in or {})}, reason=reason.strip())
    session.commit()
    return FixturePublic.model_validate(row)


def _due(session: Session, *conditions: Any, limit: int) -> list[tuple[FixturePublic, League]]:
    query = (select(Fixture, League).join(League, col(League.id) == col(Fixture.league_id))
             .where(col(Fixture.status) == FixtureStatus.SCHEDULED.value, col(Fixture.deadline).is_not(None),
                    *conditions)
             .order_by(col(Fixture.deadline), col(Fixture.id)).limit(limit))
    return [(FixturePublic.model_validate(f), lg) for f, lg in session.exec(query).all()]


def due_reminders(*, session: Session, now: datetime, until: datetime, limit: int = 200) -> list[tuple[FixturePublic, League]]:
    """Fixtures to play whose deadline falls after ``now`` and by ``until``, not reminded yet."""
    return _due(session, col(Fixture.reminded_at).is_(None), col(Fixture.lapsed_at).is_(None),
                col(Fixture.deadline) > now, col(Fixture.deadline) <= until, limit=limit)


def due_lapses(*, session: Session, now: datetime, limit: int = 200) -> list[tuple[FixturePublic, League]]:
    """Fixtures still to play whose deadline passed by ``now``, not announced yet."""
    return _due(session, col(Fixture.lapsed_at).is_(None), col(Fixture.deadline) <= now, limit=limit)


def _claim(session: Session, fixture_id: int, seen: datetime, column: str, now: datetime) -> bool:
    stmt = (update(Fixture).where(col(Fixture.id) == fixture_id, col(Fixture.deadline) == seen,
                                  col(getattr(Fixture, column)).is_(None),
                                  col(Fixture.status) == FixtureStatus.SCHEDULED.value)
            .values(**{column: now}).execution_options(synchronize_session=False))
    won = bool(session.execute(stmt).rowcount == 1)  # type: ignore[attr-defined]  # an UPDATE's result is a CursorResult, which has rowcount
    session.commit()
    return won


def claim_reminder(*, session: Session, fixture_id: int, seen: datetime, now: datetime) -> bool:
    """Mark the fixture reminded, if nobody has (and its deadline is still ``seen``): True for
    the one caller who should remind it."""
    return _claim(session, fixture_id, seen, "reminded_at", now)


def claim_lapse(*, session: Session, fixture_id: int, seen: datetime, now: datetime) -> bool:
    """Mark the fixture's lapse announced, if nobody has: True for the one caller who should."""
    return _claim(session, fixture_id, seen, "lapsed_at", now)


def rule_result(*, session: Session, fixture_id: int, seen: datetime | None, result: Mapping[str, Any], action: str,
                actor_id: int, stand_in: Mapping[str, Any] | None = None, reason: str = "") -> FixturePublic:
    """A scheduled fixture whose deadline (still ``seen``) passed gets the ruled ``result``
    (a forfeit or a draw): played, audited as ``action`` with the result; committed. Refused if
    it was played, started or extended meanwhile (nothing changes)."""
    row = _fixture(session, fixture_id)
    if row.status != FixtureStatus.SCHEDULED.value:
        raise InvalidInputError("fixture_no_longer_to_play", fixture=fixture_id)
    if FixturePublic.model_validate(row).deadline != seen:
        raise InvalidInputError("deadline_changed_meanwhile", fixture=fixture_id)
    values = {**result, "status": FixtureStatus.PLAYED.value, "played_at": utcnow(), "updated_at": utcnow()}
    stmt = (update(Fixture).where(col(Fixture.id) == fixture_id, col(Fixture.status) == FixtureStatus.SCHEDULED.value)
            .values(**values).execution_options(synchronize_session=False))
    if session.execute(stmt).rowcount != 1:  # type: ignore[attr-defined]  # an UPDATE's result is a CursorResult, which has rowcount
        session.rollback()
        raise InvalidInputError("fixture_no_longer_to_play", fixture=fixture_id)
    after = {k: result[k] for k in ("home_score", "away_score", "home_casualties", "away_casualties", "conceded_by")}
    add_audit(session, row.league_id, action, actor_id=actor_id, fixture_id=fixture_id,
              detail={"after": after, "round": row.round, "deadline": when_text(seen), **(stand_in or {})},
              reason=reason.strip())
    session.commit()
    return FixturePublic.model_validate(_fixture(session, fixture_id))
