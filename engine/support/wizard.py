"""The Hired Gun Wizard (Optional Rules, p. 19).

"The Hired Gun Wizard never sets a foot on the playing field, has a Skill attribute of 5, and
can be called upon to cast one of three spells: System Shock, Inferno, or Transmutation
(coach's choice). Use of a Wizard is done instead of taking an action with a player for this
turn. A Wizard can earn and use Momentum." He has "enough endurance to cast one spell per a
match".

- System Shock, on one opponent: Skill 5, needs the opponent's Might - 1, +2 if he holds the
  ball. Flop: "Magic backfires into your Bench area. One randomly determined player in your
  Bench area (if any) is moved to the Recovery area. SiM." Fewer: no effect. Exactly: Down.
  +1: Dazed. +2 or more: he rolls an Injury challenge.
- Inferno, on one hex: "The spell target one hex and all 6 hexes adjacent to that hex. Any
  player (from either team) who is in one of these hexes must roll an Inferno challenge":
  Dodge, needs 2, no casting roll. Flop: Injury. Fewer: Dazed. Exactly: Down. More: "avoids
  the flames". "Extra successes by your players do not earn Momentum counters."
- Transformation ("Transmutation"), on any player: Skill 5, needs 2. Flop: backfire, SiM.
  Fewer: no effect. Success: "Player is turned into a giant frog until the end of the Test.
  Any injury suffered by or experience points gained by the frog also effects the player when
  he changes back. The frog has the following attributes: Jog 7 / Might 2 / Tackle 4 /
  Dodge 6 / Skill 0 / Grit 2. If this player had the ball it will bounce 1 pace from him."

The wizard's rolls go through ``resolve`` like a player's, for his team (``Spec.side``): its
counters may replace his dice, a success earns Momentum and a flop is a SiM. The Inferno's
victims roll in the order target hex, then its neighbours clockwise from NE (the compass
order of ``Direction``). The backfire picks among the players on the Bench (not those
sent off for the Test) with D6 rolls, re-rolling what does not divide evenly. The frog is a
Monster with no abilities (the book gives neither); his own profile waits in ``Player.frog``
until the next Test starts or the match ends. ``engine.match`` ends the turn after the spell.
"""

from __future__ import annotations

from typing import Any

from .. import effects
from ..challenges.base import Spec, resolve
from ..challenges.injury import ATTRIBUTES, injury
from ..context import Ctx
from ..dice import Band, ChallengeRoll, Modifier, Need
from ..errors import MalformedInputError
from ..events import MomentumReset, PlayerTransformed, SpellCast, SupportUsed
from ..field import Field, Side
from ..hexes import Hex
from ..rosters import giant_frog
from ..refusals import Refusal
from ..state import Location, MatchState, Player, Status

__all__ = ["SPELLS", "SKILL", "roller_id", "refusal", "cast", "transform", "restore_frogs", "random_pick"]

SPELLS = ("system_shock", "inferno", "transformation")
SKILL = 5


def roller_id(side: Side) -> str:
    """The wizard's id on his rolls (he is not a player of the match)."""
    return f"wizard:{side}"


def refusal(state: MatchState, fld: Field, spell: str, target: str | None, at: Hex | None, by: Side) -> Refusal | None:
    """Why ``by``'s wizard may not cast now (it is ``by``'s turn), or None; malformed input raises."""
    if spell not in SPELLS:
        raise MalformedInputError.of("spell.unknown", text=repr(spell), text2=", ".join(SPELLS))
    team = state.teams[by]
    if not team.support.get("wizard"):
        return Refusal("wizard.none")
    if not team.available("wizard"):
        return Refusal("wizard.used")
    if state.committed_actor:
        return Refusal("wizard.quickling", player=state.players[state.committed_actor].name)
    if spell == "inferno":
        if at is None:
            raise MalformedInputError.of("spell.inferno_hex")
        if at not in fld:
            return Refusal("hex.off_field", hex=fld.format(at))
        return None
    if target is None:
        raise MalformedInputError.of("spell.needs_player", text=spell.replace("_", " "))
    p = state.players.get(target)
    if p is None:
        raise MalformedInputError.of("player.unknown_id", text=repr(target))
    if not p.on_field:
        return Refusal("player.not_on_field", player=p.name)
    if spell == "system_shock" and p.side == by:
        return Refusal("spell.shock_opponent")
    if spell == "transformation" and p.frog is not None:
        return Refusal("spell.already_frog", player=p.name)
    return None


def cast(ctx: Ctx, side: Side, spell: str, target: str | None, at: Hex | None) -> None:
    """Cast in place of ``side``'s action; the caller then ends the turn."""
    st = ctx.state
    # Like the start of an action: the other team's counters go, unless a SiM gave them to us.
    if st.momentum_side != side and (st.momentum or st.momentum_side):
        if st.momentum:
            ctx.emit(MomentumReset(st.momentum_side))
        st.momentum, st.momentum_side = 0, None
    st.after_sim, st.once = False, []
    st.teams[side].used["wizard"] = 1
    ctx.emit(SupportUsed(side, "wizard", None, 0))
    ctx.emit(SpellCast(side, spell, target, at))
    if spell == "inferno":
        assert at is not None
        _inferno(ctx, at)
    elif spell == "system_shock":
        assert target is not None
        _system_shock(ctx, side, st.players[target])
    else:
        assert target is not None
        _transformation(ctx, side, st.players[target])


