"""Persistence: servers, coaches, leagues, teams and matches in SQLModel (SQLite or PostgreSQL).

* ``db.engine``: where the database is (``DATABASE_URL`` / ``ELFBALL_DB``) and one session per
  unit of work (``session_scope``), with a provider tests can replace.
* ``db.migrate.upgrade(url)``: Alembic migrations, run at start-up (never ``create_all``).
* ``db.matches``: the match store (one active match per channel, optimistic concurrency,
  the append-only log that rebuilds every match).
* ``db.teams``: leagues and Basic teams per server; ``db.settings``: server settings and
  coach preferences.
* ``db.aio``: all of the above as coroutines that run in worker threads, for the bot.

No rules live here: the engine decides, the store only keeps what it decided.
"""

from .engine import (
    database_url,
    make_engine,
    session_scope,
    set_session_provider,
    use_engine,
)
from .errors import (
    ChannelBusyError,
    DuplicateNameError,
    InvalidInputError,
    LogCorruptError,
    MatchChangedError,
    MatchNotActiveError,
    MatchNotFoundError,
    NotFoundError,
    NotYourSideError,
    StoreError,
    UnknownLeagueError,
    UnknownTeamError,
)
from .matches import Applied, MatchSide
from .migrate import upgrade

__all__ = [
    "Applied",
    "ChannelBusyError",
    "DuplicateNameError",
    "InvalidInputError",
    "LogCorruptError",
    "MatchChangedError",
    "MatchNotActiveError",
    "MatchNotFoundError",
    "MatchSide",
    "NotFoundError",
    "NotYourSideError",
    "StoreError",
    "UnknownLeagueError",
    "UnknownTeamError",
    "database_url",
    "make_engine",
    "session_scope",
    "set_session_provider",
    "upgrade",
    "use_engine",
]
