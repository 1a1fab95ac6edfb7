"""Timing of the AI coach's decisions, and a small win-rate run against the random coach.

Run: ``.venv/bin/python benchmarks/bench_ai.py [--matches N] [--seed S] [--level easy|hard]
[--opponent random|easy] [--advanced]``. Every decision the AI of ``--level`` takes in N matches
against ``engine.fuzz.RandomCoach`` or the easy AI (random team lists, the AI on a random side,
first goal wins; ``--advanced``: Advanced teams drawn as ``elfball fuzz --advanced`` draws them)
is timed: median, p95 and max per kind of decision and overall. The budget is 200 ms per
decision at p95 for the easy level, 300 ms for the hard one (issue 22). Then the win rate.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict

from ai import LEVELS, AICoach, make_ai, play_match
from engine import (
    Field,
    MatchState,
    RandomCoach,
    SeededDice,
    Side,
    all_team_lists,
    other_side,
    pending,
    random_advanced_entry,
)

BUDGET_MS = {"easy": 200.0, "hard": 300.0}


class TimedCoach:
    """Wraps a coach and records how long each decision took, by kind of decision."""

    def __init__(self, coach: AICoach) -> None:
        self.coach = coach
        self.samples: dict[str, list[float]] = defaultdict(list)

    def choose(self, state: MatchState, side: Side, field: Field):  # type: ignore[no-untyped-def]
        kind = pending(state).kind
        start = time.perf_counter()
        cmd = self.coach.choose(state, side, field)
        self.samples[kind].append(time.perf_counter() - start)
        return cmd


def report(name: str, samples: list[float]) -> float:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    print(
        f"{name:<14} n={len(samples):<6} median {statistics.median(samples) * 1e3:8.2f} ms"
        f"   p95 {p95 * 1e3:8.2f} ms   max {ordered[-1] * 1e3:8.2f} ms"
    )
    return p95 * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=40, help="matches against the random coach")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first match")
    parser.add_argument("--max-commands", type=int, default=3000, help="commands before a match counts as unfinished")
    parser.add_argument("--level", choices=LEVELS, default="easy", help="the timed AI's level (default easy)")
    parser.add_argument("--opponent", choices=("random", "easy"), default="random",
                        help="the random coach (default) or the easy AI")
    parser.add_argument("--advanced", action="store_true", help="Advanced teams (abilities and support)")
    args = parser.parse_args()

    timed = TimedCoach(AICoach())
    wins = capped = commands = 0
    started = time.perf_counter()
    for seed in range(args.seed, args.seed + args.matches):
        rng = random.Random(seed)
        west, east = rng.sample(all_team_lists(), 2)
        ai: Side = rng.choice(("west", "east"))
        timed.coach = make_ai(args.level, seed=seed)  # a fresh coach per match, as the acceptance test plays it
        other = (RandomCoach(random.Random(seed + 10_000)) if args.opponent == "random"
                 else make_ai("easy", random.Random(seed + 10_000)))
        coaches = {ai: timed, other_side(ai): other}
        options = None
        if args.advanced:
            from engine import RuleOptions

            west, east = random_advanced_entry(rng, west), random_advanced_entry(rng, east)  # type: ignore[assignment]
            options = RuleOptions(goals_to_win=1, advanced=True)
        s = play_match(west, east, coaches, SeededDice(seed), goals_to_win=1, max_commands=args.max_commands,
                       options=options)
        wins += s.winner == ai
        capped += s.capped
        commands += s.commands
    elapsed = time.perf_counter() - started

    last = args.seed + args.matches - 1
    against = "the random coach" if args.opponent == "random" else "the easy AI"
    print(f"{args.level} AI decisions in {args.matches} {'Advanced ' if args.advanced else ''}matches against "
          f"{against} (seeds {args.seed}-{last})")
    for kind in sorted(timed.samples, key=lambda k: -len(timed.samples[k])):
        report(kind, timed.samples[kind])
    everything = [t for v in timed.samples.values() for t in v]
    p95 = report("all decisions", everything)
    budget = BUDGET_MS[args.level]
    print(f"p95 {'within' if p95 < budget else 'OVER'} the {budget:.0f} ms budget")
    print(
        f"win rate {wins}/{args.matches} = {100 * wins / args.matches:.1f}% "
        f"({capped} unfinished), {commands / args.matches:.0f} commands per match, "
        f"{args.matches / elapsed:.2f} matches per second"
    )


if __name__ == "__main__":
    main()
