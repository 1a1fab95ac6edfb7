"""Fit the hard AI's learned position judgement (``ai.judge.COEFS``).

Plays AI-v-AI matches (easy v easy: the search plays its samples with the easy policy), Basic
and Advanced, mixed and mirror team lists, from ``--seed``; logs ``ai.judge.features`` of
every position where a team picks who acts, labelled with whether the West side won the match
(first to one goal, so: who scores the next goal), then fits a logistic regression without
intercept (the features are antisymmetric) by Newton's method with a small L2 penalty, pure
Python. Prints held-out log loss and accuracy and the constants to paste into ai/judge.py.

    PYTHONPATH=. python scripts/fit_ai_eval.py --matches 400 --seed 7 [--data /tmp/eval.json]

The same arguments give the same coefficients (seeded dice and team draws; no clock).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys

from ai import make_ai, play_match
from ai import FEATURES, features
from engine import (
    RuleOptions,
    SeededDice,
    TeamEntry,
    all_team_lists,
    default_roster,
    pending,
    random_advanced_entry,
    standard_field,
)


def collect(matches: int, seed: int, levels: tuple[str, str] = ("easy", "easy")) -> list[tuple[list[float], int, int]]:
    """(features seen from West, West won, match index) of every 'turn' position."""
    fld = standard_field()
    rng = random.Random(seed)
    lists = all_team_lists(include_optional=True)
    rows: list[tuple[list[float], int, int]] = []
    for i in range(matches):
        advanced, mirror = i % 2 == 1, i % 4 >= 2
        west, east = rng.sample(lists, 2)
        if mirror:
            east = west
        dice_seed = rng.randrange(2**32)
        lv = levels if i % 2 == 0 else (levels[1], levels[0])
        coaches = {"west": make_ai(lv[0], random.Random(dice_seed)), "east": make_ai(lv[1], random.Random(dice_seed + 1))}
        if advanced:
            team_rng = random.Random(dice_seed)
            entries = (random_advanced_entry(team_rng, west), random_advanced_entry(team_rng, east))
        else:
            entries = (TeamEntry(west.name, default_roster(west)), TeamEntry(east.name, default_roster(east)))
        seen: list[list[float]] = []

        def log(state, side, cmd, events, seen=seen):  # type: ignore[no-untyped-def]  # play_match's callback shape
            # ``seen`` bound now: this match's list, not the loop's last
            if pending(state).kind == "turn":
                seen.append(features(state, "west", fld))

        summary = play_match(*entries, coaches, SeededDice(dice_seed), options=RuleOptions(advanced=advanced),
                             on_command=log)
        if summary.winner not in ("west", "east"):
            continue
        y = 1 if summary.winner == "west" else 0
        rows += [(f, y, i) for f in seen]
        if (i + 1) % 50 == 0:
            print(f"  {i + 1}/{matches} matches, {len(rows)} positions", file=sys.stderr, flush=True)
    return rows


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(n):
            if r != c and m[r][c] != 0.0:
                k = m[r][c] / m[c][c]
                for j in range(c, n + 1):
                    m[r][j] -= k * m[c][j]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(xs: list[list[float]], ys: list[int], l2: float = 1.0, iters: int = 25) -> list[float]:
    """Logistic regression without intercept, Newton's method, penalty ``l2 * |w|^2 / 2``."""
    d = len(xs[0])
    w = [0.0] * d
    for _ in range(iters):
        g = [l2 * wi for wi in w]
        h = [[l2 if i == j else 0.0 for j in range(d)] for i in range(d)]
        for x, y in zip(xs, ys):
            z = sum(wi * xi for wi, xi in zip(w, x))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            r, s = p - y, p * (1 - p)
            for i in range(d):
                if x[i] == 0.0:
                    continue
                g[i] += r * x[i]
                sx = s * x[i]
                hi = h[i]
                for j in range(d):
                    hi[j] += sx * x[j]
        step = _solve(h, g)
        w = [wi - si for wi, si in zip(w, step)]
        if max(abs(s) for s in step) < 1e-5:
            break
    return w


def report(w: list[float], xs: list[list[float]], ys: list[int]) -> tuple[float, float]:
    loss = acc = 0.0
    for x, y in zip(xs, ys):
        z = sum(wi * xi for wi, xi in zip(w, x))
        p = min(1 - 1e-9, max(1e-9, 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))))
        loss -= y * math.log(p) + (1 - y) * math.log(1 - p)
        acc += (p > 0.5) == (y == 1)
    return loss / len(ys), acc / len(ys)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=400)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--data", help="cache of the logged positions (JSON): read if present, else written")
    args = ap.parse_args()
    if args.data and os.path.exists(args.data):
        with open(args.data) as fh:
            rows = [(r[0], r[1], r[2]) for r in json.load(fh)]
    else:
        rows = collect(args.matches, args.seed)
        if args.data:
            with open(args.data, "w") as fh:
                json.dump(rows, fh)
    # Hold out every fifth match (whole matches: their positions are alike).
    train = [(x, y) for x, y, i in rows if i % 5 != 4]
    test = [(x, y) for x, y, i in rows if i % 5 == 4]
    w = fit([x for x, _ in train], [y for _, y in train], args.l2)
    tl, ta = report(w, [x for x, _ in test], [y for _, y in test])
    print(f"{len(train)} training positions, {len(test)} held out: log loss {tl:.4f}, accuracy {ta:.3f}",
          file=sys.stderr)
    w = fit([x for x, _, _ in rows], [y for _, y, _ in rows], args.l2)
    for name, c in zip(FEATURES, w):
        print(f"    {c:+.4f},  # {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
