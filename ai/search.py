"""The hard AI coach's search: who acts this turn, and what the acting player does, judged by
playing the action out.

The heuristic (``ai.heuristic``) values each player's plan with rough one-step estimates. At a
turn, the hard coach takes its best few candidates and plays each one's whole action out with
the engine itself (``engine.apply``, which is deterministic given its dice) under the
same sampled dice for every candidate (common random numbers: the comparison, not the noise,
decides). Inside an action, the carrier's command (``best_command``) is compared the same way
with his next best destinations and passes, and by a loose ball the acting player's with taking
it, hitting an opponent who faces it, and standing beside it. Each sample plays our action and
the other team's answer to it (``horizon`` 2): our commands by the heuristic of our level,
theirs by the easy heuristic (``SearchSettings.opponent``). The position each sample ends in is
judged by the learned win chance (``ai.judge.win_chance``; ``ai.judge.evaluate``, the
heuristic's own estimate, with ``learned=False``); the candidate with the best mean wins, the
heuristic's first choice winning ties and near-ties (``margin``).

Why the answer and a learned judge: judged right after our action by the heuristic's own
estimates, the samples told the heuristic little it did not know (46-58% against easy); with
the opponent's real answer played out, a carrier's hex is judged by whether he is still
standing, and the learned judge weighs that against the ground he gained.

Pure and repeatable: the samples' dice seeds come from the position (``MatchState.seq``) and the
coach's ``seed``, never from the clock. The work is bounded by counts, not by time: a sample
longer than ``MAX_ROLLOUT`` commands a team action is judged where it stopped, so one search
plays at most (candidates compared) x ``samples`` x (1 + ``MAX_ROLLOUT`` x ``horizon``) commands
(``benchmarks/bench_ai.py`` measures what that costs in time).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from engine import (
    Command,
    ElfballError,
    Field,
    MatchState,
    Phase,
    SeededDice,
    Side,
    StartAction,
    apply,
    other_side,
    pending,
)

from .judge import evaluate, win_chance

__all__ = ["MAX_ROLLOUT", "SearchSettings", "best_actor", "best_command"]

#: Commands one sample may take before it is judged where it stands.
MAX_ROLLOUT = 40


@dataclass(frozen=True)
class SearchSettings:
    """How hard the hard coach searches; the defaults are what the measurements kept."""

    candidates: int = 3  #: the heuristic's best players compared
    samples: int = 6  #: dice samples per candidate (the same seeds for each)
    #: How much better (in win chance) a candidate must do to overrule the heuristic. 0.03 kept
    #: the heuristic's choice too often: 0.01 won 141 of 200 (seed 5) where 0.03 won 134.
    margin: float = 0.01
    #: Actions each sample plays: 1, ours; 2, ours and the other team's answer to it.
    horizon: int = 2
    #: Judge the samples with the learned win chance (``ai.judge``), not ``evaluate``.
    learned: bool = True
    #: Commands compared at each searched decision of an action (the heuristic's and its next
    #: best alternatives, see ``roles``); 0 or 1: the heuristic's command stands.
    commands: int = 4
    #: Whose commands are compared: "carrier", "loose" (the ball is loose), "support" (the
    #: carrier's team-mates), "defend" (against their carrier). "defend" is off: 1.5 times the
    #: time, decisions over the 300 ms budget, for nothing measurable (seed 5: 127 of 200, 125 without).
    roles: tuple[str, ...] = ("carrier", "loose")
    #: The level whose heuristic plays the opponents' commands in the samples.
    opponent: str = "easy"


def _rollout(state: MatchState, first: Command, side: Side, fld: Field, seed: int,
             policy: Callable[[MatchState, Side, Field], Command], horizon: int = 1,
             learned: bool = False) -> float:
    """Apply ``first`` and play on with ``policy`` for ``horizon`` team actions (ours, then the
    other team's), or until a goal or the end of the Test; the value of where it stops."""
    dice = SeededDice(seed)
    try:
        st = apply(state, first, dice, by=side, field=fld).state
        goals = state.teams[side].score + state.teams[other_side(side)].score
        turns = 0
        last_turn: Side | None = side
        for _ in range(MAX_ROLLOUT * horizon):
            if st.phase is not Phase.TURN and st.phase is not Phase.ACTION:
                break
            if st.teams[side].score + st.teams[other_side(side)].score != goals:
                break
            pend = pending(st)
            if pend.side is None:
                break
            if st.phase is Phase.TURN and st.in_progress is None and st.turn_side != last_turn:
                turns += 1
                last_turn = st.turn_side
                if turns >= horizon:
                    break
            cmd = policy(st, pend.side, fld)
            st = apply(st, cmd, dice, by=pend.side, field=fld).state
    except ElfballError:
        return -10.0  # never chosen: a line the engine refuses is not a line
    if learned:
        return win_chance(st, side, fld)
    return evaluate(st, side, fld)


def best_actor(state: MatchState, side: Side, fld: Field, ranked: list[str], seed: int,
               policy: Callable[[MatchState, Side, Field], Command],
               settings: SearchSettings = SearchSettings()) -> str:
    """The player (of ``ranked``, the heuristic's order) whose action plays out best."""
    cands = ranked[: settings.candidates]
    if len(cands) <= 1:
        return ranked[0]
    firsts: list[Command] = [StartAction(pid) for pid in cands]
    return cands[_best(state, side, fld, firsts, seed * 1_000_003 + state.seq, policy, settings)]


def _best(state: MatchState, side: Side, fld: Field, firsts: list[Command], samples_seed: int,
          policy: Callable[[MatchState, Side, Field], Command], settings: SearchSettings) -> int:
    """The index of the first command whose play-outs do best on average, under the same dice
    samples for each; the first (the heuristic's) keeps its place unless beaten by ``margin``."""
    rng = random.Random(samples_seed)
    seeds = [rng.randrange(2**31) for _ in range(settings.samples)]
    scores = [sum(_rollout(state, cmd, side, fld, s, policy, settings.horizon, settings.learned) for s in seeds)
              / len(seeds) for cmd in firsts]
    best = 0
    for i in range(1, len(firsts)):
        if scores[i] > scores[best] + settings.margin:
            best = i
    return best


def best_command(state: MatchState, side: Side, fld: Field, cands: list[Command], seed: int,
                 policy: Callable[[MatchState, Side, Field], Command],
                 settings: SearchSettings = SearchSettings()) -> Command:
    """The command (of ``cands``, the heuristic's choice first) whose action plays out best:
    each is applied and the action played on with ``policy`` under the same dice samples."""
    if len(cands) <= 1:
        return cands[0]
    return cands[_best(state, side, fld, cands, seed * 1_000_003 + state.seq * 7 + 1, policy, settings)]
