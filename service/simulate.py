"""AI-v-AI matches: ``elfball demo`` (one match, watched) and ``elfball simulate`` (many, counted).

The demo plays one match between two AI coaches with seeded dice and keeps every step, so the
console can draw its frames, its replay and its log; the same seed plays the same match.
``simulate`` plays many matches between random team lists and totals them per team list (and,
when two AI levels meet, the first level's record against the second). Printing stays in
``cli``: progress comes back through callbacks.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from engine import (
    MalformedInputError,
    MatchState,
    Phase,
    RuleOptions,
    SeededDice,
    Side,
    TeamEntry,
    TeamList,
    all_team_lists,
    apply,
    default_roster,
    narrate_events,
    new_match,
    pending,
    random_advanced_entry,
    team_list,
)
from ai import LEVELS, AICoach, MatchSummary, make_ai, play_match
from render import Step

__all__ = [
    "DEFAULT_MAX_COMMANDS",
    "LEVELS",
    "Demo",
    "LevelStats",
    "MatchSummary",
    "TeamStats",
    "demo_teams",
    "simulate",
    "wilson",
]

DEFAULT_MAX_COMMANDS = 3000


# --- the demo -------------------------------------------------------------------------------------
def demo_teams(seed: int, west: str | None, east: str | None) -> tuple[TeamList, TeamList]:
    """The demo's team lists: those named, else drawn from the core lists by ``seed`` (two
    different ones)."""
    rng = random.Random(seed)
    lists = all_team_lists(include_optional=False)
    west_list = team_list(west) if west else rng.choice(lists)
    east_list = team_list(east) if east else rng.choice([t for t in lists if t.id != west_list.id])
    return west_list, east_list


class Demo:
    """One AI-v-AI match with default lineups and ``SeededDice(seed)``, kept step by step.

    ``history``: every state with its command's events (what the replay draws); ``narration``:
    the match told in ``language``; ``commands``: how many were applied."""

    def __init__(self, west: TeamList, east: TeamList, seed: int, options: RuleOptions, *, language: str) -> None:
        self.language = language
        self.dice = SeededDice(seed)
        self.coaches: dict[Side, AICoach] = {"west": AICoach(random.Random(seed)), "east": AICoach(random.Random(seed + 1))}
        res = new_match(TeamEntry(west.name, default_roster(west)), TeamEntry(east.name, default_roster(east)),
                        self.dice, options=options)
        self.state: MatchState = res.state
        self.history = [Step(res.state, list(res.events), res.view)]
        self.narration = narrate_events(res.events, res.state, language=language)
        self.commands = 0

    def play(self, max_commands: int, progress: Callable[[int, int, int, int], None] | None = None) -> None:
        """Play until the match is over or ``max_commands`` were applied; ``progress(commands,
        test, west_score, east_score)`` after a goal, at a new Test and every hundredth command."""
        while self.state.phase is not Phase.MATCH_OVER and self.commands < max_commands:
            side = pending(self.state).side
            assert side is not None
            res = apply(self.state, self.coaches[side].choose(self.state, side), self.dice, by=side)
            self.state = res.state
            self.commands += 1
            self.history.append(Step(res.state, list(res.events), res.view))
            self.narration += narrate_events(res.events, res.state, language=self.language)
            if progress is not None and (any(e.kind in ("goal_scored", "test_started") for e in res.events)
                                         or self.commands % 100 == 0):
                teams = self.state.teams
                progress(self.commands, self.state.test, teams["west"].score, teams["east"].score)


# --- simulate -------------------------------------------------------------------------------------
@dataclass
class TeamStats:
    """One team list's totals over the matches it played."""

    team: str
    matches: int = 0
    wins: int = 0
    draws: int = 0
    unfinished: int = 0
    goals_for: int = 0
    goals_against: int = 0
    injured: int = 0  # its own players removed by an Injury roll
    injuries_caused: int = 0  # its opponents' players removed by an Injury roll

    def add(self, summary: MatchSummary, side: int) -> None:
        other = 1 - side
        self.matches += 1
        won = summary.winner == ("west", "east")[side]
        self.wins += won
        self.draws += summary.winner == "draw"
        self.unfinished += summary.capped
        self.goals_for += summary.goals[side]
        self.goals_against += summary.goals[other]
        self.injured += summary.injuries[side]
        self.injuries_caused += summary.injuries[other]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% for the default ``z``)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class LevelStats:
    """How the first level did against the second, overall or with one team list."""

    team: str  # a team list id, or "" for every match
    matches: int = 0
    wins: int = 0
    draws: int = 0


def simulate(
    matches: int,
    seed: int,
    *,
    goals: int = 1,
    max_commands: int = DEFAULT_MAX_COMMANDS,
    core_only: bool = False,
    progress: Callable[[int, MatchSummary], None] | None = None,
    levels: tuple[str, str] = ("easy", "easy"),
    advanced: bool = False,
    mirror: bool = False,
    level_stats: dict[str, LevelStats] | None = None,
) -> tuple[dict[str, TeamStats], list[MatchSummary]]:
    """Play ``matches`` AI-vs-AI matches from ``seed``; returns the stats per team list id.

    ``levels``: the west and east coaches' levels; when they differ they swap sides every other
    match and ``level_stats`` (if given) gets the first level's record: key "" overall, then
    one per team list it coached."""
    if matches < 1:
        raise MalformedInputError("--matches must be at least 1")
    rng = random.Random(seed)
    lists = all_team_lists(include_optional=not core_only)
    stats: dict[str, TeamStats] = {}
    summaries: list[MatchSummary] = []
    for i in range(matches):
        west, east = rng.sample(lists, 2)
        if mirror:
            east = west
        dice_seed = rng.randrange(2**32)
        swap = levels[0] != levels[1] and i % 2 == 1
        west_level, east_level = (levels[1], levels[0]) if swap else levels
        coaches: dict[Side, AICoach] = {"west": make_ai(west_level, random.Random(dice_seed)),
                                        "east": make_ai(east_level, random.Random(dice_seed + 1))}
        if advanced:
            team_rng = random.Random(dice_seed)
            entries = (random_advanced_entry(team_rng, west), random_advanced_entry(team_rng, east))
        else:
            entries = (TeamEntry(west.name, default_roster(west)), TeamEntry(east.name, default_roster(east)))
        summary = play_match(*entries, coaches, SeededDice(dice_seed), max_commands=max_commands,
                             options=RuleOptions(goals_to_win=goals, advanced=advanced))
        summaries.append(summary)
        if level_stats is not None and levels[0] != levels[1]:
            first = 1 if swap else 0  # the side the first level coached
            for key in ("", (west, east)[first].id):
                ls = level_stats.setdefault(key, LevelStats(key))
                ls.matches += 1
                ls.wins += summary.winner == ("west", "east")[first]
                ls.draws += summary.winner == "draw"
        for side, tl in enumerate((west, east)):
            stats.setdefault(tl.id, TeamStats(tl.id)).add(summary, side)
        if progress is not None:
            progress(i + 1, summary)
    return stats, summaries
