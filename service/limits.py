"""A server's limits: how often a member may run the commands that cost, and how much he and his
server may hold at once. The one place that decides them, for the bot and the console alike.

Two kinds:

* **cooldowns** (seconds between two uses of a costly command by one member on one server): a
  challenge, a replay (``/match replay``, ``/league replay``), a league's export, a team's
  creation, a league's creation. The bot counts them (discord.py's cooldowns, keyed by server
  and member); this module says how long they are.
* **caps** (how many at once): active matches against the AI coach, pending challenges, teams,
  leagues; each per member and per server. They are counts in the database, checked in the
  transaction that adds the row, under ``db.limits.hold_count`` so that two commands at the
  same instant cannot both pass a count of 2 under a cap of 3.

Each limit has a built-in value, which the operator may change with ``ELFBALL_LIMIT_<NAME>``
(e.g. ``ELFBALL_LIMIT_AI_MATCHES=5``). That value is both the default and the loosest a server
may choose: a server (Manage Server, ``/limits``) may make a limit stricter (a lower cap, a
longer cooldown), never looser, and may set it back up to the operator's value.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Literal

from sqlmodel import Session

from db import limits as counts
from db import settings as db_settings
from db.engine import session_scope

from .matches import AI_COACH_ID
from .refusal import Refused

__all__ = ["Limit", "LIMITS", "COOLDOWNS", "CAPS", "MAX_COOLDOWN", "ServerLimits", "operator_value", "server_limits",
           "change_limit", "cooldown_seconds", "require_ai_match_room", "require_challenge_room", "require_team_room",
           "require_league_room", "retry_at", "check_room"]

log = logging.getLogger("elfball.limits")
Sessions = Callable[[], AbstractContextManager[Session]]
#: The longest cooldown a server may set: one day.
MAX_COOLDOWN = 86_400
#: Where a server's choices are kept in its settings (``GuildSettings.settings``).
_KEY = "limits"


@dataclass(frozen=True)
class Limit:
    """One limit: ``kind`` "cap" (at most this many at once) or "cooldown" (seconds between two
    uses by one member); ``scope`` "member" or "server"; ``value`` the built-in value (the
    operator's unless ``ELFBALL_LIMIT_<NAME>`` says otherwise)."""

    name: str
    kind: Literal["cap", "cooldown"]
    scope: Literal["member", "server"]
    value: int

    @property
    def variable(self) -> str:
        return f"ELFBALL_LIMIT_{self.name.upper()}"

    def stricter_or_equal(self, value: int, than: int) -> bool:
        return value <= than if self.kind == "cap" else value >= than


#: Every limit, in the order ``/limits`` shows them.
LIMITS: tuple[Limit, ...] = (
    Limit("challenge_cooldown", "cooldown", "member", 10),
    Limit("replay_cooldown", "cooldown", "member", 30),
    Limit("export_cooldown", "cooldown", "member", 300),
    Limit("team_cooldown", "cooldown", "member", 30),
    Limit("league_cooldown", "cooldown", "member", 300),
    Limit("ai_matches", "cap", "member", 3),
    Limit("server_ai_matches", "cap", "server", 30),
    Limit("challenges", "cap", "member", 3),
    Limit("server_challenges", "cap", "server", 50),
    Limit("teams", "cap", "member", 10),
    Limit("server_teams", "cap", "server", 500),
    Limit("leagues", "cap", "member", 3),
    Limit("server_leagues", "cap", "server", 20),
)
BY_NAME: dict[str, Limit] = {limit.name: limit for limit in LIMITS}
COOLDOWNS = tuple(limit.name for limit in LIMITS if limit.kind == "cooldown")
CAPS = tuple(limit.name for limit in LIMITS if limit.kind == "cap")


def operator_value(name: str, environ: Mapping[str, str] | None = None) -> int:
    """The operator's value of a limit: ``ELFBALL_LIMIT_<NAME>`` if it is a whole number (0 or
    more; a cooldown at most a day), else the built-in value."""
    limit = BY_NAME[name]
    raw = (os.environ if environ is None else environ).get(limit.variable, "").strip()
    if not raw:
        return limit.value
    if raw.isascii() and raw.isdigit() and (limit.kind == "cap" or int(raw) <= MAX_COOLDOWN):
        return int(raw)
    log.warning("%s=%r is not a whole number of %s; using %d", limit.variable, raw,
                "seconds up to a day" if limit.kind == "cooldown" else "items", limit.value)
    return limit.value


@dataclass(frozen=True)
class ServerLimits:
    """A server's limits in force (``values``), the operator's (``operator``) and which ones the
    server chose (``chosen``)."""

    values: Mapping[str, int]
    operator: Mapping[str, int]
    chosen: frozenset[str]

    def __getitem__(self, name: str) -> int:
        return self.values[name]


def _in_force(stored: Mapping[str, object]) -> ServerLimits:
    values: dict[str, int] = {}
    operator: dict[str, int] = {}
    chosen: set[str] = set()
    for limit in LIMITS:
        top = operator[limit.name] = operator_value(limit.name)
        mine = stored.get(limit.name)
        # A server's choice holds while it is at least as strict as the operator's value (an
        # operator who later tightens his value overrides the looser choices).
        if isinstance(mine, int) and not isinstance(mine, bool) and limit.stricter_or_equal(mine, top):
            values[limit.name] = mine
            chosen.add(limit.name)
        else:
            values[limit.name] = top
    return ServerLimits(values, operator, frozenset(chosen))


def _stored(session: Session, guild_id: int) -> Mapping[str, object]:
    found = db_settings.get_guild_settings(session=session, guild_id=guild_id).settings.get(_KEY)
    return found if isinstance(found, dict) else {}


def server_limits(guild_id: int, *, sessions: Sessions = session_scope) -> ServerLimits:
    """The limits in force on ``guild_id`` (read through the settings' short cache)."""
    with sessions() as s:
        return _in_force(_stored(s, guild_id))


def cooldown_seconds(guild_id: int, action: str, *, sessions: Sessions = session_scope) -> int:
    """The cooldown of ``action`` ("challenge", "replay", "export", "team", "league") on ``guild_id``."""
    return server_limits(guild_id, sessions=sessions)[f"{action}_cooldown"]


def change_limit(guild_id: int, name: str, value: int | None, *, moderator: bool,
                 sessions: Sessions = session_scope) -> ServerLimits:
    """A server moderator sets ``name`` to ``value`` (None: back to the operator's value).
    Refused: not a moderator; an unknown limit; a value looser than the operator's."""
    if not moderator:
        raise Refused("limits.refuse.moderator")
    limit = BY_NAME.get(name)
    if limit is None:
        raise Refused("limits.refuse.unknown", name=name, names=", ".join(BY_NAME))
    top = operator_value(name)
    if value is not None:
        if value < 0 or (limit.kind == "cooldown" and value > MAX_COOLDOWN):
            raise Refused("limits.refuse.range", name=name, most=MAX_COOLDOWN)
        if not limit.stricter_or_equal(value, top):
            raise Refused(f"limits.refuse.looser.{limit.kind}", name=name, value=value, operator=top)
    with sessions() as s:
        stored = dict(_stored(s, guild_id))
        if value is None:
            stored.pop(name, None)
        else:
            stored[name] = value
        db_settings.update_guild_settings(session=s, guild_id=guild_id, settings={_KEY: stored})
        return _in_force(stored)


# --- caps: checked in the transaction that adds the row -----------------------------------------------
def _cap(session: Session, guild_id: int, name: str) -> int:
    return _in_force(_stored(session, guild_id))[name]


def retry_at(when: datetime) -> int:
    """A moment as the Unix time Discord's ``<t:…:R>`` shows ("in 3 minutes")."""
    return int(when.replace(tzinfo=when.tzinfo or timezone.utc).timestamp() + 0.999)


def require_ai_match_room(session: Session, guild_id: int, user_id: int) -> None:
    """Room for one more match against the AI coach, for ``user_id`` and on the server; call it
    in the transaction that starts the match. Refused: the channels of his matches to end."""
    counts.hold_count(session, guild_id, "ai_matches")
    mine = counts.ai_matches(session, guild_id, AI_COACH_ID, user_id)
    cap = _cap(session, guild_id, "ai_matches")
    if len(mine) >= cap:
        raise Refused("limits.cap.ai_matches", count=len(mine), cap=cap,
                      channels=" ".join(f"<#{channel}>" for _, channel in mine) or "—")
    server = len(counts.ai_matches(session, guild_id, AI_COACH_ID))
    cap = _cap(session, guild_id, "server_ai_matches")
    if server >= cap:
        raise Refused("limits.cap.server_ai_matches", count=server, cap=cap)


def require_challenge_room(session: Session, guild_id: int, user_id: int, now: datetime) -> None:
    """Room for one more pending challenge by ``user_id`` and on the server (in the transaction
    that records it). Refused: where his challenges wait, and when the first one lapses."""
    counts.hold_count(session, guild_id, "challenges")
    mine = counts.pending_challenges(session, guild_id, now, user_id)
    cap = _cap(session, guild_id, "challenges")
    if len(mine) >= cap:
        raise Refused("limits.cap.challenges", count=len(mine), cap=cap,
                      channels=" ".join(f"<#{channel}>" for channel, _ in mine) or "—",
                      when=retry_at(mine[0][1]) if mine else retry_at(now + timedelta(hours=24)))
    server = counts.pending_challenges(session, guild_id, now)
    cap = _cap(session, guild_id, "server_challenges")
    if len(server) >= cap:
        first = server[0][1] if server else now + timedelta(hours=24)
        raise Refused("limits.cap.server_challenges", count=len(server), cap=cap, when=retry_at(first))


def require_team_room(session: Session, guild_id: int, coach_id: int) -> None:
    """Room for one more team of ``coach_id`` and on the server (in the transaction that adds it)."""
    counts.hold_count(session, guild_id, "teams")
    mine, cap = counts.team_count(session, guild_id, coach_id), _cap(session, guild_id, "teams")
    if mine >= cap:
        raise Refused("limits.cap.teams", count=mine, cap=cap)
    server, cap = counts.team_count(session, guild_id), _cap(session, guild_id, "server_teams")
    if server >= cap:
        raise Refused("limits.cap.server_teams", count=server, cap=cap)


def require_league_room(session: Session, guild_id: int, commissioner_id: int) -> None:
    """Room for one more league run by ``commissioner_id`` and on the server (in the
    transaction that adds it)."""
    counts.hold_count(session, guild_id, "leagues")
    mine, cap = counts.league_count(session, guild_id, commissioner_id), _cap(session, guild_id, "leagues")
    if mine >= cap:
        raise Refused("limits.cap.leagues", count=mine, cap=cap)
    server, cap = counts.league_count(session, guild_id), _cap(session, guild_id, "server_leagues")
    if server >= cap:
        raise Refused("limits.cap.server_leagues", count=server, cap=cap)


def check_room(what: Literal["ai_match", "challenge"], guild_id: int, user_id: int, *,
               sessions: Sessions = session_scope) -> None:
    """Refuse now what the command would be refused when it adds its row (the bot asks before it
    opens a thread for the match, so that a refusal leaves nothing behind); the count that
    holds is still the one in the transaction that adds the row."""
    with sessions() as s:
        if what == "ai_match":
            require_ai_match_room(s, guild_id, user_id)
        else:
            require_challenge_room(s, guild_id, user_id, datetime.now(timezone.utc))
