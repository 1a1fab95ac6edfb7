"""Replays: an animated GIF of a Test or a whole match, one frame per action.

A match's history is a list of steps, one per command applied: the state after it, the
events it returned and (while a decision was pending) the mid-resolution view. A *frame* is
drawn when something a spectator would call "a move" is complete:

- a player's action ends (``action_ended``; the frame shows the whole action: every step,
  throw, bounce and shove of it),
- a team passes its turn or brings on a Replacement,
- a team finishes setting up (the placements are drawn as one frame), the face-off is won,
- a goal is scored, a Test starts, the match ends (or is conceded).

The first frame is the match as created. Goals and the end of the match hold longer. Every
frame has the same size and palette, so the GIF stores each as the rectangle that changed.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from PIL import GifImagePlugin, Image, ImageChops

from engine import (
    Command,
    Event,
    MAX_COMMANDS,
    MatchState,
    ReplayDice,
    SeededDice,
    Side,
    TeamEntry,
    apply,
    default_roster,
    new_match,
    play_random_match,
)

from .board import board_image
from .describe import as_events
from .palette import UNUSED_INDEX

__all__ = ["Step", "Frame", "action_frames", "render_replay", "fuzz_history", "FRAME_ENDERS"]

#: Event kinds that close a frame (see the module docstring).
FRAME_ENDERS = frozenset({
    "action_ended", "turn_passed", "replacement_made", "setup_completed", "faceoff_won",
    "goal_scored", "test_started", "match_ended", "conceded",
})
_HOLD_KINDS = frozenset({"goal_scored", "match_ended", "conceded"})

DEFAULT_FRAME_MS = 900
HOLD_MS = 2500
LAST_MS = 4000


@dataclass
class Step:
    """One applied command: the state after it, its events, and the view while paused."""

    state: MatchState
    events: list[Event] = field(default_factory=list)
    view: MatchState | None = None


@dataclass
class Frame:
    state: MatchState
    events: list[Event]
    view: MatchState | None
    duration: int


def _steps(history: Iterable[Any]) -> Iterable[Step]:
    for item in history:
        if isinstance(item, Step):
            yield item
        elif isinstance(item, Mapping):
            yield Step(item["state"], as_events(item.get("events", ())), item.get("view"))
        else:
            parts = tuple(item)
            yield Step(parts[0], as_events(parts[1] if len(parts) > 1 else ()), parts[2] if len(parts) > 2 else None)


def action_frames(
    history: Iterable[Step | tuple[Any, ...] | Mapping[str, Any]],
    *,
    test: int | None = None,
    per: str = "action",
    frame_ms: int = DEFAULT_FRAME_MS,
) -> list[Frame]:
    """Group a match history into frames (``per="action"``) or keep one per command
    (``per="command"``); ``test`` keeps only the frames of that Test."""
    if per not in ("action", "command"):
        raise ValueError(f"per={per!r}: choose 'action' or 'command'")
    frames: list[Frame] = []
    pending: list[Event] = []
    first = True
    last: Step | None = None
    for step in _steps(history):
        last = step
        pending.extend(step.events)
        paused = step.state.in_progress is not None
        kinds = {e.kind for e in step.events}
        if first or per == "command" or (not paused and kinds & FRAME_ENDERS):
            hold = bool(kinds & _HOLD_KINDS)
            frames.append(Frame(step.state, [] if first else pending, step.view if paused else None,
                                HOLD_MS if hold else frame_ms))
            pending = []
            first = False
    if pending and last is not None:
        frames.append(Frame(last.state, pending, last.view if last.state.in_progress else None, frame_ms))
    if test is not None:
        frames = [f for f in frames if f.state.test == test]
    if frames:
        frames[-1].duration = max(frames[-1].duration, LAST_MS)
    return frames


def render_replay(
    history: Iterable[Step | tuple[Any, ...] | Mapping[str, Any]],
    *,
    width: int = 600,
    test: int | None = None,
    per: str = "action",
    frame_ms: int = DEFAULT_FRAME_MS,
    language: str = "en",
) -> bytes:
    """An animated GIF of ``history`` (steps as ``(state, events[, view])`` or :class:`Step`),
    one frame per action (see the module docstring), looping forever, its panels' words in
    ``language``. Frames are drawn and written one at a time, so a long match needs little
    memory."""
    frames = action_frames(history, test=test, per=per, frame_ms=frame_ms)
    if not frames:
        raise ValueError("nothing to replay: the history has no frames" + (f" in Test {test}" if test else ""))
    return encode_gif((board_image(f.state, events=f.events, view=f.view, width=width, language=language), f.duration) for f in frames)


def _indices(im: Image.Image) -> Image.Image:
    """A P image's palette indices as an L image (to compare frames without their palette)."""
    return Image.frombytes("L", im.size, im.tobytes())


