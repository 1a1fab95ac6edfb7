"""Matches, teams and leagues belong to a server's channels: ``ServerCog`` says so once for
all the commands of a cog.

Discord's clients do not offer those commands in direct messages (``guild_only``); an old client
that still sends one is answered by the cog's check, which the tree's error handler turns into
the private "servers only" refusal.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

__all__ = ["ServerCog", "ServerGroupCog", "server_only", "refuse_direct_messages"]


def server_only(cog: commands.Cog) -> None:
    """Mark a cog's commands as server-only: Discord's clients do not offer them in direct
    messages."""
    group = getattr(cog, "__cog_app_commands_group__", None)  # a GroupCog: its group decides
    for command in [*cog.__cog_app_commands__, *([group] if group is not None else [])]:
        command.guild_only = True


def refuse_direct_messages(interaction: discord.Interaction) -> bool:
    """The check: True in a server; in a direct message ``NoPrivateMessage`` (answered by the
    tree's error handler)."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return True


class ServerCog(commands.Cog):
    """A cog whose commands are played in a server's channels only."""

    async def cog_load(self) -> None:
        server_only(self)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return refuse_direct_messages(interaction)


class ServerGroupCog(commands.GroupCog):
    """A group cog (``/match``, ``/team``) whose commands are played in a server's channels only."""

    async def cog_load(self) -> None:
        server_only(self)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return refuse_direct_messages(interaction)
