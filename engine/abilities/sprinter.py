"""Sprinter (Jog/Advanced, p. 12).

"You may perform the Dash challenge as many times per action as you want without having or
paying Momentum. Instead of Momentum paid, this player uses his Jog attribute to determine how
many challenge dice can be rolled for the Dash challenge (maximum of 6). The number of
successes needed for each Dash challenge is equal to number of Dash challenges the player has
attempted this action plus 1. For example, if you are attempting your 3rd Dash challenge, you
must roll 4 or more successes."

The nth sprint Dash of an action needs n + 1 successes, with no modifiers. He may also make the
ordinary Momentum Dash once per action (G46). A new Dash may start once the previous one's hex
or challenge has been used or given up.
"""

from __future__ import annotations

from ..dice import Need
from ..refusals import Refusal, ability_term
from ..state import ActionState, Player
from . import has

__all__ = ["RULE", "MAX_DICE", "refusal", "sprint_dice", "sprint_need"]

RULE = "sprinter"  # Sprinter (p. 12), a rule id
MAX_DICE = 6


def refusal(p: Player, counters: int) -> Refusal | None:
    if not has(p, "sprinter"):
        return Refusal("ability.missing", player=p.name, ability=ability_term("sprinter"))
    if counters:
        return Refusal("sprinter.no_counters")
    return None


def sprint_dice(p: Player) -> int:
    return min(MAX_DICE, p.jog)


def sprint_need(action: ActionState) -> Need:
    """For the Dash being attempted, already counted in ``action.sprints``."""
    return Need(action.sprints + 1)
