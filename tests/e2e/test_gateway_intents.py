"""The gateway events Discord sends the bot, by the intents it identified with (issue 33).

Discord sends a MESSAGE_CREATE for every message posted in a server (members' chat and the bot's
own posts, interaction responses included) and a MESSAGE_UPDATE for every edit to a session
holding GUILD_MESSAGES, a TYPING_START whenever someone types with GUILD_MESSAGE_TYPING; the
fake Discord does the same. The Elfball bot uses none of them (no prefix command, no
``on_message``, no message cache: it answers interactions and edits its posts by id), so it asks
for GUILDS only and Discord spares it a parsed event per post and per board edit.
"""

from __future__ import annotations

import discord
from fakediscord import FakeDiscord

from ai import AICoach
from support.bots import make_bot, play_until, start_match, world

MESSAGE_EVENTS = ("MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE", "TYPING_START")


async def test_the_bot_receives_no_message_events_while_members_chat_and_it_posts_and_edits(database):
    async with FakeDiscord(timeout=15.0) as fake:
        guild, pitch, alice, bob, _, _ = world(fake)
        bot = await fake.start_bot(make_bot(guild))
        assert bot.intents.value == discord.Intents(guilds=True).value
        before = fake.dispatched.copy()
        start = fake.mark()
        await start_match(fake, pitch, alice, bob)
        await fake.post(alice, pitch, "good luck, have fun")  # typed, then sent: members chat in the channel
        await fake.post(bob, pitch, f"{alice.mention} you too")
        played = []

        def enough(outcome):
            played.append(outcome)
            return len(played) > 6

        ais = {"west": AICoach(), "east": AICoach()}
        await play_until(fake, pitch, bot.service, {"west": alice, "east": bob}, ais, enough, limit=50)
        await fake.settle()
        # The channel saw new posts and edits of the boards...
        assert fake.new_message_count(pitch, since=start) >= 4 and fake.edit_count(pitch, since=start) >= 1
        # ...and the bot heard of none of them: it only got the interactions it answered.
        sent = fake.dispatched - before
        assert {e: sent[e] for e in MESSAGE_EVENTS if sent[e]} == {}
        assert sent["INTERACTION_CREATE"] >= 8
        # A reconnection resumes the same session: the same intents, still no echo.
        await fake.drop_connection()
        await fake.wait_until_ready()
        await fake.post(alice, pitch, "still there?")
        assert all(fake.dispatched[e] == before[e] for e in MESSAGE_EVENTS)
        assert fake.resume_count == 1


class Listener(discord.Client):
    """A client with discord.py's default intents that notes the message events it is sent."""

    def __init__(self, intents: discord.Intents) -> None:
        super().__init__(intents=intents, max_messages=None)
        self.created: list[tuple[int, str]] = []
        self.edited: list[tuple[int, str]] = []
        self.deleted: list[int] = []
        self.typing_users: list[int] = []

    async def on_message(self, message: discord.Message) -> None:
        self.created.append((message.author.id, message.content))

    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        self.edited.append((payload.message_id, payload.data.get("content", "")))

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        self.deleted.append(payload.message_id)

    async def on_raw_typing(self, payload: discord.RawTypingEvent) -> None:
        self.typing_users.append(payload.user_id)


async def test_a_client_with_the_default_intents_hears_its_own_posts_edits_and_members_chat():
    async with FakeDiscord() as fake:
        guild, pitch, alice, _, _, _ = world(fake)
        client = await fake.start_bot(Listener(discord.Intents.default()), synced=False)
        me = fake.bot_user.id
        channel = client.get_channel(pitch.id)
        assert isinstance(channel, discord.TextChannel)
        posted = await channel.send("board v1")
        await posted.edit(content="board v2")
        await fake.post(alice, pitch, "nice move")
        await fake.post(alice, pitch, f"{fake.bot_user.mention} hello")
        await posted.delete()
        await fake.settle()
        # Its own post and its edit come back; a member's words arrive empty without the
        # privileged MESSAGE_CONTENT, unless they mention the bot.
        assert client.created == [(me, "board v1"), (alice.id, ""), (alice.id, f"<@{me}> hello")]
        assert client.edited == [(posted.id, "board v2")]
        assert client.deleted == [posted.id]
        assert client.typing_users == [alice.id, alice.id]
        assert fake.dispatched["MESSAGE_CREATE"] == 3 and fake.dispatched["MESSAGE_UPDATE"] == 1


async def test_message_content_and_direct_messages_follow_their_intents():
    async with FakeDiscord() as fake:
        guild, pitch, alice, _, _, _ = world(fake)
        intents = discord.Intents.none()
        intents.guilds = intents.guild_messages = intents.message_content = True  # no DIRECT_MESSAGES
        client = await fake.start_bot(Listener(intents), synced=False)
        await fake.post(alice, pitch, "nice move")
        await fake.post(alice, fake.dm_channel_for(alice), "psst")
        await fake.settle()
        assert client.created == [(alice.id, "nice move")] and client.typing_users == []
