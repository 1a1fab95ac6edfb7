"""Pummel (Monster/Basic, p. 13): "This player may attempt to strike a crippling blow (but one
that is easier to avoid). This player may use half his Might (rounding fractions down) when
attempting a Tackle challenge (this may result in the need for an Impact challenge). When this
skill is used the halved Might is the attribute used for the Tackle challenge instead of the
Tackle attribute. Pummel allows you to add 1 success to the Tackle challenge as long as he does
not Flop and does not roll 0 successes."

The halved Might is both the dice and the Might compared with the target's for the Impact
(G43); the Impact itself rolls his full Might. The roll is a Might roll (Buff re-rolls it, not
Grapple). The +1 comes after every re-roll, before the result band is read.

French 0.0.6 (``fr_pummel``, "Roué de coup"): "Ce joueur peut choisir de lancer jusqu'à trois
dés de moins sur un Défi Plaquer. Si le résultat du défi demande un défi de blessure, sur ce
défi de blessure il peut supprimer un succès pour chaque dé qu'il a enlevé du défi Plaquer."
``Tackle(use="pummel")`` asks how many dice to drop (``pummel_dice``: 0 to 3, never all his
dice; 0 is a plain Tackle); the Tackle rolls his Tackle as usual, and the Injury roll loses as
many successes (never below 0: taking successes away makes no flop).
"""

from __future__ import annotations

from collections.abc import Callable

from ..context import Ctx
from ..dice import ChallengeRoll
from ..events import AbilityUsed
from ..state import Player

__all__ = ["might", "adjuster", "french_dice", "RULE"]

RULE = "pummel"  # Pummel (p. 13), a rule id


def might(attacker: Player) -> int:
    return attacker.might // 2


def french_dice(ctx: Ctx, attacker: Player, target: Player, dice: int) -> int:
    """The French Pummel: how many Tackle dice his coach drops (asked when he can drop any)."""
    most = min(3, dice - 1)
    if most < 1:
        return 0
    n = int(ctx.ask({
        "kind": "pummel_dice", "side": attacker.side, "player": attacker.id, "ability": "pummel",
        "options": list(range(most + 1)), "default": 0,
    }))
    if n:
        ctx.emit(AbilityUsed(attacker.id, "pummel", "fewer_dice", target.id))
    return n


def adjuster(attacker: Player, target: Player) -> Callable[[Ctx, ChallengeRoll], ChallengeRoll]:
    def adjust(ctx: Ctx, roll: ChallengeRoll) -> ChallengeRoll:
        if roll.flopped or roll.net <= 0:
            return roll
        ctx.emit(AbilityUsed(attacker.id, "pummel", "plus_one_success", target.id))
        return roll.with_bonus(1)

    return adjust
