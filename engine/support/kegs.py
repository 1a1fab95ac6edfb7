"""Zlurpee Kegs (Team support, p. 11).

"For each Energy Drink Barrel on your team, you may add 1 success to any Injury challenge
during the game that you do not Flop and do not roll 0 successes. Each Barrel may be used once
per Test." The injured player's coach is asked after every re-roll, and only when one more
success changes the result; each Barrel is a separate choice, so two may go on one roll.
The per-Test reset is in ``turns.start_test``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..context import Ctx
from ..dice import ChallengeRoll
from ..events import SupportUsed
from ..state import Player

__all__ = ["offer"]


def offer(ctx: Ctx, player: Player, roll: ChallengeRoll, outcome: Callable[[ChallengeRoll], Any]) -> ChallengeRoll:
    """``roll`` with the Barrels his coach chooses to add; ``outcome`` reads an Injury roll."""
    team = ctx.state.teams[player.side]
    while team.available("kegs") and not roll.flopped and roll.net >= 1:
        if outcome(roll.with_bonus(1)) == outcome(roll):
            break
        question = {
            "kind": "keg",
            "side": player.side,
            "player": player.id,
            "roll": roll.to_dict(),
            "left": team.available("kegs"),
            "options": ["use", "keep"],
            "default": "keep",
        }
        if ctx.ask(question) != "use":
            break
        roll = roll.with_bonus(1)
        team.used["kegs"] = team.used.get("kegs", 0) + 1
        ctx.emit(SupportUsed(player.side, "kegs", player.id, team.available("kegs")))
    return roll
