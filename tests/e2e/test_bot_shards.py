"""Two bot processes, one PostgreSQL database, one Discord: the way the bot scales out.

Two real OS processes run the bot (``tests/support/shard_bot.py``) with ``ELFBALL_SHARDS=0-0/2`` and
``1-1/2`` against one fake Discord served by the test (over 127.0.0.1) and one PostgreSQL schema.
Discord gives each process the guilds of its shard and sends it their interactions only; the
database is where the processes meet (reminders and owed boards are claimed there). The test
shows matches progressing on both shards, each reminder and each owed board shown exactly once
across the two, and one process SIGKILLed in the middle of play and restarted: no saved move
lost or doubled, and the other process serving all along.
"""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest
from support.databases import postgres_url, sessions_on
from fakediscord import FakeDiscord, FakeDiscordError, InteractionTimeout
from support.shards import BotProcess, Table, coach_turn, guild_on_shard, wait_for_shards
from sqlalchemy.engine import make_url
from support.bots import start_match

from db.engine import make_engine
from db.migrate import upgrade
from service.matches import MatchService

pytestmark = pytest.mark.slow  # two bot processes

SHARDS = {0: 2, 1: 2}
OUTAGE = ("POST /interactions/*/callback", "POST /webhooks/*", "PATCH /webhooks/*", "POST /channels/*/messages",
          "PATCH /channels/*/messages/*")


@pytest.fixture
def shared_database():
    """A migrated PostgreSQL schema of its own and the URL the bot processes reach it by."""
    url = postgres_url()
    schema = f"test_{uuid.uuid4().hex[:16]}"
    admin = make_engine(url)
    with admin.begin() as conn:
        conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    bot_url = make_url(url).update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)
    engine = make_engine(bot_url)
    try:
        upgrade(engine)  # once, before the processes start
        yield engine, bot_url
    finally:
        engine.dispose()
        with admin.begin() as conn:
            conn.exec_driver_sql("SET LOCAL lock_timeout = '20s'")
            conn.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
        admin.dispose()


def reader(engine) -> MatchService:
    """The test's own view of the database (what the coaches see on their boards)."""
    scope = sessions_on(engine)

    return MatchService(sessions=scope, render=False)


def version(service: MatchService, table: Table) -> int:
    """The version of the table's match, also once it has ended (a press may end it between two
    reads: the coaches' dice differ from run to run, and so does a match's length)."""
    return service.latest(table.pitch.id).version


async def wait_until(check, timeout: float, what: str) -> None:
    limit = time.monotonic() + timeout
    while not check():
        if time.monotonic() > limit:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


def shown(fake, table: Table, since, text: str) -> int:
    return sum(1 for m in fake.new_messages(table.pitch, since=since) if text in m.content)


