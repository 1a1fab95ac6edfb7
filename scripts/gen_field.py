#!/usr/bin/env python3
"""Generate ``engine/data/field.json``: the standard 2nd-edition Elfball field as data.

The field diagram was lost with the rulebook's images, so the geometry is reconstructed from
the text (rules-analysis G1-G6). Every choice is a named constant below and explained in
``docs/field.md``; change one, run this script, and the checked-in data, the docs map and the
tests all follow. ``python scripts/gen_field.py --check`` exits 1 if the data file is stale.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import Direction, HEX_CIRCUMRADIUS, Hex, distance  # noqa: E402

OUT = ROOT / "engine" / "data" / "field.json"

#: "a circle 21 paces in diameter": hexes whose centres lie within 10 spacings of the centre,
#: so the east-west row through the centre has exactly 21 hexes (G1, G2).
FIELD_RADIUS = 10.0
#: Circles as (name, colour, side, centre hex, radius in spacings). A hex crossed by a circle
#: is on its line (rim); a hex wholly inside is interior (G3, G4).
CIRCLES: list[tuple[str, str, str | None, Hex, float]] = [
    ("centre", "yellow", None, Hex(0, 0), 2.0),
    ("guardian-west", "yellow", "west", Hex(-7, 0), 1.0),
    ("guardian-east", "yellow", "east", Hex(7, 0), 1.0),
    # Rover circles: "large", two each side, about 5 hexes from the centre line, off the axis.
    ("rover-west-north", "yellow", "west", Hex(-3, -4), 2.0),
    ("rover-west-south", "yellow", "west", Hex(-7, 4), 2.0),
    ("rover-east-north", "yellow", "east", Hex(7, -4), 2.0),
    ("rover-east-south", "yellow", "east", Hex(3, 4), 2.0),
]
#: Goal circles are drawn inside a single hex "at the edge of each side" (G5): the hex next to
#: the outer line on the long axis. The west team defends the west goal.
GOALS = {"west": Hex(-9, 0), "east": Hex(9, 0)}
#: Dugout stairways (G6): two per team, toward the corners of the square board on its own half.
#: Each is anchored on the outer-line hex nearest the given bearing (degrees, 0 = east,
#: clockwise on screen); replacements enter within 3 hexes of an anchor.
STAIRWAY_BEARINGS = {"west": (225.0, 135.0), "east": (315.0, 45.0)}
REPLACEMENT_RANGE = 3
COLUMNS = "ABCDEFGHIJKLMNOPQRSTU"
#: Rows are numbered from 1 at the top. A disc 21 hexes wide is 23 rows tall (rows are only
#: sqrt(3)/2 apart), so the centre row is 12 and the ball spot is K12.
ROW_OFFSET = 12


def label(h: Hex) -> str:
    """Column letter + row number: rows 1-23 top to bottom, odd ``r`` rows shifted half right."""
    return f"{COLUMNS[h.q + (h.r >> 1) + 10]}{h.r + ROW_OFFSET}"


def _polygon_extent(h: Hex, centre: Hex) -> tuple[float, float]:
    """Nearest and farthest distance from ``centre``'s centre to the polygon of ``h``."""
    cx, cy = centre.center()
    hx, hy = h.center()
    far = max(math.hypot(x - cx, y - cy) for x, y in h.corners())
    d = math.hypot(hx - cx, hy - cy)
    if d < 0.5:  # the centre point lies inside the hex
        return 0.0, far
    corners = h.corners()
    near = min(
        _point_segment(cx, cy, *corners[i], *corners[(i + 1) % 6]) for i in range(6)
    )
    return near, far


