"""Options that carry their own reading and suggestions (discord.py ``app_commands.Transformer``).

* ``HexOption(verb, suggest)``: a hex of the field, read as the command's builder reads it
  (``service.typed.hex_option``: the same refusals, in the member's language); a command gets a
  ``Hex``.
* ``PlayerOption(suggest)``: a player as the coach named him (number, name or id): the engine
  resolves him against the match's position when the command runs, off the event loop.
* ``TeamOption``: a server's team or a team list, by name; the service decides which, and
  whether the member may play it.

Each brings its autocomplete, so a command's signature says what an option is and what is
offered for it. A refused option reaches the one error handler (``bot.common.errors``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord
from discord import app_commands

from bot.common.autocomplete import team_choices
from service.typed import hex_option
from service.vocabulary import Hex

__all__ = ["Suggest", "HexOption", "PlayerOption", "TeamOption"]

#: An autocomplete callback: the member's interaction and what he typed so far.
Suggest = Callable[[discord.Interaction, str], Awaitable[list[app_commands.Choice[str]]]]


class HexOption(app_commands.Transformer):
    """A hex option of slash command ``verb`` (its usage names the command when it is empty)."""

    def __init__(self, verb: str, suggest: Suggest) -> None:
        self.verb, self.suggest = verb, suggest

    async def transform(self, interaction: discord.Interaction, value: str, /) -> Hex:
        return hex_option(value, self.verb)

    async def autocomplete(self, interaction: discord.Interaction, value: str, /) -> list[app_commands.Choice[str]]:  # type: ignore[override]  # string choices only
        return await self.suggest(interaction, value)


class PlayerOption(app_commands.Transformer):
    """A player as the coach named him, with ``suggest``'s players offered."""

    def __init__(self, suggest: Suggest) -> None:
        self.suggest = suggest

    async def transform(self, interaction: discord.Interaction, value: str, /) -> str:
        return value

    async def autocomplete(self, interaction: discord.Interaction, value: str, /) -> list[app_commands.Choice[str]]:  # type: ignore[override]  # string choices only
        return await self.suggest(interaction, value)


class TeamOption(app_commands.Transformer):
    """A team by name: the server's teams and the team lists offered."""

    async def transform(self, interaction: discord.Interaction, value: str, /) -> str:
        return value

    async def autocomplete(self, interaction: discord.Interaction, value: str, /) -> list[app_commands.Choice[str]]:  # type: ignore[override]  # string choices only
        return await team_choices(interaction, value)
