"""Pictures of the board: state (and the last events) in, image bytes out.

Like python-chess's ``chess.svg``: every function takes a state and keyword-only options and
returns bytes; nothing here touches Discord or the database, and the engine never imports
this package.

    png = render_board(result.state, events=result.events, view=result.view)
    text = describe(result.state, result.events)            # the same board in words
    gif = render_replay(fuzz_history(7), width=600)          # one frame per action
"""

from .board import DEFAULT_WIDTH, board_image, render_board
from .describe import describe
from .replay import Step, action_frames, fuzz_history, render_replay

__all__ = [
    "DEFAULT_WIDTH",
    "Step",
    "action_frames",
    "board_image",
    "describe",
    "fuzz_history",
    "render_board",
    "render_replay",
]
