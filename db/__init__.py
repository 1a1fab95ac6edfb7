"""Persistence: servers, coaches, leagues, teams and matches in SQLModel (SQLite or PostgreSQL).

* ``db.engine``: where the database is (``DATABASE_URL`` / ``ELFBALL_DB``) and one session per
  unit of work (``session_scope``), with a provider tests can replace.
* ``db.migrate.upgrade(url)``: Alembic migrations, run at start-up (never ``create_all``);
  ``db.migrate_child``: the same in a child process, so the bot never imports Alembic.
* ``db.matches``: the match store (one active match per channel, optimistic concurrency,
  the append-only log that rebuilds every match in ``service.match_rules``).
* ``db.challenges``: pending challenges, one per channel, answered exactly once;
  ``db.abandon``: abandoning a match when every coach has voted (exactly one caller ends it).
* ``db.posts``: the message the bot last posted for each match (never rolled back to an older
  board; owed boards claimed by one process); ``db.bot_state``: keyed facts shared by the
  bot's processes (the slash-command sync claimed once).
* ``db.teams``: leagues and Basic teams per server; ``db.settings``: server settings and
  coach preferences.
* ``db.aio``: all of the above as coroutines that run in worker threads, for the bot.

No rules live here, and no one's right to act: the service decides (``service.authority``,
``service.match_rules``), the store only keeps what it decided and checks that nothing changed
since it was read.
"""

from .abandon import AbandonVote, abandon_voters, vote_abandon
from .bot_state import claim_command_sync, get_state, release_command_sync
from .challenges import consume_challenge, pending_challenge, propose_challenge, withdraw_challenge
from .engine import (
    database_url,
    make_engine,
    session_scope,
    set_session_provider,
    use_engine,
)
from .errors import (
    ChallengePendingError,
    ChannelBusyError,
    DuplicateNameError,
    InvalidInputError,
    LogCorruptError,
    MatchChangedError,
    MatchNotActiveError,
    MatchNotFoundError,
    NoChallengeError,
    NotAllowedError,
    NotFoundError,
    NotYourSideError,
    StoreError,
    UnknownLeagueError,
    UnknownTeamError,
)
from .posts import claim_owed, get_post, mark_owed, owed_posts, save_post

__all__ = [
    "AbandonVote",
    "ChallengePendingError",
    "ChannelBusyError",
    "DuplicateNameError",
    "InvalidInputError",
    "LogCorruptError",
    "MatchChangedError",
    "MatchNotActiveError",
    "MatchNotFoundError",
    "NoChallengeError",
    "NotAllowedError",
    "NotFoundError",
    "NotYourSideError",
    "StoreError",
    "UnknownLeagueError",
    "UnknownTeamError",
    "abandon_voters",
    "claim_command_sync",
    "claim_owed",
    "consume_challenge",
    "database_url",
    "get_post",
    "get_state",
    "make_engine",
    "mark_owed",
    "owed_posts",
    "pending_challenge",
    "propose_challenge",
    "release_command_sync",
    "save_post",
    "session_scope",
    "set_session_provider",
    "use_engine",
    "vote_abandon",
    "withdraw_challenge",
]
