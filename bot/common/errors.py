"""The bot's one error handler: a refusal is answered privately, anything else is an incident.

Every slash command's failure reaches ``answer_error`` through the command tree's ``on_error``
(``ElfballBot.setup_hook``), and every press on a panel through ``answer_press``; commands do
not catch refusals themselves.
"""

from __future__ import annotations

from collections.abc import Awaitable

import discord
from discord import app_commands

from bot.common.checks import retry_time
from bot.common.i18n import catalogue, languages, tr
from bot.common.reply import Refusal, incident, refuse

__all__ = ["REFUSALS", "answer_error", "answer_press", "permissions_refusal"]

#: What is refused with nothing changed: the engine's and the store's refusals and the service's
#: and the bot's own (``Refused``, ``Refusal``) are all ``ValueError``s, and so is a value the
#: bot could not read (a panel's custom id tampered with).
REFUSALS: tuple[type[BaseException], ...] = (ValueError,)


async def answer_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer a failed command: a direct message, a failed check or option, or a refusal
    privately, in the member's language; anything unexpected as an incident."""
    if isinstance(error, app_commands.NoPrivateMessage):
        await refuse(interaction, Refusal("refuse.dm_only_server"))
        return
    if isinstance(error, app_commands.CommandOnCooldown):  # a server's limit (bot.common.checks)
        await refuse(interaction, Refusal("limits.cooldown", when=retry_time(interaction, error.retry_after)))
        return
    if isinstance(error, app_commands.MissingPermissions | app_commands.BotMissingPermissions):
        await refuse(interaction, await permissions_refusal(interaction, error))
        return
    if isinstance(error, app_commands.TransformerError) and isinstance(error.__cause__, REFUSALS):
        await refuse(interaction, error.__cause__)  # an option the service refused (a team, a hex)
        return
    if isinstance(error, app_commands.TransformerError | app_commands.CheckFailure):
        await refuse(interaction, error)
        return
    original = getattr(error, "original", error)
    if isinstance(original, REFUSALS):
        await refuse(interaction, original)
        return
    await incident(interaction, original)


async def permissions_refusal(interaction: discord.Interaction,
                              error: app_commands.MissingPermissions | app_commands.BotMissingPermissions) -> Refusal:
    """Which of Discord's permissions is missing, by the names Discord shows in the member's
    language (the member's own, or the bot's in this channel)."""
    lang = (await languages(interaction)).user
    names = ", ".join(f"**{tr(lang, 'perm.' + name)}**" if "perm." + name in catalogue(lang) else name
                      for name in error.missing_permissions)
    if isinstance(error, app_commands.BotMissingPermissions):
        return Refusal("refuse.bot_permissions", permissions=names)
    return Refusal("refuse.member_permissions", permissions=names)


async def answer_press(interaction: discord.Interaction, press: Awaitable[None]) -> None:
    """Run a panel press's answer: a refusal is private and changes nothing (an unexpected
    failure is left to discord.py's view error log, as every press's was)."""
    try:
        await press
    except REFUSALS as exc:
        await refuse(interaction, exc)
