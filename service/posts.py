"""One message per action: which log rows each of a match's channel messages narrates.

A match keeps one *live* message in its channel (``db.posts``): the action being played, with
its narration, the board and the deciding coach's panel. While the same coach keeps deciding
within one action, each command *edits* that message (its narration grows, dice included, so the
channel history still shows every roll). A new message starts when:

* a new action starts (the row that ended the previous one is a *boundary*: an action or turn
  ended, a goal was scored, a set-up was completed, the face-off was won, the match ended);
* the decision passes to the other coach (an interceptor, a catch choice, a React, the turn);
* the message would pass Discord's size limit (the narration continues in a new message).

The deciding coach is pinged exactly when a new live message hands him the decision and he did
not send the command himself (``Piece.mention``); edits never ping.

``plan`` is pure: it takes the stored post, the log rows and who decides, and returns the
messages to edit or create. ``plan_for`` and ``record`` read and write the database around it.
A command's own transaction may read them ahead (``read_ahead``): ``plan_for`` takes that read
unless this process wrote the match's post since (``record``, ``record_owed``). Only the process
serving a match's server posts its boards (the poster's lock is per process too).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlmodel import Session

from db import matches as store
from db import posts as db_posts
from db.models.match import MatchPublic
from engine import DEFAULT_LANGUAGE, MatchState, event_from_dict, narrate_events

__all__ = ["BOUNDARIES", "Piece", "Plan", "PostRead", "plan", "plan_for", "read_ahead", "record", "record_owed",
           "row_lines", "AI_COACH"]

#: Events after which the next command starts a new message (a new action, Test or match end).
BOUNDARIES = frozenset({"action_ended", "turn_passed", "second_action", "goal_scored", "match_ended",
                        "setup_completed", "faceoff_won"})
#: The AI coach's user id (``service.matches.AI_COACH_ID``): never pinged.
AI_COACH = 0
#: Room for a message's narration; the prompt, the odds hint and the header take the rest of 2,000.
NARRATION_BUDGET = 1500


@dataclass(frozen=True)
class Piece:
    """One channel message to create (``message_id`` None) or to edit."""

    message_id: int | None
    #: The log rows ``first_version < seq <= last_version`` are narrated here.
    first_version: int
    last_version: int
    side: str | None
    lines: tuple[str, ...] = ()
    header: str = ""
    #: Carries the prompt, the board and the panel (always the last piece).
    live: bool = False
    #: No later row joins this message (a boundary or another coach's row came after it).
    closed: bool = False
    #: The coach to ping: a new live message that hands him the decision.
    mention: int | None = None

    @property
    def new(self) -> bool:
        return self.message_id is None


@dataclass
class Plan:
    pieces: list[Piece] = field(default_factory=list)

    @property
    def live(self) -> Piece:
        return self.pieces[-1]

    @property
    def new_messages(self) -> int:
        return sum(1 for p in self.pieces if p.new)


@dataclass
class _Segment:
    message_id: int | None
    first: int
    side: str | None
    header: str = ""
    rows: list[Any] = field(default_factory=list)
    closed: bool = False
    lines: list[str] = field(default_factory=list)
    size: int = 0

    @property
    def last(self) -> int:
        return self.rows[-1].seq if self.rows else self.first


def row_lines(row: Any, state: MatchState, language: str = DEFAULT_LANGUAGE, note: Callable[[str], str] | None = None) -> list[str]:
    """What one log row says in the channel: its events narrated; an undo says so."""
    command = row.command or {}
    if row.kind == "abandon":  # a lesson's try closed by the lesson service: its verdict says it
        return []
    if command.get("name") == "undo":
        return [note("note.undo")] if note else []
    if not row.events:
        return []
    return narrate_events([event_from_dict(e) for e in row.events], state, language=language)


def _is_boundary(row: Any) -> bool:
    if row.kind == "create":  # the match's start (its dice-off) opens the first message
        return False
    return any(e.get("kind") in BOUNDARIES for e in row.events or ())


def plan(
    post: Any | None,
    rows: Sequence[Any],
    state: MatchState,
    *,
    deciding_side: str | None,
    deciding_user: int | None,
    actor_user_id: int | None,
    header: str = "",
    language: str = DEFAULT_LANGUAGE,
    note: Callable[[str], str] | None = None,
    budget: int = NARRATION_BUDGET,
    extra_lines: Sequence[str] = (),
) -> Plan:
    """The messages that show ``rows`` (every log row after the live message's first one).

    ``post``: the stored live message (``db.posts``), or None for a match's first message.
    ``actor_user_id``: who sent the command (None: a sweep); never pinged.
    ``extra_lines``: lines that are not in the log (a forfeit note, the league's result), shown
    at the end of the live message.
    """
    open_: _Segment | None = None
    done: list[_Segment] = []
    shown = -1
    if post is not None and post.message_id is not None:
        shown = post.shown_version
        open_ = _Segment(post.message_id, post.first_version, post.side, post.header or "", closed=bool(post.closed))
    elif post is not None:  # owed before any message of it reached the channel
        shown = post.shown_version

    def start(first: int, side: str | None, head: str = "") -> _Segment:
        nonlocal open_
        if open_ is not None:
            open_.closed = True
            done.append(open_)
        open_ = _Segment(None, first, side, head)
        return open_

    for row in rows:
        lines = row_lines(row, state, language, note)
        size = sum(len(x) + 1 for x in lines)
        if row.seq <= shown:  # already in the live message: its text is rebuilt from the log
            if open_ is not None and row.seq > open_.first:
                open_.rows.append(row)
                open_.lines.extend(lines)
                open_.size += size
            continue
        side = row.actor_side
        if open_ is None:
            start(row.seq - 1, side, header if post is None else "")
        elif open_.closed or (side is not None and open_.side is not None and side != open_.side):
            start(row.seq - 1, side)
        elif open_.size + size > budget and open_.rows:
            start(row.seq - 1, side)  # Discord's size limit: the narration goes on below
        seg = open_
        assert seg is not None
        if seg.side is None:
            seg.side = side
        seg.rows.append(row)
        seg.lines.extend(lines)
        seg.size += size
        if _is_boundary(row):
            seg.closed = True

    # The live message: the open one if it is this coach's and still going (or just created
    # by this very command), else a new one for the coach who decides now.
    if open_ is None:
        start(shown, deciding_side, header if post is None else "")
    else:
        if open_.side is None:  # the match's first message: it is the first decider's
            open_.side = deciding_side
        created_now = open_.message_id is None
        same = open_.side == deciding_side or deciding_side is None
        if not created_now and (open_.closed or not same):
            start(open_.last, deciding_side)
    live = open_
    assert live is not None
    mention = None
    if live.message_id is None and deciding_user not in (None, AI_COACH) and deciding_user != actor_user_id:
        mention = deciding_user
    pieces = [Piece(s.message_id, s.first, s.last, s.side, tuple(s.lines), s.header, False, True) for s in done]
    still_open = not live.closed and (live.side == deciding_side or deciding_side is None)
    pieces.append(Piece(live.message_id, live.first, live.last, deciding_side, tuple(live.lines) + tuple(extra_lines),
                        live.header, True, not still_open, mention))
    return Plan(pieces)


SessionFactory = Callable[[], AbstractContextManager[Session]]


# Writes of the matches' posts by this process, counted per match id modulo the table's size (two
# matches sharing a count only make a read ahead be read again): a read taken before a write of
# its match's post is not used after it.
_WRITES = 4096
_writes = [0] * _WRITES
_writes_lock = threading.Lock()


def _written(match_id: int) -> int:
    with _writes_lock:
        return _writes[match_id % _WRITES]


def _wrote(match_id: int) -> None:
    with _writes_lock:
        _writes[match_id % _WRITES] += 1


@dataclass(frozen=True)
class PostRead:
    """The live message and the log since it began, as read for a plan at ``version``."""

    match_id: int
    version: int
    writes: int  # ``_written`` before the read
    post: Any | None
    rows: tuple[Any, ...]


def read_ahead(session: Session, match: MatchPublic) -> PostRead:
    """Read what ``plan_for`` needs in the caller's transaction (a command's own, after its write:
    a transaction less per action)."""
    writes = _written(match.id)
    post = db_posts.get_post(session=session, match_id=match.id)
    after = -1 if post is None else min(post.first_version, post.shown_version)
    rows = store.match_events(session=session, match_id=match.id, after_seq=after)
    return PostRead(match.id, match.version, writes, post, tuple(rows))


def plan_for(sessions: SessionFactory, match: MatchPublic, state: MatchState, *, actor_user_id: int | None,
             header: str = "", language: str = DEFAULT_LANGUAGE, note: Callable[[str], str] | None = None,
             extra_lines: Sequence[str] = (), read: PostRead | None = None) -> tuple[Plan, Any | None]:
    """Read the live message and the log since it began (or take ``read``, read ahead for this
    version of the match, if no post of it was written since), and ``plan`` the messages."""
    if read is None or read.match_id != match.id or read.version != match.version or read.writes != _written(match.id):
        with sessions() as s:
            read = read_ahead(s, match)
    post = read.post
    rows = [r for r in read.rows if r.seq <= match.version]
    side = match.deciding_side if match.active else None
    user = match.deciding_user_id if match.active else None
    return plan(post, rows, state, deciding_side=side, deciding_user=user, actor_user_id=actor_user_id, header=header,
                language=language, note=note, extra_lines=extra_lines), post


def record(sessions: SessionFactory, match: MatchPublic, channel_id: int, piece: Piece, message_id: int) -> bool:
    """The live piece reached the channel as ``message_id``: later commands edit it."""
    try:
        with sessions() as s:
            return db_posts.save_post(session=s, match_id=match.id, channel_id=channel_id, message_id=message_id,
                                      side=piece.side, first_version=piece.first_version,
                                      shown_version=match.version, header=piece.header, closed=piece.closed)
    finally:
        _wrote(match.id)  # after the commit (or its failure): a read ahead of it is stale


def record_owed(sessions: SessionFactory, match: MatchPublic, channel_id: int, now: datetime) -> None:
    """The board of ``match.version`` could not be posted: the sweep will post it."""
    try:
        with sessions() as s:
            db_posts.mark_owed(session=s, match_id=match.id, channel_id=channel_id, version=match.version, now=now)
    finally:
        _wrote(match.id)

