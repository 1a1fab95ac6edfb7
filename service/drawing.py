"""Where a post's pictures are drawn: in this process, or in worker processes of their own.

A picture drawn here holds the interpreter's lock for most of its CPU, and every other
interaction's thread (a database round trip, an upload to Discord) waits for the lock behind
it. When a post carried a 1000-px board and its close-up (~15 ms), those waits set the answer's
delay, and drawing in worker processes (``processes`` > 0) cut the p95 at 1,000 channels from
304 to 147 ms. A post now carries one 720-px board (~5 ms): drawn in the bot's own process
(``processes=0``, the bot's default since 2026-11-27) the same load answers within the same
p95 (44-50 ms) for ~3 ms less CPU per action, the pickles and pipe hand-overs to a worker and
back, and ~15 MB less memory (docs/benchmarks.md, "CPU per action, sixth round"). Workers are
still there for an operator who sets ``ELFBALL_RENDER_PROCESSES``, and for a league's website
(hundreds of boards at once, :func:`batch_processes`).

The pictures are the same bytes either way (the renderer is a pure function of its arguments;
the state and events travel by pickle). Worker processes are started with ``spawn`` (the bot
process has threads, which ``fork`` must not copy) and each warms its caches once. A worker
that dies (killed, out of memory) costs no post: that picture is drawn here instead and a
fresh worker serves the next one.

Each worker is one process and one pipe: the calling thread sends the pickled call and waits
for the answer on the pipe. ``concurrent.futures.ProcessPoolExecutor`` did the same through a
manager thread, a feeder thread and a call queue: four thread hand-overs and two more pickles
per picture, ~1.8 ms of CPU per action between the bot and its worker at 1,000 channels
(``bench_load.py``'s profile, docs/benchmarks.md).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import multiprocessing
import multiprocessing.connection
import os
import pickle
import threading
from collections import deque
from collections.abc import Generator, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from engine import MatchState

__all__ = ["BOARD_WIDTH", "LIVE_PNG_LEVEL", "Board", "Drawing", "batch_processes", "release_free_memory",
           "render_processes"]

#: The bot's board, in pixels across. Discord shows a picture inline at a phone's width (~390 px)
#: or ~550 px on a desktop, the same size whatever the file's width, so the width only matters
#: when a member opens the picture: at 720 px the rim's coordinates and the footer's chips are
#: 10 px (DejaVu Sans, 8 px of ink for "K12"), a token's number 13 px and its initial 10 px, at
#: or above the 9 px the close-up holds itself to on a phone (``render.view.PHONE_MIN_PX``);
#: only a lying token's four-character label falls to 8 px (the close-up shows it large). A
#: board is ~39 KB there against ~56 KB at 1000 px (docs/benchmarks.md, "Bytes per action").
BOARD_WIDTH = 720

#: zlib level of a live board (the one a post carries: every action draws and uploads one).
#: Over a seeded match's boards at 720 px, the band cache empty as at 1,000 channels, the
#: standard zlib's level 6 encodes a board in ~3.8 ms at 38.5 KB, 5 in ~2.8 ms at 40.9 KB, 4 in
#: ~2.3 ms at 43.2 KB. zlib-ng (``render.layers``) deflates a band at level 5 in 0.100 ms to
#: 1,190 bytes where zlib took 0.164 ms to 1,266 (its level 4: 0.084 ms, 1,281 bytes; 6: 0.129 ms,
#: 1,134 bytes). A whole match uploads 138 KB per action at level 5 against issue 33's budget of
#: 150 (``tests/e2e/test_bot_bytes.py``; 143 KB with the standard zlib, whose level 3 went over).
LIVE_PNG_LEVEL = 5

#: One board to draw: the state, its events, the view while paused, the width, the language.
Board = tuple[MatchState, list[Any], MatchState | None, int, str]

log = logging.getLogger(__name__)

ENV = "ELFBALL_RENDER_PROCESSES"


def _given(env: Mapping[str, str]) -> int | None:
    given = (env.get(ENV) or "").strip()
    if not given:
        return None
    try:
        n = int(given)
    except ValueError:
        raise ValueError(f"{ENV} is a number of processes (0 draws in the bot's own), not {given!r}") from None
    if not 0 <= n <= 16:
        raise ValueError(f"{ENV} is between 0 and 16, not {n}")
    return n


def render_processes(environ: Mapping[str, str] | None = None) -> int:
    """Worker processes for the bot's live boards: ``ELFBALL_RENDER_PROCESSES``, else none (drawn
    in the bot's process: one board per action costs less there than its hand-over to a worker,
    see the module's text)."""
    given = _given(os.environ if environ is None else environ)
    return 0 if given is None else given


