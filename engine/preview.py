"""Odds before a roll: which challenge a command would make, what it needs, and its exact odds.

Built from the same need functions the challenges roll against, so what a coach is shown before
pressing is exactly what the engine will roll. Pure: nothing is rolled or changed.
"""

from __future__ import annotations

from dataclasses import dataclass

from .challenges.base import facing_modifiers, opps_facing
from .challenges.disengage import disengage_need
from .challenges.impact import impact_need
from .challenges.shove import shove_need
from .abilities import psycho
from .challenges.tackle import plan as tackle_plan
from .challenges.tackle import tackle_need
from .challenges.throw import SHORT_MAX, throw_need
from .abilities.scramble import long_throw_barred
from .abilities.slippery import auto_disengage
from .dice import ChallengeRoll, Need
from .dice.odds import chance_at_least, odds
from .hexes import Direction, Hex, direction_between, distance
from .state import MatchState, Player

__all__ = ["Preview", "step_previews", "contact_previews", "throw_preview", "reroll_chance", "worst_dice", "roll_succeeded", "die_faces"]


@dataclass(frozen=True)
class Preview:
    challenge: str  # disengage, pickup, impact, tackle, shove, throw
    dice: int
    need: int  # successes needed (at least 1)
    success: float  # chance of at least the successes needed
    flop: float

    @property
    def name(self) -> str:
        return {"pickup": "pick-up"}.get(self.challenge, self.challenge)

    def __str__(self) -> str:
        return f"{self.name} {self.success:.0%}"

    def describe(self) -> str:
        return f"{self.dice} dice, need {self.need}: {self.success:.0%} success, {self.flop:.0%} flop"


def _preview(challenge: str, dice: int, need: Need, star2: bool) -> Preview:
    o = odds(dice, need.value, star2=star2)
    return Preview(challenge, dice, need.value, o.success, o.flop)


def step_previews(state: MatchState, to: Hex) -> list[Preview]:
    """The rolls one step of the acting player to ``to`` calls for: a Disengage to leave his hex,
    and a Pick-up if the ball lies in ``to`` (judged with him standing there)."""
    p = state.acting_player
    assert p is not None and p.hex is not None
    star2 = state.options.star2
    out = []
    opponents = opps_facing(state, p)
    need = disengage_need(state, p, opponents) if opponents else None
    if need is not None and not auto_disengage(p, need):  # Slippery may get away with no roll
        out.append(_preview("disengage", p.dodge, need, star2))
    if state.ball.carrier is None and state.ball.hex == to:
        there = state.copy()
        mover = there.players[p.id]
        mover.hex, mover.facing = to, _facing(p.hex, to) or mover.facing
        out.append(_preview("pickup", p.skill, Need(1, facing_modifiers(there, mover)), star2))
    return out


def _facing(a: Hex, b: Hex) -> Direction | None:
    return direction_between(a, b)


def contact_previews(state: MatchState, attacker: Player, target: Player, kind: str, use: str | None = None) -> list[Preview]:
    """A Shove, or a Tackle (``use``: the ability it uses) with the Impact it rolls first."""
    star2 = state.options.star2
    if kind == "shove":
        return [_preview("shove", psycho.shove_dice(attacker), shove_need(state, attacker, target), star2)]
    if use is None and not target.standing:
        use = "cheapshot"
    plan = tackle_plan(attacker, target, use, edition=state.options.edition)
    out = []
    if plan.impact is not None:
        out.append(_preview("impact", plan.impact_dice, impact_need(state, attacker, target), star2))
    need = tackle_need(state, attacker, target, use)
    if use == "pummel":
        # Its +1 success comes on any roll neither flopped nor at 0: it succeeds exactly when
        # the dice alone make max(1, N - 1).
        o = odds(plan.dice, max(1, need.value - 1), star2=star2)
        out.append(Preview("tackle", plan.dice, need.value, o.success, o.flop))
    else:
        out.append(_preview("tackle", plan.dice, need, star2))
    return out


def throw_preview(state: MatchState, target: Hex, long: bool | None = None) -> Preview:
    p = state.acting_player
    assert p is not None and p.hex is not None
    dist = distance(p.hex, target)
    is_long = long if long is not None else dist > SHORT_MAX
    scramble = is_long and state.action is not None and long_throw_barred(state.action)
    return _preview("throw", p.skill, throw_need(state, p, dist, is_long, scramble=scramble), state.options.star2)


def reroll_chance(question: dict, indices: list[int]) -> float:
    """Exact chance an own roll succeeds if the coach replaces the dice at ``indices``: the kept
    dice's net plus the fresh dice's net must reach the successes needed."""
    roll = ChallengeRoll.from_dict(question["roll"])
    replaced = sum(roll.dice[i].face.successes(star2=roll.star2) - (1 if roll.dice[i].face.symbol == "X" else 0)
                   for i in indices)
    return chance_at_least(len(indices), roll.need.value - (roll.net - replaced), star2=roll.star2)


def worst_dice(question: dict) -> list[int]:
    """The dice a coach would usually re-roll first: flops, then blanks, as many as he may."""
    roll = ChallengeRoll.from_dict(question["roll"])
    rank = {"X": 0, "-": 1}
    bad = [i for i in question["eligible"] if roll.dice[i].face.symbol in rank]
    return sorted(bad, key=lambda i: (rank[roll.dice[i].face.symbol], i))[: question["max"]]


def roll_succeeded(question: dict) -> bool:
    return ChallengeRoll.from_dict(question["roll"]).succeeded


def die_faces(question: dict) -> list[str]:
    """The faces of a question's eligible dice, as words ("flop", "blank", "star", "bullseye")."""
    roll = ChallengeRoll.from_dict(question["roll"])
    return [roll.dice[i].face.name.lower() for i in question["eligible"]]
