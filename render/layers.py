"""Geometry of the picture, and the parts that never change: drawn once per width, then reused.

Everything is measured in *hex spacings* (``s`` pixels: neighbouring hex centres are ``s``
apart), so the picture scales with its width; at 1000 px a spacing is about 42 px and the
smallest label 14 px. The field layer (pitch, grid, lines, circles, stairways, compass, rim
coordinates, panel frames) is drawn supersampled for smooth edges and cached per width, with
the palette of its colours. Token sprites are cached per look (shape, colours, status, facing).
"""

from __future__ import annotations

import io
import math
import struct
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFont

try:
    # The same deflate format and API as the standard library's zlib: over the bands a live board
    # deflates (720 px, level 5) ~40 % less CPU a band and ~6 % fewer bytes (docs/benchmarks.md,
    # "CPU per action, fifth round"). Where no wheel exists (32-bit ARM, musl on ARM) the standard library serves.
    from zlib_ng import zlib_ng as zlib
except ImportError:  # pragma: no cover - the machines without a zlib-ng wheel
    import zlib  # type: ignore[no-redef]  # the same functions; only the speed differs

from engine import Direction, Field, Hex, SIDES, standard_field

from . import palette as C

__all__ = [
    "Geometry",
    "geometry",
    "font",
    "draw_text",
    "text_length",
    "field_layer",
    "FieldLayer",
    "token_sprite",
    "ball_sprite",
    "counter_sprite",
    "paste_centered",
    "PngReference",
    "png_reference",
    "encode_png",
    "encode_png_bands",
    "scanline_bands",
    "encode_png_compact",
    "COMPACT_LEVEL",
    "BAND_ROWS",
    "FIELD_W",
    "FIELD_H",
    "SS",
    "LABEL",
    "STANDING_NUMBER",
    "STANDING_INITIAL",
    "LYING_LABEL",
    "LYING_LABEL_LONG",
    "SMALLEST_TOKEN_LABEL",
]

#: Width of the field band, in spacings: the 21-hex disc, the rim and the corner compasses.
FIELD_W = 23.5
FIELD_H = 21.4
HEADER_H = 3.9
FOOTER_H = 3.5
#: Supersampling factor of cached layers and sprites (drawn big, reduced with a box filter).
SS = 3


@dataclass(frozen=True)
class Geometry:
    """Where things go at one picture width."""

    width: int
    height: int
    s: float  # pixels per hex spacing
    header_h: int
    field_top: int
    field_h: int
    footer_top: int
    cx: float  # pixel position of the centre of K12
    cy: float

    def px(self, x: float, y: float) -> tuple[float, float]:
        """Pixel position of a point given in spacings from the centre of K12."""
        return (self.cx + x * self.s, self.cy + y * self.s)

    def hex_px(self, h: Hex) -> tuple[float, float]:
        x, y = h.center()
        return self.px(x, y)

    def hex_polygon(self, h: Hex, shrink: float = 1.0) -> list[tuple[float, float]]:
        cx, cy = h.center()
        return [self.px(cx + (x - cx) * shrink, cy + (y - cy) * shrink) for x, y in h.corners()]

    def fs(self, spacings: float) -> int:
        """A font size in pixels for a size given in spacings (never below 8 px)."""
        return max(8, round(spacings * self.s))

    def scaled(self, k: int) -> Geometry:
        """The same layout ``k`` times bigger (for supersampled drawing)."""
        return Geometry(
            self.width * k, self.height * k, self.s * k, self.header_h * k, self.field_top * k,
            self.field_h * k, self.footer_top * k, self.cx * k, self.cy * k,
        )


@lru_cache(maxsize=16)
def geometry(width: int) -> Geometry:
    s = width / FIELD_W
    header_h = round(HEADER_H * s)
    field_h = round(FIELD_H * s)
    footer_h = round(FOOTER_H * s)
    return Geometry(
        width=width,
        height=header_h + field_h + footer_h,
        s=s,
        header_h=header_h,
        field_top=header_h,
        field_h=field_h,
        footer_top=header_h + field_h,
        cx=width / 2,
        cy=header_h + field_h / 2,
    )