def batch_processes(environ: Mapping[str, str] | None = None) -> int:
    """Worker processes for a batch the bot draws beside its live boards (a league's website,
    hundreds of boards): one where a core is spare, so the live answers keep the bot's core;
    none on one core or when the operator draws everything in the bot's process
    (``ELFBALL_RENDER_PROCESSES=0``)."""
    given = _given(os.environ if environ is None else environ)
    spare = max(0, (os.cpu_count() or 1) - 1)
    return min(1, spare if given is None else given)


# -- what a worker runs (module-level: they travel to the worker by name) ----------------------
def _board(state: MatchState, events: list[Any], view: MatchState | None, width: int, language: str) -> bytes:
    from render import render_board

    try:
        return render_board(state, events=events, view=view, width=width, language=language,
                            compress_level=LIVE_PNG_LEVEL)
    finally:
        _drawn()


def _pickled_board(job: bytes) -> bytes:
    return _board(*pickle.loads(job))


def _pickled_compact_board(job: bytes) -> bytes:
    from render import render_action_view, render_board

    state, events, view, width, language, *kind = pickle.loads(job)
    try:
        if kind == ["close"]:  # a website's close-up for phones (b"" where nothing is decided)
            return render_action_view(state, events=events, view=view, width=width, language=language) or b""
        return render_board(state, events=events, view=view, width=width, language=language, compact=True)
    finally:
        _drawn()


def _close_up(state: MatchState, events: list[Any], view: MatchState | None, language: str) -> tuple[bytes, str] | None:
    from render import action_view_alt, render_action_view

    try:
        picture = render_action_view(state, events=events, view=view, language=language)
        return None if picture is None else (picture, action_view_alt(state, language, view=view))
    finally:
        _drawn()


#: In a worker, the heap is handed back every this many pictures (a pair leaves ~8 MB of freed
#: buffers in the process; handing them back takes well under a millisecond).
TRIM_EVERY = 16
_worker = {"is": False, "drawn": 0}


def _drawn() -> None:
    if _worker["is"]:
        _worker["drawn"] += 1
        if _worker["drawn"] % TRIM_EVERY == 0:
            release_free_memory()


def _start_worker(warm: tuple[int, bool] | None) -> None:
    """A worker's start: it ends when the bot's process does, and warms its caches."""
    parent = multiprocessing.parent_process()
    _worker["is"] = parent is not None
    if parent is not None:
        # The bot killed outright (SIGKILL, out of memory) closes the pipe, but a worker sees
        # that only at its next read: watching the parent ends it at once, memory and all.
        def watch() -> None:
            multiprocessing.connection.wait([parent.sentinel])
            os._exit(0)

        threading.Thread(target=watch, name="elfball-parent-watch", daemon=True).start()
    if warm is not None:
        _warm(*warm)


def _ready() -> bool:
    return True


def _serve(conn: multiprocessing.connection.Connection, warm: tuple[int, bool] | None) -> None:
    """A worker's life: answer each call sent on ``conn`` in order, until the bot closes it."""
    _start_worker(warm)
    while True:
        try:
            fn, args = pickle.loads(conn.recv_bytes())
        except (EOFError, OSError):  # the bot closed the pipe, or is gone
            return
        try:
            answer: tuple[bool, Any] = (True, fn(*args))
        except Exception as exc:  # noqa: BLE001 - raised again in the bot, as the call's own error
            answer = (False, exc)
        try:
            data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # noqa: BLE001 - an error that does not pickle is still one
            data = pickle.dumps((False, RuntimeError(f"picture worker: {exc!r}")))
        try:
            conn.send_bytes(data)
        except OSError:
            return


def _warm(width: int, close_up: bool) -> None:
    """Draw a board (and a close-up) of a fresh match: the renderer's fields are cached."""
    from engine import SeededDice, TeamEntry, default_roster, new_match, team_list

    west, east = team_list("gnolls"), team_list("sarcos")
    state = new_match(TeamEntry(west.name, default_roster(west)), TeamEntry(east.name, default_roster(east)),
                      SeededDice(1)).state
    _board(state, [], None, width, "en")
    if close_up:
        _close_up(state, [], None, "en")
    release_free_memory()


