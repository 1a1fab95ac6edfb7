"""Scramble (Thrower/Basic, p. 14).

"What an arm on this player. A player with this ability may always attempt to throw 7 or more
paces (i.e. even if he has moved or performed another challenge.), but you must add 1 to the
number of successes needed for the Throw challenge."

The +1 applies only when the exception is used: a long throw after moving, a challenge or a
Dash. A stationary long throw is an ordinary one. The rest of the long-throw rule holds: nothing
may follow it in the action.
"""

from __future__ import annotations

from ..dice import Modifier
from ..state import ActionState, Player
from . import has

__all__ = ["long_throw_barred", "scrambles", "scramble_modifier"]


def long_throw_barred(action: ActionState) -> bool:
    """The ordinary rule: no throw of 7+ hexes after moving, a challenge or a Dash."""
    return action.moved or action.challenged or action.dash != "none"


def scrambles(player: Player) -> bool:
    """He may throw 7+ hexes even when ``long_throw_barred``."""
    return has(player, "scramble")


def scramble_modifier(player: Player, used: bool) -> list[Modifier]:
    return [Modifier("Scramble", 1)] if used and has(player, "scramble") else []
