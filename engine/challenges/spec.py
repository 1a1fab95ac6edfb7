"""A challenge as ``base.resolve`` rolls it: who rolls, how many dice, the successes needed
with named modifiers, and how its extra successes turn into Momentum.

Its own module because the abilities that change a roll (``abilities/rerolls.py``) read a Spec
while ``base.resolve`` calls them: both import it from here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..context import Ctx
from ..dice import ChallengeRoll, Need
from ..field import Side

__all__ = ["Spec"]


def _all_extra(roll: ChallengeRoll) -> int:
    return roll.extra


@dataclass(frozen=True)
class Spec:
    challenge: str  # language-neutral id: pickup, throw, tackle...
    roller: str  # player id
    attribute: str  # the attribute rolled, or "momentum" (Dash), "grit 6" (Punishing Hit)
    dice: int
    need: Need
    target: str | None = None
    earns: Callable[[ChallengeRoll], int] | None = _all_extra  # None: earns no Momentum
    flop_shifts: bool = True  # a flop by the acting team is a SiM (not for the face-off challenge)
    #: The opposing coach may not force re-rolls of these dice (Cover, Everlasting).
    no_forced_rerolls: bool = False
    #: The rolling side when the roller is not a player on the field (the Hired Gun Wizard).
    side: Side | None = None
    #: Changes the roll once every re-roll is done, before it is read (Pummel's +1 success, a
    #: Zlurpee Keg): gets the context and the roll, returns the roll to use.
    adjust: Callable[[Ctx, ChallengeRoll], ChallengeRoll] | None = None
