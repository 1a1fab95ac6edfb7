"""Moving and standing up (pp. 4-5).

Each hex costs one pace of Jog (the Dash's one hex costs none). Leaving a hex next to a
standing opponent who faces you needs a Disengage first; a failure leaves the player in his
hex, so the pace is not spent. Entering the ball's hex forces a Pick-up. Entering the outer
line or a goal hex calls the referee. Standing costs 5 - Grit from Down, 8 - Grit from Dazed,
-1 per standing team-mate and +1 per standing opponent adjacent and facing him; 0 or less is
free.

French 0.0.6 (``fr_stand_up``): "Vous ne pouvez relever qu'un joueur par tour. Vous ne pouvez
pas vous relever après un RdS": one stand-up a team turn (two players act in a turn with double
movement; a player may fall and rise again in one action), and none on a turn that began after
the other team's Shift in Momentum (``stand_refusal``).

Some abilities pay steps with Momentum counters instead of Jog (``counter_walk``; the rules of
each are in ``engine/abilities/counter_moves.py``).
"""

from __future__ import annotations

from . import referee
from .abilities import clipping
from .abilities.standing import stand_abilities, stand_base
from .actions import pay_for_challenge, step_cost
from .abilities import ABILITIES
from .challenges.base import mates_facing, opps_facing, spend_momentum
from .challenges.disengage import disengage
from .challenges.pickup import pickup
from .context import Ctx
from .events import AbilityUsed, PlayerMoved, PlayerStoodUp, PlayerTurned
from .hexes import Direction, Hex, direction_between
from .options import variant
from .refusals import Refusal
from .state import ActionState, MatchState, Player, Status

__all__ = ["walk", "counter_walk", "stand_cost", "stand_refusal", "stand_up", "turn"]


def _crowd(state: MatchState, p: Player) -> int:
    return len(opps_facing(state, p)) - len(mates_facing(state, p))


def stand_cost(state: MatchState, p: Player) -> int:
    # Rally and Rugged change the 5 - Grit / 8 - Grit.
    return max(0, stand_base(p) + _crowd(state, p))


def stand_refusal(state: MatchState) -> Refusal | None:
    """Why no player may stand up now under the French limits, or None."""
    if not variant(state, "fr_stand_up"):
        return None
    if state.turn_stood:
        return Refusal("stand.one_per_turn")
    if state.turn_after_sim:
        return Refusal("stand.after_shift")
    return None


def turn(ctx: Ctx, p: Player, facing: Direction | None) -> None:
    if facing is not None and p.facing is not facing:
        p.facing = facing
        ctx.emit(PlayerTurned(p.id, facing.name))


def stand_up(ctx: Ctx, action: ActionState, p: Player, facing: Direction | None) -> None:
    cost = stand_cost(ctx.state, p)
    for used in stand_abilities(p, _crowd(ctx.state, p)):
        ctx.emit(AbilityUsed(p.id, used, "stand_cost"))
    action.jog_left -= cost
    action.stood_up = True
    ctx.state.turn_stood = True
    p.status = Status.STANDING
    ctx.emit(PlayerStoodUp(p.id, cost, action.jog_left))
    turn(ctx, p, facing or p.facing or Direction.E)


def walk(ctx: Ctx, action: ActionState, p: Player, path: tuple[Hex, ...], facing: Direction | None) -> None:
    """Walk ``path`` one hex at a time; stops early on a fall, the referee or a Pick-up."""
    st = ctx.state
    for i, to in enumerate(path):
        assert p.hex is not None
        d = direction_between(p.hex, to)
        assert d is not None
        opponents = opps_facing(st, p)
        if opponents:
            # A Disengage is a challenge: after it, even a failed one that leaves him in his hex,
            # no throw of 7+ hexes ("may not move or perform a challenge before or after").
            action.challenged = True
            reserve = step_cost(action) + len(path) - i - 1
            if not clipping.break_free(ctx, action, p, opponents, reserve=reserve):
                return
            if not disengage(ctx, p, opponents):
                return
        cost = step_cost(action)
        if action.dash == "granted":
            action.dash = "moved"
            action.dash_die = None  # the French Dash's extra die is for the other option
        else:
            action.jog_left -= cost
            action.surcharge = False
        origin, p.hex = p.hex, to
        p.facing = d
        action.moved = True
        ctx.emit(PlayerMoved(p.id, origin, to, action.jog_left))
        if referee.entered(ctx, p):
            return
        if st.ball.carrier is None and st.ball.hex == to:
            # "When you move into the hex with the ball you must attempt to pick up the ball."
            pay_for_challenge(ctx, action)
            pickup(ctx, p)
            return
    turn(ctx, p, facing)


def counter_walk(
    ctx: Ctx,
    action: ActionState | None,
    p: Player,
    path: tuple[Hex, ...],
    facing: Direction | None,
    *,
    ability: str,
    owner: Player,
    cost: int,
) -> None:
    """Walk ``path`` (checked beforehand) paying ``cost`` counters a hex, no Jog and no
    Disengage. ``action`` is the acting player's bookkeeping when he is the one moving, None
    for anyone else (Swarm's other Little Guys, the Lead Pass catcher, a reacting player)."""
    st = ctx.state
    ctx.emit(AbilityUsed(owner.id, ability, "counter_move", None if p.id == owner.id else p.id))
    for to in path:
        assert p.hex is not None
        d = direction_between(p.hex, to)
        assert d is not None
        spend_momentum(ctx, cost, f"move with {ABILITIES[ability].name}")
        origin, p.hex = p.hex, to
        p.facing = d
        if action is not None:
            action.moved = True
        ctx.emit(PlayerMoved(p.id, origin, to, action.jog_left if action is not None else None))
        if referee.entered(ctx, p):
            return
        if action is not None and st.ball.carrier is None and st.ball.hex == to:
            pay_for_challenge(ctx, action)
            pickup(ctx, p)
            return
    turn(ctx, p, facing)
