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

from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from PIL import Image, ImageDraw

from engine import (
    BallBounced,
    BallScattered,
    BallStoppedByLine,
    BallThrown,
    Event,
    Field,
    Hex,
    MatchState,
    PlayerMoved,
    PlayerPlaced,
    PlayerShoved,
    ReplacementMade,
    distance,
    standard_field,
    touched_hexes,
)

from . import marks as M
from . import palette as C
from .describe import as_events, initials
from .layers import (BAND_ROWS, Geometry, PngReference, encode_png, encode_png_bands, encode_png_compact, field_layer, geometry,
                     png_reference, scanline_bands)
from .panels import draw_footer, draw_header

__all__ = [
    "render_board", "board_image", "board_rgb", "draw_events", "draw_pieces", "draw_counters", "palette_for", "HexPixels",
    "DEFAULT_WIDTH", "MIN_WIDTH", "MAX_WIDTH", "PNG_COMPRESS_LEVEL",
]

DEFAULT_WIDTH = 1000
MIN_WIDTH = 300
MAX_WIDTH = 4000
#: zlib level for the PNG: 256 colours at a moderate level keeps boards small and fast
#: (``optimize=True`` or level 9 cost several times more for a few per cent).
PNG_COMPRESS_LEVEL = 6


# --- what just happened ------------------------------------------------------------------------------
def _hex_before(events: Sequence[Event], i: int, pid: str, board: MatchState) -> Hex | None:
    """Where player ``pid`` stood when event ``i`` happened (walking the later moves back)."""
    for ev in events[i + 1:]:
        if isinstance(ev, PlayerMoved | PlayerShoved) and ev.player == pid:
            return ev.origin
    p = board.players.get(pid)
    if p is not None and p.hex is not None:
        return p.hex
    for ev in reversed(events[:i]):
        if isinstance(ev, PlayerMoved | PlayerShoved) and ev.player == pid and ev.to is not None:
            return ev.to
        if isinstance(ev, ReplacementMade | PlayerPlaced) and ev.player == pid:
            return ev.hex
    return None


def _throw_points(events: Sequence[Event], i: int, origin: Hex) -> list[Hex]:
    """The ball's whole flight for the passing string: thrower, flight end, white-line bounces."""
    ev = events[i]
    assert isinstance(ev, BallThrown)
    pts = [origin, ev.lands]
    for later in events[i + 1:]:
        if isinstance(later, BallBounced):
            pts.append(later.to)
        elif later.kind != "ball_stopped_by_line":
            break
    return pts


def _throws(events: Sequence[Event], board: MatchState) -> list[tuple[Hex, Hex, Hex, list[Hex]]]:
    """Each throw: the thrower's hex, the target, where the flight ended, the whole flight."""
    out = []
    for i, ev in enumerate(events):
        if isinstance(ev, BallThrown):
            origin = _hex_before(events, i, ev.thrower, board)
            if origin is not None:
                out.append((origin, ev.target, ev.lands, _throw_points(events, i, origin)))
    return out


def _draw_interception_hexes(d: ImageDraw.ImageDraw, g: Geometry, board: MatchState, events: Sequence[Event],
                             fld: Field) -> None:
    """Outline the hexes the passing string touched: an opponent standing there could intercept
    (drawn over the tokens, so the outline rings a player who stands there)."""
    for _, _, _, pts in _throws(events, board):
        for h in touched_hexes(pts):
            if h in fld:
                M.intercept_hex(d, *g.hex_px(h), g.s)


def _draw_shoves(d: ImageDraw.ImageDraw, g: Geometry, board: MatchState, events: Sequence[Event]) -> None:
    """A heavy red arrow, white-cased, from where the pushed player stood to his token; a red
    ring when the hex behind him was taken and he stayed."""
    for ev in events:
        if not isinstance(ev, PlayerShoved):
            continue
        a = g.hex_px(ev.origin)
        if ev.to is not None and ev.to != ev.origin:
            M.shove_arrow(d, a, g.hex_px(ev.to), g.s)
        else:
            M.shove_blocked(d, *a, g.s)


