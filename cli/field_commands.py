"""``elfball field``: the board as a text map, and what is printed on any hex."""

from __future__ import annotations

import argparse
import json

from service.reference import Direction, HexInfo, standard_field

LEGEND = """Legend: @ ball spot (centre)  | white centre line  # white outer line  G goal circle hex
        o yellow circle line  c face-off circle  g guardian circle  r rover circle  . open field
Coordinates: column letter A-U and row number 1-23 (K12 is the centre); odd-numbered rows
sit half a hex right of even-numbered ones. West defends goal B12, east defends goal T12.
D6 compass (fixed to the board): 1 NE, 2 E, 3 SE, 4 SW, 5 W (left), 6 NW."""


def describe_hex(info: HexInfo) -> str:
    parts = [info.label, f"axial ({info.hex.q}, {info.hex.r})"]
    parts.append(f"{info.half} half" if info.half else "on the centre line's axis")
    if info.ball_spot:
        parts.append("ball spot")
    if info.goal:
        parts.append(f"{info.goal} goal circle hex (white)")
    if info.edge_line:
        parts.append("outer white line")
    if info.centre_line:
        parts.append("white centre line")
    if info.circle:
        parts.append(f"{info.circle} circle {'line (yellow)' if info.rim else 'interior'}")
    return ", ".join(parts)


def _run(args: argparse.Namespace) -> int:
    field = standard_field()
    if args.hex:
        info = field.info(field.parse(args.hex))
        if args.json:
            print(json.dumps({"label": info.label, "q": info.hex.q, "r": info.hex.r, "half": info.half,
                              "edge_line": info.edge_line, "centre_line": info.centre_line,
                              "goal": info.goal, "circle": info.circle, "rim": info.rim,
                              "ball_spot": info.ball_spot}))
        else:
            print(describe_hex(info))
            names = ", ".join(f"{d.value} {d.name} {field.format(info.hex.neighbour(d))}" for d in Direction)
            print(f"neighbours: {names}")
        return 0
    if args.json:
        print(json.dumps({"hexes": len(field), "goals": {s: field.format(h) for s, h in field.goals.items()},
                          "ball_spot": field.format(field.ball_spot),
                          "stairways": {s: [field.format(st.anchor) for st in sts]
                                        for s, sts in field.stairways.items()}}))
        return 0
    print(field.ascii_map())
    print()
    print(LEGEND)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("field", help="show the field map, or describe one hex",
                       description="Show the Elfball field as a text map, or what is printed on one hex.")
    p.add_argument("--hex", metavar="COORD", help="describe one hex, e.g. K12")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=_run)
