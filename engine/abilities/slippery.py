"""Slippery (Dodge/Advanced, p. 13).

"This player is as difficult to lay a hand on as a greased pig. This player may ignore one
opposing player modifying the number of successes of any challenge using the Dodge attribute
and automatically succeeds (without rolling dice) any Disengage challenge where the successes
needed would be zero or less (before it is normally increased to the one success required)."

Every modifier that counts opposing players names them "opponent" ("+1 opponent facing", "+2
more opponents facing"); ignoring one of those players is one more term of -1, so the roll
shows what was ignored. In a Disengage only the "+1 per such opponent after the first" counts
opposing players as modifiers: the first opponent's Tackle is the challenge itself, not a
modifier, so a lone opponent leaves nothing to ignore.

French 0.0.6 (``fr_slippery``): "Ce joueur peut ignorer les modifications provoquées par les
joueurs adverse pour tous les défis utilisant l'attribut Esquive": every opposing player's
modifier is ignored (``every``).
"""

from __future__ import annotations

from ..dice import Modifier, Need
from ..state import Player
from . import has

__all__ = ["ignore_one_opponent", "ignore_all_opponents", "slippery_need", "auto_disengage"]

LABEL = "Slippery: one opponent ignored"
LABEL_ALL = "Slippery: opponents ignored"


def ignore_one_opponent(need: Need, label: str = LABEL) -> Need:
    """``need`` with one opposing player's modifier cancelled (unchanged if there is none)."""
    if any(m.value > 0 and "opponent" in m.label for m in need.modifiers):
        return Need(need.base, (*need.modifiers, Modifier(label, -1)))
    return need


def ignore_all_opponents(need: Need, label: str = LABEL_ALL) -> Need:
    """``need`` with every opposing player's modifier cancelled."""
    total = sum(m.value for m in need.modifiers if m.value > 0 and "opponent" in m.label)
    return Need(need.base, (*need.modifiers, Modifier(label, -total))) if total else need


def slippery_need(player: Player, need: Need, *, every: bool = False) -> Need:
    """A Dodge challenge's need for ``player``: one opponent ignored if he has Slippery (every
    opponent under the French text)."""
    if not has(player, "slippery"):
        return need
    return ignore_all_opponents(need) if every else ignore_one_opponent(need)


def auto_disengage(player: Player, need: Need) -> bool:
    """A Slippery player gets away without a roll when the need, before the clamp to 1, is 0
    or less (after his ignored opponent)."""
    return has(player, "slippery") and need.unclamped <= 0
