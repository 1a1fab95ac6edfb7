"""Colours of the board, and the fixed 256-colour palette every picture is reduced to.

Boards are drawn in RGB (anti-aliased text and sprites), then mapped onto a palette built from
the cached field layer plus the colours of the moment (team colours and their shades). Mapping
onto a given palette without dithering is a pure function of the pixels, so the same state
always gives the same bytes, and it costs a few milliseconds where an adaptive quantiser costs
tens (issue 4).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from PIL import Image

__all__ = [
    "RGB",
    "hex_to_rgb",
    "mix",
    "luminance",
    "contrast_text",
    "colour_distance",
    "team_fills",
    "UI_COLOURS",
    "build_palette",
    "PALETTE_SIZE",
    "UNUSED_INDEX",
    "FIELD_COLOURS",
]

RGB = tuple[int, int, int]

# -- the board -------------------------------------------------------------------------------
FRAME = (22, 32, 27)  # around the pitch
PANEL = (17, 24, 21)  # header and footer
PANEL_LINE = (52, 68, 60)
PITCH = (58, 136, 62)
PITCH_DARK = (46, 114, 51)  # the hex grid
PITCH_EDGE = (38, 92, 43)  # the pitch's rim beyond the outer line
LINE_HEX = (214, 232, 210)  # hexes the white outer line runs through
LINE_WHITE = (250, 250, 246)
LINE_TEXT = (30, 78, 38)  # coordinates printed on the outer-line hexes
CENTRE_TINT = (112, 170, 110)  # hexes the centre line runs through
YELLOW = (250, 214, 40)
ENTRY_TINT = (70, 128, 126)  # the dugout entry zones ("la zone en bleu")
STAIR = (230, 236, 240)
COMPASS_BG = (34, 48, 40)
COMPASS_FG = (236, 240, 236)
HEX_LABEL = (118, 178, 116)  # faint coordinates in every hex (option)

# -- text ------------------------------------------------------------------------------------
TEXT = (240, 242, 238)
TEXT_DIM = (168, 184, 174)
TEXT_DARK = (18, 18, 18)

# -- tokens and markers ----------------------------------------------------------------------
OUTLINE = (12, 12, 12)
OUTLINE_LIGHT = (255, 255, 255)
FRONT = (255, 255, 255)  # the front-half band and the facing pointer
BALL = (255, 140, 26)
BALL_DARK = (70, 30, 0)
BALL_SEAM = (255, 236, 200)
LAST_MOVED = (255, 212, 31)  # the yellow counter
ACTING = (64, 224, 255)  # the acting player's hex
ACTING_RING = (255, 255, 255)
DAZED_STARS = (255, 230, 60)
CARD_RED = (226, 38, 44)

# -- what just happened ----------------------------------------------------------------------
MOVE = (255, 255, 255)
CASING = (16, 16, 16)
THROW = (255, 157, 46)
INTERCEPT = (255, 92, 54)
BOUNCE = (255, 96, 220)
SHOVE = (232, 38, 43)
SHOVE_CASING = (255, 255, 255)

# -- the action view: what the acting player can do ------------------------------------------
REACH = (196, 228, 140)  # a hex he can walk to: lighter than the pitch, also in greyscale
REACH_EDGE = (126, 176, 84)
TARGET = SHOVE  # corner brackets around a legal target
VIEW_LABEL = (20, 46, 24)  # every hex's coordinate, dark on the pitch colours
VIEW_LABEL_HALO = (236, 244, 232)

#: Colours in a board's palette; index 255 stays free (the replays' transparent index).
PALETTE_SIZE = 255
UNUSED_INDEX = 255
#: How many of the field layer's own colours (its most frequent, after the fixed UI colours) a
#: palette takes. Its antialiased blends then fall on fewer colours, so the
#: PNG compresses better at no cost in drawing: 16 instead of ~190 makes a board ~18 % smaller
#: (67 -> 55 KB at 1000 px) and a close-up ~12 % (44 -> 39 KB), with no more error against the
#: drawn picture (issue 33; ``benchmarks/bench_bytes.py``).
FIELD_COLOURS = 16

UI_COLOURS: tuple[RGB, ...] = (
    FRAME, PANEL, PANEL_LINE, PITCH, PITCH_DARK, PITCH_EDGE, LINE_HEX, LINE_WHITE, LINE_TEXT,
    CENTRE_TINT, YELLOW, ENTRY_TINT, STAIR, COMPASS_BG, COMPASS_FG, HEX_LABEL, TEXT, TEXT_DIM,
    TEXT_DARK, OUTLINE, OUTLINE_LIGHT, BALL, BALL_DARK, BALL_SEAM, LAST_MOVED, ACTING,
    DAZED_STARS, CARD_RED, THROW, INTERCEPT, BOUNCE, SHOVE, REACH, REACH_EDGE, VIEW_LABEL, VIEW_LABEL_HALO,
    (128, 128, 128), (64, 64, 64),
    (192, 192, 192), (0, 0, 0),
    # blends the overlays make on the pitch
    (157, 196, 159), (210, 130, 100), (160, 110, 150), (240, 170, 110), (120, 200, 200),
)


def hex_to_rgb(text: str) -> RGB:
    t = text.strip().lstrip("#")
    if len(t) == 3:
        t = "".join(c * 2 for c in t)
    try:
        return (int(t[0:2], 16), int(t[2:4], 16), int(t[4:6], 16))
    except ValueError:
        return (128, 128, 128)


def mix(a: Sequence[int], b: Sequence[int], t: float) -> RGB:
    """``a`` moved a fraction ``t`` towards ``b``."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def luminance(c: Sequence[int]) -> float:
    """Relative luminance (WCAG), 0 black to 1 white."""

    def ch(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

    return 0.2126 * ch(c[0]) + 0.7152 * ch(c[1]) + 0.0722 * ch(c[2])


def contrast_text(fill: Sequence[int]) -> RGB:
    """Black or white, whichever reads better on ``fill``."""
    lum = luminance(fill)
    return TEXT_DARK if (lum + 0.05) / 0.05 > 1.05 / (lum + 0.05) else (255, 255, 255)


def colour_distance(a: Sequence[int], b: Sequence[int]) -> float:
    """A cheap perceptual distance ("redmean")."""
    rm = (a[0] + b[0]) / 2
    dr, dg, db = a[0] - b[0], a[1] - b[1], a[2] - b[2]
    return ((2 + rm / 256) * dr * dr + 4 * dg * dg + (2 + (255 - rm) / 256) * db * db) ** 0.5


def team_fills(west: Sequence[str], east: Sequence[str]) -> dict[str, RGB]:
    """The token colour of each side: its first colour, or east's second when the firsts clash.

    Colour is only one of the cues (the sides also differ in token shape and outline).
    """
    w = hex_to_rgb(west[0]) if west else (200, 200, 200)
    e = hex_to_rgb(east[0]) if east else (60, 60, 60)
    if colour_distance(w, e) < 120 and len(east) > 1:
        alt = hex_to_rgb(east[1])
        if colour_distance(w, alt) > colour_distance(w, e):
            e = alt
    return {"west": w, "east": e}


def _shades(c: RGB) -> list[RGB]:
    """The colours a token of fill ``c`` produces: itself, darkened (Dazed), and its edge blends."""
    return [
        c,
        mix(c, (0, 0, 0), 0.55),
        mix(c, (0, 0, 0), 0.3),
        mix(c, (255, 255, 255), 0.5),
        mix(c, PITCH, 0.5),
        mix(c, OUTLINE, 0.5),
        mix(c, (255, 255, 255), 0.25),
        mix(c, PANEL, 0.5),
    ]


#: Few palettes are kept: Pillow keeps a colour-cube cache of ~0.4 MB with each palette it
#: has quantized with (64 pairings in play held 27 MB in the picture worker), and a palette is
#: rebuilt in microseconds (its cache refills in ~1 ms of the next board): at 1,000 channels the
#: next board is nearly always another pairing's whatever is kept.
@lru_cache(maxsize=4)
def build_palette(base: tuple[RGB, ...], teams: tuple[RGB, ...]) -> Image.Image:
    """A P-mode image holding the board's palette: fixed UI colours, the field layer's
    :data:`FIELD_COLOURS` most frequent colours (``base``, most frequent first), then each team's
    shades, repeated to 255 entries (a repeat is never chosen: the first of equal colours wins),
    so that index 255 is never drawn and replays can use it for "unchanged" (GIF transparency).

    The teams come last so that the field's colours have the same indexes whatever the teams:
    the bare field, quantized once per width, is then every match's (``render.board``'s band
    reference), where one per pair of team colours had to be rebuilt (~36 ms) for each board
    once more than 16 pairings were in play."""
    colours: list[RGB] = []
    seen: set[RGB] = set()

    def add(cs: Iterable[RGB]) -> None:
        for c in cs:
            if c not in seen and len(colours) < PALETTE_SIZE:
                seen.add(c)
                colours.append(c)

    add(UI_COLOURS)
    add(base[:FIELD_COLOURS])
    for t in teams:
        add(_shades(t))
    colours += [colours[0]] * (PALETTE_SIZE - len(colours))
    pal = Image.new("P", (1, 1))
    pal.putpalette([v for c in colours for v in c])
    return pal
