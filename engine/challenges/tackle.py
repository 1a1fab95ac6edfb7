"""Tackle challenge (p. 7), once per action, against a standing adjacent opponent in front.

Tackle dice; needs the target's Dodge - 2, -1 per team-mate facing the target, +1 per other
opponent facing the tackler, +1 if the target does not hold the ball, -1 from his rear.
Flop: tackler Down, SiM. Fewer: stiff-armed. Exactly: Slide Tackle, both Down. +1: Solid Hit,
target Down. +2: Punishing Hit, Injury at Grit 6. +3 or more: Crippling Hit, Injury at his own
Grit. Only successes beyond three more than needed earn Momentum.

Advanced abilities (pp. 12-14) change it through ``Tackle(use=...)``: Cheapshot (a Down or Dazed
target), Cutblock, Pummel and Steal; Psycho, Fear, Collision, Bonecrusher and Malicious apply
by themselves. ``plan`` says what a Tackle will roll, for the challenge and for the odds shown
before it.

French 0.0.6: Pummel (``fr_pummel``) drops up to three Tackle dice and takes as many successes
off the Injury roll it causes (``engine/abilities/pummel.py``); after the French Dash the coach
puts its extra die on the Impact or the Tackle (``fr_dash``, "pas pour les deux").
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import effects
from ..abilities import has
from ..abilities import bonecrusher, cheapshot, collision, cutblock, enrage, fear, malicious, psycho, pummel, steal
from ..actions import pay_for_challenge
from ..context import Ctx
from ..dice import Band, ChallengeRoll, Modifier, Need
from ..events import AbilityUsed
from ..options import variant
from ..refusals import Refusal, Term, ability_term
from ..state import RULES_EDITION, ActionState, MatchState, Player, Status
from .base import Spec, contact_modifiers, resolve
from .impact import impact
from .injury import injury

__all__ = [
    "tackle", "tackle_result", "needs_impact", "tackle_need", "TacklePlan", "plan", "use_refusal", "USES", "RULE",
]

RULE = "tackle"  # Tackle challenge (p. 7), a rule id
#: The abilities a Tackle command may name.
USES = ("cheapshot", "cutblock", "pummel", "steal")
_USE_RULES = {"cheapshot": cheapshot.RULE, "cutblock": cutblock.RULE, "pummel": pummel.RULE, "steal": steal.RULE}


def tackle_result(roll: ChallengeRoll, use: str | None = None) -> str:
    if use == "steal":
        return steal.result(roll)
    if roll.band is Band.FLOP:
        return "tackler Down, SiM"
    if roll.band is Band.FAILURE:
        return "stiff-armed"
    if roll.extra == 0 and use == "cheapshot":
        return "no effect"
    return {0: "Slide Tackle", 1: "Solid Hit", 2: "Punishing Hit"}.get(roll.extra, "Crippling Hit")


def _earned(roll: ChallengeRoll) -> int:
    return max(0, roll.extra - 3)


@dataclass(frozen=True)
class TacklePlan:
    """What a Tackle rolls: ``impact`` is None (no Impact), "impact" (the ordinary one, for a
    weaker tackler) or "fear" (the target's Fear: an Impact that earns no Momentum)."""

    use: str | None
    impact: str | None
    impact_dice: int
    dice: int
    attribute: str  # "tackle", or "might" with Pummel


def plan(attacker: Player, target: Player, use: str | None = None, *, edition: int = RULES_EDITION) -> TacklePlan:
    might = pummel.might(attacker) if use == "pummel" else attacker.might
    kind: str | None = None
    if use in (None, "pummel") and might < target.might:
        kind = "impact"
    elif fear.frightens(attacker, target, use):
        kind = "fear"
    dice = psycho.impact_dice(attacker, target, edition) if kind == "impact" else attacker.might
    if use == "pummel":
        return TacklePlan(use, kind, dice, might, "might")
    return TacklePlan(use, kind, dice, attacker.tackle, "tackle")


def needs_impact(attacker: Player, target: Player, use: str | None = None) -> bool:
    return plan(attacker, target, use).impact is not None


def tackle_need(state: MatchState, attacker: Player, target: Player, use: str | None = None) -> Need:
    mods = contact_modifiers(state, attacker, target)
    if use == "cheapshot":
        return Need(target.dodge - 2, tuple(cheapshot.modifiers(mods)))
    if state.ball.carrier != target.id:
        mods.append(Modifier("target not holding the ball", 1))
    return Need(target.dodge - 2, tuple(mods))


def use_refusal(state: MatchState, action: ActionState, attacker: Player, target: Player,
                use: str | None) -> tuple[str | None, Refusal | None]:
    """The ability a Tackle on ``target`` uses (a Down or Dazed target makes it a Cheapshot),
    or why it may not, its rule cited: ``(use, None)`` or ``(None, refusal)``. ``use`` must be
    one of ``USES`` or None."""
    if not target.standing:
        if use not in (None, "cheapshot"):
            return None, Refusal("tackle.cheapshot_only", rule=_USE_RULES[use], player=target.name,
                                 condition=Term("condition", target.status.value))
        if not has(attacker, "cheapshot"):
            return None, Refusal("tackle.needs_cheapshot", rule=RULE if use is None else cheapshot.RULE,
                                 player=target.name, condition=Term("condition", target.status.value))
        return "cheapshot", None
    if use is None:
        return None, None
    rule = _USE_RULES[use]
    if not has(attacker, use):
        return None, Refusal("ability.missing", rule=rule, player=attacker.name, ability=ability_term(use))
    why: Refusal | None = None  # Pummel asks nothing more
    if use == "cheapshot":
        why = cheapshot.refusal(target)
    elif use == "cutblock":
        why = cutblock.refusal(action, attacker, target)
    elif use == "steal":
        why = steal.refusal(state, target)
    return (None, why.cited(rule)) if why else (use, None)


def _announce(ctx: Ctx, attacker: Player, target: Player, p: TacklePlan) -> None:
    if p.use is not None:
        ctx.emit(AbilityUsed(attacker.id, p.use, "steal_attempt" if p.use == "steal" else p.use, target.id))
    if p.impact == "fear":
        ctx.emit(AbilityUsed(target.id, "fear", "impact_first", attacker.id))
    elif p.impact == "impact":
        psycho.announce_impact(ctx, attacker, target)


def tackle(ctx: Ctx, action: ActionState, attacker: Player, target: Player, use: str | None = None) -> None:
    action.impact_tackle_used = True
    # The Impact is a challenge in its own right: even one that stops the Tackle rules out a
    # later throw of 7+ hexes ("may not move or perform a challenge before or after").
    action.challenged = True
    enrage.provoke(ctx, target)
    french_pummel = use == "pummel" and variant(ctx.state, "fr_pummel")
    p = plan(attacker, target, None if french_pummel else use, edition=ctx.state.options.edition)
    dropped = pummel.french_dice(ctx, attacker, target, p.dice) if french_pummel else 0
    if french_pummel:
        p = TacklePlan("pummel", p.impact, p.impact_dice, p.dice - dropped, p.attribute)
    if p.impact is not None and action.dash_die == "any":
        action.dash_die = ctx.ask({
            "kind": "dash_die", "side": attacker.side, "player": attacker.id,
            "options": ["tackle", "impact"], "default": "tackle",
        })
    _announce(ctx, attacker, target, p)
    if p.impact is not None and not impact(ctx, action, attacker, target, dice=p.impact_dice, fear=p.impact == "fear"):
        return
    pay_for_challenge(ctx, action)
    need = tackle_need(ctx.state, attacker, target, use)
    earns = collision.earns(attacker, _earned)
    adjust = pummel.adjuster(attacker, target) if use == "pummel" and not french_pummel else None
    spec = Spec("tackle", attacker.id, p.attribute, p.dice, need, target=target.id, earns=earns, adjust=adjust)
    was_on_field, was_dazed = target.on_field, target.status is Status.DAZED
    roll = resolve(ctx, spec, result=lambda r: tackle_result(r, use))
    collision.announce(ctx, attacker, "collision", _earned, roll)
    if use == "steal":
        steal.resolve_result(ctx, action, attacker, target, roll)
        return
    _result(ctx, attacker, target, roll, use, malus=dropped)
    if use == "cutblock":
        cutblock.after_tackle(ctx, attacker)
    malicious.after_tackle(ctx, attacker, target, was_on_field=was_on_field, was_dazed=was_dazed)


def _result(ctx: Ctx, attacker: Player, target: Player, roll: ChallengeRoll, use: str | None, *, malus: int = 0) -> None:
    if roll.band is Band.FLOP:
        effects.fall(ctx, attacker, Status.DOWN, "flopped a Tackle")
    elif roll.band is Band.FAILURE:
        return
    elif roll.extra == 0:
        if use != "cheapshot":  # a Cheapshot's Slide Tackle "has no effect"
            effects.fall_together(ctx, [target, attacker], "Slide Tackle")
    elif roll.extra == 1:
        if use == "cheapshot":
            cheapshot.solid_hit(ctx, attacker, target)
        else:
            effects.fall(ctx, target, Status.DOWN, "Solid Hit")
    elif roll.extra == 2:
        injury(ctx, target, bonecrusher.injury_dice(ctx, attacker, target, 6), "Punishing Hit", malus=malus)
    else:
        injury(ctx, target, bonecrusher.injury_dice(ctx, attacker, target, target.grit), "Crippling Hit", malus=malus)
