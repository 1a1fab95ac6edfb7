"""Databases for the tests: the same tests on SQLite and on PostgreSQL.

The fixtures (``backend``, ``db_engine``, ``store``, ``shared_postgres``) are in
``tests/conftest.py``, ``league`` in ``tests/service/conftest.py``. ``backend`` runs a test once per backend. SQLite is a fresh file in
``tmp_path`` (WAL, as in production). PostgreSQL needs ``ELFBALL_TEST_POSTGRES_URL`` (``.ci/run``
starts a server and sets it): the tests share one migrated schema of their own, emptied
(TRUNCATE) before each test and dropped at the end; tests that need an empty database get a
schema of their own (``fresh_engine``). Without the variable the PostgreSQL variants are skipped
with the reason shown, except under CI, where they fail.

Here are the plain helpers: ``postgres_url``, ``fresh_engine``, ``migrated_sqlite`` (a copy of a
database migrated once per test process), sessions, row counts, the statements an engine runs
and races.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session

from db.engine import make_engine
from db.migrate import upgrade

PG_ENV = "ELFBALL_TEST_POSTGRES_URL"
PG_SKIP = "PostgreSQL: set ELFBALL_TEST_POSTGRES_URL (CI does)"
BACKENDS = ["sqlite", "postgresql"]


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def postgres_url() -> str:
    """The test server's URL; skips the test locally without one, fails it under CI."""
    url = os.environ.get(PG_ENV, "").strip()
    if not url:
        if in_ci():
            pytest.fail(f"{PG_SKIP}: under CI the PostgreSQL tests must run, but {PG_ENV} is not set")
        pytest.skip(PG_SKIP)
    return url


_template: dict[str, Path] = {}
_template_lock = threading.Lock()


def migrated_sqlite(path: Path) -> Engine:
    """An engine on a new SQLite database at ``path``, at the newest revision: a copy of one
    this test process migrated once. The same file the migrations make (WAL and all), without
    running them for every test: their commits cost ~1 s of disk syncs each on a busy machine.
    The migrations themselves are tested in tests/db (``upgrade`` on empty and old databases)."""
    with _template_lock:
        template = _template.get("sqlite")
        if template is None:
            folder = Path(tempfile.mkdtemp(prefix="elfball-tests-"))
            atexit.register(shutil.rmtree, folder, True)
            template = folder / "migrated.db"
            engine = make_engine(f"sqlite:///{template}")
            upgrade(engine)
            with engine.connect() as conn:  # everything in the main file, none left in the WAL
                conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
            engine.dispose()
            _template["sqlite"] = template
    shutil.copyfile(template, path)
    return make_engine(f"sqlite:///{path}")


def fresh_engine(backend: str, tmp_path, *, migrate: bool = True) -> Iterator[Engine]:
    """A new, empty database on ``backend`` (migrated to head unless ``migrate`` is False)."""
    if backend == "sqlite":
        path = tmp_path / "elfball.db"
        engine = migrated_sqlite(path) if migrate else make_engine(f"sqlite:///{path}")
        yield engine
        engine.dispose()
        return
    url = postgres_url()
    schema = f"test_{uuid.uuid4().hex[:16]}"
    admin = make_engine(url)
    with admin.begin() as conn:
        conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    engine = make_engine(url, connect_args={"options": f"-csearch_path={schema}"})
    try:
        if migrate:
            upgrade(engine)
        yield engine
    finally:
        engine.dispose()
        with admin.begin() as conn:
            conn.exec_driver_sql("SET LOCAL lock_timeout = '20s'")  # a leaked transaction fails loudly
            conn.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
        admin.dispose()


def session(engine: Engine) -> Session:
    return Session(engine, expire_on_commit=False)


def sessions_on(engine: Engine) -> Callable[[], AbstractContextManager[Session]]:
    """A session factory on ``engine``, as ``MatchService(sessions=...)`` takes one."""
    @contextmanager
    def scope() -> Iterator[Session]:
        with session(engine) as s:
            yield s

    return scope


def count(engine: Engine, table: str) -> int:
    with engine.connect() as conn:
        return int(conn.exec_driver_sql(f"SELECT COUNT(*) FROM {table}").scalar_one())


@contextmanager
def statements_on(engine: Engine) -> Iterator[list[str]]:
    """The SQL statements ``engine`` runs while the block runs, in order."""
    from sqlalchemy import event

    seen: list[str] = []

    def count(_conn, _cursor, statement, *_args) -> None:  # type: ignore[no-untyped-def]
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", count)


def at_once(*calls: Callable[[], object], catch: tuple[type[BaseException], ...] = (Exception,)) -> list[object]:
    """Run the calls in threads released together by a barrier; each result in order (an
    exception of ``catch`` raised is the result)."""
    barrier = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait(timeout=30)
        try:
            results[i] = calls[i]()
        except catch as exc:  # the caller inspects it
            results[i] = exc

    pool = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in pool:
        t.start()
    for t in pool:
        t.join(60)
    assert not any(t.is_alive() for t in pool), "a racer hung (a deadlock?)"
    return results


def race(engine: Engine, work: Callable[[Session, int], object], threads: int) -> list[object]:
    """Run ``work(session, i)`` in ``threads`` threads, each with its own session, released together;
    the results in thread order (an exception raised is the result)."""

    def call(i: int) -> Callable[[], object]:
        def go() -> object:
            with session(engine) as s:
                return work(s, i)
        return go

    return at_once(*(call(i) for i in range(threads)))
