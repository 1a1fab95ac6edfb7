"""The board for coaches who cannot see the picture: alt text, and the position in words.

A coach who sets the screen-reader preference (``/preferences screen_reader:True``, stored in
``CoachPreference.screen_reader``) gets every board post of his matches with the position in
words (``render.describe``); everyone gets alt text on the picture. Transport-agnostic: the bot
decides where the words go.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractContextManager
from typing import Any

from sqlmodel import Session

from engine.events import Event
from engine.state import MatchState

__all__ = ["screen_reader_wanted", "board_words", "alt_text", "MAX_ALT"]

#: Discord's limit on an attachment's description.
MAX_ALT = 1024


def screen_reader_wanted(sessions: Callable[[], AbstractContextManager[Session]], coach_ids: Iterable[int]) -> bool:
    """Whether any of these coaches asked for the board in words (the AI coach has no preference)."""
    from db.settings import get_coach_preferences

    ids = [c for c in set(coach_ids) if c]
    if not ids:
        return False
    with sessions() as s:
        return any(get_coach_preferences(session=s, user_id=c).screen_reader for c in ids)


def board_words(state: MatchState, events: Iterable[Event | Mapping[str, Any]] = (), *,
                view: MatchState | None = None) -> str:
    """The position in words: score, Test, whose decision, Momentum, the ball, every player's hex,
    facing and state, who stands around the acting player, and (given ``events``) the last action."""
    from render.describe import describe

    return describe(state, events, view=view)


def alt_text(state: MatchState, prompt: str = "") -> str:
    """The picture's alt text: the score, the Test, whose decision it is (and what), Momentum and the ball."""
    from render.describe import side_word, status_line

    w, e = state.teams["west"], state.teams["east"]
    _, now = status_line(state)
    parts = [f"Elfball board: {w.name} {w.score} – {e.score} {e.name}, Test {state.test}.",
             now if now.endswith((".", "?", "!")) else now + "."]
    if prompt and prompt not in now:
        parts.append(prompt)
    holder = f"{side_word(state.momentum_side)}" if state.momentum_side else "nobody"
    parts.append(f"Momentum {state.momentum} ({holder}).")
    carrier = state.carrier()
    if carrier is not None:
        parts.append(f"Ball carried by {carrier.name} ({side_word(carrier.side)}).")
    elif state.ball.hex is not None:
        from engine.field import standard_field

        parts.append(f"Ball loose on {standard_field().format(state.ball.hex)}.")
    return " ".join(parts)[:MAX_ALT]
