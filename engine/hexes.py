"""Hex maths for the Elfball field: pointy-top axial coordinates.

A hex is ``Hex(q, r)``. Rows (constant ``r``) run east-west, so every hex has a pure left (W)
and right (E) neighbour, which play-by-play #1 needs ("5 = the hex to the left"; G1).
Geometry is measured in *hex spacings*: neighbouring centres are 1 apart, a hex is 1 wide
flat-to-flat, ``y`` grows downwards (screen convention, so north is up on the picture).

Directions carry the D6 number printed on the board's compass (G14): clockwise from
1 = NE, so 5 = W, "the hex to the left". The six members are also the six facings.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from enum import IntEnum
from typing import NamedTuple

from .errors import MalformedInputError

__all__ = [
    "Direction",
    "Hex",
    "SQRT3",
    "HEX_CIRCUMRADIUS",
    "STRING_HALF_WIDTH",
    "distance",
    "line",
    "ray",
    "ring",
    "disc",
    "front_hexes",
    "rear_hexes",
    "is_in_front",
    "in_front_half_plane",
    "direction_between",
    "nearest_direction",
    "string_hexes",
    "segment_touches_hex",
]

SQRT3 = math.sqrt(3.0)
#: Centre-to-corner distance of a hex that is 1 wide flat-to-flat.
HEX_CIRCUMRADIUS = 1.0 / SQRT3
#: Half the passing string's width: 3/16" on a board whose hexes are about 1" across (F10).
STRING_HALF_WIDTH = 3.0 / 32.0
_EPS = 1e-9


class Direction(IntEnum):
    """A hex side, numbered as the board's D6 compass (clockwise from NE)."""

    NE = 1
    E = 2
    SE = 3
    SW = 4
    W = 5
    NW = 6

    @property
    def delta(self) -> tuple[int, int]:
        return _DELTAS[self]

    @property
    def vector(self) -> tuple[float, float]:
        """Unit vector (x right, y down) from a hex centre towards this neighbour."""
        dq, dr = _DELTAS[self]
        return (dq + dr / 2.0, dr * SQRT3 / 2.0)

    def clockwise(self, steps: int = 1) -> Direction:
        return Direction((self.value - 1 + steps) % 6 + 1)

    def counterclockwise(self, steps: int = 1) -> Direction:
        return self.clockwise(-steps)

    @property
    def opposite(self) -> Direction:
        return self.clockwise(3)

    @classmethod
    def parse(cls, text: str | int) -> Direction:
        """Accept a compass name (``NE``, ``e``), a D6 number (``1``–``6``) or a word (``east``)."""
        # 0-9 only: "²".isdigit() is true but int("²") fails, and "٣" is no D6 face a coach sees;
        # a long digit string is no face either (int() refuses 4,300 digits and more).
        word = text.strip() if isinstance(text, str) else ""
        digits = word.isascii() and word.isdigit()
        if isinstance(text, int) or digits:
            # int() of the stripped word: str.strip() takes off separators (\x1c-\x1f) int() keeps
            n = text if isinstance(text, int) else int(word) if len(word) <= 3 else 0
            if 1 <= n <= 6:
                return cls(n)
            raise MalformedInputError.of("direction.d6", text=repr(text))
        key = str(text).strip().upper().replace("-", "").replace(" ", "")
        key = _DIRECTION_WORDS.get(key, key)
        try:
            return cls[key]
        except KeyError:
            raise MalformedInputError.of("direction.unknown", text=repr(text)) from None


_DELTAS: dict[Direction, tuple[int, int]] = {
    Direction.NE: (1, -1),
    Direction.E: (1, 0),
    Direction.SE: (0, 1),
    Direction.SW: (-1, 1),
    Direction.W: (-1, 0),
    Direction.NW: (0, -1),
}
_BY_DELTA = {delta: d for d, delta in _DELTAS.items()}
_DIRECTION_WORDS = {
    "EAST": "E",
    "WEST": "W",
    "NORTHEAST": "NE",
    "NORTHWEST": "NW",
    "SOUTHEAST": "SE",
    "SOUTHWEST": "SW",
    "RIGHT": "E",
    "LEFT": "W",
}


