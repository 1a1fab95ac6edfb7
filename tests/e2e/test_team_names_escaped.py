"""A team's name is shown as typed in ``/team create``, ``/team show`` and ``/team list``: Discord's
markdown escaped (no italics, no masked link, no heading) and no bidi override, as league posts
and the match header already show names (``service.names.safe_name``)."""

from __future__ import annotations

from fakediscord import FakeDiscord
from sqlalchemy import text

from bot.app import ElfballBot
from service.matches import MatchService

ITALIC = "Tin_Can *Rattlers*"
LINK = "[Free Nitro](https://example.com)"


def _shows_as_typed(content: str, name: str, escaped: str) -> None:
    assert escaped in content, content
    bare = content.replace(escaped, "")
    assert name not in bare, f"{name!r} posted unescaped: {content}"


async def test_team_commands_escape_markdown_in_names(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild = fake.add_guild("Elfball Club")
        office = guild.add_text_channel("office")
        alice, bob = guild.add_member("Alice"), guild.add_member("Bob")
        bot = ElfballBot(service=MatchService(width=600), dev_guild=guild.id)
        await fake.start_bot(bot)

        r = await fake.slash(alice, office, "team", subcommand="create", name=ITALIC, list="gnolls")
        assert not r.ephemeral
        _shows_as_typed(r.content, ITALIC, r"Tin\_Can \*Rattlers\*")
        r = await fake.slash(bob, office, "team", subcommand="create", name=LINK, list="sarcos")
        _shows_as_typed(r.content, LINK, r"\[Free Nitro\](https://example.com)")

        r = await fake.slash(alice, office, "team show", name=ITALIC)
        _shows_as_typed(r.content, ITALIC, r"Tin\_Can \*Rattlers\*")
        r = await fake.slash(bob, office, "team show", name=LINK)
        _shows_as_typed(r.content, LINK, r"\[Free Nitro\](https://example.com)")

        r = await fake.slash(bob, office, "team list")
        _shows_as_typed(r.content, ITALIC, r"Tin\_Can \*Rattlers\*")
        _shows_as_typed(r.content, LINK, r"\[Free Nitro\](https://example.com)")


async def test_an_old_team_name_with_a_bidi_override_or_a_heading_cannot_reshape_the_post(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild = fake.add_guild("Elfball Club")
        office = guild.add_text_channel("office")
        alice = guild.add_member("Alice")
        bot = ElfballBot(service=MatchService(width=600), dev_guild=guild.id)
        await fake.start_bot(bot)
        await fake.slash(alice, office, "team", subcommand="create", name="Moonblades", list="night-elves")
        # A row stored before names were checked: a right-to-left override.
        with database.begin() as conn:
            conn.execute(text("UPDATE teams SET name = :n WHERE name = 'Moonblades'"), {"n": "Moon\u202eblades"})
        r = await fake.slash(alice, office, "team list")
        assert "\u202e" not in r.content and "Moonblades" in r.content
        # A new name with one is refused at creation, saying which character.
        r = await fake.slash(alice, office, "team", subcommand="create", name="Evil\u202eteam", list="gnolls")
        assert r.ephemeral and "U+202E" in r.content
