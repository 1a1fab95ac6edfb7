"""Play without Discord: ``elfball local`` (a terminal match) and ``elfball demo`` (AI v AI).

``local`` runs on the same match service, command grammar and database as the bot: two coaches
at one keyboard, or one against the AI coach. After every command it writes the board to
``--out`` (``latest.png`` and one numbered file per version), prints what happened and the
board in words, and asks the coach who must decide. Quit at any time; run it again to resume.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from cli.arguments import TABLE_IDS, WIDTHS, int_in
from cli.language import add_language_argument, chosen_language
from service import console
from service.console import LANGUAGES, LEVELS, LOCAL_USER, ElfballError, MalformedInputError, StoreError, board_text
from service.grammar import help_text
from service.matches import Outcome
from service.refusals import render_refusal
from service.pictures import action_frames, board_png, replay_gif
from service.simulate import Demo, demo_teams

#: The console's own words (not commands of the match): their names and help in each language
#: are the service catalogue's ``console.word.*`` and ``console.help.*``.
CONSOLE_WORDS = ("help", "board", "log", "quit", "abandon")
#: Other words for leaving, in every language.
QUIT_ALIASES = ("exit",)


_text = console.console_text


def console_word(typed: str) -> str | None:
    """Which console word ``typed`` is (``aide`` -> ``help``), in any language; None for a command."""
    key = typed.lower()
    if key in QUIT_ALIASES:
        return "quit"
    for word in CONSOLE_WORDS:
        if any(key == _text(lang).t(f"console.word.{word}") for lang in LANGUAGES):
            return word
    return None


def console_help(language: str) -> str:
    """The console's words and what they do, as ``help`` lists them after the commands."""
    tx = _text(language)
    return "\n".join(f"{tx.t(f'console.word.{w}'):<10} {tx.t(f'console.help.{w}')}" for w in CONSOLE_WORDS)


def _write_board(out_dir: Path, version: int, png: bytes | None) -> Path | None:
    if png is None:
        return None
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / f"board-{version:04d}.png").write_bytes(png)
        latest = out_dir / "latest.png"
        latest.write_bytes(png)
    except OSError as exc:  # the move is saved; only the picture could not be written
        raise MalformedInputError(f"cannot write the board to {out_dir}: {exc.strerror or exc}") from None
    return latest


def _show(outcome: Outcome, out_dir: Path, language: str, *, board: bool = True) -> None:
    for line in outcome.lines_in(language):
        print(f"  {line}")
    path = _write_board(out_dir, outcome.match.version, outcome.png_in(language))
    if board:
        print()
        print(board_text(outcome.state, outcome.events, language=language))
    if path:
        print(_text(language).t("console.board_file", path=path))
    print(f">> {outcome.prompt_in(language)}")


def _rules(args: argparse.Namespace):
    """The match's options: --profile, then --rules, then --goals."""
    return console.match_options(args.profile, args.rules or "", args.goals)


def _local(args: argparse.Namespace) -> int:
    language = chosen_language(args)
    tx = _text(language)
    out_dir = Path(args.out)
    try:  # refused before the match, not after its first move
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise MalformedInputError(f"cannot make the board folder {out_dir}: {exc.strerror or exc}") from None
    console.open_database(args.db)  # migrated; trouble is a refusal naming the database
    service = console.match_service(width=args.width, ai_level=args.ai_level)
    channel = args.table
    resumed = console.resume(service, channel)
    if resumed is not None:
        outcome = resumed
        print(tx.t("console.resuming", match=outcome.match.id, table=channel))
    else:
        outcome = console.start(service, channel, west=args.west, east=args.east, ai=args.ai, options=_rules(args))
        print(tx.t("console.new", match=outcome.match.id, table=channel, west=outcome.state.teams["west"].name,
                   east=outcome.state.teams["east"].name, who=tx.t(f"console.who.{args.ai}"),
                   help=tx.t("console.word.help")))
        print(tx.t("console.rules", rules=console.rules_text(outcome.state.options, language)))
    _show(outcome, out_dir, language, board=not args.quiet)
    while not outcome.finished:
        try:
            line = input("> ").strip()
        except EOFError:
            print("\n" + tx.t("console.bye"))
            return 0
        if not line:
            continue
        word = console_word(line.split()[0])
        if word == "quit":
            print(tx.t("console.bye"))
            return 0
        try:
            if word == "help":
                rest = line.split()[1:]
                print(help_text(rest[0], language) if rest else help_text(language=language) + "\n" + console_help(language))
                continue
            if word == "board":
                print(board_text(outcome.state, language=language))
                continue
            if word == "log":
                print("\n".join(service.log(channel, language=language)))
                continue
            if word == "abandon":
                service.abandon(channel, LOCAL_USER, "abandoned at the console")  # stored as the bot stores its reasons
                print(tx.t("console.abandoned"))
                return 0
            outcome = service.act(channel, LOCAL_USER, service.read(channel, LOCAL_USER, line))
        except (ElfballError, StoreError) as exc:
            print("  " + tx.t("console.refused", reason=render_refusal(exc, language)))
            continue
        _show(outcome, out_dir, language, board=not args.quiet)
    return 0


