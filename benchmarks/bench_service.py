"""The service's share of a command's CPU, and its SQL statements (issue 33, CPU per action).

    .venv/bin/python benchmarks/bench_service.py [--matches 4] [--commands 60] [--sql] [--postgres URL]

Plays ``--matches`` gnolls v sarcos matches (as ``bench_load.py``) by the AI coach, pictures off,
and times in thread CPU (``time.thread_time``) the four service calls a bot's play command makes
(``MatchService.current``, ``MatchService.act``, ``posts.plan_for``, ``posts.record``), each
command's first ``--commands``. ``--sql`` also counts the statements each sends (a SQLAlchemy
``before_cursor_execute`` listener), per command. The settings reads (remembered for 10 s,
``db.settings``), the drawing, discord.py and the event loop are not in these figures:
``bench_load.py`` measures the whole process. SQLite in a temporary file unless ``--postgres``
(an empty database: it is migrated).
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("ELFBALL_SECRET", "221fec4823939f77f45884e29b9c35134136b5f3735f3e08f8fdfe67da103b40")  # 128 bits at least

from sqlalchemy import event  # noqa: E402
from sqlmodel import Session  # noqa: E402

from ai import AICoach  # noqa: E402
from db.engine import make_engine  # noqa: E402
from db.migrate import upgrade  # noqa: E402
from engine import pending  # noqa: E402
from service import posts  # noqa: E402
from service.match_rules import MatchSide  # noqa: E402
from service.matches import MatchService  # noqa: E402

STEPS = ("current", "act", "plan_for", "record")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=4)
    ap.add_argument("--commands", type=int, default=60, help="commands timed in each match")
    ap.add_argument("--sql", action="store_true", help="count the SQL statements per command")
    ap.add_argument("--postgres", default="", help="a PostgreSQL URL instead of SQLite in a temporary file")
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        engine = make_engine(args.postgres or f"sqlite:///{tmp}/bench.db")
        upgrade(engine)
        sent: collections.Counter[tuple[str, str]] = collections.Counter()
        step = [""]

        @event.listens_for(engine, "before_cursor_execute")
        def count(conn, cursor, statement, parameters, context, executemany) -> None:  # type: ignore[no-untyped-def]
            if step[0]:
                sent[(step[0], " ".join(statement.split())[:100])] += 1

        @contextmanager
        def sessions() -> Iterator[Session]:
            with Session(engine, expire_on_commit=False) as s:
                yield s

        service = MatchService(sessions=sessions, render=False)
        ai = AICoach()
        cpu: dict[str, list[float]] = {k: [] for k in STEPS}

        def timed(name: str, fn, *a, **k):  # type: ignore[no-untyped-def]
            step[0] = name
            t = time.thread_time()
            try:
                return fn(*a, **k)
            finally:
                cpu[name].append(time.thread_time() - t)
                step[0] = ""

        for g in range(args.matches):
            channel = 100 + g
            west, east = 10 * channel + 1, 10 * channel + 2
            service.start(guild_id=1, channel_id=channel, west=MatchSide(coach_id=west, team_list="gnolls"),
                          east=MatchSide(coach_id=east, team_list="sarcos"))
            out = service.status(channel)
            message = 1000 * channel
            for _ in range(args.commands):
                if out.finished:
                    break
                side = pending(out.state).side
                user = west if side == "west" else east
                command = ai.choose(out.state, side)
                match = timed("current", service.current, channel)
                out = timed("act", service.act, channel, user, command, match=match)
                plan, _ = timed("plan_for", posts.plan_for, sessions, out.match, out.state, actor_user_id=user)
                message += 1
                timed("record", posts.record, sessions, out.match, channel, plan.live, plan.live.message_id or message)
        engine.dispose()

    n = len(cpu["act"])
    print(f"{n} commands in {args.matches} matches ({engine.dialect.name}); thread CPU per command:")
    for name in STEPS:
        print(f"  {name:9} mean {statistics.mean(cpu[name]) * 1000:.2f} ms, median {statistics.median(cpu[name]) * 1000:.2f} ms")
    print(f"  all four  {sum(statistics.mean(v) for v in cpu.values()) * 1000:.2f} ms")
    if args.sql:
        print(f"SQL statements per command: {sum(sent.values()) / n:.2f}")
        for (name, statement), times in sorted(sent.items()):
            print(f"  {times / n:5.2f} {name:9} {statement}")
    print(f"load average (1 min): {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
