"""Row locks for the read-check-write changes of a season (team building, joining, the schedule).

Such a change reads a row (a team's roster and support, a league's members), checks a rule on
what it read (the budget, one team per coach) and writes. Two at once must not both pass the
check on the same reading, so the change takes its lock *before* it reads:

* PostgreSQL: ``SELECT ... FOR UPDATE`` on the row; a second writer of that row waits for the
  first to commit, then reads what it wrote (READ COMMITTED sees each statement's newest data).
* SQLite: ``BEGIN IMMEDIATE``. The driver otherwise starts a transaction only at the first
  INSERT/UPDATE, so the reads before it would run outside any transaction and a second writer
  would check stale data; an immediate transaction takes the database's one write lock first
  (waiting up to the busy timeout) and reads inside it.

Both commit or roll back with the session, as usual.
"""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, col, select

__all__ = ["begin_write", "lock_row", "MAX_ID", "valid_id"]

#: The largest row id either backend stores (PostgreSQL ``INTEGER``): a larger number names no row.
MAX_ID = 2**31 - 1


def valid_id(value: object) -> bool:
    """Whether ``value`` could be a row id (a whole number from 1 to ``MAX_ID``)."""
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_ID


def begin_write(session: Session) -> None:
    """On SQLite, start the session's transaction as the writer (no-op elsewhere, or when the
    session already wrote in this transaction: it holds the lock already)."""
    conn = session.connection()
    if conn.dialect.name != "sqlite":
        return
    raw: Any = conn.connection.driver_connection
    if not raw.in_transaction:
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def lock_row(session: Session, model: Any, row_id: int) -> None:
    """Hold ``model``'s row ``row_id`` until the session commits (SQLite: the write lock)."""
    begin_write(session)
    if session.connection().dialect.name != "sqlite":
        session.exec(select(model.id).where(col(model.id) == row_id).with_for_update()).first()
