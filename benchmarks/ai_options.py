"""Which Advanced options the AI coach uses, counted from the events of AI-v-AI Advanced matches.

Run: ``.venv/bin/python benchmarks/ai_options.py [--matches N] [--seed S] [--level hard]``.
Teams and options are drawn as ``elfball fuzz --advanced`` draws them (``engine.fuzz.random_entries``).
"""

from __future__ import annotations

import argparse
import time

from ai import OPTIONS, count_options


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--rich", action="store_true", help="teams that learn the rarer abilities first")
    parser.add_argument("--no-search", action="store_true", help="the level without its search (faster)")
    args = parser.parse_args()
    started = time.perf_counter()
    in_matches, uses = count_options(args.matches, args.seed, args.level, rich=args.rich,
                                     search=False if args.no_search else None)
    how = args.level + (" without its search" if args.no_search else "") + (", rich teams" if args.rich else "")
    print(f"{args.matches} AI-v-AI Advanced matches ({how}), seeds {args.seed}-{args.seed + args.matches - 1}, "
          f"{time.perf_counter() - started:.0f} s")
    for o in OPTIONS:
        print(f"{o:<16} used {uses[o]:>5} times, in {in_matches[o]:>3} matches")


if __name__ == "__main__":
    main()
