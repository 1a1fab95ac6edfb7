"""Shove challenge (p. 7): push a standing adjacent opponent one hex straight away, "if no
other player is in that hex". Might; needs the target's Might - 2 with the contact modifiers.
Flop: the shover is Down, SiM. Into the outer line or a goal hex: the referee; into the ball's
hex: a dropped ball. A shoved player keeps his facing (G9); a blocked shove moves nobody (G38).
Psycho adds dice, Knockback doubles the Momentum, Plough follows the target into his hex.

French 0.0.6: "Le nombre de Pousser est limité à la moitié de votre Mouvement (arrondi
supérieur)" (``fr_shove_limit``, counted on ``ActionState.shoves``; ``shove_limit``), and on a
failure "Vous perdez un point de mouvement pour continuer à bouger ou tenter un autre défi"
(``fr_failed_shove_pace``: the failed Impact's surcharge).
"""

from __future__ import annotations

from .. import ball as _ball
from .. import effects, referee
from ..abilities import collision, enrage, knockback, plough, psycho
from ..actions import pay_for_challenge
from ..context import Ctx
from ..options import variant
from ..dice import Band, ChallengeRoll, Need
from ..events import PlayerShoved
from ..hexes import Hex, direction_between
from ..state import ActionState, MatchState, Player, Status
from .base import Spec, contact_modifiers, resolve

__all__ = ["shove", "shove_destination", "shove_need", "shove_limit"]

_RESULT = {Band.FLOP: "shover Down, SiM", Band.FAILURE: "holds his ground", Band.EXACT: "pushed back", Band.EXTRA: "pushed back"}


def shove_destination(ctx: Ctx, attacker: Player, target: Player) -> Hex | None:
    assert attacker.hex is not None and target.hex is not None
    d = direction_between(attacker.hex, target.hex)
    assert d is not None
    dest = target.hex.neighbour(d)
    if dest not in ctx.field or ctx.state.player_at(dest) is not None:
        return None
    return dest


def shove_need(state: MatchState, attacker: Player, target: Player) -> Need:
    return Need(target.might - 2, tuple(contact_modifiers(state, attacker, target)))


def shove_limit(state: MatchState, attacker: Player) -> int | None:
    """The Shoves he may attempt this action under the French limit (None: no limit)."""
    return (attacker.jog + 1) // 2 if variant(state, "fr_shove_limit") else None


def _extra(roll: ChallengeRoll) -> int:
    return roll.extra


def shove(ctx: Ctx, action: ActionState, attacker: Player, target: Player) -> None:
    pay_for_challenge(ctx, action)
    action.shoves += 1
    enrage.provoke(ctx, target)
    psycho.announce_shove(ctx, attacker, target)
    need = shove_need(ctx.state, attacker, target)
    spec = Spec("shove", attacker.id, "might", psycho.shove_dice(attacker), need, target=target.id,
                earns=knockback.earns(attacker, _extra))
    roll = resolve(ctx, spec, result=lambda r: _RESULT[r.band])
    collision.announce(ctx, attacker, "knockback", _extra, roll)
    if roll.flopped:
        effects.fall(ctx, attacker, Status.DOWN, "flopped a Shove")
        return
    if not roll.succeeded:
        if variant(ctx.state, "fr_failed_shove_pace") and not action.faceoff_free:
            action.surcharge = True
        return
    origin = target.hex
    assert origin is not None
    dest = shove_destination(ctx, attacker, target)
    ctx.emit(PlayerShoved(target.id, origin, dest))
    if dest is None:
        return
    target.hex = dest
    st = ctx.state
    if not referee.entered(ctx, target) and st.ball.carrier is None and st.ball.hex == dest:
        # "If the shove forces the opponent into a hex with the ball, it is treated as a
        # dropped ball" — being shoved in is not moving in, so no Pick-up (B1).
        _ball.scatter(ctx, dest)
    plough.offer(ctx, action, attacker, target, origin)
