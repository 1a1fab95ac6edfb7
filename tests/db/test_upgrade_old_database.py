"""A database written by an older Elfball still works after an upgrade: its matches load, play
on and verify, and each match names its rules edition (migration 0007).

``tests/data/old_0004.db`` was written by the code of commit 79a6489 (schema 0004, before rules
editions existed and before seeds were sealed; ``tests/data/make_old_database.py``): one
finished match and one in progress. On SQLite the file itself is upgraded; on PostgreSQL its
rows are loaded into a database migrated to 0004, as that version would have written them."""

from __future__ import annotations

import shutil
import sqlite3

import pytest
from support import DATA
from support.databases import fresh_engine, sessions_on
from sqlalchemy import MetaData, inspect, text
from sqlmodel import Session, select

from cli.main import main
from db import matches as store
from db.engine import make_engine, use_engine
from service.match_rules import MatchSide
from db.migrate import current_revision, downgrade, head_revision, upgrade
from db.models import Match
from service import match_rules
from ai import AICoach
from engine.state import RULES_EDITION
from service.matches import MatchService
from service.verify import load_record, verify

OLD = DATA / "old_0004.db"
ALICE, BOB = 101, 102
FINISHED, LIVE = 10, 20  # their channels


def _load_old_rows(engine) -> None:
    """Copy every row of the old SQLite file into ``engine`` (a PostgreSQL database at 0004)."""
    source = make_engine(f"sqlite:///{OLD}", read_only=True)
    old = MetaData()
    old.reflect(source)
    new = MetaData()
    new.reflect(engine)
    try:
        with source.connect() as src, engine.begin() as dst:
            for table in old.sorted_tables:
                if table.name == "alembic_version":
                    continue
                rows = [dict(r._mapping) for r in src.execute(table.select())]
                if rows:
                    dst.execute(new.tables[table.name].insert(), rows)
                if "id" in table.c:  # explicit ids: the sequence continues after them
                    dst.execute(text(f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                                     f"(SELECT COALESCE(MAX(id), 0) + 1 FROM {table.name}), false)"))
    finally:
        source.dispose()


@pytest.fixture
def old_database(backend, tmp_path):
    """The old database, not yet upgraded, and its URL's engine."""
    if backend == "sqlite":
        path = tmp_path / "elfball.db"
        shutil.copyfile(OLD, path)
        engine = make_engine(f"sqlite:///{path}")
        yield engine
        engine.dispose()
        return
    for engine in fresh_engine(backend, tmp_path, migrate=False):
        upgrade(engine, "0004")
        _load_old_rows(engine)
        yield engine


def _service(engine) -> MatchService:
    scope = sessions_on(engine)

    return MatchService(sessions=scope, render=False)


def test_an_old_database_upgrades_loads_plays_and_verifies(old_database, monkeypatch, capsys) -> None:
    engine = old_database
    assert current_revision(engine) == "0004"
    with engine.connect() as conn:
        old_options = dict(conn.execute(text("SELECT channel_id, options FROM matches")).all())
    assert all("edition" not in (o if isinstance(o, dict) else __import__("json").loads(o))
               for o in old_options.values())  # written before editions existed

    upgrade(engine)
    assert current_revision(engine) == head_revision()
    svc = _service(engine)
    with Session(engine) as s:
        rows = {m.channel_id: m for m in s.exec(select(Match)).all()}
    assert {c: (m.status, m.rules_edition) for c, m in rows.items()} == {FINISHED: ("finished", 1), LIVE: ("active", 1)}
    with engine.connect() as conn:  # every row of the logs came through the upgrade
        logs = dict(conn.execute(text("SELECT match_id, COUNT(*) FROM match_events GROUP BY match_id")).all())
    assert logs == {rows[FINISHED].id: 297, rows[LIVE].id: 41}

    # The match in progress loads as stored, its log rebuilds it, and it plays on (edition 1).
    live = svc.status(LIVE)
    assert live.state.options.edition == 1
    with Session(engine) as s:
        assert match_rules.rebuild(session=s, match_id=live.match.id).to_dict() == live.state.to_dict()
    side = live.deciding_side
    user = {"west": ALICE, "east": BOB}[side]
    after = svc.act(LIVE, user, AICoach().choose(live.state, side))
    assert after.match.version == live.match.version + 1
    with Session(engine) as s:
        assert match_rules.rebuild(session=s, match_id=live.match.id).to_dict() == after.state.to_dict()
        assert store.get_match(session=s, match_id=live.match.id).rules_edition == 1

    # The finished match verifies against its seed, with the rulings it was played under.
    with Session(engine) as s:
        record = load_record(session=s, match_id=rows[FINISHED].id)
    assert verify(record).ok
    if engine.dialect.name == "sqlite":  # and so does the commissioner's command
        monkeypatch.delenv("DATABASE_URL", raising=False)
        monkeypatch.setenv("ELFBALL_DB", str(engine.url.database))
        old = use_engine(None)
        try:
            assert main(["verify", "--match", str(rows[FINISHED].id)]) == 0
        finally:
            use_engine(old)
        assert "Consistent with itself only" in capsys.readouterr().out

    # A new match plays today's edition, and says so.
    new = svc.start(guild_id=1, channel_id=30, west=MatchSide(ALICE, team_list="gnolls"),
                    east=MatchSide(BOB, team_list="sarcos"))
    assert new.match.rules_edition == RULES_EDITION == new.state.options.edition


def test_0007_takes_the_edition_from_the_options_and_downgrades(backend, tmp_path) -> None:
    for engine in fresh_engine(backend, tmp_path):
        svc = _service(engine)
        today = svc.start(guild_id=1, channel_id=1, west=MatchSide(ALICE, team_list="gnolls"),
                          east=MatchSide(BOB, team_list="sarcos")).match
        before = svc.start(guild_id=1, channel_id=2, west=MatchSide(ALICE, team_list="gnolls"),
                           east=MatchSide(BOB, team_list="sarcos"), options={"edition": 1}).match
        assert (today.rules_edition, before.rules_edition) == (RULES_EDITION, 1)
        downgrade(engine, "0005")
        assert "rules_edition" not in {c["name"] for c in inspect(engine).get_columns("matches")}
        upgrade(engine)
        with Session(engine) as s:
            assert store.get_match(session=s, match_id=today.id).rules_edition == RULES_EDITION
            assert store.get_match(session=s, match_id=before.id).rules_edition == 1


def test_down_to_0001_and_up_again_keeps_every_match_log(old_database) -> None:
    # Migration 0002 alters ``matches`` with a batch copy on SQLite: the drop of the old table
    # used to cascade to ``match_events`` and delete every log (foreign keys now off meanwhile).
    engine = old_database

    def logs() -> int:
        with engine.connect() as conn:
            return int(conn.execute(text("SELECT COUNT(*) FROM match_events")).scalar_one())

    assert logs() == 338
    downgrade(engine, "0001")
    assert logs() == 338
    upgrade(engine)
    assert logs() == 338 and current_revision(engine) == head_revision()
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":  # the keys are on again for the bot's sessions
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar_one() == 1
    with Session(engine) as s:
        live = store.active_match(session=s, channel_id=LIVE)
        assert match_rules.rebuild(session=s, match_id=live.id).to_dict() == live.state


def test_the_fixture_is_the_old_schema() -> None:
    conn = sqlite3.connect(f"{OLD.as_uri()}?mode=ro", uri=True)
    try:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [("0004",)]
        assert conn.execute("SELECT COUNT(*) FROM matches").fetchone() == (2,)
    finally:
        conn.close()
