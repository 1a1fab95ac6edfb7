"""Timing of the match engine over random matches: ``apply`` per command and the full
``legal_commands`` enumeration per position.

Run: ``.venv/bin/python benchmarks/bench_engine.py [--matches N] [--seed S] [--max-commands M]``.
The matches are ``engine.fuzz``'s (random team lists, a random legal-command coach); the coach's
own time is reported apart, so "engine" figures are ``apply`` alone. Times are this thread's
CPU time by default (``--clock cpu``), which a busy shared machine does not inflate; ``--clock
wall`` uses ``perf_counter``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict

from engine import (
    Concede,
    MAX_COMMANDS,
    Phase,
    RandomCoach,
    RuleOptions,
    SeededDice,
    TeamEntry,
    all_team_lists,
    apply,
    default_roster,
    legal_commands,
    new_match,
    pending,
    standard_field,
)


def report(name: str, samples: list[float], unit: str = "ms", scale: float = 1000.0) -> None:
    if not samples:
        print(f"{name:<30} n=0")
        return
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    print(
        f"{name:<30} n={len(samples):<7} median {statistics.median(samples) * scale:8.3f} {unit}"
        f"   p95 {p95 * scale:8.3f} {unit}   max {ordered[-1] * scale:8.3f} {unit}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=10, help="random matches to play (default 10)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first match (default 0)")
    parser.add_argument("--max-commands", type=int, default=MAX_COMMANDS, help="commands before conceding")
    parser.add_argument("--legal-every", type=int, default=1, help="time legal_commands at every Nth position")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu", help="CPU time (default) or wall-clock")
    args = parser.parse_args()
    now = time.thread_time if args.clock == "cpu" else time.perf_counter

    fld = standard_field()
    apply_times: list[float] = []
    by_kind: dict[str, list[float]] = defaultdict(list)
    legal_times: list[float] = []
    legal_sizes: list[int] = []
    coach_time = 0.0
    commands = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for i in range(args.matches):
        seed = args.seed + i
        rng = random.Random(seed)
        w, e = rng.sample(all_team_lists(), 2)
        dice = SeededDice(seed)
        state = new_match(TeamEntry(w.name, default_roster(w)), TeamEntry(e.name, default_roster(e)), dice,
                          options=RuleOptions(goals_to_win=rng.choice((1, 1, 2, 3)))).state
        coach = RandomCoach(rng)
        n = 0
        while state.phase is not Phase.MATCH_OVER:
            side = pending(state).side
            assert side is not None
            if n % args.legal_every == 0:
                t = now()
                legal = list(legal_commands(state, side, fld))
                legal_times.append(now() - t)
                legal_sizes.append(len(legal))
            t = now()
            cmd = coach.choose(state, side, fld) if n < args.max_commands else Concede()
            coach_time += now() - t
            t = now()
            state = apply(state, cmd, dice, by=side, field=fld).state
            dt = now() - t
            apply_times.append(dt)
            by_kind[cmd.name].append(dt)
            n += 1
        commands += n
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    engine = sum(apply_times)

    print(
        f"{args.matches} random matches (seeds {args.seed}-{args.seed + args.matches - 1}), {commands} commands; "
        f"{args.clock} clock"
    )
    report("apply, any command", apply_times)
    for name, samples in sorted(by_kind.items(), key=lambda kv: -statistics.median(kv[1])):
        report(f"  apply {name}", samples)
    report("legal_commands, full list", legal_times)
    if legal_sizes:
        print(f"  legal commands per position: median {statistics.median(legal_sizes):.0f}, max {max(legal_sizes)}")
    print(f"engine only (apply):  {commands / engine:9.0f} commands/s   {args.matches / engine:7.2f} matches/s")
    play = engine + coach_time
    print(f"with the random coach: {commands / play:8.0f} commands/s   {args.matches / play:7.2f} matches/s")
    print(f"total: {wall:.1f} s wall, {cpu:.1f} s CPU (includes the legal_commands timing)")


if __name__ == "__main__":
    main()
