"""The panels' pieces drawn once on tiles and pasted (issue 33: CPU per action): exactly the
pixels of drawing them in place, and caches that stay small.

``render.tiles.drawn_in_place()`` draws every piece in place as before the tiles; the boards,
legends and pieces drawn both ways must be the same bytes, not merely look alike (the goldens
allow a small tolerance).
"""

from __future__ import annotations

from contextlib import nullcontext

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw
from support.golden import golden_module

from render import palette as C
from render import panels, render_board
from render.layers import geometry
from render.legend import legend_image
from render.replay import action_frames, fuzz_history
from render.tiles import Pen, drawn_in_place, drawn_tile

CACHES = (panels.ICONS, panels.SLOTS, panels.CHIPS)


def clear_tiles() -> None:
    for cache in CACHES:
        cache.clear()


def fuzz_boards(seed: int, n: int) -> list:  # type: ignore[type-arg]
    frames = [f for f in action_frames(fuzz_history(seed)) if f.events]
    return frames[len(frames) // 3:len(frames) // 3 + n]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_boards_with_tiles_are_the_bytes_drawn_in_place(language: str) -> None:
    """Every golden scenario and some played positions, at the bot's width and the default:
    no tiles, then pieces drawn in place (their first time), tiles drawn afresh (their second)
    and tiles reused give the same PNG bytes."""
    module = golden_module()
    positions = [(sc.state, sc.events, sc.view) for sc in (make() for make in module.SCENARIOS.values())]
    positions += [(f.state, f.events, f.view) for f in fuzz_boards(5, 4)]
    for width in (720, 1000):
        for state, events, view in positions:
            kw = {"events": events, "view": view, "width": width, "language": language}
            with drawn_in_place():
                in_place = render_board(state, **kw)
            clear_tiles()
            assert [render_board(state, **kw) for _ in range(3)] == [in_place] * 3
    assert all(len(cache) for cache in CACHES)  # the boards did use the tiles


@pytest.mark.parametrize("language", ["en", "fr"])
def test_legend_with_tiles_is_the_picture_drawn_in_place(language: str) -> None:
    with drawn_in_place():
        in_place = legend_image(language).tobytes()
    clear_tiles()
    assert [legend_image(language).tobytes() for _ in range(3)] == [in_place] * 3


BACKGROUND = Image.effect_noise((160, 90), 60).convert("RGB")  # not flat: pastes must keep what is under


@settings(max_examples=150, deadline=None)
@given(
    x=st.floats(10, 90), y=st.floats(30, 70), side=st.sampled_from(["west", "east"]),
    text=st.sampled_from(["1A", "12Bo", "7", "10Zé"]), mark=st.sampled_from([None, "card", "cross"]),
    fill=st.sampled_from([(200, 30, 30), (250, 240, 60), (20, 20, 20)]), width=st.sampled_from([333, 720, 1000]),
)
def test_a_chip_or_an_icon_is_exact_at_any_fraction_of_a_pixel(x: float, y: float, side: str, text: str,
                                                                mark: str | None, fill: C.RGB, width: int) -> None:
    g = geometry(width)
    pictures = []
    for in_place in (True, False):
        clear_tiles()
        for _ in range(1 if in_place else 3):  # in place; then a fresh tile, a kept one
            canvas = BACKGROUND.copy()
            d = ImageDraw.Draw(canvas)
            with drawn_in_place() if in_place else nullcontext():
                panels.draw_chip(canvas, d, g, side, x, y, text, fill, mark)
                panels.stamp_team_icon(canvas, d, side, x + 40, y - 5, 0.36 * g.s, fill, max(2, round(g.s * 0.06)))
            pictures.append(canvas.tobytes())
    if width >= 600:  # pasted from real tiles (at 333 px a glyph may spill out of its chip: drawn in place)
        assert panels.CHIPS.nbytes and panels.ICONS.nbytes
    assert pictures[1:] == [pictures[0]] * 3


def test_a_tile_that_would_not_paste_exactly_is_refused() -> None:
    # antialiased text over transparent pixels: pasted, its edges would lose what is under them
    assert drawn_tile((10, 10, 60, 30), lambda pen: pen.text((12, 20), "Bench", 14, C.TEXT, "lm")) is None
    # paint beyond the box it was given
    assert drawn_tile((10, 10, 20, 20), lambda pen: pen.rectangle((12, 12, 40, 18), fill=C.TEXT)) is None
    # a box reaching off the canvas's top or left edge
    assert drawn_tile((0, 0, 20, 20), lambda pen: pen.rectangle((1, 1, 5, 5), fill=C.TEXT)) is None
    tile = drawn_tile((10, 10, 40, 30), lambda pen: pen.rounded_rectangle((12.3, 12.6, 30.5, 25.5), 4, fill=C.TEXT))
    assert tile is not None and tile.x % 1 == 0 and tile.image.getchannel("A").getextrema() == (0, 255)
    # and the same drawn in place on the canvas
    a, b = Image.new("RGB", (50, 40)), Image.new("RGB", (50, 40))
    Pen(ImageDraw.Draw(a), a).rounded_rectangle((12.3, 12.6, 30.5, 25.5), 4, fill=C.TEXT)
    tile.paste(b)
    assert a.tobytes() == b.tobytes()


def test_tile_caches_stay_bounded() -> None:
    """However many different chips, icons and tracks are drawn (each twice: a piece gets its
    tile the second time), each cache keeps its bound, so does its memory of keys seen once,
    and at the bot's width the three hold under a megabyte of pixels."""
    clear_tiles()
    g = geometry(720)
    canvas = Image.new("RGB", (g.width, g.height), C.PANEL)
    d = ImageDraw.Draw(canvas)
    y = g.footer_top + 0.5 * g.s
    for i in range(2000):
        k = i // 2  # each piece twice in a row
        side = ("west", "east")[k % 2]
        panels.draw_chip(canvas, d, g, side, 10 + k * 0.37, y, f"{k % 20 + 1}Ab", (200, 30, 30), (None, "card", "cross")[k % 3])
        panels.stamp_team_icon(canvas, d, side, 30 + k * 0.37, 0.72 * g.s, 0.36 * g.s, (200, 30, 30), 3)
        panels.draw_momentum_track(canvas, d, g.width / 2 + k % 9, 2.38 * g.s, g.s, k % 7, side, (1, 2, 3), 2)
        if i % 2 == 0:  # and a piece seen only once
            panels.draw_chip(canvas, d, g, side, 11 + k * 0.37, y, "1Z", (30, 30, 200), None)
    for cache in CACHES:
        assert len(cache) == cache.maxsize and cache.keys_seen_once <= 4 * cache.maxsize
    assert sum(cache.nbytes for cache in CACHES) < 1024 * 1024
