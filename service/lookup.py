"""What the bot shows of a match or a league without changing it: the position in words, a
finished match's dice checked, animated replays, the standings and the board's legend drawn."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any

from cachetools import LRUCache
from sqlmodel import Session

from db import matches as store
from db import replays as kept
from db.engine import session_scope
from db.leagues import settings_of
from db.models.league import LeaguePublic
from engine import RuleOptions, event_from_dict
from render import Step, render_legend, render_replay
from render.standings import render_standings
from render.team_sheet import support_text

from . import match_rules
from .accessibility import board_words
from .drawing import Drawing
from .leagues import match_options
from .refusal import Refused
from .verify import MatchRecord, Verdict, latest_finished_match, load_record, verify

__all__ = ["position_words", "close_up_picture", "verify_match", "replay", "legend", "standings_picture", "support_words", "league_options",
           "REPLAY_CACHE_BYTES", "forget_replays"]

Sessions = Callable[[], AbstractContextManager[Session]]


def position_words(match_id: int | None, *, channel_id: int, guild_id: int, language: str = "en",
                   sessions: Sessions = session_scope) -> str:
    """The match's position in words (``match_id`` None: the channel's match), with the last
    command's events as its last action."""
    with sessions() as s:
        m = store.get_match(session=s, match_id=match_id) if match_id else store.active_match(session=s, channel_id=channel_id)
        if m is None:
            raise Refused("refuse.no_active_match")
        if m.guild_id != guild_id:
            raise Refused("refuse.other_server")
        rows = store.match_events(session=s, match_id=m.id, after_seq=m.version - 1)
    events = [e for r in rows for e in r.events]
    return board_words(m.engine_state(), events, language=language)


def close_up_picture(match_id: int, *, guild_id: int, drawing: Drawing, language: str = "en",
                     sessions: Sessions = session_scope) -> tuple[bytes, str] | None:
    """The close-up of the match's decision as it stands (PNG, alt text), with the last command's
    events drawn over it, for whoever asks (the board's Close-up button); None when the match
    is over or nothing waits for a decision. Drawn from the stored position, as ``/match
    status`` and Describe show it. ``drawing``: the bot's picture workers."""
    with sessions() as s:
        m = store.get_match(session=s, match_id=match_id)
        if m.guild_id != guild_id:
            raise Refused("refuse.other_server")
        if not m.active:
            return None
        rows = store.match_events(session=s, match_id=m.id, after_seq=m.version - 1)
    events = [event_from_dict(e) for r in rows for e in r.events]
    return drawing.close_up(m.engine_state(), events=events, language=language)


def verify_match(match_id: int | None, *, channel_id: int, guild_id: int, posted: str | None = None,
                 posted_entropy: str | None = None, sessions: Sessions = session_scope) -> tuple[MatchRecord, Verdict]:
    """A finished match's record and its dice checked (``match_id`` None: the channel's last
    finished match); against the commitment and entropy a coach copied from Discord, if given
    (``service.verify.verify``)."""
    with sessions() as s:
        if match_id is None:
            if store.active_match(session=s, channel_id=channel_id) is not None:
                raise Refused("refuse.verify_channel_playing")
            match_id = latest_finished_match(session=s, guild_id=guild_id, channel_id=channel_id)
            if match_id is None:
                raise Refused("refuse.verify_none")
        m = store.get_match(session=s, match_id=match_id)
        if m.guild_id != guild_id:
            raise Refused("refuse.verify_unknown", match_id=match_id)
        if m.active:
            raise Refused("refuse.verify_playing", match_id=match_id)
        record = load_record(session=s, match_id=match_id)
    return record, verify(record, posted=posted, posted_entropy=posted_entropy)


#: How many bytes of live matches' replays a process keeps (least recently asked for dropped
#: first). A finished match's replay is kept in the database instead (``db.replays``), drawn
#: once for every process; a live one changes with each move, and each member may ask for it
#: only once in a while (the replay cooldown), so a small cache is enough here.
REPLAY_CACHE_BYTES = 16 * 1024 * 1024
_replays: LRUCache[tuple[Any, ...], bytes] = LRUCache(maxsize=REPLAY_CACHE_BYTES, getsizeof=len)
_replays_lock = threading.Lock()


def forget_replays() -> None:
    """Drop every replay this process keeps in memory (tests; an operator restoring a database)."""
    with _replays_lock:
        _replays.clear()


def replay(match_id: int, *, language: str = "en", width: int = 600, empty: bool = True,
           sessions: Sessions = session_scope) -> bytes:
    """An animated GIF of the match: each action drawn from the state after it, not from the
    final one. ``empty``: no bytes for a match with no command yet (else the drawing's own).

    A finished (or abandoned) match's replay is drawn once and kept in the database
    (``db.replays``): a second request, from any process and after a restart, draws nothing. A
    match in progress is kept in this process's memory under its version (``REPLAY_CACHE_BYTES``),
    drawn again only after its next move. The keys hold everything the pictures depend on: the
    match (its id, and in memory its dice commitment, so another database's match of that id is
    another replay), its version, the language and the width."""
    with sessions() as s:
        m = store.get_match(session=s, match_id=match_id)
        if not m.active:
            found = kept.kept_replay(session=s, match_id=match_id, language=language, width=width, version=m.version)
            if found is not None:
                return found
    key = (match_id, m.seed_commitment, m.version, language, width, empty)
    with _replays_lock:
        in_memory = _replays.get(key)
    if in_memory is not None:
        return in_memory
    with sessions() as s:
        history = match_rules.history(session=s, match_id=match_id)
    steps = [Step(state, [event_from_dict(e) for e in r.events]) for r, state in history]
    gif = render_replay(steps, width=width, language=language) if steps or not empty else b""
    if not m.active and gif:
        with sessions() as s:
            kept.keep_replay(session=s, match_id=match_id, language=language, width=width, version=m.version, gif=gif)
        return gif
    if history:  # kept under the version it shows (a move may have come in meanwhile)
        key = (match_id, m.seed_commitment, history[-1][0].seq, language, width, empty)
    if len(gif) <= REPLAY_CACHE_BYTES // 4:
        with _replays_lock:
            _replays[key] = gif
    return gif


def legend(language: str = "en") -> bytes:
    """PNG of the board's legend, drawn by the board's own code."""
    return render_legend(language)


def standings_picture(league: str, rows: Sequence[Any], *, subtitle: str = "", language: str = "en") -> bytes:
    """PNG of a league's standings, leader first."""
    return render_standings(league, rows, language=language, subtitle=subtitle)


def support_words(support: Mapping[str, Any], language: str = "en") -> str:
    """A team's support in words: ``2 Cheerleaders, 1 Magic Potion``."""
    return support_text(dict(support), language)


def league_options(league: LeaguePublic) -> RuleOptions:
    """The rule options every fixture of ``league`` plays with (its settings, defaults filled in)."""
    return match_options(settings_of(league))
