"""A copy of the database that is safe to take while the bot runs (``elfball backup OUT``).

SQLite: SQLite's online backup API (``sqlite3.Connection.backup``) copies every page in one
step inside a read transaction: in WAL mode (ours) writers go on meanwhile and the copy is the
database as of one commit, never half of one. The copy is written beside ``OUT`` under a
temporary name, turned into a single self-contained file (journal mode DELETE), checked with
``PRAGMA integrity_check`` and only then renamed to ``OUT``: an interrupted backup leaves no
``OUT`` that looks good and is not.

The dice key (``<database>.secret``, see ``db.seeds``) is deliberately *not* copied: a backup
alone must not reveal the dice of matches in progress. Keep the key (or ``ELFBALL_SECRET``)
apart, somewhere else; restoring needs both for live matches (finished ones verify without it).

PostgreSQL: the server's own ``pg_dump`` is the tool (consistent while the bot runs, any size);
``postgres_guidance`` says how. We do not run it for the operator: it needs the server's
credentials and version-matched client tools that are his to choose.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url

from .engine import shown_url
from .errors import BackupRefusedError

#: The refusal of a backup (``db.errors.BackupRefusedError``), by the name callers import.
BackupRefused = BackupRefusedError

__all__ = ["BackupRefused", "Backup", "sqlite_path", "backup_sqlite", "postgres_guidance"]


@dataclass(frozen=True)
class Backup:
    source: Path
    out: Path
    size: int
    matches: int
    #: The key file beside the source, which the backup does not hold (None: there is none).
    key_file: Path | None


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL; None if the URL is not SQLite. An in-memory database is refused."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    if not parsed.database or parsed.database == ":memory:" or parsed.query.get("mode") == "memory":
        raise BackupRefusedError("database_memory_there_no_file")
    return Path(parsed.database)


def backup_sqlite(source: Path, out: Path, *, force: bool = False) -> Backup:
    """Copy the SQLite database ``source`` to ``out`` (see the module doc); refuses an existing
    ``out`` unless ``force``, a missing source, and a copy that fails its integrity check."""
    if not source.is_file():
        raise BackupRefusedError("there_no_database_elfball_db",
                            path=str(source))
    if out.is_dir():
        raise BackupRefusedError("backup_out_is_folder", out=str(out))
    if not out.parent.is_dir():
        raise BackupRefusedError("cannot_write_folder_does_exist", out=str(out),
                            folder=str(out.parent))
    if out.exists() and out.resolve() == source.resolve():
        raise BackupRefusedError("database_itself_choose_another_file", out=str(out))
    if out.exists() and not force:
        raise BackupRefusedError("already_exists_choose_new_file", out=str(out))
    partial = out.with_name(f".{out.name}.partial-{os.getpid()}")
    try:
        _copy(source, partial)
        matches = _check(partial)
        os.replace(partial, out)
    except sqlite3.Error as exc:
        raise BackupRefusedError("backup_failed", path=str(source), error=str(exc)) from None
    finally:
        partial.unlink(missing_ok=True)
    key = source.with_name(source.name + ".secret")
    return Backup(source, out, out.stat().st_size, matches, key if key.exists() else None)


def _copy(source: Path, target: Path) -> None:
    # Read-only on the source: the backup never writes to the live database.
    src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)  # every page in one step: one consistent snapshot
            dst.execute("PRAGMA journal_mode = DELETE")  # one file, no -wal beside it
            dst.commit()
        finally:
            dst.close()
        with open(target, "rb+") as f:  # on disk before it is renamed to OUT
            os.fsync(f.fileno())
    finally:
        src.close()


def _check(copy: Path) -> int:
    """Refuse a copy that fails ``PRAGMA integrity_check``; the number of matches it holds."""
    conn = sqlite3.connect(f"{copy.resolve().as_uri()}?mode=ro", uri=True)
    try:
        problems = [row[0] for row in conn.execute("PRAGMA integrity_check")]
        if problems != ["ok"]:
            raise BackupRefusedError("copy_failed_integrity_check_nothing",
                                problem="; ".join(problems[:3]))
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "matches" not in tables:
            return 0
        return int(conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0])
    finally:
        conn.close()


def postgres_guidance(url: str, out: Path) -> str:
    """How to back up a PostgreSQL database with ``pg_dump`` (what ``elfball backup`` prints)."""
    shown = shown_url(url)
    return (
        f"The database is PostgreSQL ({shown}): back it up with the server's pg_dump, which is consistent while "
        "the bot runs:\n"
        f"  pg_dump --format=custom --file {out} --dbname 'postgresql://USER@HOST:PORT/DATABASE'\n"
        "  (the password from ~/.pgpass or PGPASSWORD, not on the command line; use a pg_dump as new as the server)\n"
        "Restore into an empty database with:\n"
        f"  pg_restore --no-owner --dbname 'postgresql://USER@HOST:PORT/NEWDATABASE' {out}\n"
        "The dice key ELFBALL_SECRET is not in the database: keep it apart from the dump, and give the restored "
        "bot the same one."
    )
