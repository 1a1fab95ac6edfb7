"""CPU time of the decision panel (``bot.play.items.build_view``) per kind of decision (issue 33).

    .venv/bin/python benchmarks/bench_panels.py [--matches 3] [--seed 0] [--language en]

Plays ``--matches`` matches between two heuristic AI coaches (``ai.AICoach``, random team lists)
through the engine and, at every decision a coach makes, builds the panel the bot would post for
it, timing it in this thread's CPU time (a busy shared machine does not inflate it). Prints the
median and mean per kind of decision (set-up, face-off, turn, action, question) and the mean over
all decisions, which is what the bot pays per action on its event loop for the panel.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ai import AICoach  # noqa: E402
from bot.play.items import build_view  # noqa: E402
from engine import (  # noqa: E402
    MAX_COMMANDS,
    Concede,
    Phase,
    SeededDice,
    TeamEntry,
    all_team_lists,
    apply,
    default_roster,
    new_match,
    pending,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--language", default="en")
    args = parser.parse_args()
    times: dict[str, list[float]] = defaultdict(list)
    for i in range(args.matches):
        rng = random.Random(args.seed + i)
        w, e = rng.sample(all_team_lists(), 2)
        dice = SeededDice(args.seed + i)
        state = new_match(TeamEntry(w.name, default_roster(w)), TeamEntry(e.name, default_roster(e)), dice).state
        coach = AICoach(rng=rng)
        n = 0
        while state.phase is not Phase.MATCH_OVER:
            pend = pending(state)
            side = pend.side
            assert side is not None
            outcome = SimpleNamespace(state=state, match=SimpleNamespace(id=1, version=n + 1))
            t = time.thread_time()
            build_view(outcome, args.language)  # type: ignore[arg-type]  # build_view reads .state and .match only
            times["question" if pend.question is not None else pend.kind].append(time.thread_time() - t)
            cmd = coach.choose(state, side) if n < MAX_COMMANDS else Concede()
            state = apply(state, cmd, dice, by=side).state
            n += 1
    every = [t for ts in times.values() for t in ts]
    print(f"{args.matches} AI matches (seeds {args.seed}-{args.seed + args.matches - 1}), {len(every)} panels, "
          f"thread CPU time")
    for kind, ts in sorted(times.items(), key=lambda kv: -sum(kv[1])):
        print(f"  {kind:<10} n={len(ts):<5} median {statistics.median(ts) * 1000:6.2f} ms   "
              f"mean {statistics.mean(ts) * 1000:6.2f} ms   share {sum(ts) / sum(every):4.0%}")
    print(f"  all        n={len(every):<5} mean {statistics.mean(every) * 1000:6.2f} ms per panel")


if __name__ == "__main__":
    main()
