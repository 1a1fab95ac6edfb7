"""The fake Discord's private threads (type 12), as Discord keeps them: created with Create
Private Threads, seen only by their members and by members who may manage threads, members
added one by one (issue 35's lessons threads). A tiny discord.py bot, no Elfball."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands
from fakediscord import FakeDiscord, FakeDiscordError, Perm


class Hideout(discord.Client):
    """``/hideout``: a private thread here with the member in it, a post that mentions him and
    Carol, and a button; ``/member``: whether a user is in a thread (GET thread-members)."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.guild_id = guild_id

        @self.tree.command(name="hideout", description="a private thread with you in it")
        async def hideout(interaction: discord.Interaction, other: discord.Member) -> None:
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            try:
                thread = await channel.create_thread(name=f"Hideout {interaction.user.display_name}",
                                                     type=discord.ChannelType.private_thread, invitable=False)
            except discord.Forbidden as exc:
                await interaction.response.send_message(f"forbidden {exc.code}", ephemeral=True)
                return
            await thread.add_user(interaction.user)
            await thread.send(f"Welcome {interaction.user.mention} (and {other.mention})",
                              view=discord.ui.View().add_item(discord.ui.Button(label="Knock", custom_id="knock")))
            await interaction.response.send_message(f"opened {thread.id}", ephemeral=True)

        @self.tree.command(name="member", description="is a user in a thread")
        async def member(interaction: discord.Interaction, thread_id: str, user: discord.Member) -> None:
            thread = await self.fetch_channel(int(thread_id))
            assert isinstance(thread, discord.Thread)
            try:
                await thread.fetch_member(user.id)
                said = "member"
            except discord.NotFound as exc:
                said = f"not found {exc.code}"
            await interaction.response.send_message(f"{said} private={thread.is_private()}", ephemeral=True)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is discord.InteractionType.component:
            await interaction.response.send_message("who's there?", ephemeral=True)

    async def setup_hook(self) -> None:
        guild = discord.Object(id=self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)


async def test_a_private_thread_is_seen_by_its_members_and_moderators_only():
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Club")
        pitch = guild.add_text_channel("pitch")
        alice, carol = guild.add_member("Alice"), guild.add_member("Carol")
        mod = guild.add_member("Mod", permissions=Perm.EVERYONE_DEFAULT | Perm.MANAGE_THREADS)
        await fake.start_bot(Hideout(guild.id))
        opened = await fake.slash(alice, pitch, "hideout", other=carol)
        (thread,) = guild.threads
        assert opened.content == f"opened {thread.id}" and opened.ephemeral
        assert thread.type == 12 and thread.is_private and not thread.invitable and thread.parent is pitch
        assert thread.thread_members == [guild.bot_member.id, alice.id]
        assert fake.requests_matching("POST /channels/*/threads")[-1].json["type"] == 12
        (welcome,) = fake.channel_history(thread)
        # Carol is mentioned but cannot see the thread: Discord notifies Alice only.
        assert welcome.notified == [alice.id]
        assert fake.visible_history(alice, thread) == [welcome] and fake.visible_history(mod, thread) == [welcome]
        assert fake.visible_history(carol, thread) == [] and thread.permissions_for(carol) == 0
        assert thread.can_see(alice) and thread.can_see(mod) and thread.can_see(guild.owner) and not thread.can_see(carol)
        # Her client shows her nothing there: no command, no press, no message.
        with pytest.raises(FakeDiscordError, match="private thread"):
            await fake.slash(carol, thread, "member", thread_id=str(thread.id), user=carol)
        with pytest.raises(FakeDiscordError, match="private thread"):
            await fake.click(carol, welcome, "knock")
        with pytest.raises(FakeDiscordError, match="private thread"):
            await fake.post(carol, thread, "let me in")
        assert (await fake.click(alice, welcome, "knock")).content == "who's there?"
        assert (await fake.slash(alice, pitch, "member", thread_id=str(thread.id), user=alice)).content == \
            "member private=True"
        assert (await fake.slash(alice, pitch, "member", thread_id=str(thread.id), user=carol)).content == \
            "not found 10007 private=True"
        # Deleted by a moderator: the id is unknown from then on.
        fake.delete_thread(thread)
        await fake.settle()
        assert guild.threads == []


async def test_a_private_thread_needs_create_private_threads():
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Club")
        pitch = guild.add_text_channel("pitch")
        alice, carol = guild.add_member("Alice"), guild.add_member("Carol")
        pitch.set_permissions(guild.bot_member, deny=Perm.CREATE_PRIVATE_THREADS)
        await fake.start_bot(Hideout(guild.id))
        refused = await fake.slash(alice, pitch, "hideout", other=carol)
        assert refused.content == "forbidden 50013" and guild.threads == []
        # A private thread of the world built by the test: its owner (the bot) and its members.
        thread = guild.add_thread(pitch, "Lounge", private=True, members=(alice,))
        assert thread.thread_members == [fake.application_id, alice.id] and not thread.can_see(carol)
