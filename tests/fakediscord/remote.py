"""Run a bot in *another* OS process against a ``FakeDiscord`` served by the test process.

``FakeDiscord`` patches discord.py in its own process only. A bot process started by a test
(several processes sharing the shards, a process killed and restarted) calls ``use_fake_discord``
with the fake's ``http_url`` before it builds its client: REST and gateway then go to the fake
over 127.0.0.1, exactly as for an in-process bot. ``ready_fast`` does what ``start_bot`` does for
an in-process bot (no 2 s wait for late GUILD_CREATEs, no 5 s pause between IDENTIFYs).
"""

from __future__ import annotations

from typing import Any, Optional

__all__ = ["use_fake_discord", "ready_fast"]


def use_fake_discord(http_url: str) -> None:
    """Point this process's discord.py at the fake Discord serving ``http_url`` (``fake.http_url``)."""
    import discord.gateway
    import discord.http
    import yarl

    base = http_url.rstrip("/")
    discord.http.Route.BASE = f"{base}/api/v10"
    ws = base.replace("http://", "ws://", 1)
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"{ws}/gateway")


def ready_fast(bot: Any, *, guild_ready_timeout: float = 0.05) -> Any:
    """The test timings ``FakeDiscord.start_bot`` sets, for a bot started by its own process."""
    bot._connection.guild_ready_timeout = guild_ready_timeout

    async def before_identify_hook(shard_id: Optional[int], *, initial: bool = False) -> None:
        return None

    bot.before_identify_hook = before_identify_hook
    return bot
