"""Moving with Momentum counters instead of Jog (pp. 13-14; analysis G40, G47).

Nine abilities share one mechanism: "This player may spend Momentum counters instead of Jog
to move ... Each counter spent allows this player to move one hex if the player does not need
to Disengage to move." They differ in who moves, when, and what each step must approach:

- ruthless (p. 13): "move closer to a Down or Dazed opponent".
- goalie (p. 13): "move closer to the goal circle his team is defending".
- beeline (p. 13): "move closer to the opposing ball carrier".
- teammate (p. 13): "move closer to another player from his team".
- burst (p. 14): "When a player with Burst gets possession of the ball from a Pick-up
  challenge or use of the Steal ability he may spend Momentum counters instead of Jog to move."
- shamble (p. 14): "Each two counters spent allow this player to move one hex ignoring any
  Disengage challenge that would be required."
- swarm (p. 13): "During this player's action any standing player on his team with the Little
  Guy type may spend Momentum counters instead of Jog to move closer to any player from his
  team with an equal or lesser Might ... Multiple players may be moved" (equal or lesser than
  the moving Little Guy's Might, G40).
- lead-pass (p. 14): "spend Momentum counters to allow a player from his team that
  successfully catches a ball he has thrown to immediately move after catching the ball ...
  The player with Lead Pass can finish his action after the catching player has finished
  moving."
- react (p. 14): "may spend Momentum counters out of sequence when his team earns a Shift in
  Momentum ... This movement does not count as the team's action and a different player may
  take the team's action if desired."

"Closer" is judged step by step: each paid step must strictly reduce the hex distance to at
least one reference (G47). The whole path is checked before the first step, so a refused
command changes nothing. Players other than the acting one (Swarm's other Little Guys, the
Lead Pass catcher, a reacting player) may not enter the ball's hex: a Pick-up belongs to an
action.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import IllegalCommandError, MalformedInputError
from ..field import Field, Side
from ..hexes import Hex, distance, is_in_front
from ..refusals import Refusal, Term, ability_term, side_term
from ..state import MatchState, Phase, Player
from . import ABILITIES, has

__all__ = ["CounterMove", "COUNTER_MOVES", "counter_move", "mover", "path_refusal", "LITTLE_GUY"]

LITTLE_GUY = "little-guy"

#: The hexes a paid step must approach (at least one of them), or None for any direction.
Reference = Callable[[MatchState, Field, Player], list[Hex] | None]


@dataclass(frozen=True)
class CounterMove:
    ability: str
    page: int
    toward: str  # what each step must approach, a ``toward.<id>`` word of the refusals ("" for any direction)
    reference: Reference
    missing: str = ""  # why there is nothing to approach: a refusal key
    cost: int = 1  # counters a hex
    ignores_disengage: bool = False

    @property
    def name(self) -> str:
        return ABILITIES[self.ability].name

    @property
    def rule(self) -> str:
        """The rule it cites: ``rule.<ability>`` of the refusal catalogue (the ability's page)."""
        return self.ability

    def refuse(self, key: str, /, **values: Any) -> IllegalCommandError:
        """The refusal ``key``, said as this ability's and citing its rule."""
        return IllegalCommandError.of("counter_move.refused", rule=self.rule, ability=ability_term(self.ability),
                                      why=Refusal(key, **values))


def _anywhere(state: MatchState, fld: Field, p: Player) -> list[Hex] | None:
    return None


def _fallen_opponents(state: MatchState, fld: Field, p: Player) -> list[Hex] | None:
    return [o.hex for o in state.on_field() if o.side != p.side and not o.standing and o.hex is not None]


def _own_goal(state: MatchState, fld: Field, p: Player) -> list[Hex] | None:
    return [fld.goals[p.side]]


def _opposing_carrier(state: MatchState, fld: Field, p: Player) -> list[Hex] | None:
    c = state.carrier()
    return [c.hex] if c is not None and c.side != p.side and c.hex is not None else []


def _team_mates(state: MatchState, fld: Field, p: Player) -> list[Hex] | None:
    return [o.hex for o in state.on_field(p.side) if o.id != p.id and o.hex is not None]


def _lighter_team_mates(state: MatchState, fld: Field, p: Player) -> list[Hex] | None:
    return [o.hex for o in state.on_field(p.side) if o.id != p.id and o.might <= p.might and o.hex is not None]


COUNTER_MOVES: dict[str, CounterMove] = {
    m.ability: m
    for m in (
        CounterMove("ruthless", 13, "fallen_opponent", _fallen_opponents, "counter_move.no_fallen_opponent"),
        CounterMove("goalie", 13, "own_goal", _own_goal),
        CounterMove("beeline", 13, "carrier", _opposing_carrier, "counter_move.no_carrier"),
        CounterMove("teammate", 13, "team_mate", _team_mates, "counter_move.no_team_mate"),
        CounterMove("burst", 14, "", _anywhere),
        CounterMove("shamble", 14, "", _anywhere, cost=2, ignores_disengage=True),
        CounterMove(
            "swarm", 13, "lighter_team_mate", _lighter_team_mates, "counter_move.no_lighter_team_mate",
        ),
        CounterMove("lead-pass", 14, "", _anywhere),
        CounterMove("react", 14, "", _anywhere),
    )
}


def counter_move(ability_id: str) -> CounterMove:
    try:
        return COUNTER_MOVES[ability_id]
    except KeyError:
        raise MalformedInputError.of("counter_move.unknown", text=repr(ability_id), text2=", ".join(COUNTER_MOVES)) from None


def _named(state: MatchState, pid: str) -> Player:
    p = state.players.get(pid)
    if p is None:
        raise MalformedInputError.of("player.unknown_id", text=repr(pid))
    return p


def mover(state: MatchState, cm: CounterMove, player_id: str | None, by: Side) -> Player:
    """Who moves, refusing when the ability cannot move him now."""
    if state.turn_side != by:
        raise cm.refuse("turn.other_side", side=side_term(str(state.turn_side)))
    if cm.ability == "react":
        if state.phase is not Phase.TURN or not state.after_sim:
            raise cm.refuse("react.out_of_sequence")
        if player_id is None:
            raise MalformedInputError.of("react.name_player")
        p = _named(state, player_id)
        if p.side != by or not has(p, "react"):
            raise cm.refuse("ability.missing", player=p.name, ability=ability_term("react"))
    else:
        if state.phase is not Phase.ACTION or state.action is None:
            raise cm.refuse("counter_move.during_action")
        a = state.action
        actor = state.players[a.player]
        if cm.ability == "swarm":
            if not has(actor, "swarm"):
                raise cm.refuse("swarm.actor_lacks", player=actor.name)
            p = _named(state, player_id or actor.id)
            if p.side != by or p.type != LITTLE_GUY:
                raise cm.refuse("swarm.not_little_guy", player=p.name)
        elif cm.ability == "lead-pass":
            if a.lead_pass is None:
                raise cm.refuse("lead_pass.only_catcher")
            p = _named(state, player_id or a.lead_pass)
            if p.id != a.lead_pass:
                raise cm.refuse("lead_pass.only_player", player=state.players[a.lead_pass].name)
        else:
            p = _named(state, player_id or actor.id)
            if p.id != actor.id:
                raise cm.refuse("counter_move.only_actor")
            if not has(p, cm.ability):
                raise cm.refuse("ability.missing", player=p.name, ability=ability_term(cm.ability))
            if cm.ability == "burst" and not a.burst:
                raise cm.refuse("burst.gain_ball_first")
        if p.id == actor.id:
            if a.long_throw:
                raise cm.refuse("throw.long_no_move")
            if a.dash == "granted":
                raise cm.refuse("dash.use_hex_first")
    if not p.standing:
        raise cm.refuse("player.not_standing", player=p.name)
    return p


def _faced_by_opponent(state: MatchState, p: Player, at: Hex) -> bool:
    """A standing opponent next to ``at`` faces it: leaving ``at`` needs a Disengage."""
    return any(
        o.standing and o.side != p.side and o.hex is not None and o.facing is not None
        and distance(o.hex, at) == 1 and is_in_front(o.hex, o.facing, at)
        for o in state.on_field()
    )


def path_refusal(state: MatchState, fld: Field, cm: CounterMove, p: Player, path: tuple[Hex, ...], acting: bool) -> None:
    """Check every step of ``path`` before the first one is taken."""
    if not path:
        raise MalformedInputError.of("move.no_hex")
    cost = cm.cost * len(path)
    have = state.momentum if state.momentum_side == p.side else 0
    if cost > have:
        raise cm.refuse("counter_move.cost", n=len(path), n2=cost, side=side_term(p.side), n3=have)
    refs = cm.reference(state, fld, p)
    if refs is not None and not refs:
        raise cm.refuse(cm.missing)
    ball = state.ball.hex if state.ball.carrier is None else None
    at = p.hex
    assert at is not None
    for i, h in enumerate(path):
        if distance(at, h) != 1:
            raise MalformedInputError.of("move.not_next", hex=fld.format(h), hex2=fld.format(at))
        if h not in fld:
            raise cm.refuse("hex.off_field", hex=fld.format(h))
        other = state.player_at(h)
        if other is not None and other.id != p.id:
            raise cm.refuse("hex.taken_by", hex=fld.format(h), player=other.name)
        if not cm.ignores_disengage and _faced_by_opponent(state, p, at):
            raise cm.refuse("counter_move.disengage", hex=fld.format(at))
        if refs is not None and not any(distance(h, r) < distance(at, r) for r in refs):
            raise cm.refuse("counter_move.not_closer", hex=fld.format(h), toward=Term("toward", cm.toward))
        if h == ball:
            if not acting:
                raise cm.refuse("counter_move.ball_hex_actor")
            if i != len(path) - 1:
                raise cm.refuse("move.pickup_ends")
        at = h
