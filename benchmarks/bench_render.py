"""Board renderer benchmark: render + encode of realistic mid-match boards (issue 4) and of the
pair a board post carries, the board and its action view (issue 19).

    .venv/bin/python benchmarks/bench_render.py [--width 720] [--view-width 600] [--seeds 3 5 8] [--boards 60]

Plays fuzz matches (``engine.fuzz``), keeps one board per completed action from the middle of
each match (both teams on the field, the events of the action drawn over it), renders them in
match order as the bot would, and prints the median and 95th percentile of the wall time per
``render_board`` call and the PNG sizes. The first render at a width builds the cached field
layer; that one-off cost is reported apart. ``--cold`` also times each board with the recent-
band cache emptied first (every changed band compressed afresh). Budget: median <= 20 ms,
p95 <= 40 ms, <= 80 KB per PNG at >= 1000 px wide. Then the pair: ``render_board`` and
``render_action_view`` of the same position after every command (a quarter into each match:
actions, questions and turns), timed together (median and p95) with their sizes. Budget for the pair at the default widths: median <= 20 ms, <= 160 KB.
The board alone is what a post draws by default since issue 33 (the close-up is drawn when a
coach or his server asks for it in the post, or a member presses Close-up); ``--width``
defaults to the bot's (``service.drawing.BOARD_WIDTH``).

``--channels N`` (issue 33) draws as bench_load's bot does: N matches (gnolls against sarcos,
the AI coach on both sides, from each match's 7th command on) take turns, one board each, ``--turns``
rounds, so no cache sees the same match twice in a row; it prints the CPU per board of each
round (the first fills the caches) and nothing else.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
from collections import Counter
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import (  # noqa: E402
    Phase,
    SeededDice,
    TeamEntry,
    apply,
    default_roster,
    new_match,
    pending,
    standard_field,
    team_list,
)
from ai import AICoach  # noqa: E402
from render import render_action_view, render_board  # noqa: E402
from render import layers  # noqa: E402
from render.replay import Frame, Step, action_frames, fuzz_history  # noqa: E402
from service.drawing import BOARD_WIDTH  # noqa: E402


def mid_match_boards(seeds: list[int], per_seed: int) -> list[Frame]:
    out: list[Frame] = []
    for seed in seeds:
        frames = [
            f for f in action_frames(fuzz_history(seed))
            if f.state.phase in (Phase.TURN, Phase.ACTION) and len(f.state.on_field()) >= 10 and f.events
        ]
        if not frames:
            continue
        start = len(frames) // 4
        out.extend(frames[start:start + per_seed])
    return out


def mid_match_posts(seeds: list[int], per_seed: int) -> list[Step]:
    """The positions a bot posts mid-match: the state after every command (moves, throws,
    questions, turns), from a quarter into each fuzz match."""
    out: list[Step] = []
    for seed in seeds:
        steps = [s for s in fuzz_history(seed)
                 if s.state.phase in (Phase.TURN, Phase.ACTION) and len(s.state.on_field()) >= 10]
        start = len(steps) // 4
        out.extend(steps[start:start + per_seed])
    return out


def channel_posts(channels: int, turns: int, skip: int = 6) -> list[Step]:
    """What a bot with ``channels`` busy channels draws, as in bench_load: gnolls against sarcos
    in every channel, the AI coach on both sides, each match's position after its commands
    ``skip + 1 .. skip + turns``, the matches taking turns."""
    west, east = team_list("gnolls"), team_list("sarcos")
    field = standard_field()
    matches = []
    for seed in range(1, channels + 1):
        dice, coach = SeededDice(seed), AICoach(random.Random(seed))
        res = new_match(TeamEntry(west.name, default_roster(west)), TeamEntry(east.name, default_roster(east)), dice)
        steps = []
        while len(steps) < skip + turns and res.state.phase is not Phase.MATCH_OVER:
            side = pending(res.state).side
            assert side is not None
            res = apply(res.state, coach.choose(res.state, side, field), dice, by=side)
            steps.append(Step(res.state, list(res.events), res.view if res.state.in_progress else None))
        matches.append(steps[skip:])
    return [m[t] for t in range(turns) for m in matches if t < len(m)]


def channels_main(args: argparse.Namespace) -> int:
    t0 = time.perf_counter()
    posts = channel_posts(args.channels, args.turns)
    print(f"{len(posts)} boards, {args.channels} matches taking turns ({time.perf_counter() - t0:.1f}s to play them)")
    load0 = os.getloadavg()
    per_round = len(posts) // args.turns
    for r in range(args.turns):
        c0 = time.process_time()
        for f in posts[r * per_round:(r + 1) * per_round]:
            render_board(f.state, events=f.events, view=f.view, width=args.width)
        print(f"round {r + 1}: CPU {(time.process_time() - c0) * 1000 / per_round:.2f} ms per board at {args.width} px")
    print(f"load average (1 min) before / after measuring: {load0[0]:.2f} / {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    return 0


def pct(values: list[float], q: float) -> float:
    vs = sorted(values)
    return vs[min(len(vs) - 1, max(0, round(q * (len(vs) - 1))))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--width", type=int, default=BOARD_WIDTH)
    ap.add_argument("--view-width", type=int, default=600)
    ap.add_argument("--seeds", type=int, nargs="+", default=[3, 5, 8])
    ap.add_argument("--boards", type=int, default=60, help="boards per seed")
    ap.add_argument("--cold", action="store_true", help="also time with the recent-band cache emptied")
    ap.add_argument("--channels", type=int, default=0, help="draw as a bot with this many busy channels (see above)")
    ap.add_argument("--turns", type=int, default=4, help="with --channels: boards per match")
    args = ap.parse_args(argv)
    if args.channels:
        return channels_main(args)

    t0 = time.perf_counter()
    boards = mid_match_boards(args.seeds, args.boards)
    print(f"{len(boards)} mid-match boards from seeds {args.seeds} ({time.perf_counter() - t0:.1f}s to play them)")
    if not boards:
        print("no boards")
        return 1

    t0 = time.perf_counter()
    render_board(boards[0].state, events=boards[0].events, view=boards[0].view, width=args.width)
    print(f"first render at {args.width} px (draws and caches the field): {(time.perf_counter() - t0) * 1000:.0f} ms")

    def run(cold: bool) -> tuple[list[float], list[float], list[int]]:
        wall, cpu, sizes = [], [], []
        for f in boards:
            if cold:
                layers._RECENT.clear()
            w0, c0 = time.perf_counter(), time.process_time()
            png = render_board(f.state, events=f.events, view=f.view, width=args.width)
            cpu.append((time.process_time() - c0) * 1000)
            wall.append((time.perf_counter() - w0) * 1000)
            sizes.append(len(png))
        return wall, cpu, sizes

    load0 = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    for cold in (False, True) if args.cold else (False,):
        wall, cpu, sizes = run(cold)
        label = "cold band cache" if cold else "in match order"
        print(
            f"{label}: render+encode at {args.width} px: median {statistics.median(wall):.1f} ms, "
            f"p95 {pct(wall, 0.95):.1f} ms (CPU median {statistics.median(cpu):.1f} ms, p95 {pct(cpu, 0.95):.1f} ms); "
            f"PNG median {statistics.median(sizes) / 1024:.1f} KB, max {max(sizes) / 1024:.1f} KB"
        )

    # the pair a board post carries: the board and its close-up, after every command
    posts = mid_match_posts(args.seeds, args.boards)
    kinds = Counter(s.state.phase.value for s in posts)
    print(f"{len(posts)} mid-match posts ({', '.join(f'{n} {k}' for k, n in sorted(kinds.items()))})")
    boards = posts  # type: ignore[assignment]
    t0 = time.perf_counter()
    render_action_view(boards[0].state, events=boards[0].events, view=boards[0].view, width=args.view_width)
    print(f"first action view at {args.view_width} px (draws and caches its field): {(time.perf_counter() - t0) * 1000:.0f} ms")
    pair, pair_cpu, view_only, board_sizes, view_sizes, pair_sizes = [], [], [], [], [], []
    board_cpu: list[float] = []
    for f in boards:
        c0 = time.process_time()
        w0 = time.perf_counter()
        png = render_board(f.state, events=f.events, view=f.view, width=args.width)
        w1 = time.perf_counter()
        board_cpu.append((time.process_time() - c0) * 1000)
        close = render_action_view(f.state, events=f.events, view=f.view, width=args.view_width)
        w2 = time.perf_counter()
        pair_cpu.append((time.process_time() - c0) * 1000)
        pair.append((w2 - w0) * 1000)
        view_only.append((w2 - w1) * 1000)
        board_sizes.append(len(png))
        view_sizes.append(len(close or b""))
        pair_sizes.append(len(png) + len(close or b""))
    print(
        f"pair (board {args.width} px + action view {args.view_width} px): median {statistics.median(pair):.1f} ms, "
        f"p95 {pct(pair, 0.95):.1f} ms (CPU median {statistics.median(pair_cpu):.1f} ms, "
        f"p95 {pct(pair_cpu, 0.95):.1f} ms; view alone: median {statistics.median(view_only):.1f} ms, "
        f"p95 {pct(view_only, 0.95):.1f} ms); sizes: board median {statistics.median(board_sizes) / 1024:.1f} KB, "
        f"view median {statistics.median(view_sizes) / 1024:.1f} KB, pair median "
        f"{statistics.median(pair_sizes) / 1024:.1f} KB, max {max(pair_sizes) / 1024:.1f} KB"
    )
    print(f"board alone after every command (a post's default since issue 33): CPU median "
          f"{statistics.median(board_cpu):.1f} ms, p95 {pct(board_cpu, 0.95):.1f} ms")
    load1 = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    print(f"load average (1 min) before / after measuring: {load0[0]:.2f} / {load1[0]:.2f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
