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
from typing import Any

from cli.team_commands import format_table
from service.console import MalformedInputError
from service.reference import team_list
from service.simulate import DEFAULT_MAX_COMMANDS, LEVELS, LevelStats, MatchSummary, TeamStats, simulate, wilson

__all__ = ["register", "stats_table", "level_table"]


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


def stats_table(stats: dict[str, TeamStats]) -> str:
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
