"""Pummel (Monster/Basic, p. 13): "This player may attempt to strike a crippling blow (but one
that is easier to avoid). This player may use half his Might (rounding fractions down) when
attempting a Tackle challenge (this may result in the need for an Impact challenge). When this
skill is used the halved Might is the attribute used for the Tackle challenge instead of the
Tackle attribute. Pummel allows you to add 1 success to the Tackle challenge as long as he does
not Flop and does not roll 0 successes."

The halved Might is both the dice and the Might compared with the target's for the Impact
(G43); the Impact itself rolls his full Might. The roll is a Might roll (Buff re-rolls it, not
Grapple). The +1 comes after every re-roll, before the result band is read.
"""

from __future__ import annotations

from collections.abc import Callable

from ..context import Ctx
from ..dice import ChallengeRoll
from ..events import AbilityUsed
from ..state import Player

__all__ = ["might", "adjuster", "RULE"]

RULE = "Pummel (p. 13)"


def might(attacker: Player) -> int:
    return attacker.might // 2


def adjuster(attacker: Player, target: Player) -> Callable[[Ctx, ChallengeRoll], ChallengeRoll]:
    def adjust(ctx: Ctx, roll: ChallengeRoll) -> ChallengeRoll:
        if roll.flopped or roll.net <= 0:
            return roll
        ctx.emit(AbilityUsed(attacker.id, "pummel", "plus_one_success", target.id))
        return roll.with_bonus(1)

    return adjust