async def test_two_processes_on_one_postgresql_share_the_work_and_survive_a_kill(shared_database, tmp_path):
    engine, url = shared_database
    service = reader(engine)
    async with FakeDiscord(shard_count=2, timeout=15.0) as fake:
        tables = [Table.build(guild_on_shard(fake, shard, 2, f"Club {i}")) for i, shard in enumerate((0, 1, 0, 1))]
        procs = [BotProcess(fake, f"{s}-{s}/2", url, tmp_path / f"bot{s}.log") for s in (0, 1)]
        try:
            for p in procs:
                p.start()
            await wait_for_shards(fake, SHARDS, procs)
            # Each process holds one shard and was given exactly that shard's guilds.
            for t in tables:
                mine = t.guild.shard_id(2)
                assert t.guild.id in fake.shard_guilds(mine) and t.guild.id not in fake.shard_guilds(1 - mine)

            # 1. Matches start and progress on both shards (each command answered by its shard's process).
            for t in tables:
                await start_match(fake, t.pitch, t.west, t.east)
            start = {t.pitch.id: version(service, t) for t in tables}
            for _ in range(4):
                for t in tables:
                    reply = await coach_turn(fake, service, t)
                    assert reply is not None and (not reply.ephemeral or reply.content.startswith("✓")), reply.content
            assert all(version(service, t) >= start[t.pitch.id] + 4 for t in tables)

            # 2. Every match's deadline passes: one reminder each, from whichever process holds it.
            mark = fake.mark()
            with engine.begin() as conn:
                conn.exec_driver_sql("UPDATE matches SET deadline = now() - interval '1 second' WHERE deadline IS NOT NULL")
            await wait_until(lambda: all(shown(fake, t, mark, "a decision is waiting") for t in tables), 15, "reminders")
            await asyncio.sleep(1.5)  # several more sweeps of both processes
            assert [shown(fake, t, mark, "a decision is waiting") for t in tables] == [1, 1, 1, 1]

            # 3. Discord fails every post for a while: each move is saved, its board owed, and
            # shown exactly once when Discord answers again (both processes sweep all along).
            before = {t.pitch.id: version(service, t) for t in tables}
            outage = [fake.fail_for(p, 60) for p in OUTAGE]
            mark = fake.mark()
            fake.timeout = 1.5

            async def blind_move(t: Table) -> None:
                try:
                    await coach_turn(fake, service, t)
                except AssertionError:  # InteractionTimeout: the member's client says it failed
                    pass

            await asyncio.gather(*(blind_move(t) for t in tables))
            # The posts give up (0.5 s) and record the boards owed; a busy machine may take longer.
            await wait_until(lambda: all(version(service, t) >= before[t.pitch.id] + 1 for t in tables), 15, "moves saved")

            def owed() -> int:
                with engine.connect() as conn:
                    return conn.exec_driver_sql("SELECT count(*) FROM match_posts WHERE owed").scalar_one()

            await wait_until(lambda: owed() == len(tables), 15, "boards owed")
            assert all(version(service, t) == before[t.pitch.id] + 1 for t in tables)
            assert all(fake.new_message_count(t.pitch, since=mark) == 0 for t in tables)
            fake.advance(61)  # Discord answers again
            assert all(f.hits for f in outage[:1])
            await wait_until(lambda: all(shown(fake, t, mark, "every move counted") for t in tables), 15, "owed boards")
            await asyncio.sleep(1.5)
            assert [shown(fake, t, mark, "every move counted") for t in tables] == [1, 1, 1, 1]
            with engine.connect() as conn:
                assert conn.exec_driver_sql("SELECT count(*) FROM match_posts WHERE owed").scalar_one() == 0

            # 4. Play in all four channels at once; shard 1's process is SIGKILLed mid-play and
            # restarted. The coaches of shard 0 are served all along; no saved move is lost.
            fake.timeout = 6.0
            counted = {t.pitch.id: 0 for t in tables}  # moves the coach saw acknowledged
            unknown = {t.pitch.id: 0 for t in tables}  # presses cut off by the kill
            served_while_down: list[int] = []
            down = asyncio.Event()
            base = {t.pitch.id: version(service, t) for t in tables}
            stop = asyncio.Event()
            over: set[int] = set()

            async def coach_loop(t: Table) -> None:
                while not stop.is_set():
                    if t.guild.shard_id(2) not in fake.live_shards():  # the bot shows offline: wait
                        await asyncio.sleep(0.1)
                        continue
                    before_v = version(service, t)
                    try:
                        reply = await coach_turn(fake, service, t)
                    except (InteractionTimeout, FakeDiscordError):
                        unknown[t.pitch.id] += 1  # no answer: the process died under it
                        await asyncio.sleep(0.2)
                        continue
                    if reply is None:
                        over.add(t.pitch.id)  # the match ended: nothing more to play here
                        return
                    if version(service, t) > before_v:
                        counted[t.pitch.id] += 1
                        if down.is_set() and t.guild.shard_id(2) == 0:
                            served_while_down.append(t.pitch.id)

            loops = [asyncio.create_task(coach_loop(t)) for t in tables]
            await asyncio.sleep(3.0)
            procs[1].kill()
            down.set()
            await asyncio.sleep(3.0)  # shard 1 is down: its guilds get nothing
            assert 1 not in fake.live_shards()
            down.clear()
            procs[1].start()
            await wait_for_shards(fake, SHARDS, procs)
            restarted = {t.pitch.id: counted[t.pitch.id] for t in tables}
            await wait_until(lambda: all(t.pitch.id in over or counted[t.pitch.id] >= restarted[t.pitch.id] + 2
                                         for t in tables), 40, "play on both shards after the restart")
            # A match may end meanwhile (they have been played for a while), but each shard plays on.
            assert all(any(counted[t.pitch.id] > restarted[t.pitch.id] for t in tables if t.guild.shard_id(2) == shard)
                       for shard in (0, 1)), (counted, restarted, over)
            stop.set()
            await asyncio.gather(*loops)
            print(f"moves acknowledged {counted}, cut off by the kill {unknown}, "
                  f"served by shard 0 while shard 1 was down: {len(served_while_down)}")
            assert served_while_down, "shard 0's process stopped serving when shard 1's died"
            for t in tables:
                moved = version(service, t) - base[t.pitch.id]
                # Every acknowledged move is in the database, and none twice; a press the kill
                # cut off may have been saved (its board is then brought back by /match status).
                assert counted[t.pitch.id] <= moved <= counted[t.pitch.id] + unknown[t.pitch.id], \
                    (t.guild.name, moved, counted[t.pitch.id], unknown[t.pitch.id])
            assert sum(unknown[t.pitch.id] for t in tables if t.guild.shard_id(2) == 0) == 0
            assert procs[0].starts == 1 and procs[0].alive()
        except BaseException:
            for p in procs:
                print(f"==== {p.shards} log ====\n{p.log()[-6000:]}")
            raise
        finally:
            for p in procs:
                p.stop()


def test_the_owed_board_sweep_pages_past_the_boards_of_other_shards(database):
    """Thirty boards of the other process's shard, owed longer, must not hide this one's."""
    from datetime import datetime, timedelta, timezone
    from types import SimpleNamespace

    from bot.play.poster import Poster
    from service.match_rules import MatchSide
    from service import posts as service_posts

    service = MatchService(render=False)
    theirs, mine = 1 << 22, 2 << 22  # shards 1 and 0 of 2
    start = datetime.now(timezone.utc) - timedelta(minutes=10)
    matches = []
    for i, guild in enumerate([theirs] * 30 + [mine]):
        out = service.start(guild_id=guild, channel_id=100 + i, west=MatchSide(coach_id=1000 + 2 * i, team_list="gnolls"),
                            east=MatchSide(coach_id=1001 + 2 * i, team_list="sarcos"))
        service_posts.record_owed(service.sessions, out.match, 100 + i, start + timedelta(seconds=i))
        matches.append(out.match)
    poster = Poster(SimpleNamespace(service=service, serves_match=lambda m: (m.guild_id >> 22) % 2 == 0))
    claimed = poster.claim_owed(limit=25)
    assert [m.id for m in claimed] == [matches[-1].id]
    assert poster.claim_owed(limit=25) == []  # claimed: nobody else takes it meanwhile
    other = Poster(SimpleNamespace(service=service, serves_match=lambda m: (m.guild_id >> 22) % 2 == 1))
    assert len(other.claim_owed(limit=25)) == 25 and len(other.claim_owed(limit=25)) == 5
