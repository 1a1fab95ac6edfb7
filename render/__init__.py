"""Pictures of the board: state (and the last events) in, image bytes out.

Like python-chess's ``chess.svg``: every function takes a state and keyword-only options and
returns bytes; nothing here touches Discord or the database, and the engine never imports
this package.

    png = render_board(result.state, events=result.events, view=result.view)
    text = describe(result.state, result.events)            # the same board in words
    close = render_action_view(result.state, events=result.events, view=result.view)  # or None
    alt = action_view_alt(result.state, "fr", view=result.view)
    legend = render_legend("fr")                            # what every mark means
    gif = render_replay(fuzz_history(7), width=600)          # one frame per action
"""

from .board import DEFAULT_WIDTH, board_image, render_board
from .describe import describe
from .legend import render_legend
from .replay import Step, action_frames, fuzz_history, render_replay
from .view import VIEW_WIDTH, action_view_alt, render_action_view

__all__ = [
    "DEFAULT_WIDTH",
    "VIEW_WIDTH",
    "Step",
    "action_frames",
    "action_view_alt",
    "board_image",
    "describe",
    "fuzz_history",
    "render_action_view",
    "render_board",
    "render_legend",
    "render_replay",
]
