"""The legend: a picture of every mark the board and the action view use, with its meaning.

Every sample is drawn by the function that draws it on the board (``render.marks`` for tokens,
the ball, the counters and the traces; ``render.panels`` for the Momentum track and the
off-field chips), and the field's own markings (goal hex, outer line, stairway, ball spot) are
cut from the cached field picture itself, so the legend cannot drift from the board. Its words
are ``picture.legend.*`` of the engine catalogue, in English and French.

    png = render_legend("fr")
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from engine import Direction, standard_field

from . import marks as M
from . import palette as C
from .layers import Geometry, draw_text, encode_png, field_layer, geometry, text_length
from .panels import draw_chip, draw_momentum_track, words

__all__ = ["render_legend", "legend_image", "LEGEND_ITEMS", "LEGEND_WIDTH"]

LEGEND_WIDTH = 720
#: The legend's samples are at the scale of a board this wide (56 px a hex spacing).
SAMPLE_FIELD_WIDTH = 1316
#: Sample colours: a light and a dark team, so both text colours on tokens show.
WEST_FILL: C.RGB = (112, 204, 74)
EAST_FILL: C.RGB = (72, 44, 168)
TEXT_SIZE = 0.36
TITLE_SIZE = 0.5
SECTION_SIZE = 0.42
SAMPLE_W = 3.4  # spacings of sample on the left of each row
ROW_H = 1.3

#: (section, item) in the order the legend shows them; each item is one ``picture.legend.<item>``.
LEGEND_ITEMS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("players", ("west", "east", "standing", "down", "dazed", "carrier", "loose", "ball_beside", "counter")),
    ("action", ("acting", "reachable", "target", "string", "intercept")),
    ("last", ("move", "throw", "missed", "scatter", "bounce", "shove", "shove_blocked", "replacement")),
    ("field", ("momentum", "goal", "entry", "spot", "off_field")),
)

Sample = Callable[[Image.Image, ImageDraw.ImageDraw, float, float, float], None]


def _cells(x: float, s: float, n: int = 3) -> list[float]:
    """The centres of ``n`` hexes side by side (a row of the field) from ``x``."""
    return [x + (0.6 + i) * s for i in range(n)]


def _pitch(d: ImageDraw.ImageDraw, xs: list[float], y: float, s: float) -> None:
    for x in xs:
        d.polygon(M.hex_corners(x, y, s), fill=C.PITCH, outline=C.PITCH_DARK, width=max(1, round(s * 0.035)))


def _token(canvas: Image.Image, x: float, y: float, s: float, side: str = "west", status: str = "standing",
           facing: Direction | None = Direction.E, number: str = "2", initial: str = "H") -> None:
    M.token(canvas, x, y, s, side, WEST_FILL if side == "west" else EAST_FILL, status,
            int(facing) if facing is not None and status == "standing" else None, number, initial)


def _samples() -> dict[str, Sample]:
    """One drawing per legend item: ``(canvas, draw, x, y, s)`` draws it in the sample box whose
    left edge is ``x`` and middle line ``y``."""

    def west(c: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
        xs = _cells(x, s)
        _pitch(d, xs, y, s)
        _token(c, xs[1], y, s, "west")

    def east(c: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
        xs = _cells(x, s)
        _pitch(d, xs, y, s)
        _token(c, xs[1], y, s, "east", facing=Direction.W, number="4", initial="I")

    def standing(c: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
        xs = _cells(x, s)
        _pitch(d, xs, y, s)
        _token(c, xs[0], y, s, "west", facing=Direction.NE)
        _token(c, xs[2], y, s, "east", facing=Direction.SW, number="4", initial="I")

    def lying(status: str) -> Sample:
        def draw(c: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
            xs = _cells(x, s)
            _pitch(d, xs, y, s)
            _token(c, xs[0], y, s, "west", status)
            _token(c, xs[2], y, s, "east", status, number="4", initial="I")
        return draw

    def carrier(c: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
        xs = _cells(x, s)
        _pitch(d, xs, y, s)
        _token(c, xs[1], y - 0.1 * s, s, "west")
        M.carried_ball(c, xs[1], y - 0.1 * s, s)

    def loose(c: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
        xs = _cells(x, s)
        _pitch(d, xs, y, s)
        M.loose_ball(c, xs[1], y, s)

    def ball_beside(c: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
        xs = _cells(x, s)
        _pitch(d, xs, y, s)
        _token(c, xs[1], y, s, "west", facing=Direction.W, number="5", initial="T")
        M.ball_beside_token(c, xs[1], y, s)

    def counter(c: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
        xs = _cells(x, s)
        _pitch(d, xs, y, s)
        _token(c, xs[0], y + 0.1 * s, s, "west")
        M.last_moved_counter(c, xs[0], y + 0.1 * s, s, True)
        _token(c, xs[2], y, s, "east", "down", number="4", initial="I")
        M.last_moved_counter(c, xs[2], y, s, False)

    def acting(c: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
        xs = _cells(x, s)
        _pitch(d, xs, y, s)
        M.acting_hex(d, xs[1], y, s)
        _token(c, xs[1], y, s, "west")

    def reachable(c: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
        xs = _cells(x, s)
        _pitch(d, xs, y, s)
        M.acting_hex(d, xs[0], y, s)
        for cx in xs[1:]:
            M.reachable_hex(d, cx, y, s)
        _token(c, xs[0], y, s, "west")

    def target(c: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
        xs = _cells(x, s)
        _pitch(d, xs, y, s)
        M.acting_hex(d, xs[0], y, s)
        _token(c, xs[0], y, s, "west")
        _token(c, xs[1], y, s, "east", facing=Direction.W, number="4", initial="I")
        M.target_mark(d, xs[1], y, s)

    def string(c: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
        xs = _cells(x, s)
        _pitch(d, xs, y, s)
        M.passing_string(d, (xs[0], y), (xs[2], y), s)
        _token(c, xs[0], y, s, "west")
        M.carried_ball(c, xs[0], y, s)
        _token(c, xs[2], y, s, "west", facing=Direction.W, number="5", initial="T")
        M.target_mark(d, xs[2], y, s)

    def intercept(c: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
        xs = _cells(x, s)
        _pitch(d, xs, y, s)
        _token(c, xs[1], y, s, "east", facing=Direction.W, number="4", initial="I")
        M.intercept_hex(d, xs[1], y, s)

    def move(c: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
        xs = _cells(x, s)
        _pitch(d, xs, y, s)
        M.move_trace(d, [(cx, y) for cx in xs], s, start_free=True, end_gap=0.5 * s, token_gap=0.5 * s)
        _token(c, xs[2], y, s, "west")

    def throw(c: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
        xs = _cells(x, s)
        _pitch(d, xs, y, s)
        M.throw_trace(d, (xs[0], y), (xs[2], y), s, 0.5 * s, 0.5 * s)
        _token(c, xs[0], y, s, "west", number="5", initial="T")
        _token(c, xs[2], y, s, "west", facing=Direction.W)
        M.carried_ball(c, xs[2], y, s)

    def missed(c: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
        xs = _cells(x, s)
        _pitch(d, xs, y, s)
        M.missed_target(d, xs[1], y, s)

    def scatter(c: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
        xs = _cells(x, s)
        _pitch(d, xs, y, s)
        M.scatter_trace(d, (xs[0], y), (xs[2], y), s, 0.2 * s)
        M.loose_ball(c, xs[2], y, s)

    def bounce(c: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
        xs = _cells(x, s)
        _pitch(d, xs, y, s)
        M.line_stop(d, xs[0], y, s)
        M.bounce_trace(d, (xs[0], y), (xs[2], y), s, 0.2 * s)
        M.loose_ball(c, xs[2], y, s)

    def shove(c: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
        xs = _cells(x, s)
        _pitch(d, xs, y, s)
        M.shove_origin(d, xs[1], y, s)
        _token(c, xs[0], y, s, "west")
        _token(c, xs[2], y, s, "east", facing=Direction.W, number="4", initial="I")
        M.shove_arrow(d, (xs[1], y), (xs[2], y), s)

    def shove_blocked(c: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
        xs = _cells(x, s)
        _pitch(d, xs, y, s)
        _token(c, xs[0], y, s, "west")
        _token(c, xs[1], y, s, "east", facing=Direction.W, number="4", initial="I")
        M.shove_blocked(d, xs[1], y, s)
        _token(c, xs[2], y, s, "east", facing=Direction.W, number="6", initial="S")

    def replacement(c: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
        xs = _cells(x, s)
        _pitch(d, xs, y, s)
        M.replacement_trace(d, (xs[0] - 0.3 * s, y), (xs[2], y), s, 0.5 * s)
        _token(c, xs[2], y, s, "west", number="7", initial="S")

    def momentum(c: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
        k = 0.68  # the track is seven slots wide: drawn smaller to fit the sample
        draw_momentum_track(c, d, x + SAMPLE_W * s / 2, y, s * k, 2, "west", WEST_FILL, max(1, round(0.06 * s * k)))

    def off_field(c: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
        g = geometry(SAMPLE_FIELD_WIDTH)
        draw_chip(c, d, g, "west", x + 0.2 * s, y, "3S", WEST_FILL, "card")
        draw_chip(c, d, g, "east", x + 1.8 * s, y, "5I", EAST_FILL, "cross")

    return {
        "west": west, "east": east, "standing": standing, "down": lying("down"), "dazed": lying("dazed"),
        "carrier": carrier, "loose": loose, "ball_beside": ball_beside, "counter": counter, "acting": acting, "reachable": reachable,
        "target": target, "string": string, "intercept": intercept, "move": move, "throw": throw,
        "missed": missed, "scatter": scatter, "bounce": bounce, "shove": shove, "shove_blocked": shove_blocked,
        "replacement": replacement, "momentum": momentum, "off_field": off_field,
    }


#: Items cut from the field picture: the hex near the middle of the sample, and how far (in
#: spacings) the middle is from it (the stairway lies outside the rim, up and left of D4).
_FIELD_CUTS = {"goal": ("B12", 0.0, 0.0), "entry": ("D5", -0.5, -0.55), "spot": ("K12", 0.0, 0.0)}


def _field_cut(canvas: Image.Image, g: Geometry, cut: tuple[str, float, float], x: float, y: float, s: float) -> None:
    """Paste the field picture around a hex into the sample box at ``x, y``."""
    label, dx, dy = cut
    hx, hy = g.hex_px(standard_field().parse(label))
    hx, hy = hx + dx * s, hy + dy * s
    w, h = round(SAMPLE_W * s), round((ROW_H - 0.1) * s)
    box = (round(hx - w / 2), round(hy - h / 2), round(hx - w / 2) + w, round(hy - h / 2) + h)
    canvas.paste(field_layer(g.width).image.crop(box), (round(x), round(y - h / 2)))


def _wrap(text: str, size: int, width: float) -> list[str]:
    lines: list[str] = []
    cur = ""
    for word in text.split():
        trial = f"{cur} {word}".strip()
        if cur and text_length(trial, size) > width:
            lines.append(cur)
            cur = word
        else:
            cur = trial
    if cur:
        lines.append(cur)
    return lines


def legend_image(language: str = "en", *, width: int = LEGEND_WIDTH) -> Image.Image:
    """The legend as an RGB image; see :func:`render_legend`."""
    t = words(language)
    g = geometry(SAMPLE_FIELD_WIDTH)
    s = g.s
    text_size, section_size, title_size = round(TEXT_SIZE * s), round(SECTION_SIZE * s), round(TITLE_SIZE * s)
    samples = _samples()
    text_x = (SAMPLE_W + 0.6) * s
    text_w = width - text_x - 0.3 * s
    rows = sum(len(items) for _, items in LEGEND_ITEMS)
    height = round((1.2 + len(LEGEND_ITEMS) * 0.9 + rows * ROW_H + 0.3) * s)
    canvas = Image.new("RGB", (width, height), C.PANEL)
    d = ImageDraw.Draw(canvas)
    draw_text(canvas, (0.3 * s, 0.6 * s), t("picture.legend.title"), title_size, C.TEXT, "lm")
    y = 1.2 * s
    for section, items in LEGEND_ITEMS:
        d.line((0.3 * s, y + 0.1 * s, width - 0.3 * s, y + 0.1 * s), fill=C.PANEL_LINE, width=max(1, round(0.04 * s)))
        draw_text(canvas, (0.3 * s, y + 0.5 * s), t(f"picture.legend.section.{section}"), section_size, C.TEXT_DIM, "lm")
        y += 0.9 * s
        for item in items:
            mid = y + ROW_H * s / 2
            x = 0.3 * s
            if item in _FIELD_CUTS:
                _field_cut(canvas, g, _FIELD_CUTS[item], x, mid, s)
            else:
                samples[item](canvas, d, x, mid, s)
            lines = _wrap(t(f"picture.legend.{item}"), text_size, text_w)
            top = mid - (len(lines) - 1) * 0.24 * s
            for i, line in enumerate(lines):
                draw_text(canvas, (text_x, top + i * 0.48 * s), line, text_size, C.TEXT, "lm")
            y += ROW_H * s
    return canvas


@lru_cache(maxsize=4)
def render_legend(language: str = "en") -> bytes:
    """PNG bytes of the legend in ``language`` (``en``, ``fr``): what every mark means."""
    rgb = legend_image(language)
    palette = C.build_palette(field_layer(SAMPLE_FIELD_WIDTH).colours, (WEST_FILL, EAST_FILL))
    return encode_png(rgb.quantize(palette=palette, dither=Image.Dither.NONE), 9)
