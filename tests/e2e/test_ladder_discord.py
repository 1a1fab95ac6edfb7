"""``/ladder`` through the fake Discord: a member finishes a match, and the server's table shows
both coaches with their new ratings by display name, pinging nobody; ``/ladder coach`` shows a
coach's rated matches; the pages turn in place; the French server reads it all in French."""

from __future__ import annotations

import sys

import pytest
from fakediscord import FakeDiscord
from support.bots import make_bot, start_match

from service.ladder import LadderService


def _server(fake, locale: str = "en-US"):
    guild = fake.add_guild("Elfball Club", locale=locale)
    pitch = guild.add_text_channel("pitch")
    alice = guild.add_member("alice", nick="Alice *the* Swift", locale=locale)
    bob = guild.add_member("bob", nick="Bob @everyone", locale=locale)
    carol = guild.add_member("carol", nick="Carol", locale=locale)
    return guild, pitch, alice, bob, carol


async def test_a_finished_match_puts_both_coaches_on_the_ladder_by_name_pinging_nobody(database) -> None:
    async with FakeDiscord() as fake:
        guild, pitch, alice, bob, carol = _server(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        empty = await fake.slash(carol, pitch, "ladder table")
        assert not empty.ephemeral and "No rated match on this server yet" in empty.content
        await start_match(fake, pitch, alice, bob)
        conceded = await fake.slash(bob, pitch, "match concede")
        assert not conceded.ephemeral and "conceded" in conceded.content.lower()
        mark = fake.mark()
        table = await fake.slash(carol, pitch, "ladder table")
        assert not table.ephemeral, "the ladder is the server's, posted for the channel"
        rows = LadderService().table(guild.id)
        assert [(r.coach_id, r.won, r.lost) for r in rows] == [(alice.id, 1, 0), (bob.id, 0, 1)]
        text = table.content
        assert f"1. Alice \\*the\\* Swift: **{rows[0].shown:.1f}** · 1 (1-0-0)" in text, text
        assert "2. Bob @\u200beveryone: **" in text and f"**{rows[1].shown:.1f}** · 1 (0-0-1)" in text
        assert rows[0].shown > 0 > rows[1].shown
        assert "<@" not in text and table.message.mentions == []
        for member in (alice, bob, carol):
            assert fake.notifications_for(member, since=mark) == [], "nobody is pinged by the ladder"
        # One coach's history, privately: the opponent by name, the result, the rating after it.
        mine = await fake.slash(carol, pitch, "ladder coach", {"member": bob})
        assert mine.ephemeral
        assert f"**Bob @\u200beveryone**: rating **{rows[1].shown:.1f}**, 2 of 2 on this server" in mine.content
        assert "lost to Alice \\*the\\* Swift (conceded) · casual → **" in mine.content, mine.content
        assert f"({'−' if rows[1].shown < 0 else '+'}{abs(rows[1].shown):.1f})" in mine.content
        theirs = await fake.slash(bob, pitch, "ladder coach", {"member": alice})
        assert "beat Bob @\u200beveryone (who conceded) · casual" in theirs.content
        nobody = await fake.slash(alice, pitch, "ladder coach", {"member": carol})
        assert nobody.ephemeral and "Carol has no rated match on this server yet." in nobody.content
        assert fake.notifications_for(carol, since=mark) == []


async def test_the_ladder_pages_turn_in_place(database, monkeypatch) -> None:
    async with FakeDiscord() as fake:
        guild, pitch, alice, bob, carol = _server(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        # One coach a page (discord.py loads an extension as a module object of its own).
        monkeypatch.setattr(sys.modules["bot.ladder.cog"], "PAGE_ROWS", 1)
        await start_match(fake, pitch, alice, bob)
        await fake.slash(alice, pitch, "match concede")
        first = await fake.slash(carol, pitch, "ladder table")
        assert "1. Bob" in first.content and "Alice" not in first.content and "Page 1 of 2." in first.content
        mark = fake.mark()
        turned = await fake.click(carol, first.message, label="Next")
        assert turned.updated, "the same message shows the next page"
        again = turned.message
        assert "2. Alice \\*the\\* Swift" in again.text and "Page 2 of 2." in again.text
        assert fake.notifications_for(alice, since=mark) == []
        later = await fake.slash(carol, pitch, "ladder table", page=9)
        assert "Page 2 of 2." in later.content


@pytest.mark.parametrize("locale", ["fr"])
async def test_the_ladder_in_french(database, locale: str) -> None:
    async with FakeDiscord() as fake:
        guild, pitch, alice, bob, carol = _server(fake, locale)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        await fake.slash(alice, pitch, "match challenge", opponent=bob, team="gnolls")
        accepted = await fake.slash(bob, pitch, "match accept", team="sarcos")
        assert not accepted.ephemeral
        await fake.slash(bob, pitch, "match concede")
        rows = LadderService().table(guild.id)
        table = await fake.slash(carol, pitch, "ladder table")
        assert "**Classement des entraîneurs de ce serveur** (2 entraîneurs)" in table.content
        rating = f"{rows[0].shown:.1f}".replace(".", ",")  # a decimal comma
        assert f"1. Alice \\*the\\* Swift : **{rating}**" in table.content, table.content
        assert "Concéder compte comme une défaite" in table.content
        mine = await fake.slash(carol, pitch, "ladder coach", {"member": bob})
        assert "a perdu contre Alice \\*the\\* Swift (a concédé) · amical" in mine.content, mine.content
        assert "rang 2 sur 2 sur ce serveur" in mine.content
        ladder = fake.commands(guild)["ladder"]  # the French names Discord shows a French client
        assert ladder["name_localizations"]["fr"] == "classement"
        assert {o["name"]: o["name_localizations"]["fr"] for o in ladder["options"]} == {"table": "tableau",
                                                                                       "coach": "entraineur"}
