"""The website's board pictures: asked for by path while the matches are read, drawn all at once.

- **Once per position**: a board is known by its arguments (the state, the events drawn over it,
  the view while paused, the width, the language), pickled; two paths asking for the same bytes
  get one drawing. The renderer is a pure function of those arguments, and it caches the bare
  field (``render.layers.field_layer``), the sprites and the words it draws over it.
- **In parallel where it pays**: with enough boards (a whole match is hundreds), they are drawn in
  worker processes of ``service.drawing.Drawing`` (one per core, at most :data:`MAX_PROCESSES`),
  which start, draw and stop within the build; the results come back in order, the pickled
  arguments going to the workers as they are. A few boards are drawn here: starting a worker
  costs about a second of CPU.
- **Encoded once, small**: each board is written as a compact PNG (``render_board(compact=True)``:
  one deflate stream, the palette cut to the colours used: about 20 kB a replay board) straight
  from the renderer, and kept as it is.

The bytes are the same however many processes draw them.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Callable, Iterable, MutableMapping

from engine import Event, MatchState

from ..drawing import Drawing

__all__ = ["Pictures", "site_processes", "MIN_PARALLEL", "MAX_PROCESSES"]

#: Fewer distinct boards than this are drawn in the building process: a worker's start (a fresh
#: interpreter importing the engine and the renderer, ~1 s of CPU) would cost more than it saves.
MIN_PARALLEL = 48
#: At most this many worker processes, whatever the cores.
MAX_PROCESSES = 4


def site_processes(boards: int, cpus: int | None = None) -> int:
    """Worker processes to draw ``boards`` distinct boards: none for a few or on one core, else
    one per core (at most :data:`MAX_PROCESSES`)."""
    cores = (os.cpu_count() or 1) if cpus is None else cpus
    if boards < MIN_PARALLEL or cores < 2:
        return 0
    return min(MAX_PROCESSES, cores)


class Pictures:
    """The boards a site asks for: :meth:`board` records one by path, :meth:`draw` makes them all."""

    def __init__(self) -> None:
        self._jobs: dict[bytes, bytes] = {}  # the arguments' digest -> the pickled arguments
        self._paths: dict[bytes, list[str]] = {}  # the arguments' digest -> the paths asking for it
        #: Boards drawn by :meth:`draw` (the distinct positions, not the paths).
        self.drawn = 0

    def board(self, path: str, state: MatchState, *, events: Iterable[Event] = (), view: MatchState | None = None,
              width: int, language: str) -> None:
        """Ask for the board of ``state`` (``events`` drawn over it, ``view`` while paused) as
        ``path``; the same position asked again is drawn once."""
        job = pickle.dumps((state, list(events), view, width, language), protocol=pickle.HIGHEST_PROTOCOL)
        key = hashlib.sha256(job).digest()
        self._jobs.setdefault(key, job)
        self._paths.setdefault(key, []).append(path)

    def close_up(self, path: str, state: MatchState, *, events: Iterable[Event] = (), view: MatchState | None = None,
                 width: int, language: str) -> None:
        """Ask for the close-up of ``state`` (where its next decision is) as ``path``; a position
        with nothing to decide has none, and ``path`` is then left out of the files."""
        job = pickle.dumps((state, list(events), view, width, language, "close"), protocol=pickle.HIGHEST_PROTOCOL)
        key = hashlib.sha256(job).digest()
        self._jobs.setdefault(key, job)
        self._paths.setdefault(key, []).append(path)

    def __len__(self) -> int:
        """The distinct boards asked for."""
        return len(self._jobs)

    def draw(self, files: MutableMapping[str, bytes], *, budget: Callable[[int], None] = lambda size: None,
             processes: int | None = None) -> None:
        """Draw every board asked for and put its bytes in ``files`` under each path that asked
        for it, in the order asked; ``budget`` is told each file's size as it is added, and may
        raise to stop (what is left is not drawn). ``processes``: worker processes (default:
        :func:`site_processes`; 0 draws here)."""
        n = site_processes(len(self._jobs)) if processes is None else processes
        drawing = Drawing(n)
        try:
            made = drawing.boards(self._jobs.values(), compact=True)
            try:
                for key, png in zip(self._jobs, made):
                    self.drawn += 1
                    if not png:  # a close-up of a position with no decision to make
                        continue
                    for path in self._paths[key]:
                        files[path] = png
                        budget(len(png))
            finally:
                made.close()
        finally:
            drawing.close()
