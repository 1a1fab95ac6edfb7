"""The website's pictures (``service.site.pictures``): a position asked for twice is drawn once,
the workers give the bytes drawing here gives, and a size budget stops the drawing."""

from __future__ import annotations

import io
from collections import Counter
from typing import Any

import pytest
from PIL import Image, ImageChops

import render
from render import board_image
from render.replay import action_frames, fuzz_history
from service.site import SiteTooLarge
from service.site.pictures import MIN_PARALLEL, Pictures, site_processes


@pytest.fixture(scope="module")
def frames():
    return action_frames(fuzz_history(3, max_commands=60))[:6]


def _counting(monkeypatch: pytest.MonkeyPatch) -> Counter[int]:
    """Counts the boards the renderer draws (in this process), by width."""
    drawn: Counter[int] = Counter()
    real = render.render_board

    def counted(state: Any, **kw: Any) -> bytes:
        drawn[kw["width"]] += 1
        return real(state, **kw)

    monkeypatch.setattr(render, "render_board", counted)
    return drawn


def test_a_board_asked_for_two_identical_positions_is_drawn_once(frames, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _counting(monkeypatch)
    first, second = frames[2], frames[3]
    pictures = Pictures()
    pictures.board("a.png", first.state, events=first.events, view=first.view, width=480, language="en")
    pictures.board("b.png", second.state, events=second.events, view=second.view, width=480, language="en")
    # The same position again, from equal (not the same) objects: a season's repeated board.
    again = action_frames(fuzz_history(3, max_commands=60))[2]
    assert again.state is not first.state
    pictures.board("c.png", again.state, events=again.events, view=again.view, width=480, language="en")
    pictures.board("d.png", first.state, events=first.events, view=first.view, width=720, language="en")
    assert len(pictures) == 3
    files: dict[str, bytes] = {}
    sizes: list[int] = []
    pictures.draw(files, budget=sizes.append, processes=0)
    assert drawn == Counter({480: 2, 720: 1}) and pictures.drawn == 3
    assert list(files) == ["a.png", "c.png", "b.png", "d.png"] and files["a.png"] == files["c.png"] != files["b.png"]
    assert sizes == [len(files[p]) for p in files]  # each file's size counted, the shared one twice
    # The picture is the board of that position, pixel for pixel.
    shown = Image.open(io.BytesIO(files["a.png"])).convert("RGB")
    expected = board_image(first.state, events=first.events, view=first.view, width=480).convert("RGB")
    assert ImageChops.difference(shown, expected).getbbox() is None


def test_a_budget_passed_stops_the_drawing(frames, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _counting(monkeypatch)
    pictures = Pictures()
    for i, f in enumerate(frames):
        pictures.board(f"{i}.png", f.state, events=f.events, view=f.view, width=480, language="en")

    def budget(size: int) -> None:
        if sum(drawn.values()) >= 2:
            raise SiteTooLarge(1)

    with pytest.raises(SiteTooLarge):
        pictures.draw({}, budget=budget, processes=0)
    assert sum(drawn.values()) == 2


def test_workers_draw_a_season_of_boards_only() -> None:
    assert site_processes(MIN_PARALLEL - 1, cpus=8) == 0  # a few boards: a worker's start costs more
    assert site_processes(500, cpus=1) == 0
    assert site_processes(500, cpus=2) == 2
    assert site_processes(500, cpus=64) == 4


@pytest.mark.slow  # worker processes
def test_the_workers_draw_the_bytes_drawn_here(frames) -> None:
    here: dict[str, bytes] = {}
    there: dict[str, bytes] = {}
    for files, processes in ((here, 0), (there, 2)):
        pictures = Pictures()
        for i, f in enumerate(frames):
            pictures.board(f"{i}.png", f.state, events=f.events, view=f.view, width=480, language="fr")
        pictures.draw(files, processes=processes)
    assert list(there) == list(here) and there == here
