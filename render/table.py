"""A plain table picture (title, header row, zebra rows) for league standings and team sheets,
in the pictures' font (``render.layers.font``: DejaVu Sans, which has the accented letters of
``Équipe`` and ``blessés``)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from . import palette as C
from .layers import font

__all__ = ["Column", "render_table"]

ROW_BG = (26, 36, 31)
ROW_ALT = (33, 45, 39)
HEAD_BG = (46, 114, 51)
ACCENT = C.YELLOW


def text_length(text: str, size: int) -> float:
    return float(font(size).getlength(text))


def draw_text(im: Image.Image, xy: tuple[float, float], text: str, size: int, fill: tuple[int, int, int],
              anchor: str = "la") -> None:
    if text:
        ImageDraw.Draw(im).text((round(xy[0]), round(xy[1])), text, font=font(size), fill=fill, anchor=anchor)


@dataclass(frozen=True)
class Column:
    title: str
    width: int  # pixels at scale 1
    align: str = "l"  # l / r / m


def _fit(text: str, size: int, width: float) -> str:
    if text_length(text, size) <= width:
        return text
    while text and text_length(text + "…", size) > width:
        text = text[:-1]
    return text + "…"


def _wrap(text: str, size: int, width: float) -> list[str]:
    """``text`` in as many lines as it needs to fit ``width`` (at spaces)."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and text_length(f"{lines[-1]} {word}", size) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def render_table(title: str, subtitle: str, columns: Sequence[Column], rows: Sequence[Sequence[str]], *,
                 marked: Sequence[set[int]] = (), notes: Sequence[str] = (), scale: float = 1.0) -> bytes:
    """PNG bytes of the table. ``marked[i]`` holds the column indices of row ``i`` drawn in the
    accent colour (a changed attribute, an ability waiting to be learned)."""
    pad, row_h, size = round(12 * scale), round(26 * scale), round(15 * scale)
    title_size, sub_size = round(24 * scale), round(14 * scale)
    widths = [round(c.width * scale) for c in columns]
    width = sum(widths) + 2 * pad
    top = pad + title_size + sub_size + round(14 * scale)
    note_lines = [line for note in notes for line in _wrap(note, sub_size, width - 2 * pad)]
    height = top + row_h * (len(rows) + 1) + pad + len(note_lines) * round(20 * scale)
    im = Image.new("RGB", (width, height), C.PANEL)
    d = ImageDraw.Draw(im)
    draw_text(im, (pad, pad), _fit(title, title_size, width - 2 * pad), title_size, C.TEXT)
    draw_text(im, (pad, pad + title_size + round(4 * scale)), _fit(subtitle, sub_size, width - 2 * pad), sub_size, C.TEXT_DIM)
    for r in range(len(rows) + 1):
        y = top + r * row_h
        d.rectangle((pad, y, width - pad, y + row_h), fill=HEAD_BG if r == 0 else (ROW_ALT if r % 2 else ROW_BG))
        cells = [c.title for c in columns] if r == 0 else list(rows[r - 1])
        x = pad
        for i, (col, w) in enumerate(zip(columns, widths, strict=True)):
            text = _fit(str(cells[i]) if i < len(cells) else "", size, w - 8 * scale)
            hot = r > 0 and r - 1 < len(marked) and i in marked[r - 1]
            colour = ACCENT if hot else C.TEXT
            cy = y + row_h / 2
            if col.align == "r":
                draw_text(im, (x + w - 4 * scale, cy), text, size, colour, anchor="rm")
            elif col.align == "m":
                draw_text(im, (x + w / 2, cy), text, size, colour, anchor="mm")
            else:
                draw_text(im, (x + 4 * scale, cy), text, size, colour, anchor="lm")
            x += w
    y = top + row_h * (len(rows) + 1) + round(6 * scale)
    for note in note_lines:
        draw_text(im, (pad, y), _fit(note, sub_size, width - 2 * pad), sub_size, C.TEXT_DIM)
        y += round(20 * scale)
    buf = io.BytesIO()
    im.save(buf, format="PNG", optimize=True)
    return buf.getvalue()
