"""Every mark a picture of the field uses, one function each, in pixels and hex spacings.

The board (``render.board``), the action view (``render.view``) and the legend
(``render.legend``) all draw a mark by calling the function here, so the legend shows exactly
what the pictures print and cannot go stale. Each function takes pixel positions and ``s``, the
pixels per hex spacing (neighbouring hex centres are ``s`` apart), and draws on an RGB
``ImageDraw`` or pastes a cached sprite onto the canvas.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine import HEX_CIRCUMRADIUS

from . import palette as C
from .layers import ball_sprite, counter_sprite, paste_centered, token_sprite

__all__ = [
    "Point",
    "hex_corners",
    "shorten",
    "arrow",
    "ring",
    "acting_hex",
    "reachable_hex",
    "target_mark",
    "intercept_hex",
    "move_trace",
    "throw_trace",
    "passing_string",
    "missed_target",
    "scatter_trace",
    "bounce_trace",
    "line_stop",
    "shove_arrow",
    "shove_blocked",
    "shove_origin",
    "replacement_trace",
    "token",
    "loose_ball",
    "carried_ball",
    "ball_beside_token",
    "last_moved_counter",
    "COUNTER_OFFSET",
]

Point = tuple[float, float]


# --- geometry --------------------------------------------------------------------------------------
def hex_corners(x: float, y: float, s: float, shrink: float = 1.0) -> list[Point]:
    """The six corners of the (pointy-top) hex centred on pixel ``x, y``."""
    r = HEX_CIRCUMRADIUS * s * shrink
    return [(x + r * math.cos(math.radians(a)), y + r * math.sin(math.radians(a))) for a in (-90, -30, 30, 90, 150, 210)]


def _dashes(pts: Sequence[Point], on: float, off: float) -> list[list[Point]]:
    """Split a polyline into dash polylines of length ``on`` separated by ``off``."""
    out: list[list[Point]] = []
    cur: list[Point] = [pts[0]]
    drawing, left = True, on
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        seg = math.hypot(x1 - x0, y1 - y0)
        pos = 0.0
        while seg - pos > left:
            pos += left
            t = pos / seg if seg else 0
            p = (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)
            if drawing:
                cur.append(p)
                out.append(cur)
            else:
                cur = [p]
            drawing = not drawing
            left = on if drawing else off
        left -= seg - pos
        if drawing:
            cur.append((x1, y1))
    if drawing and len(cur) > 1:
        out.append(cur)
    return out


def _line(d: ImageDraw.ImageDraw, pts: Sequence[Point], colour: C.RGB, width: float) -> None:
    if len(pts) > 1:
        d.line([tuple(p) for p in pts], fill=colour, width=max(1, round(width)), joint="curve")


def shorten(pts: Sequence[Point], start: float, end: float) -> list[Point]:
    """Pull the ends of a polyline in by ``start`` and ``end`` pixels (never past its middle)."""
    pts = list(pts)
    if len(pts) < 2:
        return pts
    (x0, y0), (x1, y1) = pts[0], pts[1]
    L = math.hypot(x1 - x0, y1 - y0)
    if L > 0 and start:
        k = min(start, L * 0.45) / L
        pts[0] = (x0 + (x1 - x0) * k, y0 + (y1 - y0) * k)
    (x0, y0), (x1, y1) = pts[-2], pts[-1]
    L = math.hypot(x1 - x0, y1 - y0)
    if L > 0 and end:
        k = min(end, L * 0.45) / L
        pts[-1] = (x1 - (x1 - x0) * k, y1 - (y1 - y0) * k)
    return pts


def arrow(d: ImageDraw.ImageDraw, pts: Sequence[Point], colour: C.RGB, casing: C.RGB, width: float, head: float,
          dash: tuple[float, float] | None = None) -> None:
    """A cased polyline (solid or dashed) ending in a cased arrowhead at ``pts[-1]``."""
    pts = list(pts)
    if len(pts) < 2:
        return
    (x0, y0), (x1, y1) = pts[-2], pts[-1]
    L = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / L, (y1 - y0) / L
    body = pts[:-1] + [(x1 - ux * head * 0.6, y1 - uy * head * 0.6)]
    cw = width + max(2, width * 0.8)
    pieces = _dashes(body, *dash) if dash else [body]
    for piece in pieces:
        _line(d, piece, casing, cw)
    for piece in pieces:
        _line(d, piece, colour, width)
    bx, by = x1 - ux * head, y1 - uy * head
    hw = head * 0.62
    tri = [(x1, y1), (bx - uy * hw, by + ux * hw), (bx + uy * hw, by - ux * hw)]
    k = (cw - width) / 2
    tri_c = [(x1 + ux * k * 1.6, y1 + uy * k * 1.6), (bx - uy * (hw + k) - ux * k, by + ux * (hw + k) - uy * k),
             (bx + uy * (hw + k) - ux * k, by - ux * (hw + k) - uy * k)]
    d.polygon(tri_c, fill=casing)
    d.polygon(tri, fill=colour)


def ring(d: ImageDraw.ImageDraw, x: float, y: float, r: float, colour: C.RGB, width: float, casing: C.RGB | None = None) -> None:
    if casing is not None:
        cw = width + max(2, width * 0.8)
        d.ellipse((x - r, y - r, x + r, y + r), outline=casing, width=max(1, round(cw)))
        k = (cw - width) / 2
        d.ellipse((x - r + k, y - r + k, x + r - k, y + r - k), outline=colour, width=max(1, round(width)))
    else:
        d.ellipse((x - r, y - r, x + r, y + r), outline=colour, width=max(1, round(width)))


# --- hexes -----------------------------------------------------------------------------------------
def acting_hex(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    """The acting player's hex: filled bright cyan, with a white ring inside its edge."""
    d.polygon(hex_corners(x, y, s), fill=C.ACTING)
    d.polygon(hex_corners(x, y, s, 0.9), outline=C.ACTING_RING, width=max(2, round(s * 0.08)))


