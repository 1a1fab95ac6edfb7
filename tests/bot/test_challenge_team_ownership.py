"""A stored team is played only by its coach: naming another coach's team in a challenge, an
accept or a match against the bot is refused privately and starts nothing (issue 29: any member
could lock a league team out of its fixture)."""

from __future__ import annotations

from fakediscord import FakeDiscord

from bot.app import ElfballBot
from service.matches import MatchService


async def test_only_its_coach_plays_a_stored_team(database):
    async with FakeDiscord(timeout=60.0) as fake:  # a board drawn on a busy machine
        guild = fake.add_guild("Elfball Club")
        pitch, side = guild.add_text_channel("pitch"), guild.add_text_channel("side")
        alice, bob, carol = guild.add_member("Alice"), guild.add_member("Bob"), guild.add_member("Carol")
        service = MatchService(width=600)
        bot = ElfballBot(service=service, dev_guild=guild.id)
        await fake.start_bot(bot)
        r = await fake.slash(alice, pitch, "team", subcommand="create", name="Moonblades", list="night-elves")
        assert not r.ephemeral

        r = await fake.slash(bob, pitch, "match challenge", opponent=fake.bot_user, team="Moonblades")
        assert r.ephemeral and "only he can play it" in r.content and f"<@{alice.id}>" in r.content
        assert service.current_or_none(pitch.id) is None

        r = await fake.slash(bob, pitch, "match challenge", opponent=carol, team="moonblades")
        assert r.ephemeral and "only he can play it" in r.content
        r = await fake.slash(carol, pitch, "match challenge", opponent=bob, team="gnolls")
        assert not r.ephemeral
        r = await fake.slash(bob, pitch, "match accept", team="Moonblades")
        assert r.ephemeral and "only he can play it" in r.content
        assert service.current_or_none(pitch.id) is None
        r = await fake.slash(bob, pitch, "match accept", team="sarcos")  # the challenge still stands
        assert not r.ephemeral and r.attachments, r.content

        r = await fake.slash(alice, side, "match challenge", opponent=fake.bot_user, team="Moonblades")
        assert not r.ephemeral and "Moonblades" in r.content
