"""``elfball simulate``: AI-vs-AI matches between random team lists, and their statistics.

Each match draws two different team lists (default lineups) and a dice seed from one
``random.Random(seed)``, so ``--seed`` repeats the whole run. The table has one row per team
list: matches played, win rate, goals for and against per match, and injuries per match
(players of that list, then of its opponents, removed by an Injury roll: Infirmary, Recovery
or the Bench for the rest of the Test). Progress goes to stderr, the table to stdout.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.ai import AICoach, MatchSummary, play_match
from engine.dice import SeededDice
from engine.errors import MalformedInputError
from engine.rosters import all_team_lists, team_list

__all__ = ["register", "TeamStats", "simulate", "stats_table"]

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


def simulate(
    matches: int,
    seed: int,
    *,
    goals: int = 1,
    max_commands: int = DEFAULT_MAX_COMMANDS,
    core_only: bool = False,
    progress: Callable[[int, MatchSummary], None] | None = None,
) -> tuple[dict[str, TeamStats], list[MatchSummary]]:
    """Play ``matches`` AI-vs-AI matches from ``seed``; returns the stats per team list id."""
    if matches < 1:
        raise MalformedInputError("--matches must be at least 1")
    rng = random.Random(seed)
    lists = all_team_lists(include_optional=not core_only)
    stats: dict[str, TeamStats] = {}
    summaries: list[MatchSummary] = []
    for i in range(matches):
        west, east = rng.sample(lists, 2)
        dice_seed = rng.randrange(2**32)
        coaches = {"west": AICoach(random.Random(dice_seed)), "east": AICoach(random.Random(dice_seed + 1))}
        summary = play_match(west, east, coaches, SeededDice(dice_seed), goals_to_win=goals, max_commands=max_commands)
        summaries.append(summary)
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


def _run_simulate(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    if args.max_commands < 1:
        raise MalformedInputError("--max-commands must be at least 1")
    print(f"Simulating {args.matches} AI-vs-AI matches (seed {seed}), first to {args.goals}.", file=sys.stderr)
    started = time.perf_counter()

    def progress(done: int, s: MatchSummary) -> None:
        result = "unfinished" if s.capped else (s.winner or "?")
        print(
            f"  [{done}/{args.matches}] {team_list(s.teams[0]).name} v {team_list(s.teams[1]).name}: "
            f"{s.goals[0]}-{s.goals[1]} ({result}, {s.commands} commands)",
            file=sys.stderr,
            flush=True,
        )

    stats, summaries = simulate(args.matches, seed, goals=args.goals, max_commands=args.max_commands,
                                core_only=args.core, progress=progress)
    elapsed = time.perf_counter() - started
    print(stats_table(stats))
    unfinished = sum(s.capped for s in summaries)
    commands = sum(s.commands for s in summaries)
    print()
    print(
        f"{len(summaries)} matches (seed {seed}) in {elapsed:.1f} s: "
        f"{len(summaries) / elapsed:.2f} matches per second, {commands / len(summaries):.0f} commands per match"
        + (f", {unfinished} unfinished after {args.max_commands} commands" if unfinished else "")
    )
    return 0
