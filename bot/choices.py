"""Autocomplete for every cog: suggestions only, whatever a member submits is checked again.

``completer(make)`` turns ``make(state, side, typed, namespace, language) -> [(label, value)]``
into a discord.py autocomplete callback that reads the channel's match in a worker thread (the
event loop never waits on the database) and keeps Discord's limits (25 choices, 100 characters).
``team_choices`` offers the server's teams and the team lists.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from service.vocabulary import StoreError
from service.vocabulary import ElfballError
from service.vocabulary import language_of
from service import teams as team_store

from .i18n import tr

__all__ = ["Maker", "completer", "state_for", "team_choices", "list_name"]

def state_for(interaction: discord.Interaction) -> Any:
    bot: Any = interaction.client
    m = bot.service.current(interaction.channel_id or 0)
    state = m.engine_state()
    return m, state, bot.service.side_of(m, interaction.user.id)


#: ``make(state, side, typed, namespace, language)``: (label, value) pairs.
Maker = Callable[..., list[tuple[str, str]]]


async def _complete(interaction: discord.Interaction, current: str, make: Maker) -> list[app_commands.Choice[str]]:
    """Suggestions only: whatever the coach submits is checked again by the engine. ``make``
    also gets the options typed so far (``interaction.namespace``: the player who moves, the
    spell being cast)."""
    def work() -> list[tuple[str, str]]:
        try:
            m, state, side = state_for(interaction)
        except (StoreError, ElfballError):
            return []
        return make(state, side, current, interaction.namespace, language_of(interaction.locale))

    pairs = await asyncio.to_thread(work)
    cur = current.strip().lower()
    ranked = [p for p in pairs if cur in p[0].lower() or cur in p[1].lower()] if cur else pairs
    return [app_commands.Choice(name=n[:100], value=v[:100]) for n, v in ranked[:25]]


def completer(make: Maker) -> Callable[..., Any]:
    """An autocomplete callback (discord.py wants a coroutine function) for ``make``."""

    async def autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await _complete(interaction, current, make)

    return autocomplete


def list_name(list_id: str) -> str:
    """A stored team's team list by its name (``Night Elves``, a proper noun in every language),
    not its id (``night-elves``); an unknown id as stored."""
    return team_store.list_name(list_id)


async def team_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    lang = language_of(interaction.locale)

    def work() -> list[tuple[str, str]]:
        stored = team_store.teams(interaction.guild_id or 0)
        return [(tr(lang, "complete.server_team", team=t.name, list=list_name(t.team_list)), t.name) for t in stored] + [
            (tr(lang, "complete.team_list.optional" if t.optional else "complete.team_list", team=t.name), t.id)
            for t in team_store.team_lists()
        ]

    pairs = await asyncio.to_thread(work)
    cur = current.lower()
    return [app_commands.Choice(name=n[:100], value=v[:100]) for n, v in pairs if cur in n.lower()][:25]
