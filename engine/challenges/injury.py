"""Injury challenge (p. 8): Grit dice (6 for a Punishing Hit), read by net successes.

Basic rules: flop, 0 or 1 -> out for the game (Infirmary); 2 -> unconscious (Recovery);
3 -> Bench for the rest of the Test; 4 -> Dazed; 5+ -> Down. A carrier who is hurt drops the
ball from his hex once the injury is resolved (C4). The acting coach may force re-rolls on it
(G28); nobody earns Momentum from it.

Advanced rules (``options.advanced``): "Flop: Player suffers a career-ending injury and is
permanently removed from the team. Place him in the Infirmary." "0 Successes: Player suffers a
lasting injury. The Player's attribute with the most points is reduced permanently by one
point. Team Manager of the player can choose in cases of tied attribute amounts. Place him in
the Infirmary." The match records both on ``Player.injury`` for the league (which applies them
and asks for the tie-break); the rest of the table is the Basic one.

Rugged (Grit, Advanced, p. 13): "may treat 3 or more successes on a Grit challenge as being
placed Down". Everlasting (Undead, Advanced): the opposing manager may not force re-rolls on
his Injury rolls. A Zlurpee Keg may add a success (``engine/support/kegs.py``).

French 0.0.6 (``fr_injury_table``): one table, "Échec" career-ending and 0 a lasting injury
in every game, so the Advanced results apply even when ``options.advanced`` is off. The French
Pummel takes successes off (``malus``, never below 0).
"""

from __future__ import annotations

from collections.abc import Callable

from .. import ball as _ball
from .. import effects
from ..abilities import has
from ..context import Ctx
from ..dice import ChallengeRoll, Need
from ..events import AbilityUsed, InjuryRecorded
from ..options import variant
from ..state import Location, Player, Status
from ..support import kegs
from .base import Spec, resolve

__all__ = ["ATTRIBUTES", "injury", "injury_result", "own_attributes", "highest_attributes", "record_injury"]

ATTRIBUTES = ("jog", "might", "tackle", "dodge", "skill", "grit")

Outcome = tuple[str, Location | Status]


def injury_result(roll: ChallengeRoll, *, advanced: bool = False, rugged: bool = False) -> Outcome:
    if roll.flopped:
        return ("career-ending injury" if advanced else "out for the game"), Location.INFIRMARY
    if roll.net <= 0 and advanced:
        return "lasting injury", Location.INFIRMARY
    if roll.net <= 1:
        return "out for the game", Location.INFIRMARY
    if rugged and roll.net >= 3:
        # Always taken: Down keeps him on the field, better than the Bench or Dazed.
        return "Rugged: only Down", Status.DOWN
    if roll.net == 2:
        return "knocked unconscious: Recovery", Location.RECOVERY
    if roll.net == 3:
        return "to the Bench for the rest of the Test", Location.SENT_OFF
    if roll.net == 4:
        return "winded: Dazed", Status.DAZED
    return "shakes it off: Down", Status.DOWN


def own_attributes(player: Player) -> dict[str, int]:
    """His own profile: the frog's saved one while transformed ("any injury suffered by ... the
    frog also effects the player"), without a potion's +1 (it lasts this game only)."""
    frog = player.frog
    values = dict(zip(ATTRIBUTES, frog["attributes"])) if frog else {a: player.attribute(a) for a in ATTRIBUTES}
    boosts = frog.get("potion_abilities", ()) if frog else player.potion_abilities
    for gained in boosts:
        if gained.startswith("+1 "):
            values[gained[3:]] -= 1
    return values


def highest_attributes(player: Player) -> tuple[str, ...]:
    """The attributes a lasting injury may lower: the tied highest, in jog..grit order."""
    values = own_attributes(player)
    top = max(values.values())
    return tuple(a for a in ATTRIBUTES if values[a] == top)


_SEVERITY = {"lasting": 1, "career_ending": 2, "dead": 3}


def record_injury(ctx: Ctx, player: Player, kind: str) -> None:
    """Record a result the league applies after the match: career_ending, lasting or dead.

    A worse record already there stays; a second lasting injury (a potion's seizure on an
    uncured one) counts 2, lowered one after the other by the league."""
    attributes = highest_attributes(player) if kind == "lasting" else ()
    prev = player.injury
    if prev is not None and _SEVERITY.get(prev["kind"], 0) > _SEVERITY[kind]:
        record = prev
    elif kind == "lasting":
        count = int(prev.get("count", 1)) + 1 if prev is not None and prev["kind"] == "lasting" else 1
        record = {"kind": kind, "attributes": list(attributes), **({"count": count} if count > 1 else {})}
    else:
        record = {"kind": kind}
    player.injury = record
    ctx.emit(InjuryRecorded(player.id, kind, attributes))


def injury(ctx: Ctx, player: Player, dice: int, cause: str, *, malus: int = 0) -> None:
    advanced = ctx.state.options.advanced or variant(ctx.state, "fr_injury_table")
    rugged = has(player, "rugged")

    def read(r: ChallengeRoll) -> Outcome:
        return injury_result(r, advanced=advanced, rugged=rugged)

    label = "grit" if dice == player.grit else f"grit as {dice}"
    spec = Spec(
        "injury", player.id, label, dice, Need(1), earns=None, flop_shifts=False,
        # Everlasting: "The opposing manager may not force re-rolls on his Injury rolls."
        no_forced_rerolls=has(player, "everlasting"),
        adjust=_keg(player, read, malus),
    )
    roll = resolve(ctx, spec, result=lambda r: read(r)[0])
    _, outcome = read(roll)
    if rugged and outcome is Status.DOWN and injury_result(roll, advanced=advanced)[1] is not Status.DOWN:
        ctx.emit(AbilityUsed(player.id, "rugged", "only_down"))
    if isinstance(outcome, Status):
        effects.fall(ctx, player, outcome, cause)
        return
    old, had_ball = effects.remove(ctx, player, outcome, f"injured ({cause})")
    if advanced and outcome is Location.INFIRMARY and roll.net <= 0:
        record_injury(ctx, player, "career_ending" if roll.flopped else "lasting")
    if had_ball and old is not None:
        _ball.scatter(ctx, old)


def _keg(player: Player, read: Callable[[ChallengeRoll], Outcome], malus: int = 0) -> Callable[[Ctx, ChallengeRoll], ChallengeRoll]:
    def adjust(ctx: Ctx, roll: ChallengeRoll) -> ChallengeRoll:
        if malus and not roll.flopped:
            roll = roll.with_bonus(-min(malus, max(0, roll.net)))  # the French Pummel
        return kegs.offer(ctx, player, roll, lambda r: read(r)[1])

    return adjust
