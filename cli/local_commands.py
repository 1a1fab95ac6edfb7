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

from db.errors import StoreError
from engine.errors import ElfballError
from engine.field import Side

LOCAL_GUILD = 0
LOCAL_USER = 1  # the human at the keyboard; the AI coach is service.matches.AI_COACH_ID
CONSOLE_WORDS = {
    "help": "this list, or help VERB",
    "board": "the board in words (the picture is written to the output folder)",
    "log": "everything that happened in this match",
    "quit": "leave; run elfball local again to resume",
    "abandon": "end this match without a result",
}


def _open_database(db: str | None) -> None:
    from db import migrate
    from db.engine import database_url, make_engine, use_engine

    url = f"sqlite:///{Path(db).expanduser().resolve()}" if db else database_url()
    engine = make_engine(url)
    migrate.upgrade(engine)
    use_engine(engine)


def _write_board(out_dir: Path, version: int, png: bytes | None) -> Path | None:
    if png is None:
        return None
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / f"board-{version:04d}.png").write_bytes(png)
    latest = out_dir / "latest.png"
    latest.write_bytes(png)
    return latest


def _show(outcome, out_dir: Path, *, board: bool = True) -> None:  # type: ignore[no-untyped-def]
    from render import describe

    for line in outcome.lines:
        print(f"  {line}")
    path = _write_board(out_dir, outcome.match.version, outcome.png)
    if board:
        print()
        print(describe(outcome.state, outcome.events))
    if path:
        print(f"[board: {path}]")
    print(f">> {outcome.prompt}")