# --- the spells ----------------------------------------------------------------------------
def _shock_result(roll: ChallengeRoll) -> str:
    if roll.band is Band.FLOP:
        return "backfires, SiM"
    if roll.band is Band.FAILURE:
        return "no effect"
    return {0: "Down", 1: "Dazed"}.get(roll.extra, "Injury")


def _system_shock(ctx: Ctx, side: Side, target: Player) -> None:
    holding = ctx.state.ball.carrier == target.id
    # "Elfballs however help 'ground' a player to resist this spell."
    need = Need(target.might - 1, (Modifier("holding the elfball", 2),) if holding else ())
    spec = Spec("system_shock", roller_id(side), "skill", SKILL, need, target=target.id, side=side)
    roll = resolve(ctx, spec, result=_shock_result)
    if roll.band is Band.FLOP:
        _backfire(ctx, side)
    elif roll.band is Band.FAILURE:
        return
    elif roll.extra == 0:
        effects.fall(ctx, target, Status.DOWN, "System Shock")
    elif roll.extra == 1:
        effects.fall(ctx, target, Status.DAZED, "System Shock")
    else:
        injury(ctx, target, target.grit, "System Shock")


def _inferno_result(roll: ChallengeRoll) -> str:
    return {Band.FLOP: "engulfed: Injury", Band.FAILURE: "Dazed", Band.EXACT: "Down"}.get(roll.band, "avoids the flames")


def _inferno(ctx: Ctx, at: Hex) -> None:
    st = ctx.state
    victims = [p for p in (st.player_at(h) for h in (at, *at.neighbours())) if p is not None]
    for p in victims:
        if not p.on_field:
            continue
        spec = Spec("inferno", p.id, "dodge", p.dodge, Need(2), earns=None, flop_shifts=False)
        roll = resolve(ctx, spec, result=_inferno_result)
        if roll.band is Band.FLOP:
            injury(ctx, p, p.grit, "Inferno")
        elif roll.band is Band.FAILURE:
            effects.fall(ctx, p, Status.DAZED, "Inferno")
        elif roll.band is Band.EXACT:
            effects.fall(ctx, p, Status.DOWN, "Inferno")


def _transformation(ctx: Ctx, side: Side, target: Player) -> None:
    spec = Spec("transformation", roller_id(side), "skill", SKILL, Need(2), target=target.id, side=side)
    roll = resolve(ctx, spec, result=lambda r: {Band.FLOP: "backfires, SiM", Band.FAILURE: "no effect"}.get(r.band, "a giant frog"))
    if roll.band is Band.FLOP:
        _backfire(ctx, side)
    elif roll.succeeded:
        transform(ctx, target)


def _backfire(ctx: Ctx, side: Side) -> None:
    bench = [p for p in ctx.state.team_players(side) if p.location is Location.BENCH]
    if bench:
        victim = random_pick(ctx, bench)
        effects.remove(ctx, victim, Location.RECOVERY, "the spell backfired into his Bench")


def random_pick(ctx: Ctx, items: list[Any]) -> Any:
    """One of ``items`` (up to 36), uniformly, with D6 rolls: one die for up to 6 (a number
    on the die past the last even share is rolled again), two dice read as 6 x first + second
    for more."""
    n = len(items)
    if n == 1:
        return items[0]
    dice = 1 if n <= 6 else 2
    span = 6**dice
    while True:
        value = 0
        for _ in range(dice):
            value = value * 6 + ctx.d6() - 1
        if value < span - span % n:
            return items[value % n]


# --- the giant frog ----------------------------------------------------------------------------
def transform(ctx: Ctx, p: Player) -> None:
    frog = giant_frog()
    p.frog = {
        "type": p.type,
        "attributes": [p.attribute(a) for a in ATTRIBUTES],
        "abilities": list(p.abilities),
        "potion_abilities": list(p.potion_abilities),
    }
    for a in ATTRIBUTES:
        setattr(p, a, getattr(frog.attributes, a))
    p.type, p.abilities, p.potion_abilities = str(frog.type), (), ()
    ctx.emit(PlayerTransformed(p.id, "giant_frog"))
    if ctx.state.ball.carrier == p.id:
        effects.drop(ctx, p)  # "If this player had the ball it will bounce 1 pace from him."


def restore_frogs(ctx: Ctx) -> None:
    """Every giant frog becomes himself again (a new Test, or the end of the match)."""
    for p in ctx.state.players.values():
        own = p.frog
        if own is None:
            continue
        for a, value in zip(ATTRIBUTES, own["attributes"]):
            setattr(p, a, int(value))
        p.type = str(own["type"])
        p.abilities = tuple(own.get("abilities", ()))
        p.potion_abilities = tuple(own.get("potion_abilities", ()))
        p.frog = None
        ctx.emit(PlayerTransformed(p.id, "himself"))