def _libc_trim() -> Any:
    name = ctypes.util.find_library("c")
    try:
        return getattr(ctypes.CDLL(name), "malloc_trim", None) if name else None
    except OSError:
        return None


_TRIM = _libc_trim()


def release_free_memory() -> bool:
    """Give the memory the C allocator keeps after big temporary pictures back to the system.

    The renderer's layers are drawn supersampled once per width (a close-up's field is drawn
    1,567 px wide, several times that while supersampled): Pillow frees those buffers, but
    glibc keeps the freed heap in the process, and a warmed worker stayed at about 330 MB
    resident for 90 MB in use (see docs/memory.md). ``malloc_trim`` hands it back; on a C
    library without it (musl, macOS) this does nothing. True if it ran."""
    if _TRIM is None:
        return False
    _TRIM(0)
    return True


#: Draws a close-up while the calling thread draws its board, when drawing in this process
#: (Pillow lets go of the interpreter's lock while it draws and compresses). One for all.
_SIDE = ThreadPoolExecutor(max_workers=2, thread_name_prefix="elfball-picture")


class _WorkerGone(Exception):
    """The worker died (or its pipe closed) before it answered."""


class _Worker:
    """One picture process and the pipe to it. Calls are answered in the order they were sent;
    any thread may send one, and the thread that reads an answer meant for another keeps it for
    that caller (``boards`` has several in flight)."""

    def __init__(self, warm: tuple[int, bool] | None) -> None:
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs, warm), name="elfball-picture", daemon=True)
        self.process.start()
        theirs.close()
        self._conn = ours
        self._send_lock = threading.Lock()
        self._receive_lock = threading.Lock()
        self._sent = 0
        self._received = 0
        self._answers: dict[int, bytes] = {}
        self._dropped: set[int] = set()
        self.broken = False

    @property
    def waiting(self) -> int:
        """Calls sent and not yet answered."""
        return self._sent - self._received

    def send(self, fn: Any, args: tuple[Any, ...]) -> int:
        """Send ``fn(*args)``; the ticket to receive its answer with."""
        payload = pickle.dumps((fn, args), protocol=pickle.HIGHEST_PROTOCOL)
        with self._send_lock:
            if self.broken:
                raise _WorkerGone()
            try:
                self._conn.send_bytes(payload)
            except (OSError, ValueError):
                self.broken = True
                raise _WorkerGone() from None
            ticket = self._sent
            self._sent += 1
        return ticket

    def receive(self, ticket: int) -> Any:
        """The answer to call ``ticket`` (its error raised again here)."""
        with self._receive_lock:
            while ticket not in self._answers:
                if self.broken:
                    raise _WorkerGone()
                try:
                    data = self._conn.recv_bytes()
                except (EOFError, OSError):
                    self.broken = True
                    raise _WorkerGone() from None
                n, self._received = self._received, self._received + 1
                if n in self._dropped:
                    self._dropped.discard(n)
                else:
                    self._answers[n] = data
            data = self._answers.pop(ticket)
        ok, value = pickle.loads(data)
        if not ok:
            raise value
        return value

    def drop(self, ticket: int) -> None:
        """Nobody will receive ``ticket``'s answer: discard it when it comes."""
        with self._receive_lock:
            if self._answers.pop(ticket, None) is None and ticket >= self._received:
                self._dropped.add(ticket)

    def stop(self) -> None:
        """Close the pipe (the worker ends at its next read) and wait for the process."""
        self.broken = True
        self._conn.close()
        self.process.join(timeout=10)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout=5)


#: A call sent: the worker and the ticket of its answer (no worker, or no ticket: draw here).
_Sent = tuple["_Worker | None", "int | None"]


