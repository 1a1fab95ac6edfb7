"""Small pieces of a panel drawn once on a tile and pasted: the same pixels as drawing them in place.

The panels draw the same shapes on every board (the Momentum track's slots, the teams' icons,
the chips of the players off the field), and Pillow's ``rounded_rectangle`` is slow: its
corners are four pie slices, planned in Python (issue 33). So :func:`drawn_tile` draws a piece
once on a small transparent tile, and the board pastes the tile.

Why the pixels are exactly the same: the piece's drawing code is the same, given a
:class:`Pen` that takes canvas coordinates and shifts them by the tile's corner ``(ox, oy)``,
two *even* whole numbers no larger than any coordinate. Subtracting a whole number from a
float no smaller than it is exact; Pillow rounds coordinates half to even (in Python) and
truncates them (in C), and both commute with an even shift of non-negative numbers. So every
shape covers the same pixels, shifted. Text pastes its antialiased glyphs over what is already
there, so it must fall on opaque pixels of the tile: a tile whose alpha is not all 0 or 255,
or whose paint reaches its edge, would not paste exactly and is refused (the caller then draws
in place). Inside :func:`drawn_in_place` every piece is drawn in place (the tests compare both).
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from PIL import Image, ImageDraw

from . import palette as C
from .layers import draw_text

__all__ = ["Pen", "Tile", "TileCache", "drawn_tile", "drawn_in_place", "tiles_wanted"]

Box = tuple[float, float, float, float]


class _OffTile(Exception):
    """A coordinate outside the tile being drawn."""


class Pen:
    """``ImageDraw`` in canvas coordinates, drawing on ``image`` whose top-left pixel is the
    canvas's ``origin``: the canvas itself (origin ``(0, 0)``) or a tile."""

    def __init__(self, draw: ImageDraw.ImageDraw, image: Image.Image | None = None, origin: tuple[int, int] = (0, 0)):
        self.draw = draw
        self.image = image
        self.ox, self.oy = origin

    def _box(self, box: Box) -> Box:
        if not self.ox and not self.oy:
            return box
        x0, y0, x1, y1 = box[0] - self.ox, box[1] - self.oy, box[2] - self.ox, box[3] - self.oy
        assert self.image is not None
        if min(x0, y0) < 0 or x1 >= self.image.width or y1 >= self.image.height:
            raise _OffTile(box)
        return (x0, y0, x1, y1)

    def rounded_rectangle(self, box: Box, radius: float, fill: C.RGB | None = None, outline: C.RGB | None = None,
                          width: int = 1) -> None:
        self.draw.rounded_rectangle(self._box(box), radius=radius, fill=fill, outline=outline, width=width)

    def rectangle(self, box: Box, fill: C.RGB | None = None, outline: C.RGB | None = None, width: int = 1) -> None:
        self.draw.rectangle(self._box(box), fill=fill, outline=outline, width=width)

    def ellipse(self, box: Box, fill: C.RGB | None = None, outline: C.RGB | None = None, width: int = 1) -> None:
        self.draw.ellipse(self._box(box), fill=fill, outline=outline, width=width)

    def text(self, xy: tuple[float, float], text: str, size: int, fill: C.RGB, anchor: str = "la") -> None:
        """:func:`render.layers.draw_text` (which rounds ``xy`` to whole pixels)."""
        assert self.image is not None, "a pen without its image draws no text"
        x, y, _, _ = self._box((xy[0], xy[1], xy[0], xy[1]))
        draw_text(self.image, (x, y), text, size, fill, anchor)


@dataclass(frozen=True)
class Tile:
    """A drawn piece: an RGBA image whose alpha is 0 or 255, and where its corner goes."""

    image: Image.Image
    x: int
    y: int

    def paste(self, canvas: Image.Image) -> None:
        canvas.paste(self.image, (self.x, self.y), self.image)

    @property
    def nbytes(self) -> int:
        return self.image.width * self.image.height * 4


def _even_floor(v: float) -> int:
    return 2 * math.floor(v / 2)


def drawn_tile(box: Box, draw: Callable[[Pen], None]) -> Tile | None:
    """What ``draw`` paints within ``box`` (canvas coordinates; a loose box is fine), on a
    tile cropped to the paint. ``None`` when it would not paste exactly: antialiased text
    over transparent pixels, paint reaching the tile's edge or coordinates off it, or a box
    reaching above or left of the canvas (where Pillow's truncation is no floor)."""
    ox, oy = _even_floor(box[0]) - 2, _even_floor(box[1]) - 2
    if ox < 0 or oy < 0:
        return None
    size = (math.floor(box[2]) + 3 - ox, math.floor(box[3]) + 3 - oy)
    im = Image.new("RGBA", size, (0, 0, 0, 0))
    try:
        draw(Pen(ImageDraw.Draw(im), im, (ox, oy)))
    except _OffTile:
        return None
    alpha = im.getchannel("A")
    bbox = alpha.getbbox()
    if bbox is None:
        return None
    binary = all(v in (0, 255) for _, v in alpha.getcolors() or [(0, -1)])
    inside = bbox[0] > 0 and bbox[1] > 0 and bbox[2] < size[0] and bbox[3] < size[1]
    if not (binary and inside):
        return None
    return Tile(im.crop(bbox), ox + bbox[0], oy + bbox[1])


class TileCache:
    """At most ``maxsize`` tiles by key, the least recently used dropped first.

    A piece gets its tile the second time its key comes (the cache remembers the hashes of the
    last ``4 * maxsize`` keys seen once: a shared hash only makes a tile early): a tile costs
    about twice drawing in place, so a piece seen once (most of them, when a thousand matches
    take turns) is drawn in place. ``nbytes`` is what the tiles' pixels hold."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._tiles: OrderedDict[Hashable, Tile | None] = OrderedDict()
        self._seen: OrderedDict[int, None] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, draw: Callable[[], Tile | None]) -> Tile | None:
        """The tile kept for ``key``; or the one ``draw()`` makes (then kept) if the key came
        before; or ``None`` (draw in place) the first time."""
        with self._lock:
            if key in self._tiles:
                self._tiles.move_to_end(key)
                return self._tiles[key]
            seen = hash(key)
            if seen not in self._seen:
                self._seen[seen] = None
                while len(self._seen) > 4 * self.maxsize:
                    self._seen.popitem(last=False)
                return None
            del self._seen[seen]
        tile = draw()
        with self._lock:
            self._tiles[key] = tile
            while len(self._tiles) > self.maxsize:
                self._tiles.popitem(last=False)
        return tile

    def __len__(self) -> int:
        return len(self._tiles)

    @property
    def keys_seen_once(self) -> int:
        return len(self._seen)

    @property
    def nbytes(self) -> int:
        with self._lock:
            return sum(t.nbytes for t in self._tiles.values() if t is not None)

    def clear(self) -> None:
        with self._lock:
            self._tiles.clear()
            self._seen.clear()


_IN_PLACE: ContextVar[bool] = ContextVar("render_tiles_in_place", default=False)


def tiles_wanted() -> bool:
    """Whether pieces are pasted from tiles (not inside :func:`drawn_in_place`)."""
    return not _IN_PLACE.get()


@contextmanager
def drawn_in_place() -> Iterator[None]:
    """Draw every piece in place, no tile (in this thread or task): the reference the tiles
    are compared with."""
    token = _IN_PLACE.set(True)
    try:
        yield
    finally:
        _IN_PLACE.reset(token)
