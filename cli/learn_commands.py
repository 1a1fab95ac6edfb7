"""``elfball learn``: the lessons of ``/learn`` at the terminal (docs/lessons.md).

The same lessons, judged the same way (``service.lesson_book``), played without a database:
the goal and the rule first, then the coach's commands in the console grammar; after each one,
what happened and the board in words (the picture is written to ``--out``). A wrong try shows
the hint and starts the lesson again; a reached goal explains the rule and goes on to the next.
"""

from __future__ import annotations

import argparse
import secrets
from pathlib import Path

from cli.language import add_language_argument, chosen_language
from cli.local_commands import console_word
from service import console
from service.console import ElfballError, board_text
from service.grammar import help_text
from service.lesson_book import Lesson, LessonRun, lesson, lessons, next_lesson, number
from service.matches import prompt_for, side_names
from service.pictures import board_png
from service.refusal import Refused
from service.refusals import render_refusal

_text = console.console_text


def _word(line: str, language: str) -> str | None:
    """A console word (help, board, quit) or the lessons' own: hint."""
    first = line.split()[0].lower()
    if any(first == _text(lang).t("console.word.hint") for lang in console.LANGUAGES):
        return "hint"
    return console_word(first)


def list_text(language: str) -> str:
    tx = _text(language)
    out: list[str] = []
    track = None
    for n, x in enumerate(lessons(), 1):
        if x.track != track:
            track = x.track
            out.append(tx.t(f"console.learn.track.{track}"))
        out.append(tx.t("console.learn.row", n=n, id=x.id, title=x.text("title", language), mark=""))
    return "\n".join(out)


def _header(x: Lesson, language: str) -> str:
    tx = _text(language)
    return "\n".join([
        tx.t("console.learn.head", n=number(x.id), total=len(lessons()), title=x.text("title", language)),
        tx.t("console.learn.goal", goal=x.text("goal", language)),
        tx.t("console.learn.rule", rule=x.rule_reference, section=x.rule["rules_md"]),
        tx.t("console.learn.words", help=tx.t("console.word.help"), hint=tx.t("console.word.hint"),
             quit=tx.t("console.word.quit")),
    ])


def _show(run: LessonRun, events: list, language: str, out: Path | None, quiet: bool) -> None:
    for line in run.narrate(events, language):
        print(f"  {line}")
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "lesson.png").write_bytes(board_png(run.state, events=events, language=language))
        print(_text(language).t("console.board_file", path=out / "lesson.png"))
    if not quiet:
        print(board_text(run.state, events, language=language))
    if run.verdict == "playing":
        print(f">> {prompt_for(run.state, side_names(run.state, language), language=language)}")


def _ask(prompt: str = "> ") -> str | None:
    try:
        return input(prompt).strip()
    except EOFError:
        return None


def play(start: Lesson, language: str, out: Path | None, quiet: bool) -> int:
    """Play from ``start`` to the last lesson, or until the coach quits."""
    tx = _text(language)
    quit_word = tx.t("console.word.quit")
    current: Lesson | None = start
    while current is not None:
        run = LessonRun(current, seed=secrets.token_hex(16))  # fair dice after the stated ones, new each try
        print("\n" + _header(current, language))
        _show(run, [], language, out, quiet)
        while run.verdict == "playing":
            line = _ask()
            if line is None:
                return 0
            if not line:
                continue
            word = _word(line, language)
            if word == "quit":
                print(tx.t("console.bye"))
                return 0
            if word == "help":
                rest = line.split()[1:]
                print(help_text(rest[0], language) if rest else help_text(language=language))
                continue
            if word == "board":
                print(board_text(run.state, language=language))
                continue
            if word == "hint":
                print(tx.t("console.learn.hint", hint=current.text("hint", language)))
                continue
            try:
                events = run.play(line)
            except (ElfballError, Refused) as exc:
                print("  " + tx.t("console.refused", reason=render_refusal(exc, language)))
                continue
            _show(run, events, language, out, quiet)
        if run.verdict == "done":
            print(tx.t("console.learn.done") + "\n" + current.text("explain", language))
            current = next_lesson(current.id)
            if current is None:
                print(tx.t("console.learn.finished"))
                return 0
            prompt = tx.t("console.learn.next", quit=quit_word)
        else:
            print(tx.t("console.learn.try_over") + "\n" + tx.t("console.learn.hint", hint=current.text("hint", language)))
            prompt = tx.t("console.learn.again", quit=quit_word)
        answer = _ask(prompt + " ")
        if answer is None or (answer and _word(answer, language) == "quit"):
            print(tx.t("console.bye"))
            return 0
    return 0


def _run(args: argparse.Namespace) -> int:
    language = chosen_language(args)
    if args.list:
        print(list_text(language))
        return 0
    try:
        start = lesson(args.lesson) if args.lesson else lessons()[0]
    except Refused:
        print(_text(language).t("console.learn.unknown", lesson=args.lesson))
        return 2
    return play(start, language, Path(args.out) if args.out else None, args.quiet)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("learn", help="learn to play: short lessons played at the terminal",
                       description="Play the lessons of /learn at the terminal, from the first or from LESSON.")
    p.add_argument("lesson", nargs="?", help="the lesson to start from (elfball learn --list names them)")
    p.add_argument("--list", action="store_true", help="list the lessons")
    p.add_argument("--out", help="write the board picture to this folder after every command")
    p.add_argument("--quiet", action="store_true", help="do not print the whole board in words after each command")
    add_language_argument(p)
    p.set_defaults(func=_run)
