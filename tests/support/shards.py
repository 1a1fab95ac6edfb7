"""Bot processes on shards, and the coaches who play them, for the two-process test and
``benchmarks/bench_load.py``.

``BotProcess`` runs ``tests/support/shard_bot.py`` (the real bot, in its own OS process) against a
``FakeDiscord`` of this process; ``guild_on_shard`` builds a guild that lands on a given shard
(Discord's ``(guild_id >> 22) % count``: the id's millisecond decides); ``Table`` is one channel
with its two coaches, and ``coach_turn`` makes the deciding coach's next gesture there as a
person would: read the board, wait for his panel, press (``support.bots.press``: buttons,
selects and slash commands as the whole-match tests use them).
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from fakediscord import FakeDiscord, FakeMember, FakeChannel, FakeGuild

from engine.match import pending
from support import ROOT
from support.bots import press

SHARD_BOT = Path(__file__).resolve().parent / "shard_bot.py"
DISCORD_EPOCH_MS = 1420070400000


def guild_on_shard(fake: FakeDiscord, shard_id: int, shard_count: int, name: str) -> FakeGuild:
    """A new guild whose id falls on ``shard_id``: wait for a millisecond that maps there. (On a
    busy machine the clock may tick between the look and the id: that guild stays, empty, on
    its own shard, and we try again.)"""
    while True:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        if ms % shard_count == shard_id and fake.ids.next() >> 22 == ms:  # no id of this ms handed out ahead
            guild = fake.add_guild(name)
            if guild.shard_id(shard_count) == shard_id:
                return guild
        time.sleep(0.0003)


class BotProcess:
    """``tests/support/shard_bot.py`` as a child process holding ``shards`` (``ELFBALL_SHARDS``)."""

    def __init__(self, fake: FakeDiscord, shards: str, database_url: str, log_path: Path,
                 *extra_args: str) -> None:
        self.fake, self.shards, self.database_url, self.log_path = fake, shards, database_url, log_path
        self.extra_args = list(extra_args)
        self.proc: Optional[subprocess.Popen] = None
        self.starts = 0

    def start(self) -> "BotProcess":
        env = {**os.environ, "ELFBALL_SHARDS": self.shards, "DATABASE_URL": self.database_url,
               "PYTHONPATH": str(ROOT)}
        log = open(self.log_path, "a")  # restarts append: one log per process slot
        log.write(f"---- start {self.starts + 1} ELFBALL_SHARDS={self.shards}\n")
        log.flush()
        self.proc = subprocess.Popen([sys.executable, str(SHARD_BOT), "--fake", self.fake.http_url, *self.extra_args],
                                     env=env, stdout=log, stderr=subprocess.STDOUT, cwd=str(ROOT))
        log.close()
        self.starts += 1
        return self

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL: no goodbye to Discord, no transaction finished, as when the machine dies."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.alive():
            assert self.proc is not None
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def log(self) -> str:
        return self.log_path.read_text() if self.log_path.exists() else ""


async def wait_for_shards(fake: FakeDiscord, shards: dict[int, int], procs: list[BotProcess],
                          timeout: float = 60.0) -> None:
    """Until the live shards are exactly ``shards`` (and commands were synced once)."""
    limit = time.monotonic() + timeout
    while fake.live_shards() != shards or fake.sync_count == 0:
        dead = [p for p in procs if not p.alive()]
        if dead:
            raise AssertionError(f"bot process {dead[0].shards} died:\n{dead[0].log()[-3000:]}")
        if time.monotonic() > limit:
            raise AssertionError(f"shards {fake.live_shards()} live, wanted {shards}:\n"
                                 + "\n".join(p.log()[-2000:] for p in procs))
        await asyncio.sleep(0.05)
    await fake.settle()


@dataclass
class Table:
    """One channel with a match and its two coaches (the challenger plays west)."""

    guild: FakeGuild
    pitch: FakeChannel
    west: FakeMember
    east: FakeMember
    ais: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def build(cls, guild: FakeGuild, name: str = "pitch") -> "Table":
        from ai import AICoach

        pitch = guild.add_text_channel(name)
        west = guild.add_member(f"West-{name}")
        east = guild.add_member(f"East-{name}")
        return cls(guild, pitch, west, east, {"west": AICoach(), "east": AICoach()})

    def coach(self, side: str) -> FakeMember:
        return self.west if side == "west" else self.east


def panel_version(fake: FakeDiscord, channel: FakeChannel) -> Optional[int]:
    """The match version the channel's newest panel was drawn for (from its custom ids)."""
    for m in reversed(fake.channel_messages(channel)):
        for cid in m.custom_ids:
            parts = cid.split(":")
            if cid.startswith("elfball") and len(parts) >= 4 and parts[3].isdigit():
                return int(parts[3])
    return None


async def coach_turn(fake: FakeDiscord, service: Any, table: Table, *, panel_wait: float = 3.0) -> Optional[Any]:
    """The deciding coach's next gesture in ``table`` (None when the match is over). He waits
    for the panel of the current version; if it never comes (its post was lost with a killed
    process), he asks for the board again with ``/match status``, as a person would."""
    def read() -> Any:  # in a thread: the fake Discord shares this event loop
        return service.status(table.pitch.id) if service.current_or_none(table.pitch.id) else None

    out = await asyncio.to_thread(read)
    if out is None or out.finished:
        return None
    limit = time.monotonic() + panel_wait
    while panel_version(fake, table.pitch) != out.match.version:
        if time.monotonic() > limit or panel_version(fake, table.pitch) is None:
            side = pending(out.state).side
            return await fake.slash(table.coach(side), table.pitch, "match status")
        await asyncio.sleep(0.05)
    side = pending(out.state).side
    cmd = table.ais[side].choose(out.state, side)
    return await press(fake, table.pitch, table.coach(side), cmd, out.state)
