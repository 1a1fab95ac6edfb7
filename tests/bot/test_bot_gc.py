"""A bot process settles its garbage collector once ready (``bot.app.settle_garbage_collector``):
what exists then is frozen out of the full passes, the young generation is larger. Only the
bot's own process does it (``main``), never a test that starts many bots in one process."""

from __future__ import annotations

import pytest

from bot import app
from bot.app import GC_THRESHOLDS, ElfballBot
from service.matches import MatchService


def _recorded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    monkeypatch.setattr(app.gc, "collect", lambda *a: calls.append("collect") or 0)
    monkeypatch.setattr(app.gc, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(app.gc, "set_threshold", lambda *t: calls.append(f"threshold {t}"))
    return calls


async def test_a_tuned_bot_settles_the_collector_once_when_ready(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _recorded(monkeypatch)
    bot = ElfballBot(service=MatchService(width=400), background=False, warm=False, sync="never", tune_gc=True)
    await bot.on_ready()
    # garbage first (none kept for good), then the freeze, then the larger young generation
    assert calls == ["collect", "freeze", f"threshold {GC_THRESHOLDS}"]
    await bot.on_ready()  # a reconnection's READY: nothing more
    assert len(calls) == 3


async def test_a_bot_started_by_a_test_leaves_the_collector_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _recorded(monkeypatch)
    bot = ElfballBot(service=MatchService(width=400), background=False, warm=False, sync="never")
    await bot.on_ready()
    assert calls == []


def test_the_bot_process_asks_for_it(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.delenv("ELFBALL_RENDER_PROCESSES", raising=False)
    monkeypatch.setattr("service.operations.upgrade_database", lambda: None)
    monkeypatch.setattr(app.ElfballBot, "run", lambda self, *a, **k: seen.append(self.tune_gc))
    assert app.main() == 0
    assert seen == [True]

