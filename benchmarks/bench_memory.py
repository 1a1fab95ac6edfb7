"""Memory benchmark: what the bot holds when it is ready, before any board (issue 33).

    .venv/bin/python benchmarks/bench_memory.py [--width 720] [--runs 3] [--top 15]

Each run is a fresh process that does what ``elfball bot`` does before it connects: it imports
``bot.app``, builds the ``MatchService`` with its ``Drawing`` (``ELFBALL_RENDER_PROCESSES`` decides
the picture workers, as for the real bot; one per spare core by default) and the ``ElfballBot``,
then warms the picture caches (``warm_pictures``, the bot's first background task: in the bot's
process when it draws there, else nothing until the first picture starts the workers), and
finally draws one board and close-up. Printed: resident memory (VmRSS) after the imports, when
ready and after that first picture, of the bot's own process and of each child (the picture
workers and multiprocessing's resource tracker) separately, and the top ``--top`` files holding the bot process's Python
allocations (tracemalloc, grouped by file), with how many modules are imported and whether the
heavy ones only some commands need (the AI search, Jinja2, the scenario tooling) are among them.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Modules a bot that is ready should not have imported (only some commands need them).
HEAVY = ("ai.search", "jinja2", "service.site", "service.scenario_tools", "numpy", "hypothesis", "alembic", "pygments")


def rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            return next((int(line.split()[1]) for line in f if line.startswith("VmRSS:")), 0)
    except OSError:
        return 0


def children(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            out += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return out


def child(width: int, top: int, trace: bool) -> None:
    """One measurement (in a fresh process): prints a JSON line."""
    import tracemalloc

    if trace:
        tracemalloc.start()
    import bot.app  # noqa: F401  (what `elfball bot` imports)

    imported_kb = rss_kb(os.getpid())
    from bot.app import ElfballBot
    from service.drawing import Drawing, render_processes
    from service.matches import MatchService

    import asyncio

    from bot.app import EXTENSIONS

    service = MatchService(width=width, drawing=Drawing(render_processes()))

    async def ready() -> None:  # setup_hook without Discord: its cogs and their commands
        bot = ElfballBot(service, background=False, sync="never")
        for name in EXTENSIONS:
            await bot.load_extension(name)

    asyncio.run(ready())
    service.warm_pictures()
    main_kb = rss_kb(os.getpid())
    workers = {pid: rss_kb(pid) for pid in children(os.getpid())}
    # The first board and close-up (the picture workers start for it, and warm as they start).
    from engine import SeededDice, TeamEntry, default_roster, new_match, team_list

    west, east = team_list("gnolls"), team_list("sarcos")
    state = new_match(TeamEntry(west.name, default_roster(west)), TeamEntry(east.name, default_roster(east)),
                      SeededDice(1)).state
    service.drawing.pair(state, width=width, language="en")
    drawn_kb = rss_kb(os.getpid())
    drawn_workers = [rss_kb(pid) for pid in children(os.getpid())]
    by_file: list[tuple[str, float]] = []
    if trace:
        snap = tracemalloc.take_snapshot()
        stats = snap.statistics("filename")
        by_file = [(str(s.traceback[0].filename).replace(str(ROOT) + "/", "").split("site-packages/")[-1],
                    s.size / 1024) for s in stats[:top]]
        traced = sum(s.size for s in stats) / 1024
    else:
        traced = 0.0
    print(json.dumps({"imported_kb": imported_kb, "main_kb": main_kb, "workers": list(workers.values()),
                      "drawn_kb": drawn_kb, "drawn_workers": drawn_workers,
                      "traced_kb": traced, "top": by_file, "modules": len(sys.modules),
                      "heavy": [m for m in HEAVY if m in sys.modules]}), flush=True)
    service.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--width", type=int, default=720)  # the bot's board (service.drawing.BOARD_WIDTH)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--trace", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        sys.path.insert(0, str(ROOT))
        child(args.width, args.top, args.trace)
        return 0
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}; "
          f"ELFBALL_RENDER_PROCESSES={os.environ.get('ELFBALL_RENDER_PROCESSES', '(default)')}")
    # RSS runs without tracemalloc (it costs memory of its own), then one traced run for the files.
    for i in range(args.runs + 1):
        trace = i == args.runs
        out = subprocess.run([sys.executable, __file__, "--child", "--width", str(args.width), "--top",
                              str(args.top)] + (["--trace"] if trace else []),
                             capture_output=True, text=True, cwd=ROOT, check=True)
        r = json.loads(out.stdout.strip().splitlines()[-1])
        total = r["main_kb"] + sum(r["workers"])
        if not trace:
            print(f"run {i + 1}: ready {total / 1024:.0f} MB resident = bot {r['main_kb'] / 1024:.0f} MB"
                  + "".join(f" + child {w / 1024:.0f} MB" for w in r["workers"])
                  + f" (imports alone {r['imported_kb'] / 1024:.0f} MB; {r['modules']} modules; heavy modules "
                    f"imported: {', '.join(r['heavy']) or 'none'})")
            drawn = r["drawn_kb"] + sum(r["drawn_workers"])
            print(f"       after the first board and close-up {drawn / 1024:.0f} MB = bot {r['drawn_kb'] / 1024:.0f} MB"
                  + "".join(f" + child {w / 1024:.0f} MB" for w in r["drawn_workers"]))
            continue
        print(f"tracemalloc (bot process, ready): {r['traced_kb'] / 1024:.1f} MB of Python allocations; top {args.top} "
              "files:")
        for name, kb in r["top"]:
            print(f"  {kb / 1024:7.2f} MB  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
