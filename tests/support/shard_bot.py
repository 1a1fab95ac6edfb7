"""The Elfball bot as its own OS process, against a fake Discord served by another process.

    ELFBALL_SHARDS=0-0/2 DATABASE_URL=postgresql://... \\
        python tests/support/shard_bot.py --fake http://127.0.0.1:PORT [--sweep 0.2] [--reminder-hours 1]

It is ``elfball bot`` (``bot.app.main``) with what a test needs changed: discord.py talks to the
fake (``fakediscord.remote``), the background sweeps run every ``--sweep`` seconds instead of a
minute, a post gives up after ``--post-timeout`` seconds (so an outage makes an owed board
quickly) and boards are drawn ``--width`` pixels wide. Shards (``ELFBALL_SHARDS``), the database
(``DATABASE_URL``), the dice key (``ELFBALL_SECRET``) and the picture workers
(``ELFBALL_RENDER_PROCESSES``) come from the environment as for the real bot; the schema must
already be migrated (the test or benchmark does it once). The bot logs to stderr; "READY" on stdout says it is connected with its shards.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # run as a script: the repository and tests/ go on the path
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from fakediscord.remote import ready_fast, use_fake_discord  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fake", required=True, help="the fake Discord's http_url")
    parser.add_argument("--token", default="fake-bot-token")
    parser.add_argument("--sweep", type=float, default=0.2, help="seconds between reminder / owed-board sweeps")
    parser.add_argument("--reminder-hours", type=float, default=24.0)
    parser.add_argument("--post-timeout", type=float, default=0.5)
    parser.add_argument("--owed-claim", type=float, default=0.3, help="seconds a claimed owed board stays claimed")
    parser.add_argument("--width", type=int, default=600)
    parser.add_argument("--log-level", default="INFO")
    parser.add_argument("--profile", default="", help="write a cProfile of the whole run here (on SIGTERM)")
    args = parser.parse_args()
    logging.basicConfig(level=args.log_level, stream=sys.stderr,
                        format=f"%(asctime)s pid={os.getpid()} %(levelname)s %(name)s %(message)s")
    use_fake_discord(args.fake)

    from bot.app import ElfballBot, shard_settings
    from service.drawing import Drawing, render_processes
    from service.matches import MatchService

    service = MatchService(width=args.width, reminder_after=timedelta(hours=args.reminder_hours),
                           drawing=Drawing(render_processes()))
    bot = ElfballBot(service, reminder_sweep=args.sweep, owed_sweep=args.sweep, tune_gc=True,
                     **shard_settings(os.environ.get("ELFBALL_SHARDS", "")))
    bot.poster.timeout = args.post_timeout
    bot.poster.claim = timedelta(seconds=args.owed_claim)
    ready_fast(bot)

    @bot.listen("on_ready")
    async def announce() -> None:
        print(f"READY shards={bot.shard_ids} count={bot.shard_count} guilds={len(bot.guilds)}", flush=True)

    async def run() -> None:
        async with bot:
            await bot.start(args.token)

    if not args.profile:
        asyncio.run(run())
        return 0
    import cProfile
    import signal

    import concurrent.futures.thread
    import pstats
    import threading

    # The worker threads (the service's work, ``asyncio.to_thread``) are profiled too, each with a
    # profile of its own, merged with the event loop's at the end.
    threads: dict[int, cProfile.Profile] = {}
    run_item = concurrent.futures.thread._WorkItem.run

    def profiled(item: object) -> None:
        prof = threads.setdefault(threading.get_ident(), cProfile.Profile(time.thread_time))
        prof.enable()
        try:
            run_item(item)
        finally:
            prof.disable()

    concurrent.futures.thread._WorkItem.run = profiled  # type: ignore[method-assign]  # benchmark-only instrumentation
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # stop cleanly, so the profile is written
    profile = cProfile.Profile(time.thread_time)  # CPU time, not the wait for a busy machine
    try:
        profile.runcall(asyncio.run, run())
    except SystemExit:
        pass
    finally:
        profile.dump_stats(args.profile)
        if threads:
            stats = pstats.Stats(*threads.values())
            stats.dump_stats(args.profile + ".threads")
    return 0


if __name__ == "__main__":
    sys.exit(main())
