"""Presses on a match's panels reach the cog that answers them.

The panel's items are rebuilt from their custom ids by the bot (``add_dynamic_items``), before
any cog is involved; their callbacks find the answering cog by name (``interaction.client``'s
``get_cog``) and call it through these protocols. Without that cog (its extension not loaded)
the press is refused as a stale panel.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import discord
from discord.ext import commands
from discord.ext.commands.bot import BotBase

from bot.common.errors import answer_press
from bot.common.reply import Refusal, refuse

__all__ = ["PanelHandler", "DescribeHandler", "CloseUpHandler", "press_panel", "press_describe", "press_close_up"]


@runtime_checkable
class PanelHandler(Protocol):
    """The play cog: a press on a decision panel."""

    async def panel_pressed(self, interaction: discord.Interaction, verb: str, match_id: int, version: int,
                            arg: str | None, values: list[str]) -> None: ...


@runtime_checkable
class DescribeHandler(Protocol):
    """The trust cog: a press on a board's Describe button."""

    async def describe_pressed(self, interaction: discord.Interaction, match_id: int) -> None: ...


@runtime_checkable
class CloseUpHandler(Protocol):
    """The trust cog: a press on a board's Close-up button."""

    async def close_up_pressed(self, interaction: discord.Interaction, match_id: int) -> None: ...


def _cog(interaction: discord.Interaction, name: str) -> commands.Cog | None:
    client = interaction.client  # a Bot or an AutoShardedBot: both are BotBase, neither the other
    return client.get_cog(name) if isinstance(client, BotBase) else None


async def press_panel(interaction: discord.Interaction, verb: str, match_id: int, version: int, arg: str | None,
                      values: list[str]) -> None:
    """Hand a decision panel's press to the play cog."""
    cog = _cog(interaction, "Play")
    if isinstance(cog, PanelHandler):
        await answer_press(interaction, cog.panel_pressed(interaction, verb, match_id, version, arg, values))
    else:
        await refuse(interaction, Refusal("refuse.panel_stale"))


async def press_describe(interaction: discord.Interaction, match_id: int) -> None:
    """Hand a Describe press to the trust cog."""
    cog = _cog(interaction, "Trust")
    if isinstance(cog, DescribeHandler):
        await answer_press(interaction, cog.describe_pressed(interaction, match_id))
    else:
        await refuse(interaction, Refusal("refuse.panel_stale"))


async def press_close_up(interaction: discord.Interaction, match_id: int) -> None:
    """Hand a Close-up press to the trust cog."""
    cog = _cog(interaction, "Trust")
    if isinstance(cog, CloseUpHandler):
        await answer_press(interaction, cog.close_up_pressed(interaction, match_id))
    else:
        await refuse(interaction, Refusal("refuse.panel_stale"))