class Hex(NamedTuple):
    """Axial coordinates of a hex (pointy-top). ``s = -q - r`` is the third cube axis."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def neighbour(self, direction: Direction) -> Hex:
        dq, dr = _DELTAS[direction]
        return Hex(self.q + dq, self.r + dr)

    def neighbours(self) -> tuple[Hex, ...]:
        return tuple(self.neighbour(d) for d in Direction)

    def center(self) -> tuple[float, float]:
        """Centre in hex spacings, x to the right, y downwards."""
        return (self.q + self.r / 2.0, self.r * SQRT3 / 2.0)

    def corners(self) -> tuple[tuple[float, float], ...]:
        """The six corners, clockwise from the top (pointy-top)."""
        cx, cy = self.center()
        return tuple(
            (
                cx + HEX_CIRCUMRADIUS * math.cos(math.radians(a)),
                cy + HEX_CIRCUMRADIUS * math.sin(math.radians(a)),
            )
            for a in (-90, -30, 30, 90, 150, 210)
        )

    def __repr__(self) -> str:
        return f"Hex({self.q}, {self.r})"


def distance(a: Hex, b: Hex) -> int:
    """Number of steps between two hexes (paces)."""
    return max(abs(a.q - b.q), abs(a.r - b.r), abs(a.s - b.s))


def direction_between(a: Hex, b: Hex) -> Direction | None:
    """The direction from ``a`` to an adjacent ``b``; ``None`` if they are not neighbours."""
    return _BY_DELTA.get((b.q - a.q, b.r - a.r))


def ray(start: Hex, direction: Direction, steps: int) -> list[Hex]:
    """The hexes met walking ``steps`` paces straight from ``start`` (start excluded).

    Scatter, white-line bounces and shoves all travel this way (G13).
    """
    out: list[Hex] = []
    h = start
    for _ in range(steps):
        h = h.neighbour(direction)
        out.append(h)
    return out


def ring(center: Hex, radius: int) -> list[Hex]:
    if radius == 0:
        return [center]
    out: list[Hex] = []
    h = Hex(center.q + Direction.SW.delta[0] * radius, center.r + Direction.SW.delta[1] * radius)
    # Walk the six sides; starting from the SW corner, side k heads in a fixed order.
    for d in (Direction.E, Direction.NE, Direction.NW, Direction.W, Direction.SW, Direction.SE):
        for _ in range(radius):
            out.append(h)
            h = h.neighbour(d)
    return out


def disc(center: Hex, radius: int) -> Iterator[Hex]:
    for q in range(-radius, radius + 1):
        for r in range(max(-radius, -q - radius), min(radius, -q + radius) + 1):
            yield Hex(center.q + q, center.r + r)


def _cube_round(fq: float, fr: float) -> Hex:
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))


def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes of a straight line from ``a`` to ``b`` inclusive (cube lerp, nudged off ties)."""
    n = distance(a, b)
    if n == 0:
        return [a]
    # A tiny nudge keeps points that fall exactly on an edge from rounding both ways.
    aq, ar = a.q + 1e-6, a.r + 1e-6
    bq, br = b.q + 1e-6, b.r + 1e-6
    return [_cube_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n) for i in range(n + 1)]


def front_hexes(h: Hex, facing: Direction) -> tuple[Hex, Hex, Hex]:
    """The hex faced and the one on each side of it (3 front hexes, G7)."""
    return (
        h.neighbour(facing.counterclockwise()),
        h.neighbour(facing),
        h.neighbour(facing.clockwise()),
    )


def rear_hexes(h: Hex, facing: Direction) -> tuple[Hex, Hex, Hex]:
    return front_hexes(h, facing.opposite)


def is_in_front(h: Hex, facing: Direction, other: Hex) -> bool:
    """True if ``other`` is one of the 3 front hexes of a player on ``h`` facing ``facing``."""
    d = direction_between(h, other)
    return d is not None and d in (facing, facing.clockwise(), facing.counterclockwise())


def in_front_half_plane(h: Hex, facing: Direction, target: Hex) -> bool:
    """A throw "in a direction matching his current facing" (G8).

    The line from the thrower's centre to the target's centre must leave through one of the
    3 front hexes, i.e. make at most 90 degrees with the facing (exactly 90 is allowed: the
    string then runs along the front/rear boundary and touches a front hex).
    """
    if target == h:
        return False
    hx, hy = h.center()
    tx, ty = target.center()
    fx, fy = facing.vector
    return (tx - hx) * fx + (ty - hy) * fy >= -_EPS


