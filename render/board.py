"""The board picture: the cached field, what just happened, the players and the ball, the panels.

``render_board(state, events=...)`` returns PNG bytes; ``board_image`` the picture itself (a
255-colour ``P`` image) for callers that compose frames (``render.replay``). Drawing order:
the cached field, the acting player's hex, the last action's traces (movement paths, the
throw, scatters and bounces, where a pushed player stood), the loose ball, the tokens with the
carried ball, the hexes that could have intercepted a throw and the shove arrows (over the
tokens), the yellow last-moved counters, then the panels.

Speed: the field is drawn once per width (``render.layers``); a board copies it, draws a few
sprites and words (cached too), maps the pixels onto a fixed palette (no adaptive quantiser)
and writes a PNG whose unchanged bands of field reuse bytes compressed once.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.events import Event
from engine.field import Field, standard_field
from engine.hexes import Hex, distance
from engine.state import MatchState

from . import palette as C
from .describe import as_events, initials
from .layers import (
    Geometry,
    PngReference,
    ball_sprite,
    counter_sprite,
    encode_png,
    field_layer,
    geometry,
    paste_centered,
    png_reference,
    token_sprite,
)
from .panels import draw_footer, draw_header

__all__ = ["render_board", "board_image", "board_rgb", "DEFAULT_WIDTH", "MIN_WIDTH", "MAX_WIDTH", "PNG_COMPRESS_LEVEL"]

DEFAULT_WIDTH = 1000
MIN_WIDTH = 300
MAX_WIDTH = 4000
#: zlib level for the PNG: 256 colours at a moderate level keeps boards small and fast
#: (``optimize=True`` or level 9 cost several times more for a few per cent).
PNG_COMPRESS_LEVEL = 6


# --- small drawing helpers -------------------------------------------------------------------------
Point = tuple[float, float]


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


def _shorten(pts: list[Point], start: float, end: float) -> list[Point]:
    """Pull the ends of a polyline in by ``start`` and ``end`` pixels (never past its middle)."""
    if len(pts) < 2:
        return pts
    pts = list(pts)
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


def _arrow(
    d: ImageDraw.ImageDraw,
    pts: list[Point],
    colour: C.RGB,
    casing: C.RGB,
    width: float,
    head: float,
    dash: tuple[float, float] | None = None,
) -> None:
    """A cased polyline (solid or dashed) ending in a cased arrowhead at ``pts[-1]``."""
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


def _ring(d: ImageDraw.ImageDraw, x: float, y: float, r: float, colour: C.RGB, width: float, casing: C.RGB | None = None) -> None:
    if casing is not None:
        cw = width + max(2, width * 0.8)
        d.ellipse((x - r, y - r, x + r, y + r), outline=casing, width=max(1, round(cw)))
        d.ellipse((x - r + (cw - width) / 2, y - r + (cw - width) / 2, x + r - (cw - width) / 2, y + r - (cw - width) / 2),
                  outline=colour, width=max(1, round(width)))
    else:
        d.ellipse((x - r, y - r, x + r, y + r), outline=colour, width=max(1, round(width)))


# --- what just happened ------------------------------------------------------------------------------
def _hex_before(events: Sequence[Event], i: int, pid: str, board: MatchState) -> Hex | None:
    """Where player ``pid`` stood when event ``i`` happened (walking the later moves back)."""
    for ev in events[i + 1:]:
        if ev.kind in ("player_moved", "player_shoved") and ev.player == pid:  # type: ignore[attr-defined]
            return ev.origin  # type: ignore[attr-defined,no-any-return]
    p = board.players.get(pid)
    if p is not None and p.hex is not None:
        return p.hex
    for ev in reversed(events[:i]):
        if ev.kind in ("player_moved", "player_shoved") and ev.player == pid and ev.to is not None:  # type: ignore[attr-defined]
            return ev.to  # type: ignore[attr-defined,no-any-return]
        if ev.kind in ("replacement_made", "player_placed") and ev.player == pid:  # type: ignore[attr-defined]
            return ev.hex  # type: ignore[attr-defined,no-any-return]
    return None


def _throw_points(events: Sequence[Event], i: int, origin: Hex) -> list[Hex]:
    """The ball's whole flight for the passing string: thrower, flight end, white-line bounces."""
    ev = events[i]
    pts = [origin, ev.lands]  # type: ignore[attr-defined]
    for later in events[i + 1:]:
        if later.kind == "ball_bounced":
            pts.append(later.to)  # type: ignore[attr-defined]
        elif later.kind != "ball_stopped_by_line":
            break
    return pts


