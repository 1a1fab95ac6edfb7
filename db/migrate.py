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
import sys
from collections.abc import Sequence
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Engine

from .engine import make_engine

__all__ = ["MIGRATIONS", "alembic_config", "upgrade", "downgrade", "current_revision", "head_revision", "main"]

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


def _run(target: str | Engine | None, action: str, revision: str) -> None:
    engine = target if isinstance(target, Engine) else make_engine(target)
    try:
        with engine.begin() as connection:
            cfg = alembic_config()
            cfg.attributes["connection"] = connection
            getattr(command, action)(cfg, revision)
    finally:
        if engine is not target:
            engine.dispose()


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
    finally:
        if engine is not url:
            engine.dispose()


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


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