def _demo(args: argparse.Namespace) -> int:
    language = chosen_language(args)
    tx = _text(language)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    west, east = demo_teams(seed, args.west, args.east)
    out = Path(args.out)
    frames_dir = out / "frames"
    frames_dir.mkdir(parents=True, exist_ok=True)
    options = _rules(args)
    demo = Demo(west, east, seed, options, language=language)
    rules = console.rules_text(options, language)
    log = [tx.t("demo.log_head", seed=seed, west=west.name, east=east.name, rules=rules)]
    started = time.perf_counter()
    print(tx.t("demo.start", seed=seed, west=west.name, east=east.name, rules=rules, out=out), file=sys.stderr)

    def progress(commands: int, test: int, w: int, e: int) -> None:
        print("  " + tx.t("demo.progress", commands=commands, test=test, west=w, east=e), file=sys.stderr)

    demo.play(args.max_commands, progress)
    state, commands = demo.state, demo.commands
    log += demo.narration
    frames = action_frames(demo.history)
    for i, frame in enumerate(frames):
        (frames_dir / f"frame-{i:04d}.png").write_bytes(
            board_png(frame.state, events=frame.events, view=frame.view, width=args.width, language=language)
        )
    gif = replay_gif(demo.history, width=min(args.width, 600), language=language)
    (out / "replay.gif").write_bytes(gif)
    (out / "match-log.txt").write_text("\n".join(log) + "\n", encoding="utf-8")
    w, e = state.teams["west"].score, state.teams["east"].score
    if state.winner == "draw":
        verdict = tx.t("prompt.result.draw")
    elif state.winner:
        verdict = tx.t("prompt.result.win", team=state.teams[state.winner].name)  # type: ignore[index]  # a stored or finished side is 'west' or 'east'
    else:
        verdict = tx.t("demo.unfinished")
    took = f"{time.perf_counter() - started:.1f}"
    print(tx.t("demo.result", west=west.name, west_score=w, east_score=e, east=east.name, verdict=verdict,
               commands=commands, seconds=took if language == "en" else took.replace(".", ",")))
    print("  " + tx.t("demo.files", frames=len(frames), frames_dir=frames_dir, gif=out / "replay.gif",
                      kb=len(gif) // 1024, log=out / "match-log.txt", lines=len(log)))
    return 0


def _rule_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--goals", type=int, choices=(0, 1, 2, 3), help="goals to win (default 1; 0: none, in a timed game)")
    p.add_argument("--profile", default="standard", choices=("standard", "beginner", "fr-0.0.6", "tournament"),
                   help="a rules profile (docs/rules.md section 14; default standard)")
    p.add_argument("--rules", default="", help='optional rules and French variants on top of the profile, e.g. '
                   '"timed double fr_failed_disengage_sim" (docs/rules.md section 14)')


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("local", help="play a match in the terminal (two coaches, or one against the AI)",
                       description="Play Elfball in the terminal on the same match service as the Discord bot. "
                       "The match is saved after every command (SQLite: --db, ELFBALL_DB or ./elfball.db); run "
                       "the command again to resume. The board picture is written to --out after every command.")
    p.add_argument("--ai", choices=("west", "east", "none"), default="east", help="which side the AI coach plays (default east)")
    p.add_argument("--ai-level", choices=LEVELS, default="hard",
                   help="how the AI coach plays: easy (the plain heuristic) or hard (every Advanced option; default)")
    p.add_argument("--west", default="timberline-elves", help="west's team list (default Timberline Elves)")
    p.add_argument("--east", default="night-elves", help="east's team list (default Night Elves)")
    _rule_arguments(p)
    p.add_argument("--table", type=int_in(*TABLE_IDS), default=1, help="which table (a saved match per table; default 1)")
    p.add_argument("--db", help="SQLite file (default: ELFBALL_DB or ./elfball.db; DATABASE_URL for PostgreSQL)")
    p.add_argument("--out", default="elfball-boards", help="folder for the board pictures (default ./elfball-boards)")
    p.add_argument("--width", type=int_in(*WIDTHS), default=1000, help="picture width in pixels (default 1000)")
    p.add_argument("--quiet", action="store_true", help="do not print the whole board in words after each command")
    add_language_argument(p)
    p.set_defaults(func=_local)

    d = sub.add_parser("demo", help="watch the AI play a complete match: frames, replay GIF and match log",
                       description="Play a whole AI-v-AI match and write every frame, the replay GIF and the match log.")
    d.add_argument("--seed", type=int, help="the match's seed (random if omitted; printed so it can be repeated)")
    d.add_argument("--out", default="elfball-demo", help="output folder (default ./elfball-demo)")
    d.add_argument("--west", help="west's team list (random if omitted)")
    d.add_argument("--east", help="east's team list (random if omitted)")
    _rule_arguments(d)
    d.add_argument("--width", type=int_in(*WIDTHS), default=1000)
    d.add_argument("--max-commands", type=int, default=3000, help="stop a match that runs longer than this")
    add_language_argument(d)
    d.set_defaults(func=_demo)