def _throws(events: Sequence[Event], board: MatchState) -> list[tuple[Hex, Hex, Hex, list[Hex]]]:
    """Each throw: the thrower's hex, the target, where the flight ended, the whole flight."""
    out = []
    for i, ev in enumerate(events):
        if ev.kind == "ball_thrown":
            origin = _hex_before(events, i, ev.thrower, board)  # type: ignore[attr-defined]
            if origin is not None:
                out.append((origin, ev.target, ev.lands, _throw_points(events, i, origin)))  # type: ignore[attr-defined]
    return out


def _draw_interception_hexes(d: ImageDraw.ImageDraw, g: Geometry, board: MatchState, events: Sequence[Event],
                             fld: Field) -> None:
    """Outline the hexes the passing string touched: an opponent standing there could intercept
    (drawn over the tokens, so the outline rings a player who stands there)."""
    from engine.challenges.intercept import touched_hexes

    s = g.s
    for _, _, _, pts in _throws(events, board):
        for h in touched_hexes(pts):
            if h in fld:
                poly = g.hex_polygon(h, 0.95)
                d.polygon(poly, outline=C.CASING, width=max(2, round(s * 0.11)))
                d.polygon(poly, outline=C.INTERCEPT, width=max(1, round(s * 0.06)))


def _draw_shoves(d: ImageDraw.ImageDraw, g: Geometry, board: MatchState, events: Sequence[Event]) -> None:
    """A heavy red arrow, white-cased, from where the pushed player stood to his token; a red
    ring when the hex behind him was taken and he stayed."""
    s = g.s
    for ev in events:
        if ev.kind != "player_shoved":
            continue
        a = g.hex_px(ev.origin)  # type: ignore[attr-defined]
        if ev.to is not None and ev.to != ev.origin:  # type: ignore[attr-defined]
            b = g.hex_px(ev.to)  # type: ignore[attr-defined]
            _arrow(d, _shorten([a, b], 0.0, 0.4 * s), C.SHOVE, C.SHOVE_CASING, 0.13 * s, 0.3 * s)
        else:
            x, y = a
            _ring(d, x, y, 0.52 * s, C.SHOVE, 0.08 * s, C.SHOVE_CASING)


