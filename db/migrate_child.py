"""The schema's migrations run in a short child process, so the caller never imports Alembic.

A running bot needs Alembic (with Mako and Pygments, which it imports) for one thing: bringing
the database to the newest revision at start-up. Imported, they stay in the bot's memory for
its whole life (~12 MB of modules, more once the revisions are loaded; docs/memory.md), so
``elfball bot`` runs ``db.migrate.upgrade`` in a child interpreter instead and waits for it.
Everything ``db.migrate`` guarantees holds there unchanged: several processes starting together
migrate once (the PostgreSQL advisory lock, SQLite's ``BEGIN IMMEDIATE`` with its long wait,
``MIGRATION_WAIT_MS``). A refusal in the child (``UnusableDatabaseError`` and its kin) is raised
again in the caller with the same key and values, so it reads the same in any language.

The child gets this process's ``sys.path`` (as ``multiprocessing``'s spawn does), so it migrates
with the same code, and the database's URL on its standard input, never on its command line
(which any user of the machine can read, password included).
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys

from . import errors
from .engine import database_url

__all__ = ["upgrade_in_child", "REFUSED"]

log = logging.getLogger(__name__)

#: What the child runs: this process's import path, then ``db.migrate.child_upgrade`` (both
#: from its standard input). Only the child imports ``db.migrate``, hence Alembic.
_CHILD = ("import json, sys; asked = json.load(sys.stdin); sys.path[:] = asked['path']; "
          "from db.migrate import child_upgrade; sys.exit(child_upgrade(asked['url'], asked['revision']))")
#: The child's exit status when it refused (its stdout's last line says what).
REFUSED = 3  # db.migrate.CHILD_REFUSED: the same number, kept apart so this module never imports it


def upgrade_in_child(url: str | None = None, revision: str = "head") -> None:
    """``db.migrate.upgrade(url, revision)`` in a child process (None: the environment's database)."""
    asked = {"path": sys.path, "url": url or database_url(), "revision": revision}
    done = subprocess.run([sys.executable, "-c", _CHILD], input=json.dumps(asked), capture_output=True, text=True,
                          check=False)
    if done.returncode == 0:
        return
    if done.returncode == REFUSED and done.stdout.strip():
        said = json.loads(done.stdout.strip().splitlines()[-1])
        kind = getattr(errors, said["type"], None)
        if not (isinstance(kind, type) and issubclass(kind, errors.StoreError)):
            kind = errors.UnusableDatabaseError
        raise kind(said["key"], **said["values"])
    # Not a refusal: a bug or a crash. Its traceback is the child's; it goes to the log whole.
    log.error("the database migration's child process failed (exit status %s):\n%s", done.returncode,
              done.stderr.strip()[-4000:])
    raise RuntimeError("the database migration failed in its child process (its error is logged above)",
                       done.returncode)
