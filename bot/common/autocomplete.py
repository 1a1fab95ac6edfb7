"""Team autocomplete for every cog: suggestions only, whatever a member submits is checked again.

``team_choices`` offers the server's teams and the team lists (Discord's limits kept: 25
choices, 100 characters); ``list_name`` names a team list.
"""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands

from bot.common.i18n import tr
from service import teams as team_store
from service.vocabulary import language_of

__all__ = ["team_choices", "list_name"]

def list_name(list_id: str) -> str:
    """A stored team's team list by its name (``Night Elves``, a proper noun in every language),
    not its id (``night-elves``); an unknown id as stored."""
    return team_store.list_name(list_id)


async def team_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The server's teams whose name holds what is typed (at most 25, read bounded by the
    database: ``service.teams.team_names``), then the team lists that match."""
    lang = language_of(interaction.locale)
    cur = current.strip().lower()

    def work() -> list[tuple[str, str]]:
        stored = team_store.team_names(interaction.guild_id or 0, current)
        return [(tr(lang, "complete.server_team", team=name, list=list_name(lst)), name) for name, lst in stored] + [
            (tr(lang, "complete.team_list.optional" if t.optional else "complete.team_list", team=t.name), t.id)
            for t in team_store.team_lists() if cur in t.name.lower() or cur in t.id
        ]

    pairs = await asyncio.to_thread(work)
    return [app_commands.Choice(name=n[:100], value=v[:100]) for n, v in pairs][:25]
