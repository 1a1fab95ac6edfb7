"""Throw challenge (p. 6).

Skill; 1 success needed, -1 per team-mate and +1 per opponent facing the thrower, +2 beyond
half the maximum range. Up to 6 hexes alongside other activity; 7 to 18 only if the player
neither moves nor challenges before or after. Flop: the ball bounces one pace from the thrower,
SiM. Fewer: a miss, landing D6 paces in a D6 direction from the target hex, SiM unless a
team-mate catches it. Exactly: wobbly, the receiver must Catch unless he is next to the
thrower. More: perfect spiral, caught automatically "even if bounced off a line".
Failing to have one of your players catch the ball after a Throw is a SiM, so a throw to an
empty hex always shifts Momentum (G32).

French 0.0.6: the French list of Shifts in Momentum has the English item ("Aucune réception de
l'un de vos joueurs après un lancer"), so a throw shifts exactly as in English. Rules edition 1
read the Catch footnote (``fr_catch_sim``) as sparing an accurate throw left on the ground;
stored matches of that edition replay so. The footnote's own SiM is ``catch.footnote_check``.
"""

from __future__ import annotations

from .. import ball as _ball
from ..abilities import has
from ..abilities.earnings import announce_doubling, earnings
from ..abilities.scramble import long_throw_barred, scramble_modifier
from ..actions import pay_for_challenge
from ..context import Ctx
from ..dice import Band, Modifier, Need
from ..events import BallStoppedByLine, BallThrown, PlayerTurned
from ..hexes import Direction, Hex, distance, line, nearest_direction, ray
from ..options import variant
from ..state import ActionState, MatchState, Player
from .base import Spec, facing_modifiers, resolve
from .intercept import offer_interception

__all__ = ["throw", "throw_need", "SHORT_MAX", "LONG_MAX", "throw_facing"]

SHORT_MAX = 6
LONG_MAX = 18
_RESULT = {Band.FLOP: "fumbled, SiM", Band.FAILURE: "misses", Band.EXACT: "a bit wobbly", Band.EXTRA: "perfect spiral"}


def throw_facing(thrower_hex: Hex, target: Hex) -> Direction:
    """The facing a thrower takes for his throw: the side nearest the target's bearing."""
    return nearest_direction(thrower_hex, target)[0]


def throw_need(state: MatchState, thrower: Player, dist: int, long: bool, *, scramble: bool = False) -> Need:
    """``scramble``: a long throw that only Scramble allows (after moving or a challenge)."""
    mods = list(facing_modifiers(state, thrower))
    # "more than half the maximum paces": 4-6 for a short throw, 10-18 for a long one (G10).
    if dist * 2 > (LONG_MAX if long else SHORT_MAX):
        mods.append(Modifier("beyond half range", 2))
    mods += scramble_modifier(thrower, scramble)
    return Need(1, tuple(mods))


def throw(ctx: Ctx, action: ActionState, thrower: Player, target: Hex, long: bool) -> None:
    st = ctx.state
    assert thrower.hex is not None
    dist = distance(thrower.hex, target)
    facing = throw_facing(thrower.hex, target)
    if thrower.facing is not facing:
        thrower.facing = facing
        ctx.emit(PlayerTurned(thrower.id, facing.name))
    scramble = long and long_throw_barred(action)  # judged before this throw counts as a challenge
    pay_for_challenge(ctx, action)
    if long:
        action.long_throw = True
    need = throw_need(st, thrower, dist, long, scramble=scramble)
    spec = Spec("throw", thrower.id, "skill", thrower.skill, need, earns=earnings(thrower, "bullet"))
    roll = resolve(ctx, spec, result=lambda r: _RESULT[r.band])
    announce_doubling(ctx, thrower, "bullet", roll)
    origin = thrower.hex
    st.ball.carrier, st.ball.hex = None, origin
    if roll.flopped:
        _ball.scatter(ctx, origin)
        return
    if roll.band is Band.FAILURE:
        d = Direction(ctx.d6())
        landing = ray(target, d, ctx.d6())[-1]
        kind = "loose"  # a miss landing on a player: he may Catch (G33)
    else:
        landing = target
        kind = "wobbly" if roll.band is Band.EXACT else "perfect spiral"
    # The flight: the ball stops in the first white-line hex it enters; the thrower's own hex
    # does not count (G12). Then it bounces D6 away before anyone catches.
    points = [origin]
    came_from = origin
    end = landing
    for h in line(origin, landing)[1:]:
        info = ctx.field.get(h)
        end = h
        if info is None or info.white_line:
            break
        came_from = h
    ctx.emit(BallThrown(thrower.id, target, dist, long, end))
    points.append(end)
    info = ctx.field.info(end)
    # Bankshot steers the bounce off the line his throw stops on, not any later one.
    bankshot = thrower if has(thrower, "bankshot") else None
    if info.white_line:
        occupant = st.player_at(end)
        if occupant is None or not occupant.standing:
            ctx.emit(BallStoppedByLine(end))
            from_half = info.half if ctx.field.info(came_from).half is None else ctx.field.info(came_from).half
            bounced, came_from = _ball.trace_bounce(ctx, end, from_half, bankshot=bankshot)
            points.extend(bounced[1:])
            bankshot = None
    final = points[-1]
    if not offer_interception(ctx, thrower, points):
        receiver = st.player_at(final)
        if kind == "wobbly" and receiver is not None and distance(final, origin) == 1:
            kind = "automatic"
        _ball.arrive(ctx, final, came_from=came_from, catch_kind=kind, bankshot=bankshot)
    carrier = st.carrier()
    accurate_on_ground = carrier is None and roll.band in (Band.EXACT, Band.EXTRA)
    if accurate_on_ground and variant(st, "fr_catch_sim") and st.options.edition < 2:
        pass  # edition 1's reading of the French footnote (docs/rules.md 14.2)
    elif carrier is None or carrier.side != thrower.side:
        ctx.shift("no team-mate caught the throw")
    elif carrier.id != thrower.id and has(thrower, "lead-pass"):
        action.lead_pass = carrier.id  # he may move now, for counters (abilities/counter_moves.py)