#: DejaVu Sans, cut to Latin, Greek, Cyrillic and punctuation (render/fonts/README.md): Pillow's
#: built-in font draws a box for every accented letter ("Temps fort", "Amélie").
FONT_FILE = "fonts/DejaVuSans-subset.ttf"


@lru_cache(maxsize=1)
def _font_bytes() -> bytes:
    return resources.files("render").joinpath(FONT_FILE).read_bytes()


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """The pictures' font at ``size`` pixels."""
    return ImageFont.truetype(io.BytesIO(_font_bytes()), size=size)


@lru_cache(maxsize=1024)
def _text_mask(text: str, size: int, anchor: str) -> tuple[Image.Image, tuple[int, int]]:
    f = font(size)
    mask, offset = f.getmask2(text, mode="L", anchor=anchor)
    im = Image.frombytes("L", mask.size, bytes(mask)) if mask.size[0] and mask.size[1] else Image.new("L", (1, 1), 0)
    return im, (int(offset[0]), int(offset[1]))


def draw_text(canvas: Image.Image, xy: tuple[float, float], text: str, size: int, fill: tuple[int, int, int],
              anchor: str = "la") -> None:
    """Text like ``ImageDraw.text`` (anchored at ``xy`` rounded to whole pixels), with the
    rendered glyphs cached: panels repeat the same words on every board."""
    if not text:
        return
    mask, (ox, oy) = _text_mask(text, size, anchor)
    x, y = round(xy[0]) + ox, round(xy[1]) + oy
    canvas.paste(fill, (x, y, x + mask.size[0], y + mask.size[1]), mask)


@lru_cache(maxsize=4096)
def text_length(text: str, size: int) -> float:
    return float(font(size).getlength(text))


# Label sizes in spacings: 0.33 s is 14 px at 1000 px wide, the smallest size used anywhere.
LABEL = 0.33


def _text_centered(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: C.RGB,
                   stroke: int = 0, stroke_fill: C.RGB | None = None) -> None:
    d.text(xy, text, font=font(size), fill=fill, anchor="mm", stroke_width=stroke, stroke_fill=stroke_fill)


# --- the field layer ----------------------------------------------------------------------------
def _draw_compass(d: ImageDraw.ImageDraw, g: Geometry, x: float, y: float, r: float) -> None:
    """The D6 compass printed in the board's corners: 1 NE, 2 E, 3 SE, 4 SW, 5 W, 6 NW."""
    cx, cy = g.px(x, y)
    rad = r * g.s
    # a flat hexagon whose sides face the six directions (like the hexes), numbers beyond them
    pts = [(cx + rad * 0.62 * math.cos(math.radians(a)), cy + rad * 0.62 * math.sin(math.radians(a)))
           for a in (-90, -30, 30, 90, 150, 210)]
    d.ellipse((cx - rad, cy - rad, cx + rad, cy + rad), fill=C.COMPASS_BG, outline=C.PANEL_LINE, width=max(1, round(g.s * 0.04)))
    d.polygon(pts, outline=C.COMPASS_FG, width=max(1, round(g.s * 0.04)))
    size = g.fs(LABEL + 0.03)
    for direction in Direction:
        vx, vy = direction.vector
        ax, ay = cx + vx * rad * 0.5, cy + vy * rad * 0.5
        bx, by = cx + vx * rad * 0.12, cy + vy * rad * 0.12
        d.line((bx, by, ax, ay), fill=C.COMPASS_FG, width=max(1, round(g.s * 0.035)))
        _text_centered(d, (cx + vx * rad * 0.78, cy + vy * rad * 0.78), str(direction.value), size, C.COMPASS_FG)