def reachable_hex(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    """A hex the acting player can walk to with the Jog he has left: a pale fill inside a
    dashed-looking white edge, lighter than open pitch even in greyscale."""
    d.polygon(hex_corners(x, y, s, 0.97), fill=C.REACH)
    d.polygon(hex_corners(x, y, s, 0.86), outline=C.REACH_EDGE, width=max(1, round(s * 0.035)))


def target_mark(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    """A legal target (tackle, shove, throw): four red-orange corner brackets around the hex,
    drawn over the token so the token stays readable."""
    w = max(2, round(s * 0.075))
    cw = w + max(2, round(w * 0.8))
    r = 0.46 * s
    arm = 0.18 * s
    for sx in (-1, 1):
        for sy in (-1, 1):
            cx, cy = x + sx * r, y + sy * r
            pts = [(cx, cy - sy * arm), (cx, cy), (cx - sx * arm, cy)]
            d.line(pts, fill=C.CASING, width=cw, joint="curve")
    for sx in (-1, 1):
        for sy in (-1, 1):
            cx, cy = x + sx * r, y + sy * r
            pts = [(cx, cy - sy * arm), (cx, cy), (cx - sx * arm, cy)]
            d.line(pts, fill=C.TARGET, width=w, joint="curve")


def intercept_hex(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    """A hex the passing string touches: a standing opponent there may intercept (drawn over
    the tokens, so the outline rings a player who stands there)."""
    poly = hex_corners(x, y, s, 0.95)
    d.polygon(poly, outline=C.CASING, width=max(2, round(s * 0.11)))
    d.polygon(poly, outline=C.INTERCEPT, width=max(1, round(s * 0.06)))


# --- what just happened ----------------------------------------------------------------------------
def move_trace(d: ImageDraw.ImageDraw, pts: Sequence[Point], s: float, *, start_free: bool, end_gap: float,
               token_gap: float) -> None:
    """A player's path: a ring where he started (when nobody stands there now), a dot on every
    hex stepped through, a white arrow to where he stopped."""
    x, y = pts[0]
    if start_free:
        ring(d, x, y, 0.2 * s, C.MOVE, 0.06 * s, C.CASING)
    for px, py in pts[1:-1]:
        d.ellipse((px - 0.07 * s, py - 0.07 * s, px + 0.07 * s, py + 0.07 * s), fill=C.MOVE, outline=C.CASING)
    arrow(d, shorten(pts, 0.22 * s if start_free else token_gap, end_gap), C.MOVE, C.CASING, 0.09 * s, 0.34 * s)


def throw_trace(d: ImageDraw.ImageDraw, a: Point, b: Point, s: float, start_gap: float, end_gap: float) -> None:
    """The ball's flight: a dashed orange arrow."""
    arrow(d, shorten([a, b], start_gap, end_gap), C.THROW, C.CASING, 0.1 * s, 0.36 * s, dash=(0.34 * s, 0.16 * s))


def passing_string(d: ImageDraw.ImageDraw, a: Point, b: Point, s: float) -> None:
    """A throw the acting player can make: a thin dotted orange line to the team-mate, the
    passing string whose hexes an opponent could intercept from."""
    pts = shorten([a, b], 0.45 * s, 0.45 * s)
    for piece in _dashes(pts, 0.1 * s, 0.12 * s):
        _line(d, piece, C.CASING, 0.09 * s)
    for piece in _dashes(pts, 0.1 * s, 0.12 * s):
        _line(d, piece, C.THROW, 0.05 * s)


def missed_target(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    """Where a throw was aimed when it missed: an orange crosshair."""
    ring(d, x, y, 0.28 * s, C.THROW, 0.06 * s, C.CASING)
    d.line((x - 0.16 * s, y, x + 0.16 * s, y), fill=C.THROW, width=max(1, round(0.05 * s)))
    d.line((x, y - 0.16 * s, x, y + 0.16 * s), fill=C.THROW, width=max(1, round(0.05 * s)))


def scatter_trace(d: ImageDraw.ImageDraw, a: Point, b: Point, s: float, end_gap: float) -> None:
    """A scatter (one pace): a dotted pink arrow."""
    arrow(d, shorten([a, b], 0.18 * s, end_gap), C.BOUNCE, C.CASING, 0.08 * s, 0.3 * s, dash=(0.13 * s, 0.1 * s))


def bounce_trace(d: ImageDraw.ImageDraw, a: Point, b: Point, s: float, end_gap: float) -> None:
    """A white-line bounce (D6 paces): a dashed pink arrow."""
    arrow(d, shorten([a, b], 0.18 * s, end_gap), C.BOUNCE, C.CASING, 0.08 * s, 0.3 * s, dash=(0.26 * s, 0.13 * s))


def line_stop(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    """Where the outer white line stopped the ball: a pink ring."""
    ring(d, x, y, 0.3 * s, C.BOUNCE, 0.06 * s, C.CASING)


def shove_arrow(d: ImageDraw.ImageDraw, a: Point, b: Point, s: float) -> None:
    """A shove: a heavy red arrow, white-cased, from where the pushed player stood to his token."""
    arrow(d, shorten([a, b], 0.0, 0.4 * s), C.SHOVE, C.SHOVE_CASING, 0.13 * s, 0.3 * s)


def shove_blocked(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    """A shove that could not push (the hex behind was taken): a red ring around him."""
    ring(d, x, y, 0.52 * s, C.SHOVE, 0.08 * s, C.SHOVE_CASING)


def shove_origin(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    """Where a pushed player stood, when nobody stands there now: a small red ring."""
    ring(d, x, y, 0.3 * s, C.SHOVE, 0.07 * s, C.SHOVE_CASING)


def replacement_trace(d: ImageDraw.ImageDraw, a: Point, b: Point, s: float, token_gap: float) -> None:
    """A Replacement's way in from the stairway: a dashed white arrow."""
    arrow(d, shorten([a, b], 0.3 * s, token_gap), C.MOVE, C.CASING, 0.07 * s, 0.3 * s, dash=(0.16 * s, 0.12 * s))


# --- tokens and the ball ---------------------------------------------------------------------------
def token(canvas: Image.Image, x: float, y: float, s: float, side: str, fill: C.RGB, status: str,
          facing: int | None, number: str, initial: str) -> None:
    """A player's token (see ``layers.token_sprite``: disc or square, standing or lying)."""
    paste_centered(canvas, token_sprite(s, side, fill, status, facing, number, initial), x, y)


def loose_ball(canvas: Image.Image, x: float, y: float, s: float) -> None:
    """The ball on the ground, alone in its hex."""
    paste_centered(canvas, ball_sprite(s), x, y)


def carried_ball(canvas: Image.Image, x: float, y: float, s: float) -> None:
    """The ball held by the player at ``x, y``: on the token's lower edge (never where a
    facing pointer goes)."""
    paste_centered(canvas, ball_sprite(s), x, y + 0.5 * s)


def ball_beside_token(canvas: Image.Image, x: float, y: float, s: float) -> None:
    """The ball loose in an occupied hex (only while a throw or catch waits on a decision)."""
    paste_centered(canvas, ball_sprite(s), x + 0.43 * s, y - 0.25 * s)


#: Where the yellow counter sits from the hex centre, in spacings, by whether the token stands:
#: on a standing token's top edge; on a lying one's upper right (his stars take the top).
COUNTER_OFFSET = {True: (0.0, -0.47), False: (0.34, -0.22)}


def last_moved_counter(canvas: Image.Image, x: float, y: float, s: float, standing: bool) -> None:
    """The small yellow dot: the counter on the last player each team moved."""
    dx, dy = COUNTER_OFFSET[standing]
    paste_centered(canvas, counter_sprite(s, C.LAST_MOVED), x + dx * s, y + dy * s)
