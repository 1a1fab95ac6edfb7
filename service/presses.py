"""Which panel a press acts on: only the newest panel of that match, in the match's own channel,
and only by the deciding coach (``authority.coach_side``). The bot turns the press into an engine command afterwards."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass

from sqlmodel import Session

from db import matches as store
from db import posts as db_posts
from db.engine import session_scope
from db.models.match import MatchPublic
from engine import MatchState, Side, pending

from .authority import coach_side
from .refusal import Refused

__all__ = ["Press", "press"]

Sessions = Callable[[], AbstractContextManager[Session]]


@dataclass(frozen=True)
class Press:
    """The pressed panel's match, its state and the side deciding (the presser's)."""

    match: MatchPublic
    state: MatchState
    side: Side | None


def press(match_id: int, version: int, *, guild_id: int, channel_id: int | None, user_id: int,
          sessions: Sessions = session_scope) -> Press:
    """The match a press on a panel (``match_id`` at ``version``) acts on, or why it may not."""
    with sessions() as s:
        m = store.get_match(session=s, match_id=match_id)
        post = db_posts.get_post(session=s, match_id=match_id) if m.version != version else None
    if m.guild_id != guild_id or m.channel_id != channel_id:
        raise Refused("refuse.panel_other_channel")
    if not m.active:
        raise Refused("refuse.match_over")
    if m.version != version:
        # During an outage the newest board may not be posted yet (it is owed): the coach's move
        # counted and the board is on its way, so "use the newest board below" would point at nothing.
        if post is not None and post.owed:
            raise Refused("refuse.panel_board_owed")
        raise Refused("refuse.panel_stale")
    state = m.engine_state()
    side = pending(state).side
    # Only the deciding side's coach: the one place that decides is ``authority.coach_side``.
    coach_side(m, user_id, side)
    return Press(m, state, side)
