"""Several processes starting together on one empty database: each runs the upgrade at once,
all succeed, and the schema is built once (PostgreSQL: an advisory lock; SQLite: BEGIN IMMEDIATE)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from support.databases import at_once, fresh_engine
from sqlalchemy import inspect, text

from db.migrate import current_revision, head_revision, upgrade
from support import ROOT

pytestmark = pytest.mark.slow  # several processes migrating at once

RACERS = 4


@pytest.fixture
def empty_db(backend, tmp_path):
    yield from fresh_engine(backend, tmp_path, migrate=False)


def _url(engine) -> str:
    """The fixture's database as a URL another process can use (PostgreSQL: its test schema)."""
    url = engine.url.render_as_string(hide_password=False)
    if engine.dialect.name == "postgresql":
        with engine.connect() as conn:
            schema = conn.execute(text("SELECT current_schema()")).scalar_one()
        url += f"?options=-csearch_path%3D{schema}"
    return url


@pytest.mark.parametrize("upgrade_from", ["db.migrate", "db.migrate_child"])
def test_processes_starting_together_migrate_once(empty_db, tmp_path, upgrade_from) -> None:
    url = _url(empty_db)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # Each racer imports everything first, then waits for the go file: they upgrade together
    # (in their own process, or as the bot does, each in a child process of its own).
    go = tmp_path / "go"
    upgrade = "upgrade_in_child as upgrade" if upgrade_from == "db.migrate_child" else "upgrade"
    script = (f"import sys, time, pathlib; from {upgrade_from} import {upgrade}\n"
              "go = pathlib.Path(sys.argv[2])\n"
              "while not go.exists(): time.sleep(0.01)\n"
              "upgrade(sys.argv[1])\n")
    procs = [subprocess.Popen([sys.executable, "-c", script, url, str(go)], cwd=ROOT, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(RACERS)]
    try:
        time.sleep(3.0)  # the imports take about a second each on a busy machine
        go.touch()
        outs = [p.communicate(timeout=120) for p in procs]
    finally:
        go.unlink(missing_ok=True)
        for p in procs:
            if p.poll() is None:
                p.kill()
    assert [p.returncode for p in procs] == [0] * RACERS, [err[-600:] for _, err in outs]
    assert current_revision(empty_db) == head_revision()
    with empty_db.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all() == [head_revision()]
    assert "matches" in inspect(empty_db).get_table_names()


def test_threads_of_one_process_migrate_once(empty_db) -> None:
    # Alembic's context is process-global: the upgrade serialises its own threads too.
    assert at_once(*(lambda: upgrade(empty_db) for _ in range(3))) == [None] * 3
    assert current_revision(empty_db) == head_revision()
