"""discord.py's rate-limit buckets are walked at most once a minute, not on every new bucket
(``bot.common.ratelimits``), and idle ones still go."""

from __future__ import annotations

import asyncio

import discord
from discord.http import HTTPClient, Ratelimit

from bot.app import ElfballBot
from bot.common.ratelimits import SWEEP_SECONDS, pace_bucket_sweeps
from service.matches import MatchService


def _client_with_idle_buckets(n: int) -> HTTPClient:
    loop = asyncio.get_running_loop()  # discord.py's buckets read the running loop's clock
    http = HTTPClient(loop)
    for i in range(n):
        bucket = Ratelimit(http.max_ratelimit_timeout)
        bucket._last_request = loop.time() - 3600  # idle for an hour: discord.py drops it when it walks
        http._buckets[f"PATCH /channels/{i}:{i}"] = bucket
    return http


async def test_a_new_bucket_walks_the_others_at_most_once_a_minute() -> None:
    http = _client_with_idle_buckets(1000)
    walks = []
    real = http._try_clear_expired_ratelimits
    http._try_clear_expired_ratelimits = lambda: (walks.append(len(http._buckets)), real())[1]  # type: ignore[method-assign]  # counting the walks
    now = [100.0]
    pace_bucket_sweeps(http, clock=lambda: now[0])
    http.get_ratelimit("POST /channels/a:a")  # the first new bucket walks: the idle ones go
    assert walks == [1001] and len(http._buckets) == 1
    for i in range(300):  # 300 more within the minute: no walk
        http.get_ratelimit(f"POST /channels/x{i}:{i}")
    now[0] += SWEEP_SECONDS - 1
    http.get_ratelimit("POST /channels/b:b")
    assert walks == [1001] and len(http._buckets) == 302
    now[0] += 1  # a minute after the last walk: the next new bucket walks again
    http.get_ratelimit("POST /channels/c:c")
    assert walks == [1001, 303]


async def test_discord_py_walks_on_every_new_bucket_without_it() -> None:
    # What the pacing is for: unpaced, each new bucket past 256 walks them all.
    http = _client_with_idle_buckets(0)
    walks = []
    real = http._try_clear_expired_ratelimits
    http._try_clear_expired_ratelimits = lambda: (walks.append(1), real())[1]  # type: ignore[method-assign]  # counting the walks
    for i in range(300):
        http.get_ratelimit(f"POST /channels/{i}:{i}")
    assert len(walks) == 300


async def test_the_bot_paces_its_own_client() -> None:
    bot = ElfballBot(service=MatchService(width=400), background=False, warm=False, sync="never")
    assert isinstance(bot.http, discord.http.HTTPClient)
    assert bot.http._try_clear_expired_ratelimits.__qualname__.startswith("pace_bucket_sweeps")
