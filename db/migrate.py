"""Schema migrations with Alembic, configured in code so they run from an installed package.

At startup call ``upgrade()`` (never ``create_all``): it brings any database, new or made by
an older version, to the newest revision. ``python -m db.migrate`` offers the same to a shell::

    python -m db.migrate upgrade [REVISION]      # default: head
    python -m db.migrate downgrade REVISION
    python -m db.migrate current
    python -m db.migrate revision -m "add x" [--autogenerate]   # for developers

The database is ``DATABASE_URL`` / ``ELFBALL_DB`` (see ``db.engine``) unless ``--url`` is given.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from sqlalchemy import inspect
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError

from .engine import SQLITE_BUSY_TIMEOUT_MS, make_engine, shown_url, unusable
from .errors import StoreError, UnusableDatabaseError
from .settings import forget_remembered

__all__ = ["MIGRATIONS", "alembic_config", "upgrade", "downgrade", "current_revision", "head_revision", "open_database",
           "check_schema", "main", "child_upgrade", "CHILD_REFUSED"]

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def alembic_config(url: str | None = None) -> Config:
    """An Alembic config pointing at the packaged migrations (and at ``url`` if given)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("version_path_separator", "os")
    cfg.set_main_option("file_template", "%%(rev)s_%%(slug)s")
    if url is not None:
        cfg.attributes["url"] = url
    return cfg


def _known_revisions(connection: Connection) -> tuple[str, ...]:
    """The revisions the database is at, refused when this code cannot vouch for its schema:
    tables but no ``alembic_version`` (not made by these migrations), or a revision these
    migrations do not have (a newer Elfball's: guessing could corrupt it)."""
    where = shown_url(connection.engine.url)
    heads = MigrationContext.configure(connection).get_current_heads()
    if not heads:
        tables = [t for t in inspect(connection).get_table_names() if t != "alembic_version"]
        if tables:
            raise UnusableDatabaseError(
                "database_tables_but_no_alembic", where=where, tables=", ".join(sorted(tables)[:5]))
        return ()
    script = ScriptDirectory.from_config(alembic_config())
    for rev in heads:
        try:
            script.get_revision(rev)
        except CommandError:
            raise UnusableDatabaseError(
                "database_revision_which_version_elfball", where=where, revision=rev,
                head=head_revision()) from None
    return tuple(heads)


def check_schema(connection: Connection) -> None:
    """Refuse to read a database that is not at this code's newest revision (without migrating it)."""
    heads = _known_revisions(connection)
    if heads != (head_revision(),):
        where = shown_url(connection.engine.url)
        if not heads:
            raise UnusableDatabaseError("database_empty_there_nothing_read", where=where)
        raise UnusableDatabaseError(
            "database_revision_older_than_code", where=where, revision=", ".join(heads),
            head=head_revision())


#: Key of the PostgreSQL advisory lock held while migrating (any constant of our own: "ELFB").
MIGRATION_LOCK_KEY = 0x454C4642
#: How long a SQLite process starting with others waits for their migrations (the write lock),
#: longer than an ordinary write's busy timeout: several processes started together each migrate
#: in turn, and on a busy machine the whole schema takes seconds, so the last in line waited more
#: than the ordinary 10 s and failed with "database is locked".
MIGRATION_WAIT_MS = 120_000
#: Alembic's context is process-global: one migration at a time within a process.
_IN_PROCESS = threading.Lock()


def _lock_schema(connection: Connection) -> None:
    """Take the database's migration lock for this transaction, so several processes starting
    together migrate one after the other: the first upgrades, the others find the schema at head
    when they get the lock (they read the revision only then) and do nothing.

    PostgreSQL: a transaction-scoped advisory lock (released at commit or rollback, even if the
    process dies). SQLite: BEGIN IMMEDIATE takes the write lock now rather than at the first
    write, and puts the DDL in the transaction (Python's sqlite3 would otherwise run CREATE TABLE
    outside one): a second process waits on the busy timeout, then sees the finished schema."""
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK_KEY})")
    elif connection.dialect.name == "sqlite":
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def _check_foreign_keys(connection: Connection) -> None:
    """Refuse (roll back) a SQLite migration that left a row pointing at nothing."""
    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
    if broken:
        raise UnusableDatabaseError("migration_would_leave_rows_pointing", where=shown_url(connection.engine.url), n=len(broken),
                                    row=tuple(broken[0]))


