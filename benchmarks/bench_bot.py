"""Bot latency benchmark: slash command -> complete reply with a PNG, through the fake Discord (issue 7).

    .venv/bin/python benchmarks/bench_bot.py --elfball [--runs 50]     # the real bot on a real match
    .venv/bin/python benchmarks/bench_bot.py [--runs 50] [--warmup 3]
        [--bot MODULE:FACTORY] [--command "hello"] [--option name=value ...]

Starts the in-process fake Discord of the test suite (``tests/fakediscord``: REST + gateway on
127.0.0.1), runs a real discord.py bot against it, and times ``--runs`` slash commands: from the
INTERACTION_CREATE dispatch to the moment the answer is complete (the callback, or the deferred
edit/followup), i.e. what a user waits for. Prints the median and 95th percentile of that latency
and of the acknowledgement (the first callback; Discord's window is 3 s), and fails if a reply
carries no PNG.

``--bot`` names a factory that returns an unstarted ``discord.Client``, called with no arguments
(or with ``dev_guild_id=``/``dev_guild=``, the fake guild's id, when it takes one); by default the tiny bot of
``tests/e2e/test_fakediscord.py`` answers ``/hello`` with a PNG, which measures the transport
(discord.py + the fake) alone. ``--option name=value`` fills command options: ``@opponent`` is a
second member, digits are integers, anything else a string.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import inspect
import logging
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from fakediscord import FakeDiscord  # noqa: E402


def load_factory(spec: str):
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)


def parse_option(text: str, opponent) -> tuple[str, object]:
    name, _, value = text.partition("=")
    if value == "@opponent":
        return name, opponent
    if value.lstrip("-").isdigit():
        return name, int(value)
    return name, value


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


async def run(args: argparse.Namespace) -> int:
    async with FakeDiscord(timeout=30.0) as fake:
        guild = fake.add_guild("Bench Club")
        chan = guild.add_text_channel("pitch")
        coach, opponent = guild.add_member("Coach"), guild.add_member("Opponent")
        factory = load_factory(args.bot)
        params = inspect.signature(factory).parameters
        kwargs = {name: guild.id for name in ("dev_guild_id", "dev_guild") if name in params}
        started = time.perf_counter()
        await fake.start_bot(factory(**kwargs), timeout=60.0)
        print(f"bot ready and synced in {(time.perf_counter() - started) * 1000:.0f} ms "
              f"(commands: {sorted(fake.command_names() | fake.command_names(guild))})")
        options = dict(parse_option(o, opponent) for o in args.option)
        latencies, acks, sizes = [], [], []
        for i in range(args.warmup + args.runs):
            reply = await fake.slash(coach, chan, args.command, options)
            pngs = [a for m in reply.messages for a in m.attachments if a.is_png]
            if not pngs:
                print(f"run {i}: the reply has no PNG: {reply!r}", file=sys.stderr)
                return 1
            if i >= args.warmup:
                latencies.append(reply.latency * 1000)
                acks.append((reply.ack_latency or 0) * 1000)
                sizes.append(pngs[0].size)
        print(f"/{args.command}: {args.runs} runs, PNG {statistics.median(sizes) / 1024:.1f} KB")
        print(f"  reply complete: median {statistics.median(latencies):.1f} ms, p95 {p95(latencies):.1f} ms, "
              f"max {max(latencies):.1f} ms")
        print(f"  acknowledged:   median {statistics.median(acks):.1f} ms, p95 {p95(acks):.1f} ms")
        if p95(acks) > 3000:
            print("  over Discord's 3 s acknowledgement window", file=sys.stderr)
            return 1
    return 0


async def run_elfball(args: argparse.Namespace) -> int:
    """The real bot: a match in a temporary SQLite database; each run is the deciding coach's
    ``/setup auto`` (the engine, the database write, the render of the board and its close-up,
    the update of the action's message and the private acknowledgement)."""
    import tempfile

    from bot.app import ElfballBot
    from db.engine import make_engine, use_engine
    from db.migrate import upgrade
    from service.matches import MatchService

    with tempfile.TemporaryDirectory() as tmp:
        engine = make_engine(f"sqlite:///{tmp}/bench.db")
        upgrade(engine)
        use_engine(engine)
        async with FakeDiscord(timeout=30.0) as fake:
            guild = fake.add_guild("Bench Club")
            chan = guild.add_text_channel("pitch")
            west, east = guild.add_member("West"), guild.add_member("East")
            bot = ElfballBot(service=MatchService(), dev_guild=guild.id)
            if args.no_close_up:
                bot.service.close_ups = None  # the board alone, as before the close-up existed
            await fake.start_bot(bot, timeout=60.0)
            await fake.slash(west, chan, "match challenge", opponent=east, team="gnolls")
            await fake.slash(east, chan, "match accept", team="night-elves")
            side = bot.service.status(chan.id).deciding_side
            coach = west if side == "west" else east
            latencies, acks, sizes = [], [], []
            for i in range(args.warmup + args.runs):
                reply = await fake.slash(coach, chan, "setup", subcommand="auto")
                # Within one action the board is updated in place and the coach gets a "✓".
                board = fake.channel_history(chan)[-1]
                pngs = [a for m in [*reply.messages, board] for a in m.attachments if a.is_png]
                if (reply.ephemeral and not reply.content.startswith("✓")) or not pngs:
                    print(f"run {i}: no board for the command: {reply.content!r}", file=sys.stderr)
                    return 1
                if i >= args.warmup:
                    latencies.append(reply.latency * 1000)
                    acks.append((reply.ack_latency or 0) * 1000)
                    sizes.append(pngs[0].size)
            await fake.stop_bot(bot)
        use_engine(None)
        engine.dispose()
    print(f"/setup auto (engine + SQLite + render + message update + reply): {args.runs} runs, "
          f"board PNG {statistics.median(sizes) / 1024:.1f} KB")
    print(f"  reply complete: median {statistics.median(latencies):.1f} ms, p95 {p95(latencies):.1f} ms, "
          f"max {max(latencies):.1f} ms")
    print(f"  acknowledged:   median {statistics.median(acks):.1f} ms, p95 {p95(acks):.1f} ms")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--no-close-up", action="store_true", help="--elfball: the board alone, without the close-up beside it")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--bot", default="test_fakediscord:TinyBot")
    parser.add_argument("--command", default="hello")
    parser.add_argument("--option", action="append", default=[])
    parser.add_argument("--elfball", action="store_true",
                        help="the real Elfball bot on a match: time a coach's /setup auto (engine, database, render, reply)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    return asyncio.run(run_elfball(args) if args.elfball else run(args))


if __name__ == "__main__":
    sys.exit(main())
