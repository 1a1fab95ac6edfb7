"""The fake Discord's permissions, as Discord computes them: a channel's overwrites in the
interaction's ``permissions`` and ``app_permissions``, and the bot's own requests refused
without theirs (issue 31). A tiny discord.py bot, no Elfball."""

from __future__ import annotations

import discord
from discord import app_commands
from fakediscord import FakeDiscord, Perm


class Probe(discord.Client):
    """``/probe``: says what discord.py read from the interaction; ``/post``: posts a file in the
    channel with the bot token."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.guild_id = guild_id
        self.errors: list[int] = []

        @self.tree.command(name="probe", description="permissions here")
        async def probe(interaction: discord.Interaction) -> None:
            mine, bot = interaction.permissions, interaction.app_permissions
            await interaction.response.send_message(
                f"threads={mine.create_public_threads} manage={mine.manage_guild} "
                f"bot_files={bot.attach_files} bot_send={bot.send_messages}", ephemeral=True)

        @self.tree.command(name="post", description="a file in this channel")
        async def post(interaction: discord.Interaction) -> None:
            channel = self.get_channel(interaction.channel_id or 0)
            assert isinstance(channel, discord.TextChannel)
            try:
                await channel.send("board", file=discord.File(__file__, filename="board.txt"))
                said = "posted"
            except discord.Forbidden as exc:
                said = f"forbidden {exc.code}"
            await interaction.response.send_message(said, ephemeral=True)

    async def setup_hook(self) -> None:
        guild = discord.Object(id=self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)


async def test_overwrites_reach_the_interaction_and_the_bots_requests():
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Club")
        pitch, other = guild.add_text_channel("pitch"), guild.add_text_channel("other")
        alice = guild.add_member("Alice")
        mod = guild.add_member("Mod", manage_guild=True)
        pitch.set_permissions(guild.everyone, deny=Perm.CREATE_PUBLIC_THREADS)
        pitch.set_permissions(mod, allow=Perm.CREATE_PUBLIC_THREADS)
        pitch.set_permissions(guild.bot_member, deny=Perm.ATTACH_FILES)
        await fake.start_bot(Probe(guild.id))
        r = await fake.slash(alice, pitch, "probe")
        assert r.content == "threads=False manage=False bot_files=False bot_send=True"
        r = await fake.slash(mod, pitch, "probe")  # his own overwrite wins over @everyone's
        assert r.content == "threads=True manage=True bot_files=False bot_send=True"
        r = await fake.slash(alice, other, "probe")  # another channel: the server's permissions
        assert r.content == "threads=True manage=False bot_files=True bot_send=True"
        r = await fake.slash(alice, pitch, "post")
        assert r.content == "forbidden 50013" and fake.channel_messages(pitch) == []
        pitch.set_permissions(guild.bot_member)  # removed after the bot connected: CHANNEL_UPDATE
        r = await fake.slash(alice, pitch, "post")
        assert r.content == "posted" and len(fake.channel_messages(pitch)) == 1
        other.set_permissions(guild.everyone, deny=Perm.VIEW_CHANNEL)
        assert other.permissions_for(alice) == 0 and other.permissions_for(guild.owner) == Perm.ALL
