"""The bot's front door: every data function as a coroutine that never blocks the event loop.

Choice: the sync engine in worker threads (``asyncio.to_thread``), not SQLAlchemy's async
engine. Each call opens one short-lived session from ``db.engine.session_scope`` *in the
worker thread*, runs the sync function and closes the session; ``run`` does the same for any
function of a session (``service.match_rules.submit``, which applies the rules there, so the
CPU work is off the loop too). One code path
serves the bot, the command line and the tests, with the plain drivers (sqlite3, psycopg).

Concurrency: the loop's default executor bounds how many run at once (``min(32, cpus + 4)``
threads); the connection pool (5 + 10 overflow) is larger than that on small machines. A bot
that wants more can give its loop a bigger executor (``loop.set_default_executor``).

    match = await aio.active_match(channel_id=cid)
    done = await aio.run(match_rules.submit, match_id=match.id, by_side="west", actor_user_id=uid,
                         command=cmd, expected_version=match.version)
"""

from __future__ import annotations

import asyncio
import functools
import inspect
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from . import abandon as abandoning
from . import bot_state, challenges, matches, posts, settings, teams
from .engine import session_scope

__all__ = [
    "run",
    # matches
    "get_match",
    "active_match",
    "list_matches",
    "due_matches",
    "match_events",
    "claim_reminder",
    "abandon",
    "finish",
    # teams and leagues
    "create_league",
    "get_league",
    "list_leagues",
    "create_team",
    "get_team",
    "list_teams",
    # challenges, abandon votes, posts, bot state
    "propose_challenge",
    "pending_challenge",
    "withdraw_challenge",
    "vote_abandon",
    "get_post",
    "save_post",
    "mark_owed",
    "owed_posts",
    "claim_owed",
    "claim_command_sync",
    "release_command_sync",
    # settings
    "get_guild_settings",
    "update_guild_settings",
    "get_coach_preferences",
    "update_coach_preferences",
]

T = TypeVar("T")


async def run(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """Run ``fn(*args, session=..., **kwargs)`` in a worker thread, in a session of its own."""

    def unit_of_work() -> T:
        with session_scope() as session:
            return fn(*args, session=session, **kwargs)

    return await asyncio.to_thread(unit_of_work)


def _off_loop(fn: Callable[..., T]) -> Callable[..., Coroutine[Any, Any, T]]:
    @functools.wraps(fn)
    async def wrapper(*args: Any, **kwargs: Any) -> T:
        return await run(fn, *args, **kwargs)

    sig = inspect.signature(fn)
    wrapper.__signature__ = sig.replace(  # type: ignore[attr-defined]  # functools.wraps' result takes a signature at run time
        parameters=[p for p in sig.parameters.values() if p.name != "session"]
    )
    return wrapper


get_match = _off_loop(matches.get_match)
active_match = _off_loop(matches.active_match)
list_matches = _off_loop(matches.list_matches)
due_matches = _off_loop(matches.due_matches)
match_events = _off_loop(matches.match_events)
claim_reminder = _off_loop(matches.claim_reminder)
abandon = _off_loop(matches.abandon)
finish = _off_loop(matches.finish)

create_league = _off_loop(teams.create_league)
get_league = _off_loop(teams.get_league)
list_leagues = _off_loop(teams.list_leagues)
create_team = _off_loop(teams.create_team)
get_team = _off_loop(teams.get_team)
list_teams = _off_loop(teams.list_teams)

# consume_challenge has no coroutine: it must share its transaction with the match it starts.
propose_challenge = _off_loop(challenges.propose_challenge)
pending_challenge = _off_loop(challenges.pending_challenge)
withdraw_challenge = _off_loop(challenges.withdraw_challenge)
vote_abandon = _off_loop(abandoning.vote_abandon)
get_post = _off_loop(posts.get_post)
save_post = _off_loop(posts.save_post)
mark_owed = _off_loop(posts.mark_owed)
owed_posts = _off_loop(posts.owed_posts)
claim_owed = _off_loop(posts.claim_owed)
claim_command_sync = _off_loop(bot_state.claim_command_sync)
release_command_sync = _off_loop(bot_state.release_command_sync)

get_guild_settings = _off_loop(settings.get_guild_settings)
update_guild_settings = _off_loop(settings.update_guild_settings)
get_coach_preferences = _off_loop(settings.get_coach_preferences)
update_coach_preferences = _off_loop(settings.update_coach_preferences)
