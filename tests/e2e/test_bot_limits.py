"""Limits and Discord's permissions, as a member meets them (issue 31): what each member sees,
what the channel shows, and that a refusal leaves nothing behind.

The suite's operator has no cooldowns and roomy caps (``tests/conftest.py``); each test here
sets the operator's values it plays under (``ELFBALL_LIMIT_*``). Time passes on Discord's clock
(``fake.advance(..., snowflakes=True)``: the interactions' ids, which discord.py's cooldowns
read), never by sleeping.
"""

from __future__ import annotations

import re

import discord
from fakediscord import FakeDiscord, Perm

from support.bots import make_bot, world


def _retry_at(text: str) -> int:
    found = re.search(r"<t:(\d+):R>", text)
    assert found, text
    return int(found.group(1))


async def test_a_member_without_create_public_threads_is_refused_a_thread(database):
    async with FakeDiscord() as fake:
        guild, pitch, alice, bob, _, _ = world(fake)
        pitch.set_permissions(alice, deny=Perm.CREATE_PUBLIC_THREADS)  # a moderator's overwrite for him
        bot = make_bot(guild)
        await fake.start_bot(bot)
        before = fake.mark()
        r = await fake.slash(alice, pitch, "match challenge", opponent=bob, team="gnolls", thread=True)
        assert r.ephemeral and "Create Public Threads" in r.content and "Nothing was created" in r.content
        assert guild.threads == [] and fake.new_message_count(pitch, since=before) == 0
        assert fake.notifications_for(bob, since=before) == []
        r = await fake.slash(bob, pitch, "match accept", team="sarcos")  # no challenge was recorded
        assert r.ephemeral
        # Bob may: the thread opens for him, as before.
        r = await fake.slash(bob, pitch, "match challenge", opponent=alice, team="gnolls", thread=True)
        assert not r.ephemeral and len(guild.threads) == 1


async def test_the_bot_says_which_permission_it_lacks_before_a_match_starts(database):
    async with FakeDiscord() as fake:
        guild, pitch, alice, bob, _, _ = world(fake)
        pitch.set_permissions(guild.bot_member, deny=Perm.ATTACH_FILES)  # no board picture here
        bot = make_bot(guild)
        await fake.start_bot(bot)
        before = fake.mark()
        for opponent in (guild.bot_member, bob):
            r = await fake.slash(alice, pitch, "match challenge", opponent=opponent, team="gnolls")
            assert r.ephemeral and "Attach Files" in r.content and "Send Messages" not in r.content
        assert bot.service.current_or_none(pitch.id) is None and fake.new_message_count(pitch, since=before) == 0
        # In French, by the names French Discord gives the permissions.
        r = await fake.slash(alice, pitch, "match challenge", opponent=bob, team="gnolls", locale="fr")
        assert r.ephemeral and "Joindre des fichiers" in r.content
        # In a thread of a channel where the bot may not post in threads, the same (nothing opened).
        other = guild.add_text_channel("other")
        other.set_permissions(guild.everyone, deny=Perm.SEND_MESSAGES_IN_THREADS)
        r = await fake.slash(alice, other, "match challenge", opponent=bob, team="gnolls", thread=True)
        assert r.ephemeral and "Send Messages in Threads" in r.content and guild.threads == []
        # Given back its permission, the bot plays there.
        pitch.set_permissions(guild.bot_member)
        r = await fake.slash(alice, pitch, "match challenge", opponent=guild.bot_member, team="gnolls")
        assert not r.ephemeral
        r = await fake.click(alice, r, label="Start")  # the AI coach's match starts on its challenger's Start
        assert bot.service.current_or_none(pitch.id) is not None


async def test_the_fourth_match_against_the_ai_is_refused_with_the_matches_to_end(database, monkeypatch):
    monkeypatch.setenv("ELFBALL_LIMIT_AI_MATCHES", "3")
    async with FakeDiscord(timeout=15.0) as fake:
        guild, _, alice, bob, _, _ = world(fake)
        rooms = [guild.add_text_channel(f"room-{i}") for i in range(5)]
        bot = make_bot(guild)
        await fake.start_bot(bot)
        for room in rooms[:3]:
            r = await fake.slash(alice, room, "match challenge", opponent=guild.bot_member, team="gnolls")
            assert not r.ephemeral
            await fake.click(alice, r, label="Start")
        before = fake.mark()
        r = await fake.slash(alice, rooms[3], "match challenge", opponent=guild.bot_member, team="gnolls",
                             thread=True)
        assert r.ephemeral and "3 matches against the AI coach" in r.content and "/match concede" in r.content
        assert all(room.mention in r.content for room in rooms[:3])
        assert guild.threads == [] and fake.new_message_count(rooms[3], since=before) == 0
        assert bot.service.current_or_none(rooms[3].id) is None
        # Bob is another member: his own three.
        r = await fake.slash(bob, rooms[3], "match challenge", opponent=guild.bot_member, team="gnolls")
        assert not r.ephemeral
        await fake.click(bob, r, label="Start")
        # Alice ends one; then she may start another.
        r = await fake.slash(alice, rooms[0], "match concede")
        assert not r.ephemeral
        r = await fake.slash(alice, rooms[4], "match challenge", opponent=guild.bot_member, team="gnolls")
        assert not r.ephemeral
        await fake.click(alice, r, label="Start")
        assert bot.service.current_or_none(rooms[4].id) is not None


