"""The console's pictures: a board as a PNG, a match's frames and its replay as a GIF
(``elfball render``, ``elfball replay-gif``, ``elfball demo``).

The drawing is ``render``'s (a pure function of the state, the last events and the options);
the bot's pictures go through ``service.drawing`` instead, which may draw them in worker
processes. A history is a list of ``Step`` (a state with its command's events and, while a
decision is pending, the position mid-resolution).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine import Event, MatchState
from render import Step, action_frames, fuzz_history, render_board, render_replay

__all__ = ["Step", "action_frames", "board_png", "random_match_history", "replay_gif"]


def board_png(state: MatchState, *, events: Iterable[Event] = (), view: MatchState | None = None, width: int,
              hex_labels: bool = False, language: str) -> bytes:
    """The board after the last command as a PNG ``width`` pixels wide, its panels in
    ``language``; ``hex_labels`` prints every hex's coordinate, not only the rim's."""
    return render_board(state, events=events, view=view, width=width, hex_labels=hex_labels, language=language)


def replay_gif(history: list[Step], *, width: int, test: int | None = None, per: str = "action",
               language: str = "en") -> bytes:
    """The history as an animated GIF: one frame per action (``per="command"``: per command),
    of one Test only if ``test`` is given."""
    return render_replay(history, width=width, test=test, per=per, language=language)


def random_match_history(seed: int, *, max_commands: int | None = None) -> list[Step]:
    """Every step of the random (fuzz) match ``seed``, conceded after ``max_commands`` if given."""
    return fuzz_history(seed, max_commands=max_commands)