def _point_segment(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def on_field(h: Hex) -> bool:
    x, y = h.center()
    return x * x + y * y <= FIELD_RADIUS**2 + 1e-9


def build() -> dict:
    span = int(FIELD_RADIUS) + 2
    hexes = sorted(
        (Hex(q, r) for r in range(-span, span + 1) for q in range(-2 * span, 2 * span + 1) if on_field(Hex(q, r))),
        key=lambda h: (h.r, h.q),
    )
    field = set(hexes)
    records = []
    for h in hexes:
        x, _ = h.center()
        # White outer line: the outermost ring, i.e. hexes with a neighbour off the field.
        edge = any(n not in field for n in h.neighbours())
        # White centre line along x = 0: every hex it passes through or runs along (G3).
        centre_line = abs(x) <= 0.5 + 1e-9
        goal = next((side for side, g in GOALS.items() if g == h), None)
        circle, rim = None, False
        for name, _colour, _side, c, radius in CIRCLES:
            near, far = _polygon_extent(h, c)
            if far <= radius - 1e-9:
                circle, rim = name, False
            elif near <= radius + 1e-9:
                circle, rim = name, True
            if circle:
                break
        half = "west" if x < -1e-9 else "east" if x > 1e-9 else None
        records.append(
            {
                "label": label(h),
                "q": h.q,
                "r": h.r,
                "half": half,
                "edge_line": edge,
                "centre_line": centre_line,
                "goal": goal,
                "circle": circle,
                "rim": rim,
                "ball_spot": h == Hex(0, 0),
            }
        )
    by_hex = {Hex(rec["q"], rec["r"]): rec for rec in records}

    def white(rec: dict) -> bool:
        return rec["edge_line"] or rec["centre_line"] or rec["goal"] is not None

    stairways: dict[str, list[dict]] = {}
    edge_hexes = [h for h in hexes if by_hex[h]["edge_line"]]
    for side, bearings in STAIRWAY_BEARINGS.items():
        stairways[side] = []
        for bearing in bearings:
            bx = FIELD_RADIUS * math.cos(math.radians(bearing))
            by = FIELD_RADIUS * math.sin(math.radians(bearing))
            anchor = min(
                edge_hexes,
                key=lambda h: (math.hypot(h.center()[0] - bx, h.center()[1] - by), h.r, h.q),
            )
            entry = [
                by_hex[h]["label"]
                for h in hexes
                if distance(h, anchor) <= REPLACEMENT_RANGE and not white(by_hex[h])
            ]
            stairways[side].append(
                {"anchor": by_hex[anchor]["label"], "bearing": bearing, "entry": entry}
            )

    return {
        "schema": 1,
        "name": "Elfball standard field (2nd edition), reconstructed",
        "radius": FIELD_RADIUS,
        "hex_circumradius": HEX_CIRCUMRADIUS,
        "columns": COLUMNS,
        "row_offset": ROW_OFFSET,
        "compass": {str(d.value): d.name for d in Direction},
        "goals": {side: label(h) for side, h in GOALS.items()},
        "circles": [
            {"name": n, "colour": col, "side": side, "centre": label(c), "radius": rad}
            for n, col, side, c, rad in CIRCLES
        ]
        + [
            {"name": f"goal-{side}", "colour": "white", "side": side, "centre": label(h), "radius": HEX_CIRCUMRADIUS}
            for side, h in GOALS.items()
        ],
        "stairways": stairways,
        "replacement_range": REPLACEMENT_RANGE,
        "hexes": records,
    }


def dumps(data: dict) -> str:
    """JSON with one hex per line, so a geometry change reads well in a diff."""
    hexes = data["hexes"]
    head = {k: v for k, v in data.items() if k != "hexes"}
    body = json.dumps(head, indent=2)[:-2]
    rows = ",\n".join("    " + json.dumps(rec, separators=(", ", ": ")) for rec in hexes)
    return f'{body},\n  "hexes": [\n{rows}\n  ]\n}}\n'


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="fail if the data file is stale")
    args = parser.parse_args(argv)
    text = dumps(build())
    if args.check:
        if not OUT.exists() or OUT.read_text() != text:
            print(f"{OUT} is stale: run python scripts/gen_field.py", file=sys.stderr)
            return 1
        print(f"{OUT} is up to date")
        return 0
    OUT.write_text(text)
    print(f"wrote {OUT} ({len(build()['hexes'])} hexes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