def draw_events(d: ImageDraw.ImageDraw, g: Geometry, board: MatchState, events: Sequence[Event], fld: Field) -> None:
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
        if isinstance(ev, PlayerMoved):
            pid, a, b = ev.player, ev.origin, ev.to
            cur = open_path.get(pid)
            if cur is not None and cur[-1] == a:
                cur.append(b)
            else:
                cur = [a, b]
                open_path[pid] = cur
                paths.append((pid, cur))
    throws = _throws(events, board)

    # 1. where each mover started, and his path
    for _, hexes in paths:
        M.move_trace(d, [g.hex_px(h) for h in hexes], s, start_free=hexes[0] not in occupied,
                     end_gap=end_gap(hexes[-1]), token_gap=token_gap)
    # 2. the throw: aimed line to the target when it missed, the flight to where it came down
    for origin, target, lands, _ in throws:
        if target != lands:
            M.missed_target(d, *g.hex_px(target), s)
        if origin != lands:
            M.throw_trace(d, g.hex_px(origin), g.hex_px(lands), s, token_gap, end_gap(lands))
    # 3. the loose ball: scatters (one pace) and white-line bounces (D6 paces)
    for ev in events:
        if isinstance(ev, BallScattered | BallBounced):
            if ev.origin == ev.to:
                continue
            trace = M.scatter_trace if isinstance(ev, BallScattered) else M.bounce_trace
            trace(d, g.hex_px(ev.origin), g.hex_px(ev.to), s, end_gap(ev.to))
        elif isinstance(ev, BallStoppedByLine):
            M.line_stop(d, *g.hex_px(ev.hex), s)
    # 4. shoves: where the pushed player stood (drawn here); the arrow goes over the tokens
    for ev in events:
        if isinstance(ev, PlayerShoved) and ev.to is not None and ev.origin not in occupied:
            M.shove_origin(d, *g.hex_px(ev.origin), s)
    # 5. replacements come on from the nearest stairway
    for ev in events:
        if isinstance(ev, ReplacementMade):
            p = board.players.get(ev.player)
            if p is None:
                continue
            stairs = fld.stairways.get(p.side, ())
            if not stairs:
                continue
            came_to = ev.hex
            anchor = min((st.anchor for st in stairs), key=lambda h: (distance(h, came_to), h))
            M.replacement_trace(d, g.hex_px(anchor), g.hex_px(came_to), s, token_gap)


# --- the pieces ---------------------------------------------------------------------------------------
class HexPixels(Protocol):
    """Where hexes fall on the picture, and its size unit: a ``Geometry``, or the view's tokens
    drawn a little smaller than its hexes."""

    @property
    def s(self) -> float: ...

    def hex_px(self, h: Hex) -> tuple[float, float]: ...


def draw_pieces(canvas: Image.Image, g: HexPixels, board: MatchState, fills: Mapping[str, C.RGB],
                only: Container[Hex] | None = None) -> None:
    """The loose ball, then every token on the field (the carried ball on its carrier), north
    to south so lower tokens overlap upper ones; ``only`` limits them to those hexes."""
    s = g.s
    on_field = sorted(
        ((p.hex, p) for p in board.players.values() if p.on_field and p.hex is not None and (only is None or p.hex in only)),
        key=lambda hp: (hp[0].r, hp[0].q, hp[1].id),
    )
    inits = {**initials(board, "west"), **initials(board, "east")}
    loose = board.ball.hex if board.ball.carrier is None else None
    occupied = {h for h, _ in on_field}
    if loose is not None and loose not in occupied and (only is None or loose in only):
        M.loose_ball(canvas, *g.hex_px(loose), s)
    for h, p in on_field:
        x, y = g.hex_px(h)
        M.token(canvas, x, y, s, p.side, fills[p.side], p.status.value,
                int(p.facing) if p.facing is not None else None, str(p.number), inits.get(p.id, "?"))
        if board.ball.carrier == p.id:
            M.carried_ball(canvas, x, y, s)
        elif h == loose:
            M.ball_beside_token(canvas, x, y, s)


def draw_counters(canvas: Image.Image, g: HexPixels, board: MatchState, only: Container[Hex] | None = None) -> None:
    """The yellow counter on the last player each team moved."""
    for side in ("west", "east"):
        pid = board.last_moved.get(side)
        p = board.players.get(pid) if pid else None
        if p is not None and p.on_field and p.hex is not None and (only is None or p.hex in only):
            M.last_moved_counter(canvas, *g.hex_px(p.hex), g.s, p.status.value == "standing")


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
        M.acting_hex(d, *g.hex_px(actor.hex), s)

    draw_events(d, g, board, evs, fld)
    draw_pieces(canvas, g, board, fills)
    _draw_interception_hexes(d, g, board, evs, fld)
    _draw_shoves(d, g, board, evs)
    draw_counters(canvas, g, board)

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


def palette_for(state: MatchState, width: int, hex_labels: bool) -> Image.Image:
    return C.build_palette(field_layer(width, hex_labels).colours, _team_key(state))


def _changed_runs(rgb: Image.Image, bare: BareField) -> list[tuple[int, int]]:
    """The runs of bands (first, end) where ``rgb`` is not the bare field."""
    raw, stride = rgb.tobytes(), 3 * rgb.width * BAND_ROWS
    # ``startswith`` at an offset compares in place: slicing both would copy each band twice.
    changed = [not raw.startswith(band, i * stride) for i, band in enumerate(bare.bands)]
    runs, band = [], 0
    while band < len(changed):
        if not changed[band]:
            band += 1
            continue
        end = band
        while end < len(changed) and changed[end]:
            end += 1
        runs.append((band, end))
        band = end
    return runs


