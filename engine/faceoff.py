"""The face-off (p. 3): both face-off players roll Might; the most net successes wins ("zero"
beats a flop); ties are rolled again; a flop is Down; if both flop, a new face-off from the same
set-up. The winner takes up to two free hexes inside the circle and Shoves or Tackles his
opponent, or steps onto the ball and tries a Pick-up; a winner with less Might first gets one
Momentum per point of difference. His team then takes the first action, keeping that Momentum
and whatever the free challenge earned, whatever became of it.

The simplified face-off (Optional rules, p. 19; ``options.simple_faceoff``): "Each Team Manager
rolls 6 challenge dice for Face-off ... If the player who wins the face-off has a Might higher
than his Skill, he must move up to two hexes inside the Face-off circle and automatically
succeed in tackling his opponent resulting in his opponent becoming Down (roll no dice for
Impact, Tackle, or Grit challenges). If his Skill is higher than his Might he automatically
gains possession of the elfball ... If the winning player's Might and Skill attributes are
equal, then he may choose". The section it replaces gave the weaker winner his Momentum, so
this one gives none; Buff (a Might re-roll) does not touch the 6 dice. When the loser flopped
and lies Down already, a Might winner has nobody to knock down: he may take the ball instead.
"""

from __future__ import annotations

from .abilities.rerolls import faceoff_buff
from .challenges.base import MOMENTUM_CAP, gain_momentum
from .challenges.pickup import pickup
from .challenges.shove import shove
from .challenges.tackle import tackle
from .context import Ctx
from .dice import ChallengeRoll, Need
from .errors import IllegalCommandError
from .refusals import Refusal
from .events import BallPickedUp, FaceoffRolled, FaceoffWon, PlayerFell, PlayerMoved, Recovered
from .field import SIDES, Field, Side, other_side
from .hexes import Hex, direction_between, distance
from .movement import turn
from .state import ActionState, Location, MatchState, Phase, Player, Status
from .support.bribed_referee import faceoff_decided
from .turns import begin_turn

__all__ = [
    "RULE_FACEOFF", "faceoff_players", "roll_faceoff", "free_pickup", "free_contact", "contact_path_refusal",
    "simple_choices", "simple_refusal", "SIMPLE_DICE",
]

RULE_FACEOFF = "faceoff"  # The face-off (p. 3)
#: Consecutive tied or double-flopped face-offs before we stop rolling (never reached with fair dice).
MAX_FACEOFF_ROLLS = 200
SIMPLE_DICE = 6  # the simplified face-off's dice, whoever rolls them


def simple_choices(state: MatchState, field: Field) -> tuple[str, ...]:
    """The simplified face-off's events open to its winner: "pickup" and/or "tackle"."""
    side = state.faceoff_winner
    assert side is not None
    players = faceoff_players(state, field)
    me, them = players[side], players[other_side(side)]
    if me.might > me.skill:
        return ("tackle",) if them.standing else ("pickup",)
    if me.skill > me.might:
        return ("pickup",)
    return ("pickup", "tackle") if them.standing else ("pickup",)


def simple_refusal(state: MatchState, field: Field, kind: str) -> Refusal | None:
    """Why the simplified face-off's winner may not choose ``kind`` (pickup, tackle, shove)."""
    if not state.options.simple_faceoff or state.faceoff_winner is None:
        return None
    if kind == "shove":
        return Refusal("faceoff.simple_no_shove")
    allowed = simple_choices(state, field)
    if kind in allowed:
        return None
    if kind == "tackle":
        return Refusal("faceoff.simple_skill")
    return Refusal("faceoff.simple_might")


def faceoff_players(state: MatchState, field: Field) -> dict[Side, Player]:
    out: dict[Side, Player] = {}
    for side in ("west", "east"):
        (h,) = field.setup_hexes(side, "faceoff")
        p = state.player_at(h)
        assert p is not None, f"{side} has no face-off player"
        out[side] = p
    return out


def roll_faceoff(ctx: Ctx) -> None:
    st = ctx.state
    players = faceoff_players(st, ctx.field)
    simple = st.options.simple_faceoff
    for _ in range(MAX_FACEOFF_ROLLS):
        rolls = {
            s: ChallengeRoll.roll(SIMPLE_DICE if simple else players[s].might, Need(1), ctx.dice, star2=st.options.star2)
            for s in players
        }
        for s in ("west", "east") if not simple else ():
            rolls[s] = faceoff_buff(ctx, players[s], rolls[s])
        flops = {s: rolls[s].flopped for s in rolls}
        if flops["west"] and flops["east"]:
            result = "both_flopped"
        elif flops["west"] or flops["east"]:
            result = "east" if flops["west"] else "west"
        elif rolls["west"].net == rolls["east"].net:
            result = "tie"
        else:
            result = "west" if rolls["west"].net > rolls["east"].net else "east"
        ctx.emit(FaceoffRolled(players["west"].id, players["east"].id, rolls["west"].to_dict(), rolls["east"].to_dict(), result))
        winner = next((s for s in SIDES if s == result), None)
        if winner is not None:
            loser = other_side(winner)
            if flops[loser]:
                players[loser].status = Status.DOWN
                ctx.emit(PlayerFell(players[loser].id, "down", "flopped the face-off"))
            _won(ctx, winner, players[winner], players[loser])
            return
        # A tie is rolled again; two flops restart the face-off with the same set-up, so both
        # trip and get straight back up in their hexes.
    raise IllegalCommandError.of("faceoff.undecided", rule=RULE_FACEOFF)


