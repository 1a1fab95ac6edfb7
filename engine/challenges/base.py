"""The challenge pipeline every challenge goes through, and the facing modifiers they share.

``resolve`` rolls the dice, then lets the acting team spend Momentum: on its own rolls to
replace its dice while the roll is not flopped, on an opponent's roll during its action to
force a re-roll of a die of its choice (p. 5). Then it books Momentum earned and the SiM of a
flop. A challenge is a ``Spec``: who rolls, how many dice, the successes needed with named
modifiers, and how its extra successes turn into Momentum. Advanced abilities hook in by
changing a Spec (dice, need, earning) or by adding a replacement step, not by new branches.
"""

from __future__ import annotations

from collections.abc import Callable

from ..abilities.focused import focused_modifiers
from ..abilities.helping_hand import helping_hand_modifier, helping_hands
from ..abilities.rerolls import offer_ability_reroll
from ..actions import take_dash_die
from ..context import Ctx
from ..dice import ChallengeRoll, Modifier, Reason
from ..events import ChallengeRolled, MomentumGained, MomentumSpent
from ..field import Side
from ..hexes import is_in_front
from ..state import MatchState, Player
from .spec import Spec

__all__ = [
    "Spec",
    "resolve",
    "gain_momentum",
    "spend_momentum",
    "mates_facing",
    "opps_facing",
    "facing_modifiers",
    "contact_modifiers",
    "MOMENTUM_CAP",
    "plural",
]

MOMENTUM_CAP = 6


def standing_adjacent(state: MatchState, p: Player) -> list[Player]:
    assert p.hex is not None
    neighbours = set(p.hex.neighbours())
    return [o for o in state.players.values() if o.standing and o.hex in neighbours]


def faces(a: Player, b: Player) -> bool:
    """Standing ``a`` forward-faces ``b`` (b is in one of a's 3 front hexes)."""
    return (
        a.standing
        and a.hex is not None
        and a.facing is not None
        and b.hex is not None
        and is_in_front(a.hex, a.facing, b.hex)
    )


def mates_facing(state: MatchState, p: Player) -> list[Player]:
    return [o for o in standing_adjacent(state, p) if o.side == p.side and o.id != p.id and faces(o, p)]


def opps_facing(state: MatchState, p: Player) -> list[Player]:
    return [o for o in standing_adjacent(state, p) if o.side != p.side and faces(o, p)]


def facing_modifiers(state: MatchState, p: Player) -> tuple[Modifier, ...]:
    """Pick-up, Throw, Catch, Intercept: -1 per teammate, +1 per opponent facing the roller
    (and the Skill abilities that change those: Helping Hand, Focused)."""
    mods = []
    facing_mates = mates_facing(state, p)
    mates, opps = len(facing_mates), len(opps_facing(state, p))
    if mates:
        mods.append(Modifier(plural(mates, "team-mate") + " facing", -mates))
    mods += helping_hand_modifier(helping_hands(state, p, facing_mates))
    if opps:
        mods.append(Modifier(plural(opps, "opponent") + " facing", opps))
    return focused_modifiers(p, tuple(mods))


def plural(n: int, noun: str) -> str:
    """The label's noun; the modifier's value already says how many ("-2 team-mates facing")."""
    return noun if n == 1 else noun + "s"


def contact_modifiers(state: MatchState, attacker: Player, target: Player) -> list[Modifier]:
    """Impact, Tackle, Shove: teammates facing the *target* help (G37); other opponents facing
    the attacker hinder; hitting from the target's rear helps."""
    mods = []
    helpers = [
        o for o in standing_adjacent(state, target) if o.side == attacker.side and o.id != attacker.id and faces(o, target)
    ]
    if helpers:
        mods.append(Modifier(plural(len(helpers), "team-mate") + " facing the target", -len(helpers)))
    mods += helping_hand_modifier(helping_hands(state, attacker, helpers))
    others = [o for o in opps_facing(state, attacker) if o.id != target.id]
    if others:
        mods.append(Modifier(plural(len(others), "other opponent") + " facing", len(others)))
    if target.facing is not None and attacker.hex is not None and target.hex is not None:
        if not is_in_front(target.hex, target.facing, attacker.hex):
            mods.append(Modifier("from the rear", -1))
    return mods


