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

from ..errors import IllegalCommandError, MalformedInputError
from ..field import Field, Side
from ..hexes import Hex, distance, is_in_front
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
    toward: str  # what each step must approach, for refusals ("" for any direction)
    reference: Reference
    missing: str = ""  # why there is nothing to approach
    cost: int = 1  # counters a hex
    ignores_disengage: bool = False

    @property
    def name(self) -> str:
        return ABILITIES[self.ability].name

    @property
    def rule(self) -> str:
        return f"{self.name} (p. {self.page})"

    def refuse(self, message: str) -> IllegalCommandError:
        return IllegalCommandError(f"{self.name}: {message}", rule=self.rule)


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
        CounterMove("ruthless", 13, "a Down or Dazed opponent", _fallen_opponents, "no opponent is Down or Dazed"),
        CounterMove("goalie", 13, "the goal circle his team defends", _own_goal),
        CounterMove("beeline", 13, "the opposing ball carrier", _opposing_carrier, "no opponent holds the ball"),
        CounterMove("teammate", 13, "another player of his team", _team_mates, "he has no team-mate on the field"),
        CounterMove("burst", 14, "", _anywhere),
        CounterMove("shamble", 14, "", _anywhere, cost=2, ignores_disengage=True),
        CounterMove(
            "swarm", 13, "a team-mate with equal or lesser Might", _lighter_team_mates,
            "he has no team-mate on the field with equal or lesser Might",
        ),
        CounterMove("lead-pass", 14, "", _anywhere),
        CounterMove("react", 14, "", _anywhere),
    )
}


def counter_move(ability_id: str) -> CounterMove:
    try:
        return COUNTER_MOVES[ability_id]
    except KeyError:
        raise MalformedInputError(
            f"{ability_id!r} does not pay movement with Momentum (use one of {', '.join(COUNTER_MOVES)})"
        ) from None


def _named(state: MatchState, pid: str) -> Player:
    p = state.players.get(pid)
    if p is None:
        raise MalformedInputError(f"no player {pid!r} in this match")
    return p


def mover(state: MatchState, cm: CounterMove, player_id: str | None, by: Side) -> Player:
    """Who moves, refusing when the ability cannot move him now."""
    if state.turn_side != by:
        raise cm.refuse(f"it is {state.turn_side}'s turn")
    if cm.ability == "react":
        if state.phase is not Phase.TURN or not state.after_sim:
            raise cm.refuse(
                "he moves out of sequence, after the other team's Shift in Momentum and before his team picks its player"
            )
        if player_id is None:
            raise MalformedInputError("name the player who reacts")
        p = _named(state, player_id)
        if p.side != by or not has(p, "react"):
            raise cm.refuse(f"{p.name} does not have React")
    else:
        if state.phase is not Phase.ACTION or state.action is None:
            raise cm.refuse("it is used during an action")
        a = state.action
        actor = state.players[a.player]
        if cm.ability == "swarm":
            if not has(actor, "swarm"):
                raise cm.refuse(f"{actor.name}, the acting player, does not have Swarm")
            p = _named(state, player_id or actor.id)
            if p.side != by or p.type != LITTLE_GUY:
                raise cm.refuse(f"{p.name} is not a Little Guy of his team")
        elif cm.ability == "lead-pass":
            if a.lead_pass is None:
                raise cm.refuse("only the team-mate who has just caught his throw may move, before he does anything else")
            p = _named(state, player_id or a.lead_pass)
            if p.id != a.lead_pass:
                raise cm.refuse(f"only {state.players[a.lead_pass].name}, who caught the throw, may move")
        else:
            p = _named(state, player_id or actor.id)
            if p.id != actor.id:
                raise cm.refuse("only the acting player moves with it")
            if not has(p, cm.ability):
                raise cm.refuse(f"{p.name} does not have {cm.name}")
            if cm.ability == "burst" and not a.burst:
                raise cm.refuse("he must first gain the ball with a Pick-up or a Steal this action")
        if p.id == actor.id:
            if a.long_throw:
                raise cm.refuse("after a throw of 7 or more hexes he may not move")
            if a.dash == "granted":
                raise cm.refuse("use the Dash's hex (or its challenge) first")
    if not p.standing:
        raise cm.refuse(f"{p.name} is not standing")
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
        raise MalformedInputError("a move needs at least one hex")
    cost = cm.cost * len(path)
    have = state.momentum if state.momentum_side == p.side else 0
    if cost > have:
        raise cm.refuse(f"{len(path)} hexes cost {cost} Momentum counters; {p.side} has {have}")
    refs = cm.reference(state, fld, p)
    if refs is not None and not refs:
        raise cm.refuse(cm.missing)
    ball = state.ball.hex if state.ball.carrier is None else None
    at = p.hex
    assert at is not None
    for i, h in enumerate(path):
        if distance(at, h) != 1:
            raise MalformedInputError(f"{fld.format(h)} is not next to {fld.format(at)}: a path goes hex by hex")
        if h not in fld:
            raise cm.refuse(f"{fld.format(h)} is off the field")
        other = state.player_at(h)
        if other is not None and other.id != p.id:
            raise cm.refuse(f"{fld.format(h)} is taken by {other.name}")
        if not cm.ignores_disengage and _faced_by_opponent(state, p, at):
            raise cm.refuse(
                f"leaving {fld.format(at)} needs a Disengage; counters pay only for steps that need none"
            )
        if refs is not None and not any(distance(h, r) < distance(at, r) for r in refs):
            raise cm.refuse(f"the step to {fld.format(h)} does not bring him closer to {cm.toward}")
        if h == ball:
            if not acting:
                raise cm.refuse("only the acting player may enter the ball's hex (a Pick-up belongs to an action)")
            if i != len(path) - 1:
                raise cm.refuse("entering the ball's hex forces a Pick-up: end the path there")
        at = h
