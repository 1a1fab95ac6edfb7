"""Bankshot (Skill/Advanced, p. 13).

"The player has developed low level magical powers allowing him to control the bounce from the
white repelling powder. Anytime this player performs a throw into a white line he may choose
the direction it bounces back. In addition, he may add or subtract one hex from the number of
hexes it bounces off the white line."

It works on the bounce of his own throw off the white line the throw stops on (or the line hex
where a catch failed first): that is the throw "into a white line". A later line the bounce
runs into, and every scatter, bounce as usual. He picks any direction the ball could legally
bounce in (away from the line, back toward the half it came from) or lets the D6 decide; after
the D6 distance he may add or take one hex, the bounce always travelling at least one hex.
"""

from __future__ import annotations

from ..context import Ctx
from ..events import AbilityUsed
from ..hexes import Direction, Hex
from ..state import Player

__all__ = ["bankshot_direction", "bankshot_distance"]


def bankshot_direction(ctx: Ctx, thrower: Player, line_hex: Hex, legal: list[Direction]) -> Direction | None:
    """The direction he chooses among ``legal``, or None to roll the D6 as usual."""
    choice = ctx.ask(
        {
            "kind": "bankshot_direction",
            "side": thrower.side,
            "player": thrower.id,
            "ability": "bankshot",
            "hex": ctx.field.format(line_hex),
            "options": [d.name for d in legal] + [None],
            "default": None,
        }
    )
    if choice is None:
        return None
    ctx.emit(AbilityUsed(thrower.id, "bankshot", "bounce_direction"))
    return Direction[choice]


def bankshot_distance(ctx: Ctx, thrower: Player, rolled: int) -> int:
    """The D6 bounce distance with his -1, 0 or +1 (never below one hex)."""
    change = ctx.ask(
        {
            "kind": "bankshot_distance",
            "side": thrower.side,
            "player": thrower.id,
            "ability": "bankshot",
            "rolled": rolled,
            "options": [c for c in (-1, 0, 1) if rolled + c >= 1],
            "default": 0,
        }
    )
    if change:
        ctx.emit(AbilityUsed(thrower.id, "bankshot", "bounce_distance"))
    return rolled + int(change)
