"""``elfball backup OUT``: a copy of the database that is safe to take while the bot runs.

SQLite (``ELFBALL_DB``): SQLite's online backup, checked, written to ``OUT`` (see ``service.backup``);
the dice key beside the database is not copied, and the command says so. PostgreSQL
(``DATABASE_URL``): it prints how to run ``pg_dump`` and exits 2, having written nothing.
Exit code 0: backed up; 2: refused (``OUT`` exists without ``--force``, no database, ...).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from service.backup import SECRET_ENV, BackupRefused, back_up


def _run(args: argparse.Namespace) -> int:
    out = Path(args.out).expanduser()
    try:
        answer = back_up(out, force=args.force)
    except BackupRefused as exc:
        print(f"elfball backup: {exc}", file=sys.stderr)
        return 2
    if answer.done is None:
        print(answer.guidance, file=sys.stderr)
        return 2
    done = answer.done
    print(f"Backed up {done.source} to {done.out} ({done.matches} matches, {done.size / 1e6:.1f} MB), "
          "checked with PRAGMA integrity_check.")
    if answer.key_in_environment:
        print(f"The dice key is {SECRET_ENV}, which no backup holds: keep it apart, and give a restored bot the same "
              "one.")
    elif done.key_file is not None:
        print(f"The dice key {done.key_file} is NOT in the backup, on purpose (the backup alone cannot predict a live "
              "match's dice): keep a copy of it apart, somewhere else. To restore, put both back side by side "
              f"({done.out.name} as the database, its key as <database>.secret).")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "backup",
        help="copy the database to a file, safely while the bot runs (SQLite; PostgreSQL: pg_dump guidance)",
        description="SQLite: copies the database with SQLite's online backup (the bot may keep playing), checks the "
                    "copy and writes it to OUT. The dice key file <database>.secret is not copied: keep it apart. "
                    "PostgreSQL: prints how to back it up with pg_dump and exits with code 2.",
    )
    p.add_argument("out", metavar="OUT", help="the backup file to write (refused if it exists, unless --force)")
    p.add_argument("--force", action="store_true", help="replace OUT if it exists")
    p.set_defaults(func=_run)
