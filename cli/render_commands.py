"""``elfball render`` draws a saved state as a PNG; ``elfball replay-gif`` animates a fuzz match.

    elfball render STATE.json OUT.png [--events EVENTS.json] [--width 1000] [--describe]
    elfball replay-gif OUT.gif --seed 7 [--width 600] [--test 2] [--per action]

``STATE.json`` is ``MatchState.to_dict()`` as JSON, or an object ``{"state": ..., "events":
[...], "view": ...}`` holding a state with the events of its last command (and the position
mid-resolution while a decision is pending). ``EVENTS.json`` is a list of ``Event.to_dict()``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from cli.arguments import WIDTHS, int_in
from cli.language import add_language_argument, chosen_language
from service.console import MalformedInputError, board_text
from service.jsonfile import read_json
from service.pictures import action_frames, board_png, random_match_history, replay_gif
from service.shape import events_from_json, state_from_json


def _load_json(path: str, what: str) -> Any:
    return read_json(path, what)


def _out_path(path: str) -> Path:
    """Where the picture goes: refused before any drawing if it cannot be written there."""
    out = Path(path)
    if out.is_dir():
        raise MalformedInputError(f"{path} is a folder: name the picture file to write")
    if not out.parent.is_dir():
        raise MalformedInputError(f"cannot write {path}: the folder {out.parent} does not exist")
    return out


def _write(out: Path, data: bytes) -> None:
    try:
        out.write_bytes(data)
    except OSError as exc:
        raise MalformedInputError(f"cannot write {out}: {exc.strerror or exc}") from None


def _run_render(args: argparse.Namespace) -> int:
    out = _out_path(args.out)
    data = _load_json(args.state, "state file")
    events: list[Any] = []
    view = None
    if isinstance(data, dict) and "state" in data:
        events = events_from_json(data.get("events") or [], f"{args.state} events")
        view = state_from_json(data["view"], f"{args.state} view") if data.get("view") else None
        data = data["state"]
    state = state_from_json(data, args.state)
    if args.events:
        events = events_from_json(_load_json(args.events, "events file"), args.events)
    try:
        png = board_png(state, events=events, view=view, width=args.width, hex_labels=args.hex_labels,
                        language=chosen_language(args))
    except (KeyError, TypeError) as exc:
        raise MalformedInputError(f"cannot read the events: {exc}") from None
    except ValueError as exc:
        raise MalformedInputError(str(exc)) from None
    _write(out, png)
    print(f"wrote {args.out} ({len(png) // 1024} KB, {args.width} px wide)")
    if args.describe:
        print(board_text(state, events, view=view, language=chosen_language(args)))
    return 0


def _run_replay(args: argparse.Namespace) -> int:
    out = _out_path(args.out)
    history = random_match_history(args.seed, max_commands=args.max_commands)
    frames = action_frames(history, test=args.test, per=args.per)
    if not frames:
        raise MalformedInputError(f"seed {args.seed}: no frames" + (f" in Test {args.test}" if args.test else ""))
    try:
        gif = replay_gif(history, width=args.width, test=args.test, per=args.per)
    except ValueError as exc:
        raise MalformedInputError(str(exc)) from None
    _write(out, gif)
    final = history[-1].state
    w, e = final.teams["west"], final.teams["east"]
    print(f"wrote {args.out}: {len(frames)} frames from {len(history) - 1} commands, {len(gif) / 1e6:.2f} MB "
          f"({w.name} {w.score} - {e.score} {e.name})")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("render", help="draw a saved match state as a PNG",
                       description="Draw a saved match state (MatchState JSON) as a PNG board.")
    p.add_argument("state", metavar="STATE.json", help="MatchState.to_dict() JSON, or {state, events, view}")
    p.add_argument("out", metavar="OUT.png")
    p.add_argument("--events", metavar="EVENTS.json", help="events of the last command, drawn over the field")
    p.add_argument("--width", type=int_in(*WIDTHS), default=1000, help="picture width in pixels (default 1000)")
    p.add_argument("--hex-labels", action="store_true", help="print every hex's coordinate, not only the rim's")
    p.add_argument("--describe", action="store_true", help="also print the board in words")
    add_language_argument(p)
    p.set_defaults(func=_run_render)

    r = sub.add_parser("replay-gif", help="animate a random (fuzz) match as a GIF, one frame per action",
                       description="Play a random match (elfball fuzz's coaches) and write it as an animated GIF.")
    r.add_argument("out", metavar="OUT.gif")
    r.add_argument("--seed", type=int, default=0, help="fuzz seed (default 0)")
    r.add_argument("--width", type=int_in(*WIDTHS), default=600, help="frame width in pixels (default 600)")
    r.add_argument("--test", type=int, help="only this Test")
    r.add_argument("--per", choices=("action", "command"), default="action", help="one frame per action (default) or per command")
    r.add_argument("--max-commands", type=int, default=None, help="concede a match still running after this many commands")
    r.set_defaults(func=_run_replay)


if __name__ == "__main__":  # pragma: no cover
    from cli.main import main

    sys.exit(main(["render", *sys.argv[1:]]))