def _palette_bands(rgb: Image.Image, state: MatchState, width: int, hex_labels: bool) -> tuple[list[int], list[bytes | None]]:
    """``to_palette`` cut in bands of PNG scanlines, None for each band left bare (the bare
    field's reference band serves it): the picture in its palette is never assembled, which
    spares copying the bare field and framing every row again for the encoder."""
    palette = palette_for(state, width, hex_labels)
    bare = _bare_field(width, hex_labels)
    h = rgb.height
    bands: list[bytes | None] = [None] * len(bare.bands)
    for first, end in _changed_runs(rgb, bare):
        box = (0, first * BAND_ROWS, rgb.width, min(h, end * BAND_ROWS))
        bands[first:end] = scanline_bands(rgb.crop(box).quantize(palette=palette, dither=Image.Dither.NONE))
    return palette.getpalette() or [], bands


def to_palette(rgb: Image.Image, state: MatchState, width: int, hex_labels: bool = False) -> Image.Image:
    """``rgb`` (a board ``width`` px wide) in its palette. The bands of rows that still show the
    bare field take the bare field's indexes, quantized once per width; only the others are
    quantized here. Pillow's quantizer matches a colour by the cell of its colour cube, so a
    team's shades could move a field colour to another index: taken from the bare field, the
    field's indexes are the same whatever the teams, and one band reference
    (:func:`_bare_field`) serves every pairing. It was one per pair of team colours, rebuilt
    (~36 ms) for each board once more than 16 pairings were in play, and ~0.7 MB each."""
    palette = palette_for(state, width, hex_labels)
    bare = _bare_field(width, hex_labels)
    if rgb.size != bare.image.size:
        return rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    w, h = rgb.size
    out = bare.image.copy()
    for first, end in _changed_runs(rgb, bare):  # each run of changed bands quantized at once
        box = (0, first * BAND_ROWS, w, min(h, end * BAND_ROWS))
        out.paste(rgb.crop(box).quantize(palette=palette, dither=Image.Dither.NONE), box)
    out.putpalette(palette.getpalette() or [])
    return out


@dataclass(frozen=True)
class BareField:
    """The bare field at one width: its pixels (to know the bands a board left alone), its
    indexes in the palette's team-free first colours, and its bands compressed once."""

    bands: tuple[bytes, ...]  # each band's rows of RGB pixels
    image: Image.Image
    reference: PngReference


@lru_cache(maxsize=4)
def _bare_field(width: int, hex_labels: bool) -> BareField:
    field = field_layer(width, hex_labels)
    image = field.image.quantize(palette=C.build_palette(field.colours, ()), dither=Image.Dither.NONE)
    raw, stride = field.image.tobytes(), 3 * field.image.width * BAND_ROWS
    bands = tuple(raw[y:y + stride] for y in range(0, len(raw), stride))
    return BareField(bands, image, png_reference(image))


def render_board(
    state: MatchState,
    *,
    events: Iterable[Event | Mapping[str, Any]] = (),
    view: MatchState | None = None,
    width: int = DEFAULT_WIDTH,
    hex_labels: bool = False,
    compress_level: int = PNG_COMPRESS_LEVEL,
    language: str = "en",
    compact: bool = False,
) -> bytes:
    """PNG bytes of the board after the last command.

    ``events``: the events the last command (or the whole last action) returned; they are drawn
    over the field (movement paths, the throw and the hexes that could intercept it, scatters,
    bounces, shoves). ``view``: the position mid-resolution while a decision is pending
    (``Result.view``); panels always describe ``state``. ``width``: pixels (the height follows,
    about 1.23 times the width). ``hex_labels``: print every hex's coordinate faintly, not only
    the rim's. ``language``: the words of the panels (``en``, ``fr``). The same arguments always
    give the same bytes. ``compact``: the rows deflated as one stream (``render.layers.
    encode_png_compact``, ``compress_level`` ignored): a few kB smaller a board and several
    times the CPU, for pictures written once and kept (the league's website).
    """
    rgb = board_rgb(state, events=events, view=view, width=width, hex_labels=hex_labels, language=language)
    if compact:
        return encode_png_compact(to_palette(rgb, state, width, hex_labels))
    bare = _bare_field(width, hex_labels)
    if rgb.size != bare.image.size:  # not a board's size: quantized whole (``to_palette``)
        return encode_png(to_palette(rgb, state, width, hex_labels), compress_level, bare.reference)
    palette, bands = _palette_bands(rgb, state, width, hex_labels)
    return encode_png_bands(rgb.size, palette, bands, compress_level, bare.reference)
