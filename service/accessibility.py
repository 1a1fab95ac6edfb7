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

from engine import Event, MatchState

__all__ = ["screen_reader_wanted", "close_up_wanted", "board_words", "alt_text", "MAX_ALT", "CLOSE_UP_DEFAULT"]

#: Discord's limit on an attachment's description.
MAX_ALT = 1024
#: Whether a board post carries the close-up where neither the coach nor his server chose: no.
#: Every command edits the message and uploads its pictures again, and the close-up was 40 % of
#: those bytes (docs/benchmarks.md, "Bytes per action"); the board's Close-up button shows it to
#: whoever asks, privately, and ``/preferences close_up:True`` keeps it in a coach's posts.
CLOSE_UP_DEFAULT = False


def screen_reader_wanted(sessions: Callable[[], AbstractContextManager[Session]], coach_ids: Iterable[int]) -> bool:
    """Whether any of these coaches asked for the board in words (the AI coach has no preference)."""
    from db.settings import get_coach_preferences

    ids = [c for c in set(coach_ids) if c]
    if not ids:
        return False
    with sessions() as s:
        return any(get_coach_preferences(session=s, user_id=c, read_only=True).screen_reader for c in ids)


def close_up_wanted(sessions: Callable[[], AbstractContextManager[Session]], guild_id: int, coach_id: int | None) -> bool:
    """Whether a board post carries the close-up of the action (``render_action_view``): the
    deciding coach's choice (``/preferences close_up``), else his server's default, else
    ``CLOSE_UP_DEFAULT`` (no: the Close-up button shows it on demand)."""
    from db.settings import get_coach_preferences, get_guild_settings

    with sessions() as s:
        if coach_id:
            chosen = get_coach_preferences(session=s, user_id=coach_id, read_only=True).settings.get("close_up")
            if chosen is not None:
                return bool(chosen)
        return bool(get_guild_settings(session=s, guild_id=guild_id, read_only=True).settings.get("close_up",
                                                                                                 CLOSE_UP_DEFAULT))


def board_words(state: MatchState, events: Iterable[Event | Mapping[str, Any]] = (), *,
                view: MatchState | None = None, language: str = "en") -> str:
    """The position in words: score, Test, whose decision, Momentum, the ball, every player's hex,
    facing and state, who stands around the acting player, and (given ``events``) the last action."""
    from render.describe import describe

    return describe(state, events, view=view, language=language)


def alt_text(state: MatchState, prompt: str = "", language: str = "en") -> str:
    """The picture's alt text: the score, the Test, whose decision it is (and what), Momentum and
    the ball, in ``language`` (``prompt`` should be in it too)."""
    from render.describe import board_text, side_word, status_line

    w, e = state.teams["west"], state.teams["east"]
    _, now = status_line(state, language)
    parts = [board_text(language, "board.alt.head", west=w.name, west_score=w.score, east_score=e.score, east=e.name, test=state.test),
             now if now.endswith((".", "?", "!")) else now + "."]
    if prompt and prompt not in now:
        parts.append(prompt)
    holder = side_word(state.momentum_side, language)
    parts.append(board_text(language, "board.alt.momentum", momentum=state.momentum, side=holder))
    carrier = state.carrier()
    if carrier is not None:
        parts.append(board_text(language, "board.alt.carried", player=carrier.name, side=side_word(carrier.side, language)))
    elif state.ball.hex is not None:
        from engine import standard_field

        parts.append(board_text(language, "board.alt.loose", hex=standard_field().format(state.ball.hex)))
    return " ".join(parts)[:MAX_ALT]
