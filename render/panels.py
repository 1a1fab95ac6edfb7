"""The panels above and below the field: teams and score, Test, Momentum, whose decision, and
each team's Bench, Recovery and Infirmary (with players sent off or ejected)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from PIL import Image, ImageDraw

from engine import Catalogue, Location, MatchState, SIDES

from . import palette as C
from .describe import OFF_FIELD_GROUPS, initials, status_line
from .layers import LABEL, Geometry, draw_text, text_length
from .tiles import Pen, Tile, TileCache, drawn_tile, tiles_wanted

__all__ = [
    "draw_header", "draw_footer", "draw_momentum_track", "draw_chip", "momentum_slot_centre", "team_icon", "stamp_team_icon",
    "MOMENTUM_PITCH", "ICONS", "SLOTS", "CHIPS",
    "OFF_FIELD_MARKS",
    "words",
]

MOMENTUM_PITCH = 0.74  # spacings between the centres of two Momentum slots
MOMENTUM_Y = 2.38  # centre line of the track, in spacings from the top

#: The pieces drawn once and pasted (``render.tiles``), by everything that decides their pixels:
#: the teams' icons, the Momentum track's empty slots (one tile a marker value and width), the
#: off-field chips. Full, at the bot's 720 px, they hold at most about 190, 180 and 570 kB of
#: pixels (0.95 MB; 1.8 MB at 1000 px; ``tests/render/test_render_tiles.py``), and some 140 kB
#: of hashes of the keys seen once.
ICONS = TileCache(96)
SLOTS = TileCache(16)
CHIPS = TileCache(192)


@cache
def words(language: str) -> Callable[..., str]:
    """The picture's words (``picture.*`` of the engine catalogue) in ``language``."""
    return Catalogue("engine", "data/text", language).t


OFF_FIELD_MARKS = {Location.SENT_OFF: "card", Location.EJECTED: "card", Location.INFIRMARY: "cross"}


def _fit(text: str, size: int, max_w: float) -> str:
    """``text``, shortened with an ellipsis to fit ``max_w`` pixels."""
    if text_length(text, size) <= max_w:
        return text
    while text and text_length(text + "…", size) > max_w:
        text = text[:-1]
    return text + "…"


def team_icon(d: ImageDraw.ImageDraw, side: str, x: float, y: float, r: float, fill: C.RGB, lw: int) -> None:
    """The side's token shape in its colour: a disc (west) or a rounded square (east)."""
    _icon(Pen(d), side, x, y, r, fill, lw)


def _icon(pen: Pen, side: str, x: float, y: float, r: float, fill: C.RGB, lw: int) -> None:
    lw = max(1, min(lw, int(r / 4)))
    if side == "west":
        pen.ellipse((x - r, y - r, x + r, y + r), fill=C.OUTLINE_LIGHT)
        pen.ellipse((x - r + lw, y - r + lw, x + r - lw, y + r - lw), fill=C.OUTLINE)
        pen.ellipse((x - r + 2 * lw, y - r + 2 * lw, x + r - 2 * lw, y + r - 2 * lw), fill=fill)
    else:
        h = r * 0.9
        pen.rounded_rectangle((x - h, y - h, x + h, y + h), radius=r * 0.25, fill=C.OUTLINE_LIGHT)
        pen.rounded_rectangle((x - h + lw, y - h + lw, x + h - lw, y + h - lw), radius=r * 0.2, fill=C.OUTLINE)
        pen.rounded_rectangle((x - h + 2 * lw, y - h + 2 * lw, x + h - 2 * lw, y + h - 2 * lw), radius=r * 0.15, fill=fill)


def _icon_tile(side: str, x: float, y: float, r: float, fill: C.RGB, lw: int) -> Tile | None:
    return ICONS.get((side, x, y, r, fill, lw),
                     lambda: drawn_tile((x - r, y - r, x + r, y + r), lambda pen: _icon(pen, side, x, y, r, fill, lw)))


