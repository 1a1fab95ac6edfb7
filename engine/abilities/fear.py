"""Fear (Undead/Basic, p. 14): "This player radiates an aura that scares off many opponents with
any sense. Any Tackle challenge by an equal or higher Might opponent or the use of the Steal and
Cutblock abilities against this player requires an Impact challenge first however no Momentum
counters are earned for this Impact challenge. An opponent with Psycho or using Cheapshot can
ignore the effect of the Fear ability."

An opponent with less Might rolls the ordinary Impact anyway, so Fear only adds an Impact
where none was due (the caller checks the ordinary one first). Pummel compares its halved
Might, as for the ordinary Impact (G43).
"""

from __future__ import annotations

from ..state import Player
from . import has

__all__ = ["frightens", "RULE"]

RULE = "fear"  # Fear (p. 14), a rule id


def frightens(attacker: Player, target: Player, use: str | None) -> bool:
    """Whether ``target``'s Fear demands a Momentum-free Impact before this Tackle."""
    return has(target, "fear") and use != "cheapshot" and not has(attacker, "psycho")