async def test_a_cooldown_says_when_and_then_lets_the_member_play(database, monkeypatch):
    monkeypatch.setenv("ELFBALL_LIMIT_CHALLENGE_COOLDOWN", "60")
    async with FakeDiscord() as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        other = guild.add_text_channel("other")
        bot = make_bot(guild)
        await fake.start_bot(bot)
        r = await fake.slash(alice, pitch, "match challenge", opponent=bob, team="gnolls")
        assert not r.ephemeral
        first = discord.utils.snowflake_time(r.interaction_id).timestamp()
        before = fake.mark()
        r = await fake.slash(alice, other, "match challenge", opponent=carol, team="gnolls")
        assert r.ephemeral and "again" in r.content
        assert abs(_retry_at(r.content) - (first + 60)) <= 2  # a minute after her challenge
        assert fake.new_message_count(other, since=before) == 0 and fake.notifications_for(carol, since=before) == []
        # A refusal costs nothing: Carol's challenge to herself is refused, and then she challenges.
        r = await fake.slash(carol, other, "match challenge", opponent=carol, team="gnolls")
        assert r.ephemeral
        r = await fake.slash(carol, other, "match challenge", opponent=bob, team="gnolls")
        assert not r.ephemeral
        r = await fake.slash(carol, other, "match decline")  # withdrawn: the channel is free again
        assert not r.ephemeral
        fake.advance(61, snowflakes=True)  # a minute passes on Discord's clock
        r = await fake.slash(alice, other, "match challenge", opponent=carol, team="gnolls")
        assert not r.ephemeral and r.message.mentions_user(carol)


async def test_a_moderator_lowers_a_cap_within_the_operators_and_a_member_cannot_raise_it(database, monkeypatch):
    monkeypatch.setenv("ELFBALL_LIMIT_TEAMS", "5")
    async with FakeDiscord() as fake:
        guild, pitch, alice, _, _, mod = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        r = await fake.slash(alice, pitch, "limits")
        assert r.ephemeral and "`teams`: **5**" in r.content
        r = await fake.slash(mod, pitch, "limits", limit="teams", value=2)
        assert r.ephemeral and "`teams` is now **2**" in r.content and "up to 5" in r.content
        for name in ("Tin Cans", "Rattlers"):
            r = await fake.slash(alice, pitch, "team create", name=name, list="gnolls")
            assert not r.ephemeral
        r = await fake.slash(alice, pitch, "team create", name="Third", list="gnolls")
        assert r.ephemeral and "2 teams" in r.content and "limit: 2" in r.content
        r = await fake.slash(alice, pitch, "limits", limit="teams", value=5)  # not a moderator
        assert r.ephemeral and "Manage Server" in r.content
        r = await fake.slash(mod, pitch, "limits", limit="teams", value=6)  # past the operator's
        assert r.ephemeral and "at most 5" in r.content
        r = await fake.slash(alice, pitch, "team create", name="Third", list="gnolls")
        assert r.ephemeral  # nothing changed
        r = await fake.slash(mod, pitch, "limits", limit="teams")  # back to the bot's value
        assert "`teams` is now **5**" in r.content
        r = await fake.slash(alice, pitch, "team create", name="Third", list="gnolls")
        assert not r.ephemeral
        r = await fake.slash(alice, pitch, "limits", locale="fr")
        assert r.ephemeral and "Plafonds" in r.content


async def test_the_two_replays_share_a_cooldown_and_a_new_team_has_its_own(database, monkeypatch):
    monkeypatch.setenv("ELFBALL_LIMIT_REPLAY_COOLDOWN", "30")
    monkeypatch.setenv("ELFBALL_LIMIT_TEAM_COOLDOWN", "30")
    async with FakeDiscord(timeout=15.0) as fake:
        guild, pitch, alice, bob, _, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        r = await fake.slash(alice, pitch, "match challenge", opponent=guild.bot_member, team="gnolls")
        assert not r.ephemeral
        await fake.click(alice, r, label="Start")
        r = await fake.slash(bob, pitch, "match replay")
        assert not r.ephemeral and r.attachments[0].filename == "replay.gif"
        first = discord.utils.snowflake_time(r.interaction_id).timestamp()
        before = fake.mark()
        for command, options in (("match replay", {}), ("league replay", {"fixture": "1"})):
            r = await fake.slash(bob, pitch, command, **options)
            assert r.ephemeral and abs(_retry_at(r.content) - (first + 30)) <= 2, command
        assert fake.new_message_count(pitch, since=before) == 0
        r = await fake.slash(alice, pitch, "match replay")  # another member's cooldown is his own
        assert not r.ephemeral
        r = await fake.slash(bob, pitch, "team create", name="Tin Cans", list="gnolls")  # another action's too
        assert not r.ephemeral
        r = await fake.slash(bob, pitch, "team create", name="Rattlers", list="gnolls")
        assert r.ephemeral and "<t:" in r.content
        fake.advance(31, snowflakes=True)
        r = await fake.slash(bob, pitch, "match replay")
        assert not r.ephemeral and r.attachments
        r = await fake.slash(bob, pitch, "team create", name="Rattlers", list="gnolls")
        assert not r.ephemeral


async def test_a_start_under_a_challenge_to_the_bot_checks_the_channel_again(database):
    """The permissions checked when the bot was challenged may be gone when its challenger presses
    Start: the press says which one the bot lacks, privately, and starts nothing."""
    async with FakeDiscord() as fake:
        guild, pitch, alice, _, _, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        challenge = await fake.slash(alice, pitch, "match challenge", opponent=guild.bot_member, team="gnolls")
        assert not challenge.ephemeral
        pitch.set_permissions(guild.bot_member, deny=Perm.ATTACH_FILES)
        before = fake.mark()
        r = await fake.click(alice, challenge, label="Start")
        assert r.ephemeral and "Attach Files" in r.content
        assert bot.service.current_or_none(pitch.id) is None and fake.new_message_count(pitch, since=before) == 0
        pitch.set_permissions(guild.bot_member)
        await fake.click(alice, challenge, label="Start")
        assert bot.service.current_or_none(pitch.id) is not None