def stamp_team_icon(canvas: Image.Image, d: ImageDraw.ImageDraw, side: str, x: float, y: float, r: float, fill: C.RGB,
                    lw: int) -> None:
    """:func:`team_icon`, pasted from a tile drawn once (``render.tiles``)."""
    tile = _icon_tile(side, x, y, r, fill, lw) if tiles_wanted() else None
    if tile is None:
        team_icon(d, side, x, y, r, fill, lw)
    else:
        tile.paste(canvas)


def momentum_slot_centre(g: Geometry, value: int) -> tuple[float, float]:
    """Pixel centre of Momentum slot ``value`` (0-6) in the header."""
    return (g.width / 2 + (value - 3) * MOMENTUM_PITCH * g.s, MOMENTUM_Y * g.s)


def draw_header(canvas: Image.Image, g: Geometry, state: MatchState, fills: dict[str, C.RGB], language: str = "en") -> None:
    t = words(language)
    d = ImageDraw.Draw(canvas)
    s = g.s
    lw = max(2, round(s * 0.06))
    w, e = state.teams["west"], state.teams["east"]
    name_size = g.fs(0.5)
    sub_size = g.fs(LABEL)
    half = g.width / 2
    max_name = half - 4.1 * s
    y1 = 0.72 * s
    # the teams: token shape and colour, name, and which tokens are theirs
    stamp_team_icon(canvas, d, "west", 0.62 * s, y1, 0.34 * s, fills["west"], lw)
    draw_text(canvas, (1.15 * s, y1), _fit(w.name, name_size, max_name), name_size, C.TEXT, "lm")
    draw_text(canvas, (1.15 * s, y1 + 0.62 * s), t("picture.west_tokens"), sub_size, C.TEXT_DIM, "lm")
    stamp_team_icon(canvas, d, "east", g.width - 0.62 * s, y1, 0.34 * s, fills["east"], lw)
    draw_text(canvas, (g.width - 1.15 * s, y1), _fit(e.name, name_size, max_name), name_size, C.TEXT, "rm")
    draw_text(canvas, (g.width - 1.15 * s, y1 + 0.62 * s), t("picture.east_tokens"), sub_size, C.TEXT_DIM, "rm")
    # the score and the Test
    score_size = g.fs(0.92)
    y_score = y1 + 0.05 * s
    d.line((half - 0.2 * s, y_score, half + 0.2 * s, y_score), fill=C.TEXT, width=max(2, round(0.08 * s)))
    draw_text(canvas, (half - 0.55 * s, y_score), str(w.score), score_size, C.TEXT, "rm")
    draw_text(canvas, (half + 0.55 * s, y_score), str(e.score), score_size, C.TEXT, "lm")
    goals = state.options.goals_to_win
    target = t("picture.target.one" if goals == 1 else "picture.target.many", goals=goals) if goals else t("picture.target.none")
    if state.deck is not None:
        target += " · " + t("picture.cards", left=state.deck.left)
    draw_text(canvas, (half, y1 + 0.82 * s), t("picture.test", test=state.test) + f" · {target}", sub_size, C.TEXT_DIM, "mm")
    _draw_momentum(canvas, d, g, state, fills, lw, t)
    # who must decide what
    side, text = status_line(state, language)
    y4 = 3.3 * s
    size = g.fs(0.42)
    text = _fit(text, size, g.width - 2.4 * s)
    x0 = half - text_length(text, size) / 2
    if side in fills:
        stamp_team_icon(canvas, d, side, x0 - 0.45 * s, y4, 0.25 * s, fills[side], max(1, lw // 2 + 1))
    draw_text(canvas, (x0, y4), text, size, C.TEXT, "lm")


def _draw_momentum(canvas: Image.Image, d: ImageDraw.ImageDraw, g: Geometry, state: MatchState,
                   fills: dict[str, C.RGB], lw: int, t: Callable[..., str]) -> None:
    """The Momentum track 0-6 with its label and the name of the team holding it."""
    s = g.s
    size = g.fs(LABEL)
    owner = state.momentum_side
    x0, y = momentum_slot_centre(g, 0)
    draw_momentum_track(canvas, d, g.width / 2, y, s, state.momentum, owner, fills.get(owner or "", (150, 150, 150)), lw)
    draw_text(canvas, (x0 - 0.5 * s, y), t("picture.momentum"), size, C.TEXT_DIM, "rm")
    x6, _ = momentum_slot_centre(g, 6)
    label = state.teams[owner].name if owner in state.teams else t("picture.nobody")
    room = g.width / 2 - 3.5 * MOMENTUM_PITCH * s - 1.2 * s
    draw_text(canvas, (x6 + 0.5 * s, y), _fit(label, size, room), size, C.TEXT if owner else C.TEXT_DIM, "lm")


def draw_momentum_track(canvas: Image.Image, d: ImageDraw.ImageDraw, cx: float, y: float, s: float, momentum: int,
                        owner: str | None, fill: C.RGB, lw: int) -> None:
    """The Momentum track 0-6 centred on ``cx, y``: seven slots, the marker on the current
    count in its owner's shape and colour (a plain disc when nobody holds it)."""
    value = max(0, min(6, momentum))
    slots = _slots_tile(cx, y, s, value, lw) if tiles_wanted() else None
    if slots is None:
        _slots(Pen(d, canvas), cx, y, s, value, lw)
    else:
        slots.paste(canvas)
    x = cx + (value - 3) * MOMENTUM_PITCH * s
    if owner:
        stamp_team_icon(canvas, d, owner, x, y, 0.36 * s, fill, lw)
    else:
        d.ellipse((x - 0.33 * s, y - 0.33 * s, x + 0.33 * s, y + 0.33 * s), fill=fill, outline=C.OUTLINE_LIGHT, width=lw)
    draw_text(canvas, (x, y), str(momentum), max(8, round(0.38 * s)), C.contrast_text(fill), "mm")


def _slots(pen: Pen, cx: float, y: float, s: float, value: int, lw: int) -> None:
    """The track's seven empty slots, numbered but for the marker's."""
    size = max(8, round(LABEL * s))
    half_box = 0.3 * s
    for v in range(7):
        x = cx + (v - 3) * MOMENTUM_PITCH * s
        pen.rounded_rectangle((x - half_box, y - half_box, x + half_box, y + half_box), radius=0.08 * s,
                              outline=C.PANEL_LINE, width=max(1, lw // 2), fill=C.FRAME)
        if v != value:
            pen.text((x, y), str(v), size, C.TEXT_DIM, "mm")


def _slots_tile(cx: float, y: float, s: float, value: int, lw: int) -> Tile | None:
    reach = 3 * MOMENTUM_PITCH * s + 0.3 * s
    box = (cx - reach, y - 0.3 * s, cx + reach, y + 0.3 * s)
    return SLOTS.get((cx, y, s, value, lw), lambda: drawn_tile(box, lambda pen: _slots(pen, cx, y, s, value, lw)))


def draw_chip(canvas: Image.Image, d: ImageDraw.ImageDraw, g: Geometry, side: str, x: float, y: float, text: str,
              fill: C.RGB, mark: str | None) -> None:
    """A small off-field token with the same shape cue as on the field (pasted from a tile
    drawn once: the same chips come back on every board)."""
    tile = _chip_tile(g.s, g.fs(LABEL), side, x, y, text, fill, mark) if tiles_wanted() else None
    if tile is None:
        _chip(Pen(d, canvas), g.s, g.fs(LABEL), side, x, y, text, fill, mark)
    else:
        tile.paste(canvas)


def _chip(pen: Pen, s: float, size: int, side: str, x: float, y: float, text: str, fill: C.RGB, mark: str | None) -> None:
    w = text_length(text, size) + 0.36 * s
    h = 0.29 * s
    lw = max(1, min(round(s * 0.05), int(h / 3)))
    if side == "west":
        pen.rounded_rectangle((x, y - h, x + w, y + h), radius=h, fill=C.OUTLINE)
        pen.rounded_rectangle((x + lw, y - h + lw, x + w - lw, y + h - lw), radius=h - lw, fill=fill)
    else:
        pen.rounded_rectangle((x, y - h, x + w, y + h), radius=0.06 * s, fill=C.OUTLINE_LIGHT)
        pen.rounded_rectangle((x + lw, y - h + lw, x + w - lw, y + h - lw), radius=0.05 * s, fill=C.OUTLINE)
        pen.rounded_rectangle((x + 2 * lw, y - h + 2 * lw, x + w - 2 * lw, y + h - 2 * lw), radius=0.04 * s, fill=fill)
    pen.text((x + w / 2, y), text, size, C.contrast_text(fill), "mm")
    if mark == "card":  # sent off or ejected: a red card on the corner
        cw, ch = 0.16 * s, 0.22 * s
        pen.rectangle((x + w - cw * 0.7, y - h - ch * 0.4, x + w + cw * 0.3, y - h + ch * 0.6), fill=C.CARD_RED,
                      outline=C.OUTLINE)
    elif mark == "cross":  # in the Infirmary: a red cross
        c = 0.11 * s
        cx, cy = x + w, y - h + 0.04 * s
        pen.rectangle((cx - c, cy - c, cx + c, cy + c), fill=(255, 255, 255), outline=C.OUTLINE)
        t = max(1, round(c * 0.45))
        pen.rectangle((cx - t / 2, cy - c * 0.75, cx + t / 2, cy + c * 0.75), fill=C.CARD_RED)
        pen.rectangle((cx - c * 0.75, cy - t / 2, cx + c * 0.75, cy + t / 2), fill=C.CARD_RED)


def _chip_tile(s: float, size: int, side: str, x: float, y: float, text: str, fill: C.RGB, mark: str | None) -> Tile | None:
    def draw() -> Tile | None:
        # a loose box: the card and the cross stick out above and right of the chip
        box = (x - 0.1 * s, y - 0.6 * s, x + text_length(text, size) + 0.7 * s, y + 0.4 * s)
        return drawn_tile(box, lambda pen: _chip(pen, s, size, side, x, y, text, fill, mark))

    return CHIPS.get((s, size, side, x, y, text, fill, mark), draw)


def draw_footer(canvas: Image.Image, g: Geometry, state: MatchState, fills: dict[str, C.RGB], language: str = "en") -> None:
    """Each team's players off the field, west on the left half, east on the right: the Bench,
    then (when anyone is there) Sent off, Recovery, Infirmary and Ejected, flowing over rows."""
    t = words(language)
    d = ImageDraw.Draw(canvas)
    s = g.s
    size = g.fs(LABEL)
    rows = [g.footer_top + 0.5 * s + i * 0.8 * s for i in range(4)]
    for k, side in enumerate(SIDES):
        x_min = 0.35 * s if k == 0 else g.width / 2 + 0.35 * s
        x_max = g.width / 2 - 0.35 * s if k == 0 else g.width - 0.35 * s
        inits = initials(state, side)
        players = state.team_players(side)
        on_field = sum(1 for p in players if p.on_field)
        draw_text(canvas, (x_min, rows[0]), t(f"picture.on_field.{side}", count=on_field),
                  size, C.TEXT, "lm")
        row, x = 1, x_min
        for loc, _ in OFF_FIELD_GROUPS:
            label = t(f"picture.group.{loc.value}")
            group = [p for p in players if p.location is loc]
            if not group and loc is not Location.BENCH:
                continue
            lab_w = text_length(label, size) + 0.2 * s
            chips = [f"{p.number}{inits[p.id]}" for p in group]
            widths = [text_length(c, size) + 0.5 * s for c in chips] or [text_length("-", size)]
            if x > x_min and x + lab_w + widths[0] > x_max:
                row, x = row + 1, x_min
            if row >= len(rows):
                break
            draw_text(canvas, (x, rows[row]), label, size, C.TEXT_DIM, "lm")
            x += lab_w
            if not group:
                draw_text(canvas, (x, rows[row]), "-", size, C.TEXT_DIM, "lm")
                x += widths[0]
            for chip, cw in zip(chips, widths):
                if x + cw > x_max:
                    row, x = row + 1, x_min + 0.3 * s
                    if row >= len(rows):
                        break
                draw_chip(canvas, d, g, side, x, rows[row], chip, fills[side], OFF_FIELD_MARKS.get(loc))
                x += cw
            x += 0.45 * s