def _draw_stairway(d: ImageDraw.ImageDraw, g: Geometry, anchor: Hex, bearing: float) -> None:
    """A flight of steps just outside the rim, next to the stairway's anchor hex."""
    ax, ay = anchor.center()
    ux, uy = math.cos(math.radians(bearing)), math.sin(math.radians(bearing))
    px_, py_ = -uy, ux  # across the steps
    base = (ax + ux * 0.95, ay + uy * 0.95)
    w = max(1, round(g.s * 0.07))
    d.line((*g.px(ax + ux * 0.45, ay + uy * 0.45), *g.px(*base)), fill=C.ENTRY_TINT, width=round(g.s * 0.16))
    for i in range(4):
        k = 0.95 + i * 0.2
        half = 0.42 - i * 0.07
        cx_, cy_ = ax + ux * k, ay + uy * k
        d.line((*g.px(cx_ - px_ * half, cy_ - py_ * half), *g.px(cx_ + px_ * half, cy_ + py_ * half)), fill=C.STAIR, width=w)


def _rim_label_hexes(fld: Field) -> list[Hex]:
    return [h for h in fld.hexes if fld.info(h).edge_line]


def _draw_pitch(d: ImageDraw.ImageDraw, g: Geometry, fld: Field) -> None:
    """The round pitch: a disc a little beyond the outermost hexes (drawn smooth)."""
    r_pitch = (fld.radius + 0.78) * g.s
    d.ellipse((g.cx - r_pitch, g.cy - r_pitch, g.cx + r_pitch, g.cy + r_pitch), fill=C.PITCH_EDGE)


def _draw_hexes(d: ImageDraw.ImageDraw, g: Geometry, fld: Field) -> None:
    """Every hex, tinted by what runs through it, with the grid (drawn crisp: antialiased
    grid lines would cost a third of the PNG's size)."""
    s = g.s
    entry = {h for sts in fld.stairways.values() for st in sts for h in st.entry}
    grid_w = max(1, round(s * 0.035))
    for h in fld.hexes:
        info = fld.info(h)
        if info.edge_line:
            fill = C.LINE_HEX
        elif info.centre_line:
            fill = C.CENTRE_TINT
        elif h in entry:
            fill = C.ENTRY_TINT
        else:
            fill = C.PITCH
        d.polygon(g.hex_polygon(h), fill=fill, outline=C.PITCH_DARK, width=grid_w)


def _draw_markings(d: ImageDraw.ImageDraw, g: Geometry, fld: Field, hex_labels: bool) -> None:
    """Lines, circles, the ball spot, stairways, coordinates and compasses (drawn smooth)."""
    s = g.s
    # the white centre line: straight through K12, along the edges between hexes in odd rows
    top = min(h.center()[1] for h in fld.hexes) - 0.55
    d.line((*g.px(0, top), *g.px(0, -top)), fill=C.LINE_WHITE, width=max(2, round(s * 0.11)))
    # circles, as the data gives them: a radius in spacings around a centre hex
    for circle in fld.circles:
        cx, cy = g.hex_px(fld.parse(circle["centre"]))
        r = circle["radius"] * s
        if circle["colour"] == "white":  # the goal circle hex
            d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=C.LINE_WHITE, width=max(2, round(s * 0.13)))
            ri = r * 0.42
            d.ellipse((cx - ri, cy - ri, cx + ri, cy + ri), fill=C.LINE_WHITE)
        else:
            d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=C.YELLOW, width=max(2, round(s * 0.09)))
    bx, by = g.hex_px(fld.ball_spot)
    rb = s * 0.13
    d.ellipse((bx - rb, by - rb, bx + rb, by + rb), fill=C.YELLOW)
    # dugout stairways: steps beside each anchor, the anchor hex outlined in the entry colour
    for side in SIDES:
        for st in fld.stairways[side]:
            d.polygon(g.hex_polygon(st.anchor, 0.86), outline=C.ENTRY_TINT, width=max(2, round(s * 0.09)))
    for side in SIDES:
        for st in fld.stairways[side]:
            _draw_stairway(d, g, st.anchor, _stair_bearing(st.anchor))
    # coordinates as coaches type them, on every hex of the outer white line (never stood on)
    size = g.fs(LABEL)
    for h in _rim_label_hexes(fld):
        _text_centered(d, g.hex_px(h), fld.format(h), size, C.LINE_TEXT)
    if hex_labels:
        for h in fld.hexes:
            info = fld.info(h)
            if not info.edge_line:
                _text_centered(d, g.hex_px(h), info.label, size, C.HEX_LABEL)
    # the D6 compass in the four corners
    cxr, cyr = FIELD_W / 2 - 1.45, FIELD_H / 2 - 1.45
    for sx in (-1, 1):
        for sy in (-1, 1):
            _draw_compass(d, g, sx * cxr, sy * cyr, 1.3)


