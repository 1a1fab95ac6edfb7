"""The bot's start migrates in a child process (db.migrate_child): the database ends at the newest
revision, a refusal reads as it would have in the bot's own process, and the bot never holds
Alembic (with Mako and Pygments) in its memory."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from sqlalchemy import text

from db.engine import make_engine
from db.errors import UnusableDatabaseError
from db.migrate import CHILD_REFUSED, current_revision, head_revision
from db.migrate_child import REFUSED, upgrade_in_child
from support import ROOT

# What `elfball bot` does before it connects, in a fresh process, then what it has imported.
BOT_START = """
import importlib, json, sys
import bot.app
from service import operations
operations.upgrade_database()
for extension in bot.app.EXTENSIONS:  # every cog, as the bot loads them (/ladder's once brought Alembic)
    importlib.import_module(extension)
print(json.dumps(sorted({m.split('.')[0] for m in sys.modules} & {'alembic', 'mako', 'pygments'})))
"""


def test_the_bot_starts_on_an_empty_database_at_the_newest_revision_without_importing_alembic(tmp_path) -> None:
    path = tmp_path / "elfball.db"
    env = {**os.environ, "ELFBALL_DB": str(path), "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
    env.pop("DATABASE_URL", None)
    done = subprocess.run([sys.executable, "-c", BOT_START], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []
    engine = make_engine(f"sqlite:///{path}")
    try:
        assert current_revision(engine) == head_revision()
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM matches")).scalar_one() == 0
    finally:
        engine.dispose()


def test_a_database_these_migrations_did_not_make_is_refused_in_words_as_before(tmp_path) -> None:
    path = tmp_path / "other.db"
    engine = make_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    engine.dispose()
    with pytest.raises(UnusableDatabaseError) as refused:
        upgrade_in_child(f"sqlite:///{path}")
    assert refused.value.key == "database_tables_but_no_alembic"
    assert refused.value.values["tables"] == "invoices"
    assert "invoices" in str(refused.value) and "invoices" in refused.value.text("fr")
    assert str(refused.value) != refused.value.text("fr")


@pytest.mark.slow  # child interpreters (~1 s of CPU each)
def test_a_second_start_finds_the_schema_at_head_and_changes_nothing(tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'elfball.db'}"
    upgrade_in_child(url)
    upgrade_in_child(url)
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all() == [head_revision()]
    finally:
        engine.dispose()


@pytest.mark.slow  # child interpreters (~1 s of CPU each)
def test_a_crash_in_the_child_is_an_error_with_its_traceback_in_the_log(tmp_path, caplog) -> None:
    url = f"sqlite:///{tmp_path / 'elfball.db'}"
    with pytest.raises(RuntimeError, match="failed in its child process"):
        upgrade_in_child(url, "no-such-revision")  # not a refusal: Alembic's own error, a bug here
    assert "Traceback" in caplog.text and "no-such-revision" in caplog.text
    assert current_revision(url) is None


def test_the_child_and_the_parent_agree_on_the_refusal_status() -> None:
    assert REFUSED == CHILD_REFUSED != 0
