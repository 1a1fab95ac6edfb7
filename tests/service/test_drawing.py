"""Pictures drawn in worker processes (``service.drawing``): the same bytes as in the bot's own
process, a dead worker costs no post, and the setting is checked before the bot connects."""

from __future__ import annotations

import os
import signal
import time

import pytest

from render.replay import fuzz_history
from service.drawing import Drawing, batch_processes, render_processes
from support import ROOT

pytestmark = pytest.mark.slow  # picture worker processes


@pytest.fixture(scope="module")
def position():
    steps = fuzz_history(5)
    step = next(s for s in steps[len(steps) // 3:] if s.events and s.state.on_field())
    return step


@pytest.fixture(scope="module")
def workers():
    drawing = Drawing(1)
    drawing.warm(600, True, start=True)
    yield drawing
    drawing.close()


def _workers_of(drawing: Drawing) -> list[int]:
    pids = drawing.worker_pids()
    assert pids
    return pids


def _gone(pid: int, within: float = 10.0) -> bool:
    """Has process ``pid`` ended within ``within`` seconds?"""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_live_boards_are_drawn_in_the_bots_process_unless_the_operator_asks_for_workers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for cores in (1, 2, 16):  # one board per action: its hand-over to a worker costs more than it spares
        monkeypatch.setattr(os, "cpu_count", lambda cores=cores: cores)
        assert render_processes({}) == 0
    assert render_processes({"ELFBALL_RENDER_PROCESSES": " 0 "}) == 0
    assert render_processes({"ELFBALL_RENDER_PROCESSES": "3"}) == 3
    for bad in ("two", "-1", "17"):
        with pytest.raises(ValueError, match="ELFBALL_RENDER_PROCESSES"):
            render_processes({"ELFBALL_RENDER_PROCESSES": bad})


def test_a_batch_beside_the_live_boards_takes_one_spare_core_at_most(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert batch_processes({}) == 0  # no spare core: drawn in the bot's process
    assert batch_processes({"ELFBALL_RENDER_PROCESSES": "2"}) == 1
    monkeypatch.setattr(os, "cpu_count", lambda: 16)
    assert batch_processes({}) == 1  # the live answers keep the other cores
    assert batch_processes({"ELFBALL_RENDER_PROCESSES": "0"}) == 0  # the operator draws everything here
    assert batch_processes({"ELFBALL_RENDER_PROCESSES": "4"}) == 1
    with pytest.raises(ValueError, match="ELFBALL_RENDER_PROCESSES"):
        batch_processes({"ELFBALL_RENDER_PROCESSES": "many"})


def test_the_bot_refuses_a_bad_setting_before_connecting(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot import app

    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("ELFBALL_RENDER_PROCESSES", "many")
    monkeypatch.setattr("service.operations.upgrade_database", lambda: pytest.fail("migrated despite the bad setting"))
    monkeypatch.setattr(app.ElfballBot, "run", lambda *a, **k: pytest.fail("connected despite the bad setting"))
    with pytest.raises(SystemExit, match="ELFBALL_RENDER_PROCESSES is a number"):
        app.main()


def test_a_worker_draws_the_same_bytes_as_the_bot_itself(position, workers: Drawing) -> None:
    here = Drawing(0)
    args = dict(events=position.events, view=position.view)
    assert workers.board(position.state, width=600, language="fr", **args) == \
        here.board(position.state, width=600, language="fr", **args)
    board, close_up = workers.pair(position.state, width=600, language="en", **args)
    assert (board, close_up) == here.pair(position.state, width=600, language="en", **args)
    assert board.startswith(b"\x89PNG") and close_up is not None and close_up[1]
    assert workers.fallbacks == 0


def test_a_killed_worker_costs_no_picture_and_is_replaced(position) -> None:
    drawing = Drawing(1)
    try:
        expected = Drawing(0).board(position.state, events=position.events, width=600, language="en")
        assert drawing.board(position.state, events=position.events, width=600, language="en") == expected
        (pid,) = _workers_of(drawing)
        os.kill(pid, signal.SIGKILL)
        time.sleep(0.2)
        # The picture that found the pool broken is drawn here; the next one by a new worker.
        assert drawing.board(position.state, events=position.events, width=600, language="en") == expected
        assert drawing.fallbacks == 1
        assert drawing.board(position.state, events=position.events, width=600, language="en") == expected
        assert drawing.fallbacks == 1
        (new_pid,) = _workers_of(drawing)
        assert new_pid != pid
    finally:
        drawing.close()


def test_a_bot_warmed_at_start_has_no_worker_until_its_first_picture(position) -> None:
    """Warming (the bot's first background task) starts no worker: the first picture does, and
    that worker warms as it starts, then draws the same bytes as the bot itself would."""
    drawing = Drawing(1)
    try:
        drawing.warm(600, True)
        assert drawing.worker_pids() == []
        expected = Drawing(0).board(position.state, events=position.events, width=600, language="en")
        assert drawing.board(position.state, events=position.events, width=600, language="en") == expected
        assert len(_workers_of(drawing)) == 1 and drawing.fallbacks == 0
    finally:
        drawing.close()


def test_close_stops_the_workers(position) -> None:
    drawing = Drawing(1)
    drawing.board(position.state, width=600, language="en")
    (pid,) = _workers_of(drawing)
    drawing.close()
    if not _gone(pid):
        pytest.fail("the picture worker outlived close()")


def test_the_service_draws_its_posts_in_workers(position, workers: Drawing, sessions) -> None:
    """A whole outcome (board, close-up, another language on demand) through the service."""
    from service.matches import MatchService

    here = MatchService(sessions=sessions, render=True, width=600, close_ups=True)
    there = MatchService(sessions=sessions, render=True, width=600, close_ups=True, drawing=workers)
    state, events, view = position.state, list(position.events), position.view

    class _M:  # the outcome only reads the match's ids and language
        id = 1
        guild_id = 0
        deciding_user_id = None
        west_coach_id = east_coach_id = 0

    a = here._outcome(_M(), state, events, view)  # type: ignore[arg-type]
    b = there._outcome(_M(), state, events, view)  # type: ignore[arg-type]
    assert a.png == b.png and a.close_up_in("en") == b.close_up_in("en")
    assert a.png_in("fr") == b.png_in("fr") != b.png
    assert a.close_up_in("fr") == b.close_up_in("fr")


def test_a_worker_ends_with_the_bot_process(tmp_path) -> None:
    """A bot killed outright (SIGKILL, out of memory) must not leave its picture workers behind."""
    import subprocess
    import sys

    script = tmp_path / "bot.py"
    script.write_text(
        "import os, sys, time\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from service.drawing import Drawing\n"
        "from render.replay import fuzz_history\n"
        "if __name__ == '__main__':\n"
        "    d = Drawing(1)\n"
        "    d.board(fuzz_history(5)[0].state, width=300, language='en')\n"
        "    print(*d.worker_pids(), flush=True)\n"
        "    time.sleep(60)\n")
    bot = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        worker = int(bot.stdout.readline())
        os.kill(worker, 0)  # alive while the bot is
    finally:
        bot.kill()
        bot.wait()
    if not _gone(worker):
        os.kill(worker, signal.SIGKILL)
        pytest.fail("the picture worker outlived its killed bot")


def test_a_workers_error_is_raised_in_the_bot_and_the_worker_stays(position, workers: Drawing) -> None:
    # A drawing bug is the call's own error, as if drawn here, not a dead worker.
    with pytest.raises(ValueError) as here:
        Drawing(0).board(position.state, width=10, language="en")
    with pytest.raises(ValueError) as there:
        workers.board(position.state, width=10, language="en")
    assert str(there.value) == str(here.value)
    assert workers.fallbacks == 0
    assert workers.board(position.state, width=300, language="en").startswith(b"\x89PNG")


def test_many_calls_at_once_each_get_their_own_picture(position) -> None:
    import pickle
    from concurrent.futures import ThreadPoolExecutor

    here = Drawing(0)
    widths = [300, 320, 340, 360, 380, 400, 420, 440]
    expected = {w: here.board(position.state, events=position.events, width=w, language="en") for w in widths}
    drawing = Drawing(2)
    try:
        with ThreadPoolExecutor(8) as threads:  # the bot's threads, each waiting on its own answer
            got = dict(zip(widths, threads.map(
                lambda w: drawing.board(position.state, events=position.events, width=w, language="en"), widths)))
        assert got == expected
        jobs = [pickle.dumps((position.state, list(position.events), None, w, "en")) for w in widths]
        assert list(drawing.boards(jobs)) == [expected[w] for w in widths]  # several in flight per worker
        early = drawing.boards(jobs)
        assert next(early) == expected[300]
        early.close()  # the answers still on their way are dropped, never handed to the next caller
        assert drawing.board(position.state, events=position.events, width=440, language="en") == expected[440]
        assert drawing.fallbacks == 0
    finally:
        drawing.close()