def _draw_events(d: ImageDraw.ImageDraw, g: Geometry, board: MatchState, events: Sequence[Event], fld: Field) -> None:
    """The traces drawn under the tokens: movement paths (white, a ring where the mover started),
    the throw (dashed orange; a crosshair on the target when it missed), scatters (dotted pink)
    and white-line bounces (dashed pink, a ring where the line stopped the ball), where a pushed
    player stood, and replacements' way in from the stairway."""
    s = g.s
    occupied = {p.hex for p in board.players.values() if p.on_field and p.hex is not None}
    token_gap = 0.5 * s

    def end_gap(h: Hex) -> float:
        return token_gap if h in occupied else 0.2 * s

    # movement: chain each player's steps into paths
    paths: list[tuple[str, list[Hex]]] = []
    open_path: dict[str, list[Hex]] = {}
    for ev in events:
        if ev.kind == "player_moved":
            pid, a, b = ev.player, ev.origin, ev.to  # type: ignore[attr-defined]
            cur = open_path.get(pid)
            if cur is not None and cur[-1] == a:
                cur.append(b)
            else:
                cur = [a, b]
                open_path[pid] = cur
                paths.append((pid, cur))
    throws = _throws(events, board)

    # 1. where each mover started, and his path
    for pid, hexes in paths:
        pts = [g.hex_px(h) for h in hexes]
        x, y = pts[0]
        if hexes[0] not in occupied:
            _ring(d, x, y, 0.2 * s, C.MOVE, 0.06 * s, C.CASING)
        for px, py in pts[1:-1]:  # a dot on every hex stepped through
            d.ellipse((px - 0.07 * s, py - 0.07 * s, px + 0.07 * s, py + 0.07 * s), fill=C.MOVE, outline=C.CASING)
        _arrow(d, _shorten(pts, 0.22 * s if hexes[0] not in occupied else token_gap, end_gap(hexes[-1])),
               C.MOVE, C.CASING, 0.09 * s, 0.34 * s)
    # 2. the throw: aimed line to the target when it missed, the flight to where it came down
    for origin, target, lands, pts in throws:
        a, b = g.hex_px(origin), g.hex_px(lands)
        if target != lands:
            tx, ty = g.hex_px(target)
            _ring(d, tx, ty, 0.28 * s, C.THROW, 0.06 * s, C.CASING)
            d.line((tx - 0.16 * s, ty, tx + 0.16 * s, ty), fill=C.THROW, width=max(1, round(0.05 * s)))
            d.line((tx, ty - 0.16 * s, tx, ty + 0.16 * s), fill=C.THROW, width=max(1, round(0.05 * s)))
        if origin != lands:
            _arrow(d, _shorten([a, b], token_gap, end_gap(lands)), C.THROW, C.CASING, 0.1 * s, 0.36 * s,
                   dash=(0.34 * s, 0.16 * s))
    # 3. the loose ball: scatters (one pace) and white-line bounces (D6 paces)
    for ev in events:
        if ev.kind in ("ball_scattered", "ball_bounced"):
            a, b = g.hex_px(ev.origin), g.hex_px(ev.to)  # type: ignore[attr-defined]
            if ev.origin == ev.to:  # type: ignore[attr-defined]
                continue
            dash = (0.13 * s, 0.1 * s) if ev.kind == "ball_scattered" else (0.26 * s, 0.13 * s)
            _arrow(d, _shorten([a, b], 0.18 * s, end_gap(ev.to)), C.BOUNCE, C.CASING, 0.08 * s, 0.3 * s, dash=dash)  # type: ignore[attr-defined]
        elif ev.kind == "ball_stopped_by_line":
            x, y = g.hex_px(ev.hex)  # type: ignore[attr-defined]
            _ring(d, x, y, 0.3 * s, C.BOUNCE, 0.06 * s, C.CASING)
    # 4. shoves: where the pushed player stood (drawn here); the arrow goes over the tokens
    for ev in events:
        if ev.kind == "player_shoved" and ev.to is not None and ev.origin not in occupied:  # type: ignore[attr-defined]
            x, y = g.hex_px(ev.origin)  # type: ignore[attr-defined]
            _ring(d, x, y, 0.3 * s, C.SHOVE, 0.07 * s, C.SHOVE_CASING)
    # 5. replacements come on from the nearest stairway
    for ev in events:
        if ev.kind == "replacement_made":
            p = board.players.get(ev.player)  # type: ignore[attr-defined]
            if p is None:
                continue
            stairs = fld.stairways.get(p.side, ())  # type: ignore[call-overload]
            if not stairs:
                continue
            anchor = min((st.anchor for st in stairs), key=lambda h: (distance(h, ev.hex), h))  # type: ignore[attr-defined]
            _arrow(d, _shorten([g.hex_px(anchor), g.hex_px(ev.hex)], 0.3 * s, token_gap), C.MOVE, C.CASING,  # type: ignore[attr-defined]
                   0.07 * s, 0.3 * s, dash=(0.16 * s, 0.12 * s))


# --- the whole picture -------------------------------------------------------------------------------
def _check_width(width: int) -> int:
    if not isinstance(width, int) or not MIN_WIDTH <= width <= MAX_WIDTH:
        raise ValueError(f"width {width!r}: give a whole number of pixels from {MIN_WIDTH} to {MAX_WIDTH}")
    return width