def _won(ctx: Ctx, side: Side, winner: Player, loser: Player) -> None:
    st = ctx.state
    st.phase, st.faceoff_winner, st.turn_side = Phase.FACEOFF, side, side
    st.momentum, st.momentum_side = 0, side
    bonus = 0 if st.options.simple_faceoff else min(MOMENTUM_CAP, max(0, loser.might - winner.might))
    ctx.emit(FaceoffWon(side, winner.id, bonus))
    faceoff_decided(st, (winner, loser))  # a bribed Monster: checked before his team's first action
    gain_momentum(ctx, side, bonus, "face-off against a stronger player")
    # Recovery players may return "after the next Test has started": once the face-off is
    # decided they sit on the Bench, ready to be Replacements (G53).
    for p in st.players.values():
        if p.location is Location.RECOVERY:
            p.location = Location.BENCH
            ctx.emit(Recovered(p.id))


def _free_action(ctx: Ctx, p: Player) -> ActionState:
    action = ActionState(player=p.id, jog_left=0, faceoff_free=True)
    ctx.state.action = action
    ctx.state.once = []  # a fresh once-per-action slate (Agile, Grapple...) for the free challenge
    return action


def _finish(ctx: Ctx, side: Side) -> None:
    ctx.state.action = None
    begin_turn(ctx, side)


def free_pickup(ctx: Ctx) -> None:
    st = ctx.state
    side = st.faceoff_winner
    assert side is not None
    p = faceoff_players(st, ctx.field)[side]
    if st.options.simple_faceoff:
        # "he automatically gains possession of the elfball (place the elfball token on his base)"
        st.ball.carrier, st.ball.hex = p.id, None
        ctx.emit(BallPickedUp(p.id))
        _finish(ctx, side)
        return
    action = _free_action(ctx, p)
    origin, p.hex = p.hex, ctx.field.ball_spot
    assert origin is not None
    d = direction_between(origin, p.hex)
    if d is not None:
        p.facing = d
    ctx.emit(PlayerMoved(p.id, origin, p.hex, 0))
    action.moved = True
    pickup(ctx, p)
    _finish(ctx, side)


def contact_path_refusal(st: MatchState, fld: Field, path: tuple[Hex, ...]) -> Refusal | None:
    side = st.faceoff_winner
    assert side is not None
    players = faceoff_players(st, fld)
    me, them = players[side], players[other_side(side)]
    if not them.standing:
        return Refusal("faceoff.opponent_down", text="G54")
    if len(path) > 2:
        return Refusal("faceoff.two_hexes")
    interior = set(fld.circle_hexes("centre")) - {fld.ball_spot}
    at = me.hex
    assert at is not None
    for h in path:
        if distance(at, h) != 1:
            return Refusal("hex.not_next", hex=fld.format(h), hex2=fld.format(at))
        if h not in interior:
            return Refusal("faceoff.circle_hex", hex=fld.format(h))
        if st.player_at(h) is not None:
            return Refusal("hex.not_empty", hex=fld.format(h))
        at = h
    if them.hex is None or distance(at, them.hex) != 1:
        return Refusal("faceoff.not_adjacent", hex=fld.format(at))
    return None


def free_contact(ctx: Ctx, path: tuple[Hex, ...], challenge: str) -> None:
    st = ctx.state
    side = st.faceoff_winner
    assert side is not None
    why = contact_path_refusal(st, ctx.field, path)
    if why:
        raise IllegalCommandError(why.cited(RULE_FACEOFF))
    players = faceoff_players(st, ctx.field)
    me, them = players[side], players[other_side(side)]
    action = _free_action(ctx, me)
    for h in path:
        assert me.hex is not None
        d = direction_between(me.hex, h)
        origin, me.hex = me.hex, h
        me.facing = d
        action.moved = True
        ctx.emit(PlayerMoved(me.id, origin, h, 0))
    assert me.hex is not None and them.hex is not None
    towards = direction_between(me.hex, them.hex)
    turn(ctx, me, towards)
    if st.options.simple_faceoff:
        # "automatically succeed in tackling his opponent ... (roll no dice ...)"
        them.status = Status.DOWN
        ctx.emit(PlayerFell(them.id, "down", "the simplified face-off"))
    elif challenge == "tackle":
        tackle(ctx, action, me, them)
    else:
        shove(ctx, action, me, them)
    _finish(ctx, side)