class Drawing:
    """Draws boards and close-ups, here (``processes=0``) or in that many worker processes."""

    def __init__(self, processes: int = 0) -> None:
        if processes < 0:
            raise ValueError("processes is 0 or more")
        self.processes = processes
        self._workers: list[_Worker] | None = None
        self._lock = threading.Lock()
        self._warm_args: tuple[int, bool] | None = None
        self._side = _SIDE if processes == 0 else None
        #: Pictures a dead worker made us draw here (for tests and logs).
        self.fallbacks = 0

    def __repr__(self) -> str:
        return f"Drawing(processes={self.processes})"

    # -- the pictures -------------------------------------------------------------------------
    def board(self, state: MatchState, *, events: Iterable[Any] = (), view: MatchState | None = None,
              width: int, language: str) -> bytes:
        return self._call(_board, state, list(events), view, width, language)

    def close_up(self, state: MatchState, *, events: Iterable[Any] = (), view: MatchState | None = None,
                 language: str) -> tuple[bytes, str] | None:
        return self._call(_close_up, state, list(events), view, language)

    def pair(self, state: MatchState, *, events: Iterable[Any] = (), view: MatchState | None = None,
             width: int, language: str) -> tuple[bytes, tuple[bytes, str] | None]:
        """The board and the close-up of one position, drawn side by side."""
        evs = list(events)
        if self._side is not None:
            later = self._side.submit(_close_up, state, evs, view, language)
            return _board(state, evs, view, width, language), later.result()
        close_up = self._submit(_close_up, state, evs, view, language)
        board = self._call(_board, state, evs, view, width, language)
        return board, self._result(close_up, _close_up, state, evs, view, language)

    def boards(self, jobs: Iterable[bytes], *, compact: bool = False) -> Generator[bytes, None, None]:
        """Many boards' PNG bytes, in the order of ``jobs``: each a pickled :data:`Board` (the
        caller pickles it once, and may know two identical positions by their bytes; a worker
        gets the bytes as they are). ``compact``: ``render_board``'s smaller encoding, for
        pictures kept. In workers a few per worker are in flight at a time, so a caller that
        stops early (a size budget passed) leaves little drawn for nothing: what is still
        in flight is dropped when the iterator is closed."""
        fn = _pickled_compact_board if compact else _pickled_board
        if self.processes == 0:
            for job in jobs:
                yield fn(job)
            return
        window = 4 * self.processes
        sent: deque[tuple[_Sent, bytes]] = deque()
        try:
            for job in jobs:
                sent.append((self._submit(fn, job), job))
                if len(sent) >= window:
                    first, args = sent.popleft()
                    yield self._result(first, fn, args)
            while sent:
                first, args = sent.popleft()
                yield self._result(first, fn, args)
        finally:
            for (worker, ticket), _ in sent:
                if worker is not None and ticket is not None:
                    worker.drop(ticket)

    # -- the workers --------------------------------------------------------------------------
    def warm(self, width: int, close_up: bool, *, start: bool = False) -> None:
        """Fill the renderer's caches: here now, when drawing in this process. Workers are not
        started for it (unless ``start``): each warms as it starts, at the first picture, so a
        bot with nothing to draw does not hold them (~90 MB, docs/memory.md), and the first
        board after a start waits for one (~1-2 s)."""
        self._warm_args = (width, close_up)
        if self.processes == 0:
            _warm(width, close_up)
            return
        if start:
            for worker in self._ensure():  # each warms as it starts: a call answered is a warm worker
                worker.receive(worker.send(_ready, ()))

    def worker_pids(self) -> list[int]:
        """The worker processes running now (none before the first picture)."""
        with self._lock:
            return [w.process.pid for w in self._workers or [] if w.process.pid is not None]

    def close(self) -> None:
        """Stop the workers (the next picture starts them again)."""
        with self._lock:
            workers, self._workers = self._workers, None
        for worker in workers or []:
            worker.stop()

    def _ensure(self) -> list[_Worker]:
        """The workers, started at the first picture; a dead one is replaced by a fresh one."""
        with self._lock:
            if self._workers is None:
                self._workers = [_Worker(self._warm_args) for _ in range(self.processes)]
            elif any(w.broken for w in self._workers):
                dead = [w for w in self._workers if w.broken]
                self._workers = [w for w in self._workers if not w.broken] + [_Worker(self._warm_args) for _ in dead]
                for worker in dead:
                    worker.stop()
            return self._workers

    def _submit(self, fn: Any, *args: Any) -> _Sent:
        worker = min(self._ensure(), key=lambda w: w.waiting)
        try:
            return worker, worker.send(fn, args)
        except _WorkerGone:
            return worker, None

    def _result(self, sent: _Sent, fn: Any, *args: Any) -> Any:
        worker, ticket = sent
        if worker is not None and ticket is not None:
            try:
                return worker.receive(ticket)
            except _WorkerGone:
                pass
        log.warning("a picture worker died: drawing in the bot's process, a new worker next time")
        self.fallbacks += 1
        return fn(*args)

    def _call(self, fn: Any, *args: Any) -> Any:
        if self.processes == 0:
            return fn(*args)
        return self._result(self._submit(fn, *args), fn, *args)
