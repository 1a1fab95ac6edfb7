"""Where the database is, how connections are set up, and sessions that tests can replace."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlmodel import Session

from db import aio, teams
from db import engine as dbe
from db.engine import SQLITE_BUSY_TIMEOUT_MS, database_url, make_engine, session_scope
from db.migrate import upgrade
from support.databases import postgres_url


# --- URLs ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"DATABASE_URL": "postgres://u:p@127.0.0.1/x"}, "postgresql+psycopg://u:p@127.0.0.1/x"),
        ({"DATABASE_URL": "postgresql://u@127.0.0.1:5433/x", "ELFBALL_DB": "a.db"},
         "postgresql+psycopg://u@127.0.0.1:5433/x"),
        ({"DATABASE_URL": "postgresql+psycopg://u@h/x"}, "postgresql+psycopg://u@h/x"),
        ({"DATABASE_URL": "sqlite:////srv/elf.db"}, "sqlite:////srv/elf.db"),
    ],
)
def test_database_url_prefers_DATABASE_URL(env: dict[str, str], expected: str) -> None:
    assert database_url(env) == expected


def test_sqlite_path_from_ELFBALL_DB_or_the_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert database_url({}) == f"sqlite:///{tmp_path / 'elfball.db'}"
    env = {"DATABASE_URL": " ", "ELFBALL_DB": "data/elf.db"}
    assert database_url(env) == f"sqlite:///{tmp_path / 'data' / 'elf.db'}"
    assert database_url({"ELFBALL_DB": "/var/lib/elf.db"}) == "sqlite:////var/lib/elf.db"


def test_the_process_engine_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("ELFBALL_DB", str(tmp_path / "env.db"))
    old = dbe.use_engine(None)
    try:
        assert dbe.get_engine().url.database == str(tmp_path / "env.db")
        assert dbe.get_engine() is dbe.get_engine()
    finally:
        dbe.dispose_engine()
        dbe.use_engine(old)


# --- SQLite connections ----------------------------------------------------------------------------
def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'wal.db'}")
    try:
        conns = [engine.connect(), engine.connect()]  # two pooled connections, each set up on connect
        for conn in conns:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar_one() == "wal"
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar_one() == SQLITE_BUSY_TIMEOUT_MS
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar_one() == 1
        for conn in conns:
            conn.close()
        assert (tmp_path / "wal.db-wal").exists()
    finally:
        engine.dispose()


def _open_together(url: str, openers: int) -> tuple[list[str], list[BaseException]]:
    """``openers`` engines connecting to ``url`` at the same moment: the journal modes they see
    and the errors they met."""
    start = threading.Barrier(openers)
    errors: list[BaseException] = []
    modes: list[str] = []

    def open_it() -> None:
        engine = make_engine(url)
        start.wait()
        try:
            with engine.connect() as conn:
                modes.append(conn.exec_driver_sql("PRAGMA journal_mode").scalar_one())
        except BaseException as exc:  # noqa: BLE001 - collected and asserted by the caller
            errors.append(exc)
        finally:
            engine.dispose()

    threads = [threading.Thread(target=open_it) for _ in range(openers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return modes, errors


def test_processes_opening_a_new_sqlite_file_together_all_get_wal(tmp_path: Path) -> None:
    # A new file is in rollback mode; switching to WAL needs its exclusive lock, and two openers
    # who each hold the shared lock get "database is locked" at once (SQLite skips the busy
    # timeout: it would deadlock). Before the retry, about one new file in thirteen failed here.
    for n in range(60):
        modes, errors = _open_together(f"sqlite:///{tmp_path / f'new{n}.db'}", 6)
        assert errors == [] and modes == ["wal"] * 6, (n, errors)


def test_the_wal_switch_gives_up_after_the_busy_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    class Locked:
        calls = 0

        def execute(self, sql: str) -> None:
            self.calls += 1
            raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(dbe, "SQLITE_BUSY_TIMEOUT_MS", 100)
    cursor = Locked()
    began = time.monotonic()
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        dbe._switch_to_wal(cursor)
    assert cursor.calls > 2 and time.monotonic() - began < 1.0

    class Broken(Locked):
        def execute(self, sql: str) -> None:
            self.calls += 1
            raise sqlite3.OperationalError("disk I/O error")

    broken = Broken()
    with pytest.raises(sqlite3.OperationalError, match="disk"):
        dbe._switch_to_wal(broken)
    assert broken.calls == 1  # only a lock is waited for


def test_a_second_sqlite_writer_waits_instead_of_failing(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'busy.db'}")
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql("CREATE TABLE t (x INTEGER)")
        holding = threading.Event()

        def hold_the_write_lock() -> None:
            with engine.connect() as conn:
                conn.exec_driver_sql("BEGIN IMMEDIATE")
                conn.exec_driver_sql("INSERT INTO t VALUES (1)")
                holding.set()
                time.sleep(0.3)
                conn.exec_driver_sql("COMMIT")

        other = threading.Thread(target=hold_the_write_lock)
        other.start()
        holding.wait(5)
        with engine.begin() as conn:  # blocks on the lock, then goes through
            conn.exec_driver_sql("INSERT INTO t VALUES (2)")
        other.join(5)
        with engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT COUNT(*) FROM t").scalar_one() == 2
    finally:
        engine.dispose()


def test_in_memory_sqlite_for_quick_tests() -> None:
    engine = make_engine("sqlite://")  # StaticPool: one shared in-memory database
    try:
        upgrade(engine)
        with Session(engine) as s:
            teams.create_team(session=s, guild_id=1, coach_id=1, name="Memory", team_list="orcs")
        with Session(engine) as s:
            assert [t.name for t in teams.list_teams(session=s, guild_id=1)] == ["Memory"]
    finally:
        engine.dispose()


# --- sessions ---------------------------------------------------------------------------------------
def test_session_scope_uses_the_provider_and_rolls_back_on_error(store) -> None:
    with pytest.raises(RuntimeError):
        with session_scope() as s:
            s.execute(text("INSERT INTO guild_settings (guild_id, language, settings, created_at, updated_at)"
                           " VALUES (1, 'en', '{}', '2026-01-01', '2026-01-01')"))
            raise RuntimeError("boom")
    with session_scope() as s:
        assert s.execute(text("SELECT COUNT(*) FROM guild_settings")).scalar_one() == 0
        assert s.get_bind() is store


async def test_aio_runs_off_the_event_loop(store) -> None:
    loop_thread = threading.get_ident()
    seen: list[int] = []

    def slow(*, session: Session) -> int:
        seen.append(threading.get_ident())
        time.sleep(0.2)  # a slow query
        return int(session.execute(text("SELECT 1")).scalar_one())

    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    tick = asyncio.create_task(ticker())
    assert await aio.run(slow) == 1
    tick.cancel()
    assert seen and seen[0] != loop_thread
    assert ticks >= 5, "the loop kept serving while the database worked"
    made = await aio.create_team(guild_id=3, coach_id=4, name="Async Elves", team_list="night elves")
    assert (await aio.get_team(guild_id=3, team=made.id)).name == "Async Elves"


# --- server connections: pinged when idle, not before every use --------------------------------------
def _backend_pid(engine) -> int:  # noqa: ANN001
    with engine.connect() as conn:
        return conn.exec_driver_sql("SELECT pg_backend_pid()").scalar_one()


def _pings(engine) -> list[int]:  # noqa: ANN001
    """Counts the ping statements the engine sends (psycopg's do_ping: a bare ``SELECT 1``)."""
    seen: list[int] = []
    original = engine.dialect.do_ping

    def counting(dbapi_connection):  # noqa: ANN001, ANN202
        seen.append(1)
        return original(dbapi_connection)

    engine.dialect.do_ping = counting
    return seen


def test_a_connection_used_a_moment_ago_is_not_pinged_and_an_idle_dead_one_is_replaced(monkeypatch) -> None:
    import db.engine as db_engine

    engine = make_engine(postgres_url())
    try:
        pings = _pings(engine)
        first = _backend_pid(engine)
        for _ in range(5):  # back to back, as an action's transactions are: one connection, no ping
            assert _backend_pid(engine) == first
        assert pings == []
        # The server drops the connection (a restart, a network cut) while it sits idle in the pool.
        killer = make_engine(postgres_url())
        with killer.begin() as conn:
            assert conn.exec_driver_sql(f"SELECT pg_terminate_backend({int(first)})").scalar_one() is True
        killer.dispose()
        monkeypatch.setattr(db_engine, "IDLE_PING_SECONDS", 0.0)  # as if 10 s had passed
        again = _backend_pid(engine)  # pinged, found dead, replaced: the caller never sees it
        assert again != first and len(pings) == 1
    finally:
        engine.dispose()