def _stair_bearing(anchor: Hex) -> float:
    """Which way a stairway leaves the field: away from the centre (screen degrees, clockwise
    from east), which is the bearing the field data records for the standard board."""
    x, y = anchor.center()
    return math.degrees(math.atan2(y, x))


def _draw_panels(d: ImageDraw.ImageDraw, g: Geometry) -> None:
    d.rectangle((0, 0, g.width, g.header_h), fill=C.PANEL)
    d.rectangle((0, g.footer_top, g.width, g.height), fill=C.PANEL)
    lw = max(1, round(g.s * 0.04))
    d.line((0, g.header_h - lw, g.width, g.header_h - lw), fill=C.PANEL_LINE, width=lw)
    d.line((0, g.footer_top, g.width, g.footer_top), fill=C.PANEL_LINE, width=lw)
    d.line((g.width / 2, g.footer_top + g.s * 0.2, g.width / 2, g.height - g.s * 0.2), fill=C.PANEL_LINE, width=lw)


@dataclass(frozen=True)
class FieldLayer:
    image: Image.Image  # RGB, the size of the whole picture
    colours: tuple[C.RGB, ...]  # its colours, most frequent first (for the palette)


def field_layer(width: int, hex_labels: bool = False) -> FieldLayer:
    """The static picture at ``width``: panels' frames and the whole field. Drawn once.

    The cache's key is always ``(width, hex_labels)``: ``lru_cache`` keys ``f(w)`` and
    ``f(w, False)`` apart, and the close-up's field (1,567 px wide, 12 MB) was drawn and
    kept twice that way (issue 33)."""
    return _field_layer(int(width), bool(hex_labels))