def gain_momentum(ctx: Ctx, side: Side, amount: int, source: str) -> None:
    st = ctx.state
    if amount <= 0:
        return
    if st.momentum_side != side:
        st.momentum, st.momentum_side = 0, side
    new = min(MOMENTUM_CAP, st.momentum + amount)
    if new != st.momentum:
        ctx.emit(MomentumGained(side, new - st.momentum, new, source))
        st.momentum = new


def spend_momentum(ctx: Ctx, amount: int, purpose: str) -> None:
    st = ctx.state
    st.momentum -= amount
    ctx.emit(MomentumSpent(st.momentum_side or "", amount, st.momentum, purpose))


def _offer_replacements(ctx: Ctx, spec: Spec, roll: ChallengeRoll) -> ChallengeRoll:
    """Let the acting team spend counters on this roll, one question per batch of dice.

    Not once a Shift in Momentum has been triggered: the rest of the triggering challenge (the
    ball's scatter, any catches) still resolves, but the counters are already the opponent's to
    come, so "from the trigger onwards the acting team can spend no more counters" (G29).
    """
    st = ctx.state
    acting = ctx.acting_side
    own = _side(st, spec) == acting
    reason = Reason.MOMENTUM if own else Reason.FORCED
    if not own and spec.no_forced_rerolls:
        return roll  # Cover, Everlasting: "may not use Momentum to replace rolls made for" him
    while st.momentum > 0 and st.momentum_side == acting and acting is not None and not ctx.sim:
        eligible = list(roll.replaceable(reason))
        if not eligible:
            break
        question = {
            "kind": "reroll" if own else "force_reroll",
            "side": acting,
            "player": spec.roller,
            "challenge": spec.challenge,
            "roll": roll.to_dict(),
            "eligible": eligible,
            "max": min(st.momentum, len(eligible)),
            "default": [],
        }
        chosen = ctx.ask(question)
        if not chosen:
            break
        roll = roll.replace_many([int(i) for i in chosen], ctx.dice, reason=reason)
        spend_momentum(ctx, len(chosen), "replace dice" if own else "force a re-roll")
    return roll


def _side(st: MatchState, spec: Spec) -> Side:
    """The rolling team: the roller's, or ``spec.side`` for a roller who is not a player."""
    p = st.players.get(spec.roller)
    if p is not None:
        return p.side
    assert spec.side is not None, f"{spec.roller} rolls for no team"
    return spec.side


def resolve(ctx: Ctx, spec: Spec, *, result: Callable[[ChallengeRoll], str] | None = None) -> ChallengeRoll:
    """Roll ``spec``, offer its re-roll ability then Momentum, book earnings and flops, and
    report the roll."""
    st = ctx.state
    dice = spec.dice + take_dash_die(ctx, spec.challenge, spec.roller)  # the French Dash's extra die
    roll = ChallengeRoll.roll(max(0, dice), spec.need, ctx.dice, star2=st.options.star2)
    # Ability replacements come before the flop test, so they may rescue a flop (G26).
    roll = offer_ability_reroll(ctx, spec, roll)
    roll = _offer_replacements(ctx, spec, roll)
    if spec.adjust is not None:
        roll = spec.adjust(ctx, roll)
    side = _side(st, spec)
    ctx.emit(
        ChallengeRolled(
            challenge=spec.challenge,
            player=spec.roller,
            attribute=spec.attribute,
            roll=roll.to_dict(),
            band=roll.band.value,
            net=roll.net,
            extra=roll.extra,
            target=spec.target,
            result=result(roll) if result else "",
        )
    )
    own = side == ctx.acting_side
    # Only the acting team earns Momentum, and only from its own challenges (MO2, G24).
    if own and spec.earns is not None and roll.succeeded:
        gain_momentum(ctx, side, spec.earns(roll), spec.challenge)
    if own and roll.flopped and spec.flop_shifts:
        ctx.shift(f"flopped {spec.challenge}")
    return roll
