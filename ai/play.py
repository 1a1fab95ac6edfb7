"""One match between two coaches, played to the end: for the simulator, the tests, the
benchmarks and the fitting of the judge (``scripts/fit_ai_eval.py``).

A coach is anything with ``choose(state, side, field)`` (``Coach``); the match is played with
the engine's own ``new_match`` and ``apply``, so it is as deterministic as its dice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from engine import (
    Command,
    DiceSource,
    Event,
    Field,
    MatchState,
    Phase,
    PlayerRemoved,
    RuleOptions,
    Side,
    TeamEntry,
    TeamList,
    apply,
    default_roster,
    invariant_violations,
    new_match,
    pending,
    standard_field,
    team_list,
)

__all__ = ["Coach", "MatchSummary", "play_match"]


@dataclass
class MatchSummary:
    """What one simulated match came to."""

    teams: tuple[str, str]  # team list ids (west, east)
    winner: str | None  # "west", "east", "draw", or None when the command cap ended it
    goals: tuple[int, int]
    #: Players of each side an Injury roll took off the field (``player_removed`` events whose
    #: reason starts "injured": the Infirmary, Recovery, or the Bench for the rest of the Test).
    injuries: tuple[int, int]
    commands: int
    capped: bool
    violations: list[str] = field(default_factory=list)


class Coach(Protocol):
    """Anything that gives a side's commands: ``AICoach``, the engine's fuzzing ``RandomCoach``..."""

    def choose(self, state: MatchState, side: Side, field: Field) -> Command: ...


def play_match(
    west: TeamList | str | TeamEntry,
    east: TeamList | str | TeamEntry,
    coaches: Mapping[Side, Coach],
    dice: DiceSource,
    *,
    goals_to_win: int = 1,
    max_commands: int = 3000,
    field: Field | None = None,
    check_invariants: bool = False,
    options: RuleOptions | None = None,
    on_command: Callable[[MatchState, Side, Command, list[Event]], None] | None = None,
) -> MatchSummary:
    """Play one match between two coaches (objects with ``choose(state, side, field)``).

    A team is a team list (its default roster) or a ``TeamEntry`` (an Advanced team with
    abilities and support); ``options`` (rule profiles, optional rules, the Advanced rules)
    replace ``goals_to_win``'s default options.
    Stops at the end of the match or after ``max_commands`` commands (then ``capped``).
    With ``check_invariants`` every position is checked (``engine.invariant_violations``).
    """

    def entry(team: TeamList | str | TeamEntry) -> TeamEntry:
        if isinstance(team, TeamEntry):
            return team
        tl = team_list(team)
        return TeamEntry(tl.name, default_roster(tl))

    fld = field or standard_field()
    we, ee = entry(west), entry(east)
    wl, el = we.roster.team, ee.roster.team
    res = new_match(we, ee, dice, options=options or RuleOptions(goals_to_win=goals_to_win), field=fld)
    state = res.state
    injuries = {"west": 0, "east": 0}
    violations: list[str] = []
    n = 0
    while state.phase is not Phase.MATCH_OVER and n < max_commands:
        side = pending(state).side
        assert side is not None
        cmd = coaches[side].choose(state, side, fld)
        res = apply(state, cmd, dice, by=side, field=fld)
        n += 1
        for ev in res.events:
            if isinstance(ev, PlayerRemoved) and ev.reason.startswith("injured"):
                injuries[state.players[ev.player].side] += 1
        state = res.state
        if check_invariants:
            violations += [f"after command {n} ({cmd.name} by {side}): {v}" for v in invariant_violations(state, fld)]
        if on_command is not None:
            on_command(state, side, cmd, res.events)
    over = state.phase is Phase.MATCH_OVER
    return MatchSummary(
        teams=(wl.id, el.id),
        winner=state.winner if over else None,
        goals=(state.teams["west"].score, state.teams["east"].score),
        injuries=(injuries["west"], injuries["east"]),
        commands=n,
        capped=not over,
        violations=violations,
    )
