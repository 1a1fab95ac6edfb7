"""The league site's export: time and size for a season of whole matches.

Run: ``.venv/bin/python benchmarks/bench_site.py [--matches 1] [--commands 3000] [--runs 3] [--database F]``
(``--matches 3``: the whole season, its three fixtures played).

Seeds the test league (``tests/support/league_site.py``: three teams; the AI coach plays ``--matches``
fixtures on both sides, up to ``--commands`` commands each, a match it does not finish being
conceded) in a temporary SQLite database, then builds the site ``--runs`` times and reports the
median build time (wall and CPU: this process's and its worker processes', the fairer figure on a
shared machine), the time to write the folder, the time per replay board, the number of boards and
the sizes (files, zip, and the zip without replays, what ``/league export`` falls back to over
Discord's 10 MB), with the machine's 1-minute load when each run started.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The repository too: tests/ alone would make tests/engine/ the `engine` package.
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from db.engine import make_engine, use_engine  # noqa: E402
from db.migrate import upgrade  # noqa: E402
from service.site import build_site, find_league, write_site, zip_site  # noqa: E402
from support.league_site import LEAGUE, seeded_league  # noqa: E402


def _cpu() -> float:
    """CPU seconds of this process and of its finished worker processes (a pool's workers are
    counted once it has shut them down, which ``build_site`` does before it returns)."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1, choices=(1, 2, 3))
    parser.add_argument("--commands", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--database", type=Path, default=None,
                        help="a SQLite file: seeded if missing, else reused as it is (the AI's matches differ "
                             "from one seeding to the next: reuse one to compare before and after a change)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        database = args.database or Path(tmp) / "elfball.db"
        fresh = not database.exists()
        engine = make_engine(f"sqlite:///{database}")
        upgrade(engine)
        use_engine(engine)
        if fresh:
            seeded_league(args.commands, played=args.matches)
        league = find_league(LEAGUE)
        times, cpus, loads = [], [], []
        for _ in range(args.runs):
            loads.append(os.getloadavg()[0])
            started, cpu = time.perf_counter(), _cpu()
            site = build_site(league)
            times.append(time.perf_counter() - started)
            cpus.append(_cpu() - cpu)
        started = time.perf_counter()
        write_site(site, Path(tmp) / "site")
        written = time.perf_counter() - started
        frames = [p for p in site.files if "/frame-" in p]
        lean = build_site(league, replays=False)
        median = statistics.median(times)
        played = [p for p in site.files if p.startswith("matches/") and p.endswith(".json")]
        print(f"{len(played)} match(es), {len(frames)} replay boards, "
              f"{sum('/close-' in p for p in site.files)} phone close-ups, {len(site.files)} files")
        print(f"build: median {median:.2f} s wall, {statistics.median(cpus):.2f} s CPU over {args.runs} runs "
              f"({1000 * median / max(1, len(frames)):.0f} ms per board; runs {', '.join(f'{t:.1f}' for t in times)} s, "
              f"CPU {', '.join(f'{c:.1f}' for c in cpus)} s; 1-min load {', '.join(f'{x:.2f}' for x in loads)}); "
              f"write: {written:.2f} s")
        print(f"size: {site.size / 1e6:.2f} MB of files, zip {len(zip_site(site)) / 1e6:.2f} MB; "
              f"board {sum(len(site.files[p]) for p in frames) / max(1, len(frames)) / 1e3:.1f} kB on average; "
              f"without replays: zip {len(zip_site(lean)) / 1e6:.2f} MB")
        parts = {"replay boards": lambda p: "/frame-" in p, "phone close-ups": lambda p: "/close-" in p,
                 "final board": lambda p: p.endswith("/board.png"),
                 "record (.json)": lambda p: p.endswith(".json"), "page (.html)": lambda p: p.endswith(".html")}
        per = {k: sum(len(b) for p, b in site.files.items() if p.startswith("matches/") and is_it(p)) / max(1, len(played))
               for k, is_it in parts.items()}
        print(f"per match: {sum(per.values()) / 1e6:.2f} MB ({', '.join(f'{k} {v / 1e6:.2f}' for k, v in per.items())}); "
              f"the rest of the site {(site.size - sum(per.values()) * len(played)) / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
