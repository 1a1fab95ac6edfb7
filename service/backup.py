"""``elfball backup``: a copy of the bot's database that is safe to take while the bot runs.

SQLite (``ELFBALL_DB``): SQLite's online backup, checked, written to the file asked for
(``db.backup`` does the copying); the dice key is not copied, and the answer says where it is.
PostgreSQL (``DATABASE_URL``): nothing is written; the answer says how to run ``pg_dump``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from db.backup import Backup, BackupRefused, backup_sqlite, postgres_guidance, sqlite_path
from db.engine import database_url
from db.seeds import SECRET_ENV

__all__ = ["SECRET_ENV", "Backup", "BackupRefused", "BackupAnswer", "back_up"]


@dataclass(frozen=True)
class BackupAnswer:
    """What ``back_up`` did: the SQLite copy it made (``done``), or, for PostgreSQL, how to make
    one (``guidance``). ``key_in_environment``: the dice key is ``SECRET_ENV``, which no file
    backup holds."""

    done: Backup | None = None
    guidance: str | None = None
    key_in_environment: bool = False


def back_up(out: Path, *, force: bool = False, environ: Mapping[str, str] | None = None) -> BackupAnswer:
    """Back the environment's database up to ``out`` (refused if it exists, unless ``force``);
    ``BackupRefused`` says why a backup could not be made."""
    env = os.environ if environ is None else environ
    url = database_url(env)
    path = sqlite_path(url)
    if path is None:
        return BackupAnswer(guidance=postgres_guidance(url, out))
    done = backup_sqlite(path, out, force=force)
    return BackupAnswer(done=done, key_in_environment=bool(env.get(SECRET_ENV, "").strip()))
