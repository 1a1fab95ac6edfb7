"""The bot's /metrics and /healthz, scraped over real HTTP while members use it through the fake
Discord: commands counted by kind and outcome, latency observed, Discord's errors by status,
the database's gauges, and a health check that says what is wrong."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
from fakediscord import FakeDiscord
from prometheus_client.parser import text_string_to_metric_families
from sqlmodel import Session

from bot.app import ElfballBot, metrics_settings
from db.engine import make_engine
from support.bots import make_bot, panel, start_match, world


async def get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http:
        async with http.get(f"http://127.0.0.1:{port}{path}") as resp:
            return resp.status, await resp.text()


async def scrape(port: int) -> dict[tuple[str, frozenset], float]:
    status, body = await get(port, "/metrics")
    assert status == 200
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(body) for s in family.samples}


def value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def commands(samples: dict, kind: str, outcome: str) -> float:
    return value(samples, "elfball_commands_total", kind=kind, outcome=outcome)


async def test_commands_refusals_incidents_errors_and_gauges_are_counted(store):
    async with FakeDiscord() as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild, metrics_port=0)
        await fake.start_bot(bot)
        port = bot.metrics_server.port
        before = await scrape(port)
        assert value(before, "elfball_matches_in_progress", edition="3") == 0 and value(before, "elfball_database_up") == 1
        assert commands(before, "match challenge", "ok") == 0

        await start_match(fake, pitch, alice, bob)
        refused = await fake.slash(carol, pitch, "match challenge", opponent=carol, team="gnolls")
        assert refused.ephemeral
        r = await fake.slash(alice, pitch, "odds", dice=4, need=2)  # no work in a thread: counted on completion
        assert "success" in r.content

        def broken(channel_id: int):
            raise RuntimeError("a bug")

        bot.service.status = broken  # an unexpected failure: an incident, with its id told
        r = await fake.slash(alice, pitch, "match status")
        assert r.ephemeral and "incident" in r.content.lower()

        # A press whose first answer Discord refuses with 502 once: discord.py retries it.
        state = bot.service.current_or_none(pitch.id)
        setter = alice if state.deciding_side == "west" else bob
        fake.fail_next("POST /interactions/*/callback", status=502, times=1)
        r = await fake.click(setter, panel(fake, pitch), label="Auto set-up", timeout=10.0)
        assert not r.ephemeral

        after = await scrape(port)
        assert commands(after, "match challenge", "ok") == 1
        assert commands(after, "match accept", "ok") == 1
        assert commands(after, "match challenge", "refused") == 1  # carol challenging herself
        assert commands(after, "odds", "ok") == 1
        assert commands(after, "match status", "incident") == 1
        assert commands(after, "match status", "refused") == 0  # the apology is not also a refusal
        assert commands(after, "elfball:auto", "ok") == 1, sorted(k for k in after if k[0] == "elfball_commands_total")
        assert value(after, "elfball_discord_http_errors_total", status="502") == 1
        # Every answer's latency was observed (the retried one once), in a histogram cut at Discord's
        # 3-second window (the fake Discord fails an answer later than that).
        answered = value(after, "elfball_interaction_answer_seconds_count", type="command")
        assert answered == 5, answered
        assert value(after, "elfball_interaction_answer_seconds_count", type="component") == 1
        assert value(after, "elfball_interaction_answer_seconds_bucket", type="command", le="+Inf") == answered
        assert ("elfball_interaction_answer_seconds_bucket", frozenset({"type": "command", "le": "3.0"}.items())) in after
        assert value(after, "elfball_matches_in_progress", edition="3") == 1
        assert value(after, "elfball_matches_in_progress", edition="1") == 0
        assert value(after, "elfball_owed_boards_pending") == 0

        status, body = await get(port, "/healthz")
        assert status == 200 and "gateway: connected" in body and "database: ok" in body, body

        # The database stops answering: /healthz says so with 503, /metrics still answers.
        dead = make_engine("sqlite:////nonexistent-elfball-dir/elfball.db")
        bot.service.sessions = lambda: Session(dead)
        status, body = await get(port, "/healthz")
        assert status == 503 and "database: unreachable" in body and "gateway: connected" in body, body
        down = await scrape(port)
        assert value(down, "elfball_database_up") == 0
        assert value(down, "elfball_matches_in_progress", edition="3") == 1  # the last count read
        dead.dispose()
        await fake.stop_bot(bot)


@pytest.mark.slow
async def test_owed_boards_and_reminders_are_counted(store):
    from datetime import timedelta

    async with FakeDiscord(timeout=15.0) as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        # The reminder comes once the press below is answered (a reminder posted while an answer
        # is awaited would end the fake's wait for it).
        bot = make_bot(guild, metrics_port=0, owed_sweep=0.1, reminder_sweep=0.05,
                       service_kw={"reminder_after": timedelta(seconds=6)})
        await fake.start_bot(bot)
        bot.poster.timeout = 0.5
        await start_match(fake, pitch, alice, bob)
        state = bot.service.current_or_none(pitch.id)
        setter = alice if state.deciding_side == "west" else bob
        bot.poster.claim = timedelta(seconds=0.3)  # a sweep's failed post is retried soon
        # Every post fails for a while: the press is saved, its board owed, then posted by the sweep.
        outage = [fake.fail_for(p, 30, status=503) for p in (
            "POST /interactions/*/callback", "POST /webhooks/*", "PATCH /webhooks/*", "POST /channels/*/messages",
            "PATCH /channels/*/messages/*")]
        mark = fake.mark()
        try:
            await fake.click(setter, panel(fake, pitch), label="Auto set-up", timeout=1.0)
        except AssertionError:
            pass  # no answer reached the member: that is the outage
        await asyncio.sleep(1.0)  # the sweep tries too, and fails: the same debt, not a new one
        owed = await scrape(bot.metrics_server.port)
        assert value(owed, "elfball_owed_boards_recorded_total") == 1
        assert value(owed, "elfball_owed_boards_pending") == 1
        assert value(owed, "elfball_owed_boards_sent_total") == 0
        fake.advance(31)  # Discord answers again
        for _ in range(100):
            await asyncio.sleep(0.1)
            if fake.new_message_count(pitch, since=mark):
                break
        await fake.settle()
        await fake.wait_for_message(pitch, check=lambda m: "a decision is waiting" in m.content, timeout=15)
        after = await scrape(bot.metrics_server.port)
        assert value(after, "elfball_owed_boards_sent_total") == 1
        assert value(after, "elfball_owed_boards_pending") == 0
        assert value(after, "elfball_reminders_sent_total") >= 1
        assert value(after, "elfball_discord_http_errors_total", status="503") >= len(outage)
        await fake.stop_bot(bot)


async def test_healthz_is_503_until_the_gateway_is_connected(database):
    from service.matches import MatchService

    bot = ElfballBot(MatchService(render=False), metrics_port=0, sync="never", background=False)
    await bot.metrics_server.start()
    try:
        status, body = await get(bot.metrics_server.port, "/healthz")
        assert status == 503 and "gateway: not ready" in body and "database: ok" in body, body
    finally:
        await bot.metrics_server.stop()  # never logged in: nothing else to close


def test_metrics_settings_are_loopback_by_default_and_checked() -> None:
    assert metrics_settings({}) == {}
    assert metrics_settings({"ELFBALL_METRICS_PORT": "9108"}) == {"metrics_port": 9108, "metrics_host": "127.0.0.1"}
    assert metrics_settings({"ELFBALL_METRICS_PORT": "9108", "ELFBALL_METRICS_HOST": "0.0.0.0"})["metrics_host"] == "0.0.0.0"
    with pytest.raises(SystemExit, match="ELFBALL_METRICS_PORT"):
        metrics_settings({"ELFBALL_METRICS_PORT": "http"})


async def test_two_bots_in_one_process_count_apart(database):
    from service.matches import MatchService

    one = ElfballBot(MatchService(render=False), sync="never", background=False)
    two = ElfballBot(MatchService(render=False), sync="never", background=False)
    one.metrics.reminders.inc()
    assert two.metrics.registry is not one.metrics.registry
    assert b"elfball_reminders_sent_total 0.0" in two.metrics.render()


async def test_a_dead_picture_worker_shows_in_the_metrics(database):
    from service.drawing import Drawing
    from service.matches import MatchService

    drawing = Drawing(0)
    bot = ElfballBot(MatchService(render=False, drawing=drawing), sync="never", background=False)
    assert b"elfball_pictures_drawn_after_worker_failure 0.0" in bot.metrics.render()
    drawing.fallbacks = 2  # what two dead workers leave (tests/service/test_drawing.py kills a real one)
    assert b"elfball_pictures_drawn_after_worker_failure 2.0" in bot.metrics.render()
