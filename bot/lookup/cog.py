"""Lookups that need no match: ``/rules`` (a rule by name; ``Board`` pictures every mark of the board), ``/odds`` (exact odds of a challenge)
and ``/roll`` (dice in chat, not part of a match). They work in direct messages too.
"""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import ElfballBot
from bot.common.i18n import languages, tr
from bot.common.reply import Refusal, refuse, say
from bot.lookup.rules_topics import find_topic, topic_choices
from bot.play.panels import challenge_odds_line
from service import lookup
from service.dice import free_roll
from service.vocabulary import MarkdownStringifier, language_of, odds

__all__ = ["Lookup", "setup"]


async def topic_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Topics by their name in the member's language; the value is the English name."""
    return [app_commands.Choice(name=n, value=v) for n, v in topic_choices(current, language_of(interaction.locale))][:25]


class Lookup(commands.Cog):
    """Rules, odds and dice."""

    def __init__(self, bot: ElfballBot) -> None:
        self.bot = bot

    @app_commands.command(name="roll", description="Roll Challenge dice in chat (not part of a match)")
    @app_commands.describe(dice="how many dice", need="successes needed")
    async def roll(self, interaction: discord.Interaction, dice: app_commands.Range[int, 0, 12], need: app_commands.Range[int, -5, 12]) -> None:
        roll, seed = free_roll(dice, need)
        lang = (await languages(interaction)).public
        dice_text = MarkdownStringifier().dice(roll)
        outcome = tr(lang, f"roll.band.{roll.band.value}", extra=roll.extra, momentum=min(6, roll.extra))
        await say(interaction, tr(lang, "roll.line", dice=dice_text, successes=roll.successes, flops=roll.flops, net=roll.net,
                                   need=roll.need.value, outcome=outcome, seed=seed))


    @app_commands.command(name="odds", description="Exact odds of a challenge")
    async def odds_(self, interaction: discord.Interaction, dice: app_commands.Range[int, 0, 12], need: app_commands.Range[int, -5, 12],
                       momentum: app_commands.Range[int, 0, 6] = 0) -> None:
        o = odds(dice, need, momentum=momentum)
        lang = (await languages(interaction)).user
        extra = " · ".join(f"{i}: {p:.0%}" for i, p in enumerate(o.extra))
        text = challenge_odds_line(dice, max(1, need), False, momentum, language=lang) + tr(lang, "odds.failure", fail=f"{o.fail:.0%}")
        if momentum:
            text += tr(lang, "odds.momentum", momentum=momentum)
        await say(interaction, text + "\n" + tr(lang, "odds.extra", extra=extra), ephemeral=True)

    @app_commands.command(name="rules", description="A short rule lookup")
    @app_commands.autocomplete(topic=topic_autocomplete)
    async def rules(self, interaction: discord.Interaction, topic: str) -> None:
        lang = (await languages(interaction)).user
        found = find_topic(topic, lang)
        if found is None:
            await refuse(interaction, Refusal("refuse.no_topic", topic=topic))
            return
        title, text = found
        if title == tr(lang, "rules.board.title"):  # the legend, drawn by the board's own code
            png = await asyncio.to_thread(lookup.legend, lang)
            file = discord.File(io.BytesIO(png), filename="legend.png", description=tr(lang, "rules.board.alt"))
            await say(interaction, f"**{title}**\n{text}", ephemeral=True, file=file)
            return
        await say(interaction, f"**{title}**\n{text}", ephemeral=True)


async def setup(bot: ElfballBot) -> None:
    await bot.add_cog(Lookup(bot))
