"""Psycho (Tackle/Advanced, p. 12): "Frothing at the mouth from a self induced battle rage, this
player fears no man or beast. This player rolls challenge dice equal to his opponent's Might for
any Impact challenge required when attempting a Tackle challenge. He may also add 2 challenge
dice to any Shove challenge he attempts (maximum of 6)." Fear (p. 14): "An opponent with Psycho
... can ignore the effect of the Fear ability."

His Impact rolls the opponent's Might, as the text says, even when Pummel's halved Might is
what made the Impact necessary and the opponent's Might is below his own (rules edition 2;
edition 1 rolled the higher of the two). "(maximum of 6)" bounds the dice he rolls with the
+2; the bonus is his to add ("may"), so a Might over 6 keeps its own dice (docs/rules.md 11.5).
"""

from __future__ import annotations

from ..context import Ctx
from ..events import AbilityUsed
from ..state import RULES_EDITION, Player
from . import has

__all__ = ["impact_dice", "shove_dice", "announce_impact", "announce_shove"]

SHOVE_BONUS, SHOVE_MAX = 2, 6


def impact_dice(attacker: Player, target: Player, edition: int = RULES_EDITION) -> int:
    """The dice of the Impact his Tackle requires (``edition``: the match's rules edition)."""
    if has(attacker, "psycho"):
        return target.might if edition >= 2 else max(attacker.might, target.might)
    return attacker.might


def shove_dice(attacker: Player) -> int:
    if has(attacker, "psycho"):
        return max(attacker.might, min(SHOVE_MAX, attacker.might + SHOVE_BONUS))
    return attacker.might


def announce_impact(ctx: Ctx, attacker: Player, target: Player) -> None:
    if impact_dice(attacker, target, ctx.state.options.edition) != attacker.might:
        ctx.emit(AbilityUsed(attacker.id, "psycho", "opponent_might_dice", target.id))


def announce_shove(ctx: Ctx, attacker: Player, target: Player) -> None:
    if shove_dice(attacker) != attacker.might:
        ctx.emit(AbilityUsed(attacker.id, "psycho", "more_shove_dice", target.id))