def nearest_direction(a: Hex, b: Hex) -> list[Direction]:
    """The direction(s) from ``a`` closest in bearing to ``b``: two when exactly between."""
    if a == b:
        return []
    ax, ay = a.center()
    bx, by = b.center()
    ang = math.atan2(by - ay, bx - ax)
    best: list[tuple[float, Direction]] = []
    for d in Direction:
        vx, vy = d.vector
        diff = abs((math.atan2(vy, vx) - ang + math.pi) % (2 * math.pi) - math.pi)
        best.append((diff, d))
    best.sort()
    if abs(best[0][0] - best[1][0]) < 1e-9:
        return [best[0][1], best[1][1]]
    return [best[0][1]]


def _point_segment_distance(
    px: float, py: float, ax: float, ay: float, bx: float, by: float
) -> float:
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    cx, cy = ax + t * dx, ay + t * dy
    return math.hypot(px - cx, py - cy)


def _segments_intersect(
    p1: tuple[float, float], p2: tuple[float, float], p3: tuple[float, float], p4: tuple[float, float]
) -> bool:
    def orient(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    # Proper crossings only; touching and collinear cases are left to the distance checks,
    # which measure them exactly instead of trusting the sign of a rounding error.
    d1, d2 = orient(p3, p4, p1), orient(p3, p4, p2)
    d3, d4 = orient(p1, p2, p3), orient(p1, p2, p4)
    return d1 * d2 < -_EPS and d3 * d4 < -_EPS


def _segment_polygon_distance(
    a: tuple[float, float], b: tuple[float, float], poly: tuple[tuple[float, float], ...]
) -> float:
    edges = list(zip(poly, poly[1:] + poly[:1]))
    if any(_segments_intersect(a, b, e0, e1) for e0, e1 in edges):
        return 0.0
    best = min(_point_segment_distance(*p, *a, *b) for p in poly)
    for e0, e1 in edges:
        best = min(best, _point_segment_distance(*a, *e0, *e1), _point_segment_distance(*b, *e0, *e1))
    return best


def segment_touches_hex(
    a: tuple[float, float], b: tuple[float, float], h: Hex, half_width: float = STRING_HALF_WIDTH
) -> bool:
    """Does a string of the given half-width, laid from point ``a`` to point ``b``, touch ``h``?

    Grazing an edge or a corner counts (G13). A point inside the hex is at distance 0 only
    when the segment crosses an edge, so a segment wholly inside is checked via its endpoints.
    """
    poly = h.corners()
    if _inside_hex(a, h) or _inside_hex(b, h):
        return True
    return _segment_polygon_distance(a, b, poly) <= half_width + _EPS


def _inside_hex(p: tuple[float, float], h: Hex) -> bool:
    cx, cy = h.center()
    dx, dy = p[0] - cx, p[1] - cy
    # Inside the pointy-top hexagon: within half a spacing of the centre along every side normal.
    for d in (Direction.E, Direction.NE, Direction.NW):
        vx, vy = d.vector
        if abs(dx * vx + dy * vy) > 0.5 + _EPS:
            return False
    return True


def string_hexes(
    a: Hex,
    b: Hex,
    *,
    half_width: float = STRING_HALF_WIDTH,
    include_ends: bool = False,
) -> list[Hex]:
    """The hexes the passing string touches when laid between the centres of ``a`` and ``b``.

    Used for interceptions (TH5): the thrower's and the landing hex are left out unless
    ``include_ends`` (Reach needs them). Ordered from ``a`` towards ``b``.
    """
    pa, pb = a.center(), b.center()
    # Every point of the segment lies in a hex of the lerped line or next to one, and a hex the
    # string only grazes is next to the hex holding the nearest point: two rings cover all.
    candidates = {c for h in (*line(a, b), *line(b, a)) for c in disc(h, 2)}
    seen: dict[Hex, float] = {}
    for c in candidates:
        if segment_touches_hex(pa, pb, c, half_width):
            cx, cy = c.center()
            seen[c] = round((cx - pa[0]) ** 2 + (cy - pa[1]) ** 2, 9)
    hexes = sorted(seen, key=lambda h: (seen[h], h.r, h.q))
    if not include_ends:
        hexes = [h for h in hexes if h not in (a, b)]
    return hexes