def _rules(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """The match's options: --profile, then --rules, then --goals."""
    from engine.options import parse_rules

    words = [f"profile={args.profile}", args.rules or ""]
    if args.goals is not None:
        words.append(f"goals={args.goals}")
    return parse_rules(" ".join(words))


def _local(args: argparse.Namespace) -> int:
    from db.matches import MatchSide
    from engine.options import describe as describe_rules
    from render import describe
    from service.grammar import help_text
    from service.matches import AI_COACH_ID, MatchService

    _open_database(args.db)
    service = MatchService(width=args.width)
    out_dir = Path(args.out)
    channel = args.table
    try:
        outcome = service.status(channel)
        print(f"Resuming match #{outcome.match.id} at table {channel}.")
    except StoreError:
        ai_side: Side | None = None if args.ai == "none" else args.ai
        west_id = AI_COACH_ID if ai_side == "west" else LOCAL_USER
        east_id = AI_COACH_ID if ai_side == "east" else LOCAL_USER
        outcome = service.start(
            guild_id=LOCAL_GUILD,
            channel_id=channel,
            west=MatchSide(coach_id=west_id, team_list=args.west),
            east=MatchSide(coach_id=east_id, team_list=args.east),
            options=_rules(args),
        )
        vs = {"west": "the AI coach plays west", "east": "the AI coach plays east"}.get(args.ai, "two coaches at one keyboard")
        print(f"New match #{outcome.match.id} at table {channel}: {outcome.state.teams['west'].name} (west) "
              f"v {outcome.state.teams['east'].name} (east), {vs}. Type help for the commands.")
        print(f"Rules: {describe_rules(outcome.state.options)}.")
    _show(outcome, out_dir, board=not args.quiet)
    while not outcome.finished:
        try:
            line = input("> ").strip()
        except EOFError:
            print("\nBye: run elfball local again to resume.")
            return 0
        if not line:
            continue
        word = line.split()[0].lower()
        if word in ("quit", "exit"):
            print("Bye: run elfball local again to resume.")
            return 0
        if word == "help":
            rest = line.split()[1:]
            print(help_text(rest[0]) if rest else help_text() + "\n" + "\n".join(f"{k:<10} {v}" for k, v in CONSOLE_WORDS.items()))
            continue
        if word == "board":
            print(describe(outcome.state))
            continue
        if word == "log":
            print("\n".join(service.log(channel)))
            continue
        if word == "abandon":
            service.abandon(channel, LOCAL_USER, "abandoned at the console")
            print("Match abandoned.")
            return 0
        try:
            outcome = service.act(channel, LOCAL_USER, line)
        except (ElfballError, StoreError) as exc:
            print(f"  refused: {exc}")
            continue
        _show(outcome, out_dir, board=not args.quiet)
    return 0


def _demo(args: argparse.Namespace) -> int:
    from engine.ai import AICoach
    from engine.match import TeamEntry, apply, new_match, pending
    from engine.narrate import narrate
    from engine.rosters import all_team_lists, default_roster, team_list
    from engine.dice import SeededDice
    from engine.options import describe as describe_rules
    from engine.state import Phase
    from render import Step, action_frames, render_board, render_replay

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    rng = random.Random(seed)
    lists = all_team_lists(include_optional=False)
    west = team_list(args.west) if args.west else rng.choice(lists)
    east = team_list(args.east) if args.east else rng.choice([t for t in lists if t.id != west.id])
    out = Path(args.out)
    frames_dir = out / "frames"
    frames_dir.mkdir(parents=True, exist_ok=True)
    dice = SeededDice(seed)
    coaches = {"west": AICoach(random.Random(seed)), "east": AICoach(random.Random(seed + 1))}
    options = _rules(args)
    res = new_match(TeamEntry(west.name, default_roster(west)), TeamEntry(east.name, default_roster(east)), dice,
                    options=options)
    state = res.state
    history = [Step(state, list(res.events), res.view)]
    log = [f"Elfball demo, seed {seed}: {west.name} (west) v {east.name} (east); {describe_rules(options)}."]
    log += narrate(res.events, state)
    started = time.perf_counter()
    print(f"Demo (seed {seed}): {west.name} v {east.name}; {describe_rules(options)}. Writing to {out}/", file=sys.stderr)
    commands = 0
    while state.phase is not Phase.MATCH_OVER and commands < args.max_commands:
        side = pending(state).side
        assert side is not None
        res = apply(state, coaches[side].choose(state, side), dice, by=side)
        state = res.state
        commands += 1
        history.append(Step(state, list(res.events), res.view))
        log += narrate(res.events, state)
        if any(e.kind in ("goal_scored", "test_started") for e in res.events) or commands % 100 == 0:
            w, e = state.teams["west"].score, state.teams["east"].score
            print(f"  {commands} commands, Test {state.test}, score {w}-{e}", file=sys.stderr)
    frames = action_frames(history)
    for i, frame in enumerate(frames):
        (frames_dir / f"frame-{i:04d}.png").write_bytes(
            render_board(frame.state, events=frame.events, view=frame.view, width=args.width)
        )
    gif = render_replay(history, width=min(args.width, 600))
    (out / "replay.gif").write_bytes(gif)
    (out / "match-log.txt").write_text("\n".join(log) + "\n", encoding="utf-8")
    w, e = state.teams["west"].score, state.teams["east"].score
    verdict = "a draw" if state.winner == "draw" else f"{state.teams[state.winner].name} win" if state.winner else "unfinished"  # type: ignore[index]
    took = time.perf_counter() - started
    print(f"{west.name} {w} - {e} {east.name}: {verdict} after {commands} commands ({took:.1f} s).")
    print(f"  {len(frames)} frames in {frames_dir}/, replay {out / 'replay.gif'} ({len(gif) // 1024} KB), "
          f"log {out / 'match-log.txt'} ({len(log)} lines)")
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
    p.add_argument("--west", default="timberline-elves", help="west's team list (default Timberline Elves)")
    p.add_argument("--east", default="night-elves", help="east's team list (default Night Elves)")
    _rule_arguments(p)
    p.add_argument("--table", type=int, default=1, help="which table (a saved match per table; default 1)")
    p.add_argument("--db", help="SQLite file (default: ELFBALL_DB or ./elfball.db; DATABASE_URL for PostgreSQL)")
    p.add_argument("--out", default="elfball-boards", help="folder for the board pictures (default ./elfball-boards)")
    p.add_argument("--width", type=int, default=1000, help="picture width in pixels (default 1000)")
    p.add_argument("--quiet", action="store_true", help="do not print the whole board in words after each command")
    p.set_defaults(func=_local)

    d = sub.add_parser("demo", help="watch the AI play a complete match: frames, replay GIF and match log",
                       description="Play a whole AI-v-AI match and write every frame, the replay GIF and the match log.")
    d.add_argument("--seed", type=int, help="the match's seed (random if omitted; printed so it can be repeated)")
    d.add_argument("--out", default="elfball-demo", help="output folder (default ./elfball-demo)")
    d.add_argument("--west", help="west's team list (random if omitted)")
    d.add_argument("--east", help="east's team list (random if omitted)")
    _rule_arguments(d)
    d.add_argument("--width", type=int, default=1000)
    d.add_argument("--max-commands", type=int, default=3000, help="stop a match that runs longer than this")
    d.set_defaults(func=_demo)
