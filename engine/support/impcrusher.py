"""The Impcrusher's referee check (Optional Rules, Extra players, p. 19).

"Referees usually hate the Impcrusher so after each turn where the Impcrusher was the player
taking the action, roll a Challenge dice. On a Flop, the Referee has decided to ban the
Impcrusher from the field. Remove the Impcrusher from the field and it may not be fielded for
the rest of the game."

``turns.end_turn`` calls ``after_action`` once the goal check is done, after a scoring action
too (rules edition 2; edition 1 skipped it), unless that goal ended the match: a ban then keeps
him from nothing. A banned carrier's ball scatters from his hex, except after a goal (the Test
is over and the ball goes back to the centre). Which players are checked is roster data
(``referee_ban_check``).
"""

from __future__ import annotations

from .. import ball as _ball
from .. import effects
from ..context import Ctx
from ..dice import Face
from ..events import RefereeCheck
from ..options import variant
from ..state import Location, Phase, Player, RuleOptions
from . import extra_rule

__all__ = ["after_action", "french_abilities", "FRENCH_ABILITIES"]

#: "Le Rouleau compresseur a les aptitudes Vicieux, Impitoyable, Roué de coup et Écrasement"
#: (French 0.0.6, ``fr_impcrusher``): Cheapshot, Ruthless, Pummel and Plough.
FRENCH_ABILITIES = ("cheapshot", "ruthless", "pummel", "plough")


def french_abilities(options: RuleOptions, player: Player) -> None:
    """Give an Impcrusher the French text's four abilities when ``fr_impcrusher`` is in force
    (``new_match`` and the scenario builder call it as they make the players)."""
    if variant(options, "fr_impcrusher") and extra_rule(player, "referee_ban_check"):
        player.abilities = tuple(dict.fromkeys((*player.abilities, *FRENCH_ABILITIES)))


def after_action(ctx: Ctx, player: Player) -> None:
    if not extra_rule(player, "referee_ban_check") or player.location in (Location.INFIRMARY, Location.EJECTED):
        return
    face = ctx.dice.face()
    flopped = face is Face.FLOP
    ctx.emit(RefereeCheck(player.side, "impcrusher", face.symbol, flopped, (player.id,) if flopped else ()))
    if not flopped:
        return
    old, had_ball = effects.remove(ctx, player, Location.EJECTED, "banned by the referee")
    if had_ball and old is not None and ctx.state.phase is not Phase.TEST_OVER:
        _ball.scatter(ctx, old)