def board_rgb(
    state: MatchState,
    *,
    events: Iterable[Event | Mapping[str, Any]] = (),
    view: MatchState | None = None,
    width: int = DEFAULT_WIDTH,
    hex_labels: bool = False,
    language: str = "en",
) -> Image.Image:
    """The board as an RGB image (before the palette); see :func:`render_board`."""
    g = geometry(_check_width(width))
    fld = standard_field()
    board = view or state
    evs = as_events(events)
    layer = field_layer(width, hex_labels)
    canvas = layer.image.copy()
    d = ImageDraw.Draw(canvas)
    s = g.s
    fills = C.team_fills(state.teams["west"].colours, state.teams["east"].colours)

    acting = board.action.player if board.action is not None else None
    actor = board.players.get(acting) if acting else None
    if actor is not None and actor.on_field and actor.hex is not None:
        d.polygon(g.hex_polygon(actor.hex, 1.0), fill=C.ACTING)
        d.polygon(g.hex_polygon(actor.hex, 0.9), outline=C.ACTING_RING, width=max(2, round(s * 0.08)))

    _draw_events(d, g, board, evs, fld)

    on_field = sorted(
        (p for p in board.players.values() if p.on_field and p.hex is not None),
        key=lambda p: (p.hex.r, p.hex.q, p.id),  # type: ignore[union-attr]
    )
    inits = {**initials(board, "west"), **initials(board, "east")}
    ball = ball_sprite(s)
    loose = board.ball.hex if board.ball.carrier is None else None
    occupied = {p.hex for p in on_field}
    if loose is not None and loose not in occupied:
        x, y = g.hex_px(loose)
        paste_centered(canvas, ball, x, y)
    for p in on_field:
        x, y = g.hex_px(p.hex)  # type: ignore[arg-type]
        sprite = token_sprite(s, p.side, fills[p.side], p.status.value,
                              int(p.facing) if p.facing is not None else None, str(p.number), inits.get(p.id, "?"))
        paste_centered(canvas, sprite, x, y)
        if board.ball.carrier == p.id:
            # carried: the ball sits on the token's lower edge (never where a facing pointer goes)
            paste_centered(canvas, ball, x, y + 0.5 * s)
        elif p.hex == loose:
            # loose in an occupied hex (only while a throw or catch waits on a decision)
            paste_centered(canvas, ball, x + 0.43 * s, y - 0.25 * s)
    _draw_interception_hexes(d, g, board, evs, fld)
    _draw_shoves(d, g, board, evs)
    counter = counter_sprite(s, C.LAST_MOVED)
    for side in ("west", "east"):
        pid = board.last_moved.get(side)
        p = board.players.get(pid) if pid else None
        if p is not None and p.on_field and p.hex is not None:
            x, y = g.hex_px(p.hex)
            up = 0.47 if p.status.value == "standing" else 0.34
            paste_centered(canvas, counter, x, y - up * s)

    draw_header(canvas, g, state, fills, language)
    draw_footer(canvas, g, board, fills, language)
    return canvas


def board_image(
    state: MatchState,
    *,
    events: Iterable[Event | Mapping[str, Any]] = (),
    view: MatchState | None = None,
    width: int = DEFAULT_WIDTH,
    hex_labels: bool = False,
    language: str = "en",
) -> Image.Image:
    """The board as a 256-colour ``P`` image (the palette is fixed per width and team colours)."""
    rgb = board_rgb(state, events=events, view=view, width=width, hex_labels=hex_labels, language=language)
    return to_palette(rgb, state, width, hex_labels)


def _team_key(state: MatchState) -> tuple[C.RGB, C.RGB]:
    fills = C.team_fills(state.teams["west"].colours, state.teams["east"].colours)
    return (fills["west"], fills["east"])


def _palette_for(state: MatchState, width: int, hex_labels: bool) -> Image.Image:
    return C.build_palette(field_layer(width, hex_labels).colours, _team_key(state))


def to_palette(rgb: Image.Image, state: MatchState, width: int, hex_labels: bool = False) -> Image.Image:
    return rgb.quantize(palette=_palette_for(state, width, hex_labels), dither=Image.Dither.NONE)


@lru_cache(maxsize=16)
def _reference(width: int, hex_labels: bool, teams: tuple[C.RGB, C.RGB]) -> PngReference:
    """The bare field in this palette, banded and compressed once: boards reuse its bands."""
    palette = C.build_palette(field_layer(width, hex_labels).colours, teams)
    bare = field_layer(width, hex_labels).image.quantize(palette=palette, dither=Image.Dither.NONE)
    return png_reference(bare)


def render_board(
    state: MatchState,
    *,
    events: Iterable[Event | Mapping[str, Any]] = (),
    view: MatchState | None = None,
    width: int = DEFAULT_WIDTH,
    hex_labels: bool = False,
    compress_level: int = PNG_COMPRESS_LEVEL,
    language: str = "en",
) -> bytes:
    """PNG bytes of the board after the last command.

    ``events``: the events the last command (or the whole last action) returned; they are drawn
    over the field (movement paths, the throw and the hexes that could intercept it, scatters,
    bounces, shoves). ``view``: the position mid-resolution while a decision is pending
    (``Result.view``); panels always describe ``state``. ``width``: pixels (the height follows,
    about 1.23 times the width). ``hex_labels``: print every hex's coordinate faintly, not only
    the rim's. ``language``: the words of the panels above and below the field (``"fr"``).
    The same arguments always give the same bytes.
    """
    rgb = board_rgb(state, events=events, view=view, width=width, hex_labels=hex_labels, language=language)
    palette = _palette_for(state, width, hex_labels)
    im = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    return encode_png(im, compress_level, _reference(width, hex_labels, _team_key(state)))
