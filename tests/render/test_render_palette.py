"""A board's colour indexes (``render.board.to_palette``): where a board still shows the bare
field, its indexes are the bare field's whatever the teams, so one compressed reference of the
field serves every pairing (issue 33: with more than 16 pairings in play, each board rebuilt its
pairing's reference, ~36 ms, and kept ~0.7 MB of it)."""

from __future__ import annotations

import itertools

from PIL import Image

from engine import all_team_lists
from render import palette as C
from render import render_board
from render.board import board_rgb, to_palette
from render.layers import BAND_ROWS, field_layer
from render.replay import fuzz_history

WIDTH = 720
LISTS = {t.id: t for t in all_team_lists()}


def _pairings(n: int) -> list[tuple[str, str]]:
    return list(itertools.islice(itertools.permutations(sorted(LISTS), 2), 0, None, 7))[:n]


def _with_teams(state, west: str, east: str):
    st = state.copy()
    st.teams["west"].colours = LISTS[west].colours
    st.teams["east"].colours = LISTS[east].colours
    return st


def test_the_bare_field_keeps_its_indexes_whatever_the_teams() -> None:
    # Pillow's quantizer matches a colour by its cell of the colour cube, so a team's shade in
    # the palette can move a field colour to another index (Divine Wind's white did): the bands
    # a board leaves alone are taken from the bare field instead.
    field = field_layer(WIDTH)
    bare = field.image.quantize(palette=C.build_palette(field.colours, ()), dither=Image.Dither.NONE).tobytes()
    state = fuzz_history(5)[3].state
    w = field.image.width
    pairings = _pairings(40)
    assert len(pairings) == 40
    for west, east in pairings:
        st = _with_teams(state, west, east)
        rgb = board_rgb(st, width=WIDTH)
        indexes = to_palette(rgb, st, WIDTH).tobytes()
        raw, field_raw = rgb.tobytes(), field.image.tobytes()
        untouched = [y for y in range(0, rgb.height, BAND_ROWS)
                     if raw[3 * y * w:3 * (y + BAND_ROWS) * w] == field_raw[3 * y * w:3 * (y + BAND_ROWS) * w]]
        assert len(untouched) > 5
        for y in untouched:
            assert indexes[y * w:(y + BAND_ROWS) * w] == bare[y * w:(y + BAND_ROWS) * w], (west, east, y)


def test_the_changed_bands_are_quantized_as_the_whole_picture_would_be() -> None:
    # Only where the board differs from the bare field does the palette decide, band by band,
    # exactly as quantizing the whole picture would.
    state = _with_teams(fuzz_history(5)[30].state, "divine-wind", "desert-dogs")
    rgb = board_rgb(state, width=WIDTH)
    whole = rgb.quantize(palette=C.build_palette(field_layer(WIDTH).colours, _fills(state)), dither=Image.Dither.NONE)
    field = field_layer(WIDTH).image.tobytes()
    raw, w = rgb.tobytes(), rgb.width
    ours, theirs = to_palette(rgb, state, WIDTH).tobytes(), whole.tobytes()
    for y in range(0, rgb.height, BAND_ROWS):
        if raw[3 * y * w:3 * (y + BAND_ROWS) * w] != field[3 * y * w:3 * (y + BAND_ROWS) * w]:
            assert ours[y * w:(y + BAND_ROWS) * w] == theirs[y * w:(y + BAND_ROWS) * w], y
    assert to_palette(rgb, state, WIDTH).getpalette() == whole.getpalette()


def test_boards_of_many_pairings_draw_and_keep_one_field_reference() -> None:
    state = fuzz_history(5)[3].state
    sizes = [len(render_board(_with_teams(state, w, e), width=WIDTH)) for w, e in _pairings(20)]
    assert min(sizes) > 10_000 and max(sizes) - min(sizes) < 0.1 * max(sizes)


def _fills(state) -> tuple[C.RGB, C.RGB]:
    fills = C.team_fills(state.teams["west"].colours, state.teams["east"].colours)
    return fills["west"], fills["east"]


def test_a_board_is_the_bytes_of_its_picture_in_its_palette() -> None:
    """``render_board`` builds the PNG from the changed bands alone (``_palette_bands``): the
    same bytes as the whole picture in its palette (``to_palette``) given to ``encode_png``,
    over a match's boards (with their events drawn) and many pairings."""
    from render.layers import encode_png, png_reference
    from render.replay import action_frames
    from service.drawing import LIVE_PNG_LEVEL

    frames = action_frames(fuzz_history(8))[::5]
    pairings = _pairings(12)
    reference = png_reference(to_palette(field_layer(WIDTH).image, frames[0].state, WIDTH))
    for i, frame in enumerate(frames):
        west, east = pairings[i % len(pairings)]
        st = _with_teams(frame.state, west, east)
        rgb = board_rgb(st, events=frame.events, width=WIDTH)
        whole = encode_png(to_palette(rgb, st, WIDTH), LIVE_PNG_LEVEL, reference)
        assert render_board(st, events=frame.events, width=WIDTH, compress_level=LIVE_PNG_LEVEL) == whole, i
