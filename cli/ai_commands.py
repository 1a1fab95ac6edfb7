"""``elfball simulate``: AI-vs-AI matches between random team lists, and their statistics.

Each match draws two different team lists (default lineups) and a dice seed from one
``random.Random(seed)``, so ``--seed`` repeats the whole run. The table has one row per team
list: matches played, win rate, goals for and against per match, and injuries per match
(players of that list, then of its opponents, removed by an Injury roll: Infirmary, Recovery
or the Bench for the rest of the Test). Progress goes to stderr, the table to stdout.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ai import LEVELS, MatchSummary, make_ai, play_match
from engine.dice import SeededDice
from engine.errors import MalformedInputError
from engine.rosters import all_team_lists, team_list

__all__ = ["register", "TeamStats", "simulate", "stats_table", "wilson", "LevelStats", "level_table"]

DEFAULT_MAX_COMMANDS = 3000


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "simulate",
        help="AI-vs-AI matches: win rate, goals and injuries per team list",
        description="Play N matches between AI coaches, each between two random team lists (default "
        "lineups), and print per team list: matches, win rate, goals for and against per match and "
        "injuries suffered and caused per match, then the matches per second. The seed repeats the run.",
    )
    p.add_argument("--matches", type=int, default=20, metavar="N", help="matches to play (default 20)")
    p.add_argument("--seed", type=int, default=None, metavar="S", help="seed of the run (random if omitted)")
    p.add_argument("--goals", type=int, default=1, choices=(1, 2, 3), help="goals to win a match (default 1)")
    p.add_argument(
        "--max-commands", type=int, default=DEFAULT_MAX_COMMANDS, metavar="M",
        help=f"commands after which a match is stopped unfinished (default {DEFAULT_MAX_COMMANDS})",
    )
    p.add_argument("--core", action="store_true", help="only the core team lists (no Orcs or Ratmen)")
    p.add_argument("--west-level", choices=LEVELS, default="easy", help="level of the first AI coach (default easy)")
    p.add_argument("--east-level", choices=LEVELS, default="easy", help="level of the second AI coach (default easy); "
                   "different levels swap sides every other match")
    p.add_argument("--advanced", action="store_true", help="Advanced teams (abilities, support) drawn at random")
    p.add_argument("--mirror", action="store_true", help="both sides play the same team list")
    p.set_defaults(func=_run_simulate)


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
    from engine.fuzz import random_advanced_entry
    from engine.match import TeamEntry
    from engine.rosters import default_roster
    from engine.state import RuleOptions

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
        coaches = {"west": make_ai(west_level, random.Random(dice_seed)),
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


def stats_table(stats: dict[str, TeamStats]) -> str:
    from cli.team_commands import format_table

    header = ["Team list", "Matches", "Win %", "Goals for/match", "Goals against/match", "Injured/match",
              "Injuries caused/match"]
    rows = []
    for s in sorted(stats.values(), key=lambda s: (-s.wins / s.matches, team_list(s.team).name)):
        n = s.matches
        rows.append([
            team_list(s.team).name,
            str(n),
            f"{100 * s.wins / n:.0f}",
            f"{s.goals_for / n:.2f}",
            f"{s.goals_against / n:.2f}",
            f"{s.injured / n:.2f}",
            f"{s.injuries_caused / n:.2f}",
        ])
    return format_table(header, rows, right=range(1, len(header)))


def level_table(levels: tuple[str, str], level_stats: dict[str, LevelStats]) -> str:
    """The first level's win rate against the second with its 95% Wilson interval (a draw
    counts half), overall and per team list it coached."""
    from cli.team_commands import format_table

    header = ["Team list", "Matches", f"{levels[0]} wins", "Draws", "Win %", "95% interval"]
    rows = []
    ordered = sorted((s for k, s in level_stats.items() if k), key=lambda s: team_list(s.team).name)
    for s in ([level_stats[""]] if "" in level_stats else []) + ordered:
        score = s.wins + 0.5 * s.draws
        lo, hi = wilson(score, s.matches)
        rows.append([team_list(s.team).name if s.team else "All", str(s.matches), str(s.wins), str(s.draws),
                     f"{100 * score / s.matches:.1f}", f"{100 * lo:.1f}-{100 * hi:.1f}"])
    return format_table(header, rows, right=range(1, len(header)))


def _run_simulate(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    if args.max_commands < 1:
        raise MalformedInputError("--max-commands must be at least 1")
    print(f"Simulating {args.matches} AI-vs-AI matches ({args.west_level} v {args.east_level}, seed {seed}), "
          f"first to {args.goals}.", file=sys.stderr)
    started = time.perf_counter()

    def progress(done: int, s: MatchSummary) -> None:
        result = "unfinished" if s.capped else (s.winner or "?")
        print(
            f"  [{done}/{args.matches}] {team_list(s.teams[0]).name} v {team_list(s.teams[1]).name}: "
            f"{s.goals[0]}-{s.goals[1]} ({result}, {s.commands} commands)",
            file=sys.stderr,
            flush=True,
        )

    levels = (args.west_level, args.east_level)
    level_stats: dict[str, LevelStats] = {}
    stats, summaries = simulate(args.matches, seed, goals=args.goals, max_commands=args.max_commands,
                                core_only=args.core, progress=progress, levels=levels, advanced=args.advanced,
                                mirror=args.mirror, level_stats=level_stats)
    elapsed = time.perf_counter() - started
    print(stats_table(stats))
    if level_stats:
        print()
        print(f"{levels[0]} against {levels[1]} (sides swapped every other match):")
        print(level_table(levels, level_stats))
    unfinished = sum(s.capped for s in summaries)
    commands = sum(s.commands for s in summaries)
    print()
    print(
        f"{len(summaries)} matches (seed {seed}) in {elapsed:.1f} s: "
        f"{len(summaries) / elapsed:.2f} matches per second, {commands / len(summaries):.0f} commands per match"
        + (f", {unfinished} unfinished after {args.max_commands} commands" if unfinished else "")
    )
    return 0