def _run(target: str | Engine | None, action: str, revision: str) -> None:
    engine = target if isinstance(target, Engine) else make_engine(target)
    try:
        with _IN_PROCESS, engine.connect() as connection:
            sqlite = connection.dialect.name == "sqlite"
            if sqlite:
                # SQLite alters a table by copying it (Alembic's batch mode) and dropping the old
                # one; with foreign keys on, that DROP deletes every row referencing it (ON DELETE
                # CASCADE: each match's whole log). SQLite's own procedure: keys off outside the
                # transaction, ``foreign_key_check`` before commit, keys on again after.
                connection.exec_driver_sql(f"PRAGMA busy_timeout = {MIGRATION_WAIT_MS}")
                connection.exec_driver_sql("PRAGMA foreign_keys = OFF")
                connection.commit()
            try:
                with connection.begin():
                    _lock_schema(connection)
                    _known_revisions(connection)
                    cfg = alembic_config()
                    cfg.attributes["connection"] = connection
                    getattr(command, action)(cfg, revision)
                    if sqlite:
                        _check_foreign_keys(connection)
            finally:
                if sqlite:
                    connection.exec_driver_sql("PRAGMA foreign_keys = ON")
                    connection.exec_driver_sql(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
                    connection.commit()
        forget_remembered(engine)  # a migration may rewrite the settings rows it remembered
    except DBAPIError as exc:  # not a database, unreachable, refused, read-only
        raise unusable(exc, engine) from exc
    finally:
        if engine is not target:
            engine.dispose()


def open_database(url: str | None = None, *, write: bool = True) -> Engine:
    """An engine on the database at ``url`` (None: the environment's), checked before use.

    ``write``: migrate it to the newest revision first (the bot, the console). Otherwise (checking
    a match, any read-only command) open it read-only and never migrate: it must already be at
    the newest revision. Any trouble is an ``UnusableDatabaseError`` that says what is wrong."""
    engine = make_engine(url, read_only=not write)
    try:
        if write:
            upgrade(engine)
        else:
            with engine.connect() as connection:
                check_schema(connection)
    except DBAPIError as exc:
        engine.dispose()
        raise unusable(exc, engine) from exc
    except BaseException:
        engine.dispose()
        raise
    return engine


def upgrade(url: str | Engine | None = None, revision: str = "head") -> None:
    """Migrate the database at ``url`` (an engine, a URL, or None for the environment's) to ``revision``."""
    _run(url, "upgrade", revision)


def downgrade(url: str | Engine | None, revision: str) -> None:
    _run(url, "downgrade", revision)


def current_revision(url: str | Engine | None = None) -> str | None:
    """The revision the database is at (None for an empty database)."""
    engine = url if isinstance(url, Engine) else make_engine(url)
    try:
        with engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    except DBAPIError as exc:
        raise unusable(exc, engine) from exc
    finally:
        if engine is not url:
            engine.dispose()


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


#: ``child_upgrade``'s exit status when it refused (``db.migrate_child.REFUSED``).
CHILD_REFUSED = 3


def child_upgrade(url: str, revision: str) -> int:
    """``upgrade`` in the child process ``db.migrate_child`` starts: a refusal is printed as one
    JSON line (its error's class, key and values) and the status is ``CHILD_REFUSED``, so the
    parent raises the same refusal; anything else ends the child with its traceback."""
    try:
        upgrade(url, revision)
    except StoreError as exc:
        print(json.dumps({"type": type(exc).__name__, "key": exc.key, "values": exc.values}, default=str), flush=True)
        return CHILD_REFUSED
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m db.migrate", description="Elfball database migrations")
    parser.add_argument("--url", help="database URL (default: DATABASE_URL, else SQLite at ELFBALL_DB)")
    sub = parser.add_subparsers(dest="action", required=True)
    up = sub.add_parser("upgrade")
    up.add_argument("revision", nargs="?", default="head")
    down = sub.add_parser("downgrade")
    down.add_argument("revision")
    sub.add_parser("current")
    rev = sub.add_parser("revision")
    rev.add_argument("-m", "--message", required=True)
    rev.add_argument("--autogenerate", action="store_true")
    rev.add_argument("--rev-id")
    args = parser.parse_args(argv)
    try:
        return _main(args)
    except UnusableDatabaseError as exc:
        print(f"python -m db.migrate: {exc}", file=sys.stderr)
        return 2


def _main(args: argparse.Namespace) -> int:
    if args.action == "upgrade":
        upgrade(args.url, args.revision)
    elif args.action == "downgrade":
        downgrade(args.url, args.revision)
    elif args.action == "current":
        print(current_revision(args.url) or "(empty database)")
    else:
        cfg = alembic_config(args.url)
        command.revision(cfg, message=args.message, autogenerate=args.autogenerate, rev_id=args.rev_id)
    return 0


if __name__ == "__main__":
    sys.exit(main())
