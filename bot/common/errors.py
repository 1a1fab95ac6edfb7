"""The bot's one error handler: a refusal is answered privately, anything else is an incident.

Every slash command's failure reaches ``answer_error`` through the command tree's ``on_error``
(``ElfballBot.setup_hook``), and every press on a panel through ``answer_press``; commands do
not catch refusals themselves.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable

import discord
from discord import app_commands

from bot.common.checks import retry_time
from bot.common.i18n import catalogue, languages, tr
from bot.common.reply import Refusal, command_name, incident, refuse, too_late

__all__ = ["REFUSALS", "ImpossiblePress", "answer_error", "answer_press", "permissions_refusal"]

log = logging.getLogger("elfball.bot")

#: What is refused with nothing changed: the engine's and the store's refusals and the service's
#: and the bot's own (``Refused``, ``Refusal``) are all ``ValueError``s, and so is a value the
#: bot could not read (a panel's custom id tampered with).
REFUSALS: tuple[type[BaseException], ...] = (ValueError,)


class ImpossiblePress(Refusal):
    """A press its panel could not have sent (a verb, argument or value not on the message): it
    is refused privately with an incident id the log repeats, and nothing changes."""

    def __init__(self, why: str) -> None:
        self.incident = secrets.token_hex(4)
        self.why = why
        super().__init__("refuse.panel_impossible", incident=self.incident)


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
    if too_late(interaction, original):  # the answer came after Discord closed the interaction
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
    """Run a panel press's answer so that every press is answered: a refusal privately with
    nothing changed, an impossible press (``ImpossiblePress``) privately with its incident id,
    anything unexpected as an incident. An answer that comes after Discord closed the
    interaction (10062) is one log line, no traceback."""
    try:
        await press
    except ImpossiblePress as exc:
        log.warning("incident %s: impossible press %s (guild=%s channel=%s user=%s): %s", exc.incident,
                    command_name(interaction), interaction.guild_id, interaction.channel_id, interaction.user.id, exc.why)
        await refuse(interaction, exc)
    except REFUSALS as exc:
        await refuse(interaction, exc)
    except discord.NotFound as exc:
        if not too_late(interaction, exc):
            await incident(interaction, exc)
    except Exception as exc:  # noqa: BLE001 - every press is answered: the member gets the incident id
        await incident(interaction, exc)