def encode_gif(frames: Iterable[tuple[Image.Image, int]]) -> bytes:
    """``(frame, milliseconds)`` pairs of one size and palette as a looping GIF.

    Each frame after the first is stored as the rectangle that changed, with the pixels that
    did not change inside it set to the palette's free index (transparent, drawn over the
    previous frame): a match of several hundred actions stays a few megabytes. A frame
    identical to the one before only lengthens its display. Frames are encoded as they come.
    """
    out = io.BytesIO()
    clear = UNUSED_INDEX
    prev: Image.Image | None = None  # the last frame shown in full
    pending: tuple[Image.Image, tuple[int, int], int, bool] | None = None  # (image, offset, ms, transparent)

    def flush() -> None:
        if pending is None:
            return
        im, offset, ms, transparent = pending
        params: dict[str, Any] = {"duration": ms, "disposal": 1}
        if transparent:
            params["transparency"] = clear
        out.write(b"".join(GifImagePlugin.getdata(im, offset=offset, **params)))

    for im, ms in frames:
        if im.mode != "P":
            raise ValueError("encode_gif wants P images")
        if prev is None:
            header, _ = GifImagePlugin.getheader(im.copy(), info={"loop": 0, "duration": ms})
            out.write(b"".join(header))
            pending = (im, (0, 0), ms, False)
            prev = im
            continue
        if im.size != prev.size:
            raise ValueError("all frames of a replay must have the same size")
        delta = ImageChops.difference(_indices(im), _indices(prev))
        bbox = delta.getbbox()
        if bbox is None:
            assert pending is not None
            pending = (pending[0], pending[1], pending[2] + ms, pending[3])
            continue
        flush()
        part = im.crop(bbox)
        unchanged = delta.crop(bbox).point([255] + [0] * 255, "1")
        part.paste(clear, (0, 0), unchanged)
        pending = (part, (bbox[0], bbox[1]), ms, True)
        prev = im
    if prev is None:
        raise ValueError("no frames")
    flush()
    out.write(b";")
    return out.getvalue()


def fuzz_history(seed: int, *, max_commands: int | None = None) -> list[Step]:
    """A realistic match to draw: the fuzzer's random coaches play it (``engine.fuzz``), then it
    is replayed from the recorded commands and dice, keeping the state after every command."""
    dice = SeededDice(seed)
    record: list[tuple[Side, Command]] = []
    final, _ = play_random_match(seed, dice=dice, record=record,
                                 max_commands=MAX_COMMANDS if max_commands is None else max_commands)
    source = ReplayDice(dice.record_json())
    w, e = final.teams["west"], final.teams["east"]
    res = new_match(TeamEntry(w.name, default_roster(w.list_id)), TeamEntry(e.name, default_roster(e.list_id)),
                    source, options=final.options)
    steps = [Step(res.state, list(res.events), None)]
    for side, command in record:
        res = apply(res.state, command, source, by=side)
        steps.append(Step(res.state, list(res.events), res.view if res.state.in_progress else None))
    return steps
