"""Fuzzing the engine: a random legal-command coach and the invariants every position keeps.

The coach picks a random legal command, but half the time a purposeful one (walk the carrier
toward the opposing goal, send the others after the ball, answer questions at random), so
random matches reach goals and exercise the whole rulebook instead of wandering forever.
``play_random_match`` checks every invariant after every command.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from . import commands as C
from .dice import DiceSource, SeededDice
from .events import Event, GoalScored
from .field import Field, Side, other_side, standard_field
from .hexes import distance
from .legal import LegalCommands, candidate_commands, legal_commands
from .match import TeamEntry, apply, new_match, pending
from .rosters import all_team_lists, default_roster
from .state import Location, MatchState, Phase

__all__ = ["invariant_violations", "RandomCoach", "play_random_match", "FuzzReport"]

MAX_COMMANDS = 4000  # a match still running after this many commands is conceded by the fuzzer


def invariant_violations(state: MatchState, field: Field | None = None) -> list[str]:
    fld = field or standard_field()
    out: list[str] = []
    seen: dict = {}
    for p in state.players.values():
        if (p.location is Location.FIELD) != (p.hex is not None):
            out.append(f"{p.id} is {p.location.value} with hex {p.hex}")
        if p.hex is not None:
            if p.hex not in fld:
                out.append(f"{p.id} stands off the field at {p.hex}")
            elif fld.info(p.hex).edge_line:
                out.append(f"{p.id} stands on the outer white line")
            if p.hex in seen:
                out.append(f"{p.id} and {seen[p.hex]} share {fld.format(p.hex)}")
            seen[p.hex] = p.id
            if p.facing is None:
                out.append(f"{p.id} is on the field without a facing")
    ball = state.ball
    if ball.carrier is not None:
        c = state.players.get(ball.carrier)
        if c is None or not c.standing:
            out.append(f"the ball is held by {ball.carrier}, who is not standing on the field")
        if ball.hex is not None:
            out.append("the ball is both carried and on the ground")
    elif state.phase is not Phase.MATCH_OVER:
        if ball.hex is None or ball.hex not in fld:
            out.append(f"the ball is nowhere ({ball.hex})")
        elif ball.hex in seen and state.in_progress is None:
            out.append(f"the loose ball lies under {seen[ball.hex]}")
    if not 0 <= state.momentum <= 6:
        out.append(f"Momentum {state.momentum} is off the track")
    if state.action is not None and state.action.jog_left < 0:
        out.append(f"Jog {state.action.jog_left} is negative")
    for side in ("west", "east"):
        if len(state.on_field(side)) > 6:  # type: ignore[arg-type]
            out.append(f"{side} has more than 6 players on the field")
    return out


@dataclass
class RandomCoach:
    rng: random.Random
    purpose: float = 0.5

    def choose(self, state: MatchState, side: Side, field: Field) -> C.Command:
        legal = legal_commands(state, side, field)
        kinds: dict[type, list[C.Command]] = {}
        for c in candidate_commands(state, side, field):
            if not isinstance(c, C.Concede):
                kinds.setdefault(type(c), []).append(c)
        # A pending question is answered at random: the purposeful moves are not answers.
        if self.rng.random() < self.purpose and state.in_progress is None:
            pick = self._purposeful(state, side, field, legal)
            if pick is not None:
                return pick
        # A random kind of command, then a random legal one of that kind: validating lazily
        # keeps a throw's hundreds of target hexes from costing hundreds of checks.
        order = list(kinds)
        self.rng.shuffle(order)
        for kind in order:
            options = kinds[kind]
            self.rng.shuffle(options)
            for c in options:
                if legal.is_legal(c):
                    return c
        return C.Concede()

    def _purposeful(self, state: MatchState, side: Side, fld: Field, legal: LegalCommands) -> C.Command | None:
        ball = state.ball_hex()
        goal = fld.goals[other_side(side)]
        if state.phase is Phase.TURN:
            starts = legal.of(C.StartAction)
            if starts and ball is not None:
                return min(starts, key=lambda c: distance(state.players[c.player].hex, ball))  # type: ignore[arg-type,union-attr]
        if state.phase is Phase.ACTION:
            p = state.acting_player
            assert p is not None
            moves = legal.of(C.Move)
            stand = legal.of(C.StandUp)
            if stand:
                return stand[0]
            if state.ball.carrier == p.id:
                if p.hex == goal:
                    return C.EndAction()
                closer = [m for m in moves if distance(m.path[-1], goal) < distance(p.hex, goal)]  # type: ignore[arg-type]
                if closer:
                    return self.rng.choice(closer)
            elif ball is not None and moves:
                closer = [m for m in moves if distance(m.path[-1], ball) < distance(p.hex, ball)]  # type: ignore[arg-type]
                if closer:
                    return self.rng.choice(closer)
            hits = legal.of(C.Tackle) + legal.of(C.Shove)
            if hits and self.rng.random() < 0.5:
                return self.rng.choice(hits)
        return None


@dataclass
class FuzzReport:
    seed: int
    teams: tuple[str, str]
    commands: int = 0
    winner: str | None = None
    goals: tuple[int, int] = (0, 0)
    violations: list[str] = field(default_factory=list)
    conceded_by_fuzzer: bool = False


def play_random_match(seed: int, *, dice: DiceSource | None = None, field: Field | None = None,
                      max_commands: int = MAX_COMMANDS, record: list | None = None) -> tuple[MatchState, FuzzReport]:
    """Play one random match with random team lists, checking invariants after each command."""
    rng = random.Random(seed)
    fld = field or standard_field()
    w, e = rng.sample(all_team_lists(), 2)
    dice = dice or SeededDice(seed)
    goals = rng.choice((1, 1, 2, 3))
    from .state import RuleOptions

    res = new_match(TeamEntry(w.name, default_roster(w)), TeamEntry(e.name, default_roster(e)), dice,
                    options=RuleOptions(goals_to_win=goals, star2=rng.random() < 0.2), field=fld)
    state = res.state
    report = FuzzReport(seed, (w.id, e.id))
    coach = RandomCoach(rng)

    def check(st: MatchState, events: list[Event], before: tuple[int, int], conceded: bool = False) -> None:
        for v in invariant_violations(st, fld):
            report.violations.append(f"after command {report.commands}: {v}")
        scored = sum(1 for ev in events if isinstance(ev, GoalScored))
        now = (st.teams["west"].score, st.teams["east"].score)
        if sum(now) - sum(before) != scored and not conceded:
            report.violations.append(f"score changed from {before} to {now} with {scored} goals")
        if st.phase is not Phase.MATCH_OVER:
            pend = pending(st)
            if pend.side is None or not legal_commands(st, pend.side, fld):
                report.violations.append(f"pending {pend.kind} for {pend.side} has no legal option")

    check(state, res.events, (0, 0))
    while state.phase is not Phase.MATCH_OVER:
        side = pending(state).side
        assert side is not None
        if report.commands >= max_commands:
            cmd: C.Command = C.Concede()
            report.conceded_by_fuzzer = True
        else:
            cmd = coach.choose(state, side, fld)
        before = (state.teams["west"].score, state.teams["east"].score)
        if record is not None:
            record.append((side, cmd))
        res = apply(state, cmd, dice, by=side, field=fld)
        state = res.state
        report.commands += 1
        check(state, res.events, before, isinstance(cmd, C.Concede))
    report.winner = state.winner
    report.goals = (state.teams["west"].score, state.teams["east"].score)
    return state, report
