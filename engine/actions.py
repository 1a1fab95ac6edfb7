"""Jog bookkeeping for the acting player (Challenge types, p. 4; analysis J1-J3, G17).

Moving costs 1 Jog a hex. Pick-up, Throw, Tackle and Shove cost 1 "unless the challenge is the
last thing you attempt during your normal action". We implement that as: with no Jog left, the
player may still make exactly one such challenge for free, and it ends his normal action (J2).
After a failed Impact he must "pay 1 additional pace to continue to move or perform another
challenge" (the surcharge).

French 0.0.6 (``fr_challenges_free``): "Tenter un défi ne consomme aucun point de mouvement et
vous pouvez tenter des défis après avoir utilisé le dernier point de mouvement": challenges cost
nothing but a surcharge, however many he attempts. The French Dash's extra die (``fr_dash``)
waits on the action until the Dash's challenge rolls (``take_dash_die``).
"""

from __future__ import annotations

from .context import Ctx
from .errors import IllegalCommandError
from .options import variant
from .refusals import Refusal
from .state import ActionState, MatchState

__all__ = ["challenge_refusal", "pay_for_challenge", "step_cost", "challenges_free", "take_dash_die", "DASH_DIE_CHALLENGES"]

#: The acting player's own challenges the French Dash's extra die may go on.
DASH_DIE_CHALLENGES = ("pickup", "throw", "impact", "tackle", "shove")


def challenges_free(state: MatchState) -> bool:
    return variant(state, "fr_challenges_free")

RULE_JOG = "move"  # Challenge types (p. 4)


def challenge_refusal(action: ActionState) -> Refusal | None:
    """Why this player cannot attempt a Jog-costing challenge now, or None if he can."""
    if action.faceoff_free or action.dash in ("granted", "moved"):
        return None
    if action.dash == "done":
        return Refusal("dash.challenge_made")
    if action.long_throw:
        return Refusal("throw.long_no_challenge")
    if action.normal_over:
        return Refusal("action.free_last_made")
    if action.jog_left < (1 if action.surcharge else 0):
        return Refusal("action.no_jog_surcharge")
    return None


def pay_for_challenge(ctx: Ctx, action: ActionState) -> None:
    why = challenge_refusal(action)
    if why:
        raise IllegalCommandError(why.cited(RULE_JOG))
    action.challenged = True
    if action.faceoff_free:
        return
    if action.dash in ("granted", "moved"):
        action.dash = "done"  # the Dash's one challenge, Jog-free (G19)
        return
    if challenges_free(ctx.state):
        action.jog_left -= 1 if action.surcharge else 0  # challenge_refusal checked he has it
        action.surcharge = False
        return
    cost = 1 + (1 if action.surcharge else 0)
    if action.jog_left >= cost:
        action.jog_left -= cost
    else:
        action.jog_left -= 1 if action.surcharge else 0
        action.free_challenge_used = True
    action.surcharge = False


def step_cost(action: ActionState) -> int:
    if action.dash in ("granted",):
        return 0  # the Dash's one free hex
    return 1 + (1 if action.surcharge else 0)


def take_dash_die(ctx: Ctx, challenge: str, roller: str) -> int:
    """The French Dash's extra die for this roll (1), if it waits for it (0 otherwise):
    "Exécutez un seul Défi avec un dé supplémentaire"."""
    action = ctx.state.action
    if action is None or action.dash_die is None or action.player != roller or challenge not in DASH_DIE_CHALLENGES:
        return 0
    if action.dash_die not in ("any", challenge):
        return 0
    action.dash_die = None
    return 1