@lru_cache(maxsize=8)
def _field_layer(width: int, hex_labels: bool) -> FieldLayer:
    g = geometry(width)
    big = g.scaled(SS)
    fld = standard_field()
    # smooth underlay (supersampled), crisp hexes at 1x, then smooth markings over them: the
    # 1x picture is blown up by whole pixels, so the crisp parts survive the reduction exactly
    im = Image.new("RGB", (big.width, big.height), C.FRAME)
    d = ImageDraw.Draw(im)
    _draw_panels(d, big)
    _draw_pitch(d, big, fld)
    small = im.reduce(SS)
    _draw_hexes(ImageDraw.Draw(small), g, fld)
    im = small.resize((big.width, big.height), Image.Resampling.NEAREST)
    _draw_markings(ImageDraw.Draw(im), big, fld, hex_labels)
    small = im.reduce(SS)
    q = small.quantize(colors=200, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    pal = q.getpalette() or []
    # a palette image's colours are palette indexes: ints
    counts = sorted(((n, i) for n, i in q.getcolors(256) or [] if isinstance(i, int)), key=lambda t: (-t[0], t[1]))
    colours = tuple((pal[3 * i], pal[3 * i + 1], pal[3 * i + 2]) for _, i in counts)
    return FieldLayer(small, colours)


# --- sprites ------------------------------------------------------------------------------------
def _rounded_square(d: ImageDraw.ImageDraw, cx: float, cy: float, hw: float, hh: float, r: float, **kw: Any) -> None:
    d.rounded_rectangle((cx - hw, cy - hh, cx + hw, cy + hh), radius=r, **kw)


def _star(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: C.RGB) -> None:
    pts = []
    for i in range(8):
        a = math.radians(-90 + i * 45)
        rr = r if i % 2 == 0 else r * 0.38
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    d.polygon(pts, fill=fill, outline=C.OUTLINE)


def _shape_mask(S: int, side: str, c: float, hw: float, hh: float, u: float) -> Image.Image:
    """The token's outline shape as a mask: an ellipse (west) or a rounded rectangle (east)."""
    m = Image.new("L", (S, S), 0)
    d = ImageDraw.Draw(m)
    if side == "west":
        d.ellipse((c - hw, c - hh, c + hw, c + hh), fill=255)
    else:
        d.rounded_rectangle((c - hw, c - hh, c + hw, c + hh), radius=min(hw, hh) * 0.28, fill=255)
    return m


#: Font sizes on a token, in spacings: the number and initial of a standing token, the one
#: label of a lying one (four characters get the smaller size).
STANDING_NUMBER = 0.43
STANDING_INITIAL = 0.33
LYING_LABEL = 0.3
LYING_LABEL_LONG = 0.26
#: The smallest of them: the action view's legibility test measures it.
SMALLEST_TOKEN_LABEL = min(STANDING_NUMBER, STANDING_INITIAL, LYING_LABEL, LYING_LABEL_LONG)


#: Token sprites kept (~7 KB each at 720 px). A board has ~22 tokens and, at 1,000 channels,
#: shares few with the boards before it; 2,048 grew to ~15 MB in a long-running worker with many
#: teams' colours, 512 cover a couple of dozen boards (a channel playing on) in ~4 MB.
@lru_cache(maxsize=512)
def token_sprite(
    s: float,
    side: str,
    fill: C.RGB,
    status: str,
    facing: int | None,
    number: str,
    initial: str,
) -> Image.Image:
    """A player's token as an RGBA sprite ``ceil(1.4 s)`` square, centred on its hex.

    West tokens are discs, east tokens rounded squares, so the sides differ without colour.
    Standing: the front half of the token's rim is white, the rear half black, and a white
    pointer shows the facing: the white half spans exactly the three front hexes. Down (face
    up): the token lies flat, a wide low shape inside its hex with a plain black rim and no
    pointer. Dazed (face down): lying flat, darkened, with a dashed yellow outline and stars
    over it.
    """
    size = math.ceil(1.4 * s) | 1
    k = SS
    S = size * k
    im = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    c = S / 2
    u = s * k  # one spacing, in sprite pixels
    text = C.contrast_text(fill)
    edge = 0.03 * u  # the thin black edge around a white rim
    rim = 0.085 * u
    black = Image.new("RGBA", (S, S), C.OUTLINE + (255,))
    white = Image.new("RGBA", (S, S), C.FRONT + (255,))
    if status == "standing":
        r = 0.45 * u if side == "west" else 0.41 * u
        if facing is not None:
            fdir = Direction(facing)
            a = math.atan2(fdir.vector[1], fdir.vector[0])
            tip = (c + math.cos(a) * 0.7 * u, c + math.sin(a) * 0.7 * u)
            wing, base_r = 0.25 * u, 0.36 * u
            left = (c + math.cos(a) * base_r - math.sin(a) * wing, c + math.sin(a) * base_r + math.cos(a) * wing)
            right = (c + math.cos(a) * base_r + math.sin(a) * wing, c + math.sin(a) * base_r - math.cos(a) * wing)
            d.polygon([tip, left, right], fill=C.FRONT, outline=C.OUTLINE, width=max(1, round(edge * 1.3)))
        im.paste(black, (0, 0), _shape_mask(S, side, c, r + edge, r + edge, u))
        if facing is not None:
            front = Image.new("L", (S, S), 0)
            ang = math.degrees(a)
            ImageDraw.Draw(front).pieslice((0, 0, S - 1, S - 1), ang - 90, ang + 90, fill=255)
            outer = _shape_mask(S, side, c, r, r, u)
            im.paste(white, (0, 0), _and(outer, front))
            # a black line inside the white half keeps it apart from light team colours
            im.paste(black, (0, 0), _shape_mask(S, side, c, r - rim, r - rim, u))
            inner = r - rim - edge
        else:
            inner = r - rim
        im.paste(Image.new("RGBA", (S, S), fill + (255,)), (0, 0), _shape_mask(S, side, c, inner, inner, u))
        d = ImageDraw.Draw(im)
        d.text((c, c + 0.03 * u), number, font=font(round(STANDING_NUMBER * u)), fill=text, anchor="ms")
        d.text((c, c + 0.29 * u), initial, font=font(round(STANDING_INITIAL * u)), fill=text, anchor="ms")
    else:
        # Lying tokens stay inside their hex (1 spacing across the flats, 1.15 corner to
        # corner): a low shape 0.86 x 0.5 spacings, no white front band, no pointer.
        dazed = status == "dazed"
        body = C.mix(fill, (0, 0, 0), 0.55) if dazed else fill
        text = (255, 255, 255) if dazed else text
        hw, hh = (0.43 * u, 0.25 * u) if side == "west" else (0.41 * u, 0.24 * u)
        lying_rim = 0.065 * u
        im.paste(black, (0, 0), _shape_mask(S, side, c, hw, hh, u))
        im.paste(Image.new("RGBA", (S, S), body + (255,)), (0, 0),
                 _shape_mask(S, side, c, hw - lying_rim, hh - lying_rim, u))
        d = ImageDraw.Draw(im)
        if dazed:
            # a dashed yellow outline around the lying token, and stars over it, all in the hex
            rx, ry = hw + 0.055 * u, hh + 0.055 * u
            for i in range(12):
                a0 = i * 30
                d.arc((c - rx, c - ry, c + rx, c + ry), a0, a0 + 17, fill=C.DAZED_STARS, width=max(2, round(0.05 * u)))
            for dx in (-0.2, 0.0, 0.2):
                _star(d, c + dx * u, c - 0.43 * u + abs(dx) * 0.25 * u, 0.1 * u, C.DAZED_STARS)
        label = f"{number}{initial}"
        label_size = LYING_LABEL if len(label) <= 3 else LYING_LABEL_LONG
        d.text((c, c + 0.11 * u), label, font=font(round(label_size * u)), fill=text, anchor="ms")
    return im.reduce(k)


def _and(a: Image.Image, b: Image.Image) -> Image.Image:
    return ImageChops.multiply(a, b)


@lru_cache(maxsize=64)
def ball_sprite(s: float) -> Image.Image:
    size = math.ceil(0.56 * s) | 1
    k = SS
    S = size * k
    im = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    c = S / 2
    r = 0.22 * s * k
    w = max(2, round(0.045 * s * k))
    d.ellipse((c - r, c - r, c + r, c + r), fill=C.BALL, outline=C.BALL_DARK, width=w)
    d.arc((c - r * 1.6, c - r * 0.55, c + r * 0.4, c + r * 1.45), 250, 350, fill=C.BALL_DARK, width=w)
    d.arc((c - r * 0.4, c - r * 1.45, c + r * 1.6, c + r * 0.55), 70, 170, fill=C.BALL_DARK, width=w)
    return im.reduce(k)


@lru_cache(maxsize=64)
def counter_sprite(s: float, colour: C.RGB) -> Image.Image:
    """The yellow counter placed by the last player a team moved."""
    size = math.ceil(0.34 * s) | 1
    k = SS
    S = size * k
    im = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    c = S / 2
    r = 0.14 * s * k
    d.ellipse((c - r, c - r, c + r, c + r), fill=colour, outline=C.OUTLINE, width=max(2, round(0.04 * s * k)))
    return im.reduce(k)


def paste_centered(canvas: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    w, h = sprite.size
    canvas.paste(sprite, (round(x - w / 2), round(y - h / 2)), sprite)


# --- PNG encoding that reuses the field's compressed bands -----------------------------------------
#: Rows per independently compressed band of the PNG (see :func:`encode_png`).
BAND_ROWS = 24
#: The bare field's bands are compressed once, so they can afford the best level.
REFERENCE_LEVEL = 9
_RECENT: OrderedDict[tuple[int, bytes], tuple[bytes, int]] = OrderedDict()
_RECENT_LOCK = threading.Lock()
#: Bands kept from recent pictures: a match's panels change little between its actions, so a
#: channel playing on reuses them; with many channels acting in turn a channel's next board
#: comes long after its bands left any affordable cache, so it is kept to a couple of boards'
#: changed bands (~1.3 MB at 720 px; 192 held ~4 MB for few hits at 1,000 channels).
_RECENT_MAX = 64
_ADLER_BASE = 65521


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def _adler_combine(a1: int, a2: int, len2: int) -> int:
    """Adler-32 of ``x + y`` from those of ``x`` and ``y`` (zlib's adler32_combine)."""
    rem = len2 % _ADLER_BASE
    sum1 = a1 & 0xFFFF
    sum2 = (rem * sum1) % _ADLER_BASE
    sum1 += (a2 & 0xFFFF) + _ADLER_BASE - 1
    sum2 += ((a1 >> 16) & 0xFFFF) + ((a2 >> 16) & 0xFFFF) + _ADLER_BASE - rem
    sum1 %= _ADLER_BASE
    sum2 %= _ADLER_BASE
    return sum1 | (sum2 << 16)


def _scanlines(im: Image.Image) -> bytes:
    """A ``P`` image's rows as PNG scanlines, each behind its filter byte 0 (none, the best for
    palette images): the image pasted one pixel in from the left of a column of zeros, in C."""
    w, h = im.size
    framed = Image.new("P", (w + 1, h), 0)
    framed.paste(im, (1, 0))
    return framed.tobytes()


def _deflate(band: bytes, level: int) -> tuple[bytes, int]:
    """A fresh compressor per band, ended by a sync flush: the bytes depend on this band only.
    Also the band's Adler-32, kept with its bytes."""
    key = (level, band)
    with _RECENT_LOCK:
        packed = _RECENT.get(key)
        if packed is not None:
            _RECENT.move_to_end(key)
            return packed
    c = zlib.compressobj(level, zlib.DEFLATED, -15, 9)
    packed = (c.compress(band) + c.flush(zlib.Z_SYNC_FLUSH), zlib.adler32(band))
    with _RECENT_LOCK:
        _RECENT[key] = packed
        while len(_RECENT) > _RECENT_MAX:
            _RECENT.popitem(last=False)
    return packed


@dataclass(frozen=True)
class PngReference:
    """A picture (the bare field in one palette) cut in bands of scanlines, each compressed once."""

    size: tuple[int, int]
    bands: tuple[bytes, ...]  # each band's scanlines (filter bytes and the P image's pixels)
    packed: tuple[bytes, ...]
    adlers: tuple[int, ...]


def png_reference(im: Image.Image) -> PngReference:
    bands, packed, adlers = scanline_bands(im), [], []
    for band in bands:
        c = zlib.compressobj(REFERENCE_LEVEL, zlib.DEFLATED, -15, 9)
        packed.append(c.compress(band) + c.flush(zlib.Z_SYNC_FLUSH))
        adlers.append(zlib.adler32(band))
    return PngReference(im.size, tuple(bands), tuple(packed), tuple(adlers))


def encode_png(im: Image.Image, level: int = 6, reference: PngReference | None = None) -> bytes:
    """A ``P`` image as PNG bytes, deflated in bands of :data:`BAND_ROWS` rows.

    Each band is compressed on its own, so its compressed bytes depend only on its pixels: a
    band identical to the same band of ``reference`` (the bare field, most of any board) reuses
    the bytes compressed once for it, and a band seen in a recent picture (the panels change
    little between actions) reuses those. The bands concatenate into one valid zlib stream (an
    empty final block and the Adler-32 of all rows close it). The result is a plain 8-bit
    palette PNG and a pure function of the pixels, the palette and ``level``.
    """
    if im.mode != "P":
        raise ValueError("encode_png wants a P image")
    return encode_png_bands(im.size, im.getpalette() or [], scanline_bands(im), level, reference)


def scanline_bands(im: Image.Image) -> list[bytes]:
    """A ``P`` image's scanlines (:func:`_scanlines`) cut in bands of :data:`BAND_ROWS` rows."""
    w, h = im.size
    lines, stride = _scanlines(im), w + 1
    return [lines[y0 * stride:min(h, y0 + BAND_ROWS) * stride] for y0 in range(0, h, BAND_ROWS)]


def encode_png_bands(size: tuple[int, int], palette: list[int], bands: Sequence[bytes | None], level: int = 6,
                     reference: PngReference | None = None) -> bytes:
    """:func:`encode_png` of a picture given as its bands of scanlines (:func:`scanline_bands`),
    None for a band known to be ``reference``'s (the board's renderer knows which bands it left
    bare without building them). The same bytes as ``encode_png`` of the whole picture."""
    ref = reference if reference is not None and reference.size == size else None
    parts = [b"\x78\xda"]
    adler = 1
    for i, band in enumerate(bands):
        if band is None or (ref is not None and band == ref.bands[i]):
            if ref is None:
                raise ValueError(f"band {i} is the reference's, and no reference of this size was given")
            band = ref.bands[i]
            packed, band_adler = ref.packed[i], ref.adlers[i]
        else:
            packed, band_adler = _deflate(band, level)
        parts.append(packed)
        adler = _adler_combine(adler, band_adler, len(band))
    parts.append(b"\x03\x00")  # an empty final block (fixed Huffman, end of block)
    parts.append(struct.pack(">I", adler & 0xFFFFFFFF))
    return _png_bytes(size, palette, b"".join(parts))


#: zlib level of :func:`encode_png_compact`. Measured on 200 replay boards 480 px wide (the
#: website's), the palette trimmed to the colours used: level 8 gives 19.8 kB a board in 14 ms,
#: level 9 19.5 kB in 28 ms, level 7 20.7 kB in 6 ms; Pillow's ``optimize=True`` 20.1 kB in
#: 28 ms, the bot's banded level 6 about 23 kB in 1.5 ms.
COMPACT_LEVEL = 8


def encode_png_compact(im: Image.Image, level: int = COMPACT_LEVEL) -> bytes:
    """A ``P`` image as PNG bytes, its rows deflated as one stream (``level``, the largest
    window and memory): smaller than :func:`encode_png`'s bands and slower, for pictures written
    once and kept (the league's website). A pure function of the pixels, the palette and
    ``level``."""
    if im.mode != "P":
        raise ValueError("encode_png_compact wants a P image")
    c = zlib.compressobj(level, zlib.DEFLATED, 15, 9)
    counts = im.histogram()  # pixels per palette index
    used = max((i for i, n in enumerate(counts) if n), default=0) + 1
    return _png(im, c.compress(_scanlines(im)) + c.flush(), used)


def _png(im: Image.Image, idat: bytes, colours: int = 256) -> bytes:
    """An 8-bit palette PNG of ``im``'s size and palette (its first ``colours`` entries at most:
    a board uses some 66 of its palette's 255, and the rest are 3 bytes each for nothing)
    around the zlib stream ``idat``."""
    return _png_bytes(im.size, im.getpalette() or [], idat, colours)


def _png_bytes(size: tuple[int, int], palette: list[int], idat: bytes, colours: int = 256) -> bytes:
    w, h = size
    colours = max(1, min(colours, 256, len(palette) // 3))
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)
    return b"".join((
        b"\x89PNG\r\n\x1a\n",
        _chunk(b"IHDR", ihdr),
        _chunk(b"PLTE", bytes(palette[: 3 * colours])),
        _chunk(b"IDAT", idat),
        _chunk(b"IEND", b""),
    ))
