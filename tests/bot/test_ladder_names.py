"""``/ladder``'s coach names: a display name escaped, and a coach the bot cannot find (he left the
server) as a mention, which Discord draws as a name and the answers send with no pings allowed."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from bot.ladder.cog import coach_names, history_text, table_page
from service.ladder import MODEL, CoachHistory, LadderRow


class _Guild:
    id = 1

    def __init__(self, members: dict[int, str], found: dict[int, str] | None = None) -> None:
        self.members, self.found, self.asked = members, found, []

    def get_member(self, i: int):  # type: ignore[no-untyped-def]
        return SimpleNamespace(id=i, display_name=self.members[i]) if i in self.members else None

    async def query_members(self, *, user_ids, cache):  # type: ignore[no-untyped-def]
        self.asked.append(list(user_ids))
        if self.found is None:
            raise asyncio.TimeoutError
        return [SimpleNamespace(id=i, display_name=n) for i, n in self.found.items() if i in user_ids]


async def test_names_come_from_the_cache_then_the_gateway_then_a_mention() -> None:
    guild = _Guild({1: "**Ann**"}, found={2: "Bea"})
    assert await coach_names(guild, [1, 2, 3, 1]) == {1: "\\*\\*Ann\\*\\*", 2: "Bea", 3: "<@3>"}  # type: ignore[arg-type]
    assert guild.asked == [[2, 3]], "only the coaches not in the cache are asked for, once"
    offline = _Guild({}, found=None)
    assert await coach_names(offline, [5]) == {5: "<@5>"}  # type: ignore[arg-type]


def test_a_long_history_is_cut_with_how_many_are_left() -> None:
    from datetime import UTC, datetime

    from service.ladder import RatedResult, rate

    results = [RatedResult(datetime(2026, 1, 1, tzinfo=UTC), "match", i, 1, 2, "west" if i % 2 else "east")
               for i in range(200)]
    table, history = rate(results)
    row = next(r for r in table if r.coach_id == 1)
    text = history_text(CoachHistory(1, row, list(reversed(history[1])), len(table)), {1: "Ann", 2: "Bea"}, "en")
    assert len(text) <= 2000 and text.endswith("earlier matches.") and text.startswith("**Ann**: rating **")
    rows = [LadderRow(i, MODEL.rating(), rank=i) for i in range(1, 46)]
    page, pages = table_page(rows, {}, 3, "fr")
    assert pages == 3 and "41. <@41> : **0,0**" in page and "Page 3 sur 3." in page
