"""Timing of the exact odds: a cold full table and cached single queries.

Run: ``.venv/bin/python benchmarks/bench_odds.py [--repeat N]``. The table is 0-12 dice x
need 1-8 x Momentum 0-6 x both die modes (1456 queries), computed from an empty cache.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from engine import MAX_DICE, MAX_MOMENTUM, clear_odds_cache, odds

TABLE = [
    (n, need, star2, k)
    for star2 in (False, True)
    for k in range(MAX_MOMENTUM + 1)
    for need in range(1, 9)
    for n in range(MAX_DICE + 1)
]


def full_table() -> None:
    for n, need, star2, k in TABLE:
        odds(n, need, star2=star2, momentum=k)


def timings(fn: Callable[[], object], repeat: int, *, before: Callable[[], object] | None = None) -> list[float]:
    out = []
    for _ in range(repeat):
        if before:
            before()
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def report(name: str, samples: list[float], unit: str, scale: float) -> None:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    print(
        f"{name:<34} n={len(samples):<6} median {statistics.median(samples) * scale:9.3f} {unit}"
        f"   p95 {p95 * scale:9.3f} {unit}   max {ordered[-1] * scale:9.3f} {unit}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=7, help="cold full-table runs")
    parser.add_argument("--queries", type=int, default=20_000, help="cached single queries")
    args = parser.parse_args()

    print(f"full table: {len(TABLE)} queries")
    report("cold full table", timings(full_table, args.repeat, before=clear_odds_cache), "s", 1)

    rng = random.Random(0)
    picks = [rng.choice(TABLE) for _ in range(args.queries)]
    full_table()  # warm
    samples = []
    for n, need, star2, k in picks:
        start = time.perf_counter()
        odds(n, need, star2=star2, momentum=k)
        samples.append(time.perf_counter() - start)
    report("cached single query", samples, "µs", 1e6)

    cold_single = []
    for n, need, star2, k in picks[:200]:
        clear_odds_cache()
        start = time.perf_counter()
        odds(n, need, star2=star2, momentum=k)
        cold_single.append(time.perf_counter() - start)
    report("cold single query (empty cache)", cold_single, "ms", 1e3)


if __name__ == "__main__":
    main()
