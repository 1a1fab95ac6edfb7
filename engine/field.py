"""The Elfball field as data: every hex with its flags, coordinates coaches can type.

Loaded once from ``engine/data/field.json`` (made by ``scripts/gen_field.py``; see
``docs/field.md`` for why each circle and line is where it is). Sides are ``"west"`` and
``"east"``: a team's side is the half holding the goal it defends (F5).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

from .errors import InvalidCoordinateError, OffFieldError
from .hexes import Direction, Hex, distance

__all__ = ["Side", "HexInfo", "Stairway", "Field", "standard_field", "other_side"]

Side = Literal["west", "east"]
SIDES: tuple[Side, Side] = ("west", "east")

_COORD = re.compile(r"^\s*([A-Za-z])\s*-?\s*([0-9]{1,2})\s*$", re.ASCII)  # "K١٢" is not K12


def other_side(side: Side) -> Side:
    return "east" if side == "west" else "west"


@dataclass(frozen=True, slots=True)
class HexInfo:
    """Everything printed on one hex of the board."""

    hex: Hex
    label: str
    half: Side | None  # None for the hexes the centre line runs through the middle of
    edge_line: bool  # the outer white line (F3a)
    centre_line: bool  # the white centre line (F3b)
    goal: Side | None  # which side's goal circle hex this is (the goal that side defends)
    circle: str | None  # centre / guardian-<side> / rover-<side>-<north|south>
    rim: bool  # the circle's yellow line crosses this hex
    ball_spot: bool  # the yellow dot the ball starts on

    @property
    def white_line(self) -> bool:
        """A ball stops on entering any white-line hex: outer line, centre line, goal (B5)."""
        return self.edge_line or self.centre_line or self.goal is not None

    @property
    def any_line(self) -> bool:
        """Set-up may not use a hex any white or yellow line runs through (S5-S7)."""
        return self.white_line or self.rim

    @property
    def circle_interior(self) -> str | None:
        return self.circle if self.circle and not self.rim else None


@dataclass(frozen=True, slots=True)
class Stairway:
    side: Side
    anchor: Hex
    entry: frozenset[Hex]  # empty, line-free hexes within 3 of the anchor (R1, G6)


class Field:
    """The board: hex lookup, flags, zones and typed coordinates."""

    def __init__(self, data: dict) -> None:
        self.columns: str = data["columns"]
        self.row_offset: int = data["row_offset"]
        self.row_count: int = 2 * self.row_offset - 1
        self.radius: float = data["radius"]
        self.replacement_range: int = data["replacement_range"]
        self.compass = {Direction(int(k)): v for k, v in data["compass"].items()}
        self._info: dict[Hex, HexInfo] = {}
        for rec in data["hexes"]:
            h = Hex(rec["q"], rec["r"])
            self._info[h] = HexInfo(
                hex=h,
                label=rec["label"],
                half=rec["half"],
                edge_line=rec["edge_line"],
                centre_line=rec["centre_line"],
                goal=rec["goal"],
                circle=rec["circle"],
                rim=rec["rim"],
                ball_spot=rec["ball_spot"],
            )
        self.hexes: tuple[Hex, ...] = tuple(self._info)
        self.circles: tuple[dict, ...] = tuple(data["circles"])
        self.goals: dict[Side, Hex] = {s: self._parse_on_field(lbl) for s, lbl in data["goals"].items()}
        self.ball_spot: Hex = next(h for h, i in self._info.items() if i.ball_spot)
        self.stairways: dict[Side, tuple[Stairway, ...]] = {
            side: tuple(
                Stairway(
                    side=side,
                    anchor=self._parse_on_field(st["anchor"]),
                    entry=frozenset(self._parse_on_field(e) for e in st["entry"]),
                )
                for st in stairs
            )
            for side, stairs in data["stairways"].items()
        }
        self._setup_cache: dict[tuple[str, str], list[Hex]] = {}
        self._replacement_cache: dict[str, frozenset[Hex]] = {}
        self._rows: dict[int, list[Hex]] = {}
        for h in self.hexes:
            self._rows.setdefault(h.r, []).append(h)

    # -- lookup ---------------------------------------------------------------------------
    def __contains__(self, h: object) -> bool:
        return h in self._info

    def __len__(self) -> int:
        return len(self._info)

    def info(self, h: Hex) -> HexInfo:
        try:
            return self._info[h]
        except KeyError:
            raise OffFieldError.of("hex.off_field", hex=self.format(h)) from None

    def get(self, h: Hex) -> HexInfo | None:
        return self._info.get(h)

    # -- coordinates ----------------------------------------------------------------------
    def format(self, h: Hex) -> str:
        """``K12`` style label; hexes off the field still get one where it fits the grid."""
        info = self._info.get(h)
        if info:
            return info.label
        col = h.q + (h.r >> 1) + 10
        row = h.r + self.row_offset
        if 0 <= col < len(self.columns) and 1 <= row <= self.row_count:
            return f"{self.columns[col]}{row}"
        return f"({h.q},{h.r})"

    def parse(self, text: str) -> Hex:
        """Read a coordinate a coach typed (``K12``, ``k 12``, ``K-12``).

        Raises ``InvalidCoordinateError`` when it is not a coordinate at all and
        ``OffFieldError`` when it names a hex outside the round field, saying which hexes
        that row does have.
        """
        m = _COORD.match(text) if isinstance(text, str) else None
        if not m:
            raise InvalidCoordinateError.of("hex.not_a_hex", text=repr(text), n=self.row_count)
        col = self.columns.find(m.group(1).upper())
        row = int(m.group(2))
        if col < 0 or not 1 <= row <= self.row_count:
            raise OffFieldError.of("hex.off_grid", text=text.strip().upper(), n=self.row_count)
        r = row - self.row_offset
        h = Hex(col - 10 - (r >> 1), r)
        if h not in self._info:
            row_hexes = self._rows[r]
            raise OffFieldError.of("hex.off_row", text=text.strip().upper(), n=row, hex=self._info[row_hexes[0]].label,
                                   hex2=self._info[row_hexes[-1]].label)
        return h

    def _parse_on_field(self, label: str) -> Hex:
        return self.parse(label)

    # -- zones ----------------------------------------------------------------------------
    def side_of(self, h: Hex) -> Side | None:
        return self.info(h).half

    def circle_hexes(self, name: str, *, interior_only: bool = True) -> list[Hex]:
        return [
            h
            for h, i in self._info.items()
            if i.circle == name and (not interior_only or not i.rim)
        ]

    def setup_hexes(self, side: Side, zone: str) -> list[Hex]:
        key = (side, zone)
        if key not in self._setup_cache:
            self._setup_cache[key] = self._setup_hexes(side, zone)
        return list(self._setup_cache[key])

    def _setup_hexes(self, side: Side, zone: str) -> list[Hex]:
        """Hexes a player may be set up on: inside ``zone``'s circle, on ``side``'s half, off every line.

        ``zone`` is ``"faceoff"``, ``"guardian"`` or ``"rover-north"`` / ``"rover-south"``.
        Face-off hexes must also have the ball spot among their front hexes, i.e. be adjacent
        to it (S5).
        """
        if zone == "faceoff":
            return [
                h
                for h in self.circle_hexes("centre")
                if not self._info[h].any_line
                and self._info[h].half == side
                and distance(h, self.ball_spot) == 1
            ]
        name = {"guardian": f"guardian-{side}"}.get(zone, f"{zone[:5]}-{side}-{zone[6:]}")
        return [h for h in self.circle_hexes(name) if not self._info[h].any_line and self._info[h].half == side]

    def replacement_hexes(self, side: Side) -> frozenset[Hex]:
        """Where a Bench player may come on (before checking the hexes are empty; R1)."""
        if side not in self._replacement_cache:
            self._replacement_cache[side] = frozenset().union(*(st.entry for st in self.stairways[side]))
        return self._replacement_cache[side]

    def row(self, r: int) -> list[Hex]:
        return list(self._rows.get(r, []))

    def rows(self) -> list[int]:
        return sorted(self._rows)

    # -- a plain-text map -----------------------------------------------------------------
    def ascii_map(self) -> str:
        """The field as text, one glyph per hex, odd rows shifted half a hex (docs/field.md)."""
        lines = ["     " + " ".join(self.columns)]
        for r in self.rows():
            shift = " " if r & 1 else ""
            cells = []
            for col in range(len(self.columns)):
                h = Hex(col - 10 - (r >> 1), r)
                cells.append(_glyph(self._info[h]) if h in self._info else " ")
            lines.append(f"{r + self.row_offset:>3}  {shift}{' '.join(cells)}".rstrip())
        return "\n".join(lines)


def _glyph(i: HexInfo) -> str:
    if i.ball_spot:
        return "@"
    if i.goal:
        return "G"
    if i.edge_line:
        return "#"
    if i.centre_line:
        return "|"
    if i.circle:
        kind = i.circle.split("-")[0]
        if i.rim:
            return "o"
        return {"centre": "c", "guardian": "g", "rover": "r"}[kind]
    return "."


@cache
def standard_field() -> Field:
    """The standard field, parsed once per process."""
    text = resources.files("engine").joinpath("data/field.json").read_text(encoding="utf-8")
    return Field(json.loads(text))
