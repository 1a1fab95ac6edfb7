"""Load benchmark: many servers, a match in every channel, coaches acting at random (issue 21).

    .venv/bin/python benchmarks/bench_load.py [--guilds 50] [--channels 20] [--seconds 60]
        [--think 60] [--preplay 6] [--processes 1|2] [--postgres URL] [--seed 1] [--profile PATH]
        [--width 720] [--teams mixed|one]

The fake Discord of the test suite serves REST and gateway on 127.0.0.1 in this process; the bot
runs as one or two OS processes of its own (``tests/support/shard_bot.py``: the real ``ElfballBot``,
its boards ``--width`` px wide, by default the bot's own ``BOARD_WIDTH``, as in production; until
2026-11-27 this benchmark drew them 1000 px wide), with ``ELFBALL_SHARDS`` unset (one
process) or ``0-0/2`` and ``1-1/2`` (two), each drawing its pictures in worker processes as the
real bot does (``ELFBALL_RENDER_PROCESSES``, default one on this 2-core machine; set it to 0 to
draw in the bot's own process). CPU and memory count a bot's workers with it. ``--guilds`` × ``--channels`` channels each get a
match (``--teams mixed``: two team lists drawn at random, each pairing with its own colours, as a
community plays; ``one``: gnolls v sarcos everywhere, as until 2026-11-27), created and played
``--preplay`` commands in through the service before the bot starts
(starting 1,000 matches through Discord would take minutes). Then, for ``--seconds``, the deciding coach of
every channel waits a random time (exponential, mean ``--think`` seconds) and makes his next
gesture as the whole-match tests do (``test_bot_e2e.press``: buttons, selects and slash commands
chosen by the AI coach). Before the clock starts every coach brings his board with ``/match
status``, four channels at a time (on a real server the boards are there already).

Reported: sustained actions/s (moves saved), interaction → complete answer latency (median, p95,
p99: what the coach waits for), the bot's CPU per action, the bytes of pictures uploaded per action
(what the fake Discord received, ``fake.uploaded_bytes``), and resident memory (total, and per
active match: what bringing up the second half of the boards added, once the renderer's bounded
caches were filled by the first half), database size per finished match (three more matches played to the end
through the service afterwards), the gesture mix, and moves lost (acknowledged but not saved) or
doubled (saved more often than pressed), from each match's log of moves in the database.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import logging
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
os.environ.setdefault("ELFBALL_SECRET", "221fec4823939f77f45884e29b9c35134136b5f3735f3e08f8fdfe67da103b40")  # 128 bits at least

from fakediscord import FakeDiscord, FakeDiscordError, InteractionTimeout  # noqa: E402
from support.shards import BotProcess, Table, coach_turn, guild_on_shard, wait_for_shards  # noqa: E402
from service.drawing import BOARD_WIDTH  # noqa: E402

CLK = os.sysconf("SC_CLK_TCK")


def family(pid: int) -> list[int]:
    """``pid`` and its descendants (a bot's picture workers, ``service.drawing``)."""
    children: dict[int, list[int]] = collections.defaultdict(list)
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children[int(fields[1])].append(int(stat.parent.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def cpu_seconds(pid: int, *, alone: bool = False, kernel: bool = False) -> float:
    """CPU time of ``pid`` and its live descendants (utime + stime); ``alone``: of ``pid`` only;
    ``kernel``: the system time only (sockets, fsync, page faults)."""
    total = 0
    for p in [pid] if alone else family(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[12]) if kernel else int(fields[11]) + int(fields[12])
    return total / CLK


def rss_kb(pid: int) -> int:
    """Resident memory of ``pid`` and its live descendants."""
    total = 0
    for p in family(pid):
        try:
            lines = Path(f"/proc/{p}/status").read_text().splitlines()
        except OSError:
            continue
        total += next((int(line.split()[1]) for line in lines if line.startswith("VmRSS:")), 0)
    return total


def own_rss_kb(pid: int) -> int:
    """Resident memory of ``pid`` alone."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return 0
    return next((int(line.split()[1]) for line in lines if line.startswith("VmRSS:")), 0)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def database(args: argparse.Namespace, tmp: str):
    """(engine, URL the bot processes use, size function, cleanup)."""
    from sqlalchemy.engine import make_url

    from db.engine import make_engine
    from db.migrate import upgrade

    if not args.postgres:
        path = Path(tmp) / "load.db"
        url = f"sqlite:///{path}"
        engine = make_engine(url)
        upgrade(engine)

        def size() -> int:
            with engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
                pages = conn.exec_driver_sql("PRAGMA page_count").scalar_one()
                free = conn.exec_driver_sql("PRAGMA freelist_count").scalar_one()
                return int((pages - free) * conn.exec_driver_sql("PRAGMA page_size").scalar_one())

        return engine, url, size, engine.dispose
    schema = f"load_{uuid.uuid4().hex[:12]}"
    admin = make_engine(args.postgres)
    with admin.begin() as conn:
        conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    url = make_url(args.postgres).update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(
        hide_password=False)
    engine = make_engine(url)
    upgrade(engine)

    def size() -> int:
        with engine.connect() as conn:
            return int(conn.exec_driver_sql(
                "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
                "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'"
            ).scalar_one())

    def cleanup() -> None:
        engine.dispose()
        with admin.begin() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
        admin.dispose()

    return engine, url, size, cleanup


def service_over(engine):
    from sqlmodel import Session

    from service.matches import MatchService

    @contextmanager
    def scope():
        with Session(engine, expire_on_commit=False) as s:
            yield s

    return MatchService(sessions=scope, render=False)


def pairings(how: str, count: int, rng: random.Random) -> list[tuple[str, str]]:
    """The team lists of ``count`` matches: "one", gnolls v sarcos everywhere (the figures before
    2026-11-27); "mixed", each match two different lists drawn at random, as a community plays
    (19 lists: 342 pairings, each with its own colours on the board)."""
    if how == "one":
        return [("gnolls", "sarcos")] * count
    from engine import all_team_lists

    names = sorted(t.id for t in all_team_lists())
    return [tuple(rng.sample(names, 2)) for _ in range(count)]  # type: ignore[misc]  # two names


def preplay(service, table: Table, commands: int, teams: tuple[str, str] = ("gnolls", "sarcos")) -> None:
    """Start the channel's match and play its first ``commands`` through the service."""
    from service.match_rules import MatchSide
    from engine import pending

    service.start(guild_id=table.guild.id, channel_id=table.pitch.id,
                  west=MatchSide(coach_id=table.west.id, team_list=teams[0]),
                  east=MatchSide(coach_id=table.east.id, team_list=teams[1]))
    for _ in range(commands):
        out = service.status(table.pitch.id)
        if out.finished:
            return
        side = pending(out.state).side
        service.act(table.pitch.id, table.coach(side).id, table.ais[side].choose(out.state, side))


def finished_match_bytes(service, size, guild_id: int, matches: int = 3) -> float:
    """Bytes the database grows by per match played to its end (through the service)."""
    from service.match_rules import MatchSide
    from ai import AICoach
    from engine import pending

    before = size()
    ai = AICoach()
    for i in range(matches):
        channel, west, east = 9_000_000 + i, 8_000_000 + 2 * i, 8_000_001 + 2 * i
        service.start(guild_id=guild_id, channel_id=channel, west=MatchSide(coach_id=west, team_list="gnolls"),
                      east=MatchSide(coach_id=east, team_list="sarcos"))
        out = service.status(channel)
        for _ in range(3000):
            if out.finished:
                break
            side = pending(out.state).side
            out = service.act(channel, west if side == "west" else east, ai.choose(out.state, side))
    return (size() - before) / matches


async def run(args: argparse.Namespace) -> int:
    from sqlalchemy import text

    rng = random.Random(args.seed)
    tmp = tempfile.mkdtemp(prefix="bench_load_")
    engine, url, size, cleanup = database(args, tmp)
    service = service_over(engine)
    shards = args.processes
    try:
        async with FakeDiscord(shard_count=shards, timeout=30.0, settle=None) as fake:
            t0 = time.perf_counter()
            tables: list[Table] = []
            for g in range(args.guilds):
                guild = guild_on_shard(fake, g % shards, shards, f"Club {g}")
                tables += [Table.build(guild, f"pitch-{c}") for c in range(args.channels)]
            for t, teams in zip(tables, pairings(args.teams, len(tables), random.Random(args.seed))):
                preplay(service, t, args.preplay, teams)
            print(f"{len(tables)} channels in {args.guilds} guilds, matches started and {args.preplay} commands "
                  f"in ({time.perf_counter() - t0:.0f} s); backend {'PostgreSQL' if args.postgres else 'SQLite'}, "
                  f"{shards} bot process(es)", flush=True)
            extra = ["--width", str(args.width), "--sweep", "20", "--post-timeout", "10", "--log-level", "INFO"]
            specs = [""] if shards == 1 else [f"{s}-{s}/{shards}" for s in range(shards)]
            procs = []
            for i, spec in enumerate(specs):
                prof = ["--profile", str(Path(args.profile).with_suffix(f".{i}.prof"))] if args.profile else []
                procs.append(BotProcess(fake, spec, url, Path(tmp) / f"bot{i}.log", *extra, *prof).start())
            await wait_for_shards(fake, {s: shards for s in range(shards)}, procs, timeout=120)
            await asyncio.sleep(3.0)  # the picture caches are warm
            rss_ready = sum(rss_kb(p.pid) for p in procs)
            # Every coach brings his board once (/match status), a few at a time, not measured:
            # in a real server the boards are there already.
            t0 = time.perf_counter()
            gate = asyncio.Semaphore(4)

            async def bring(t: Table) -> None:
                async with gate:
                    await coach_turn(fake, service, t)

            # In two halves: the memory the second half adds is what a match costs once the
            # renderer's bounded caches have filled (the first half fills them).
            half = len(tables) // 2
            rss_half = []
            for part in (tables[:half], tables[half:]):
                await asyncio.gather(*(bring(t) for t in part))
                await fake.settle(quiet=0.5, timeout=30)
                rss_half.append(sum(rss_kb(p.pid) for p in procs))
            per_match = (rss_half[1] - rss_half[0]) / max(1, len(tables) - half)
            print(f"bot ready; every board brought up in {time.perf_counter() - t0:.0f} s", flush=True)

            latencies: list[float] = []
            kinds: collections.Counter[str] = collections.Counter()
            acknowledged = {t.pitch.id: 0 for t in tables}
            cut = {t.pitch.id: 0 for t in tables}
            refused = 0
            active: set[int] = set()
            def version(channel_id: int) -> int:
                with engine.connect() as conn:
                    return int(conn.execute(text("SELECT version FROM matches WHERE channel_id = :c "
                                                 "ORDER BY id DESC LIMIT 1"), {"c": channel_id}).scalar_one())

            base = {t.pitch.id: version(t.pitch.id) for t in tables}
            deadline = time.monotonic() + args.seconds

            async def coach(t: Table) -> None:
                nonlocal refused
                while True:
                    await asyncio.sleep(min(rng.expovariate(1.0 / args.think), max(0.0, deadline - time.monotonic())))
                    if time.monotonic() >= deadline:
                        return
                    before = await asyncio.to_thread(version, t.pitch.id)
                    try:
                        reply = await coach_turn(fake, service, t, panel_wait=5.0)
                    except (InteractionTimeout, FakeDiscordError):
                        cut[t.pitch.id] += 1
                        continue
                    if reply is None:
                        return
                    active.add(t.pitch.id)
                    latencies.append(reply.latency * 1000)
                    kinds["slash command" if reply.kind == "command" else "button or select"] += 1
                    if await asyncio.to_thread(version, t.pitch.id) > before:
                        acknowledged[t.pitch.id] += 1
                    elif reply.ephemeral and not reply.content.startswith("✓"):
                        refused += 1

            cpu0 = sum(cpu_seconds(p.pid) for p in procs)
            main0 = sum(cpu_seconds(p.pid, alone=True) for p in procs)
            kernel0 = sum(cpu_seconds(p.pid, kernel=True) for p in procs)
            own0 = time.process_time()
            uploads0 = fake.mark()
            started = time.monotonic()
            await asyncio.gather(*(coach(t) for t in tables))
            elapsed = time.monotonic() - started
            cpu = sum(cpu_seconds(p.pid) for p in procs) - cpu0
            main = sum(cpu_seconds(p.pid, alone=True) for p in procs) - main0
            kernel = sum(cpu_seconds(p.pid, kernel=True) for p in procs) - kernel0
            own = time.process_time() - own0
            rss_end = sum(rss_kb(p.pid) for p in procs)
            rss_each = [own_rss_kb(q) for p in procs for q in family(p.pid)]  # bot, then its children
            await fake.settle(quiet=0.5, timeout=10)
            uploaded = fake.uploaded_bytes(since=uploads0)
            requests = collections.Counter(
                f"{r.method} {'/'.join('{id}' if part.isdigit() or len(part) >= 40 else part for part in r.path.split('/'))}"
                for r in fake.requests[uploads0.requests:])
            for p in procs:
                p.stop()
        moved = {t.pitch.id: version(t.pitch.id) - base[t.pitch.id] for t in tables}
        saved = sum(moved.values())
        lost = sum(max(0, acknowledged[c] - moved[c]) for c in moved)
        doubled = sum(max(0, moved[c] - acknowledged[c] - cut[c]) for c in moved)
        per_finished = finished_match_bytes(service, size, tables[0].guild.id)
        total = sum(kinds.values())
        print(f"load: {len(tables)} channels, think time mean {args.think:.0f} s (offered "
              f"{len(tables) / args.think:.1f} gestures/s), {elapsed:.0f} s, {len(active)} channels acted")
        print(f"  sustained: {saved / elapsed:.1f} actions/s saved ({total} interactions answered, {refused} refused "
              f"as stale or illegal, {sum(cut.values())} unanswered)")
        if latencies:
            print(f"  interaction -> complete answer: median {statistics.median(latencies):.0f} ms, "
                  f"p95 {pct(latencies, 0.95):.0f} ms, p99 {pct(latencies, 0.99):.0f} ms, max {max(latencies):.0f} ms")
        print(f"  bot CPU: {cpu * 1000 / max(1, saved):.1f} ms per action ({cpu / elapsed * 100:.0f}% of one core); "
              f"the fake Discord and the coaches: {own / elapsed * 100:.0f}% of one core, "
              # The same work in every run: the machine's speed at the time, to compare runs by.
              f"{own * 1000 / max(1, saved):.1f} ms per action")
        print(f"    of which the bot's own process {main * 1000 / max(1, saved):.1f} ms, its picture workers "
              f"{(cpu - main) * 1000 / max(1, saved):.1f} ms per action; in the kernel "
              f"{kernel * 1000 / max(1, saved):.1f} ms per action")
        print(f"  bot memory: {rss_end / 1024:.0f} MB resident ({rss_ready / 1024:.0f} MB when ready, before any "
              f"board; {rss_half[0] / 1024:.0f} MB with half the boards up); {per_match:.1f} KB per active match "
              f"(the second half's boards)")
        print(f"  memory by process at the end: {' + '.join(f'{kb / 1024:.0f}' for kb in rss_each)} MB "
              "(each bot process, then its children: multiprocessing's resource tracker, picture workers)")
        print(f"  Discord requests: {sum(requests.values()) / max(1, saved):.2f} per action ("
              + ", ".join(f"{kind} {n / max(1, saved):.2f}" for kind, n in requests.most_common(6)) + ")")
        print(f"  uploads: {uploaded / max(1, saved) / 1024:.0f} KB of pictures per action "
              f"({uploaded / 1024 / 1024:.1f} MB that Discord received while the coaches played)")
        print(f"  database: {size() / 1024 / 1024:.1f} MB, {per_finished / 1024:.0f} KB per finished match")
        print("  gestures: " + ", ".join(f"{k} {v / max(1, total):.0%}" for k, v in kinds.most_common()))
        print(f"  lost: {lost}, doubled: {doubled} (moves acknowledged to the coach against the match's log of moves)")
        p95_ok = latencies and pct(latencies, 0.95) <= 150
        mem_ok = per_match <= 100
        print(f"  budget: p95 <= 150 ms {'met' if p95_ok else 'MISSED'}; <= 100 KB per active match "
              f"{'met' if mem_ok else 'MISSED'}; nothing lost or doubled {'met' if not (lost or doubled) else 'MISSED'}")
        return 0 if not (lost or doubled) else 1
    finally:
        cleanup()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--guilds", type=int, default=50)
    parser.add_argument("--channels", type=int, default=20, help="channels (matches) per guild")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=60.0, help="mean seconds a coach takes before each gesture")
    parser.add_argument("--preplay", type=int, default=6, help="commands played in each match before the load")
    parser.add_argument("--processes", type=int, default=1, choices=(1, 2))
    parser.add_argument("--postgres", default="", help="a PostgreSQL URL (a schema of its own is made and dropped)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--width", type=int, default=BOARD_WIDTH,
                        help="the boards' width in pixels (default: the bot's, service.drawing.BOARD_WIDTH; "
                             "1000 before 2026-11-27)")
    parser.add_argument("--teams", choices=("mixed", "one"), default="mixed",
                        help="mixed: each match two team lists drawn at random; one: gnolls v sarcos everywhere")
    parser.add_argument("--profile", default="", help="cProfile each bot process into PATH.N.prof (slows it down)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
