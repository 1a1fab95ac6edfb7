"""``/limits [limit] [value]``: the server's limits, and (Manage Server) a change to one.

Anyone may read them (privately): the cooldown of each costly command and the caps per member
and per server, each with the bot's own value (its operator's, ``ELFBALL_LIMIT_<NAME>``). A
member with Manage Server may make one stricter (a lower cap, a longer cooldown) or set it back
(``limit`` without ``value``); a looser value than the operator's is refused, with that value.
What the limits are and how they hold: ``service.limits``.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.app import ElfballBot
from bot.common.checks import ServerCog
from bot.common.i18n import languages, tr
from bot.common.reply import run_work, say
from service import limits as server_limits
from service.limits import LIMITS, MAX_COOLDOWN, ServerLimits

__all__ = ["Limits", "LIMIT_CHOICES", "limits_text", "setup"]

#: The limits offered, with what each counts (French in ``bot/locales/commands/fr.json``'s choices).
LIMIT_CHOICES = [app_commands.Choice(name=f"{limit.name}: {words}", value=limit.name) for limit, words in zip(LIMITS, (
    "seconds between two challenges", "seconds between two replays", "seconds between two league exports",
    "seconds between two new teams", "seconds between two new leagues", "matches against the AI coach per member",
    "matches against the AI coach on the server", "pending challenges per member", "pending challenges on the server",
    "teams per coach", "teams on the server", "leagues per commissioner", "leagues on the server"), strict=True)]


def limits_text(found: ServerLimits, lang: str) -> str:
    """Every limit in force, by kind, with the operator's value beside a server's choice."""
    lines = [tr(lang, "limits.title.cooldowns")]
    for kind in ("cooldown", "cap"):
        if kind == "cap":
            lines.append(tr(lang, "limits.title.caps"))
        for limit in (x for x in LIMITS if x.kind == kind):
            value, operator = found[limit.name], found.operator[limit.name]
            note = tr(lang, f"limits.chosen.{kind}", operator=operator) if limit.name in found.chosen \
                else ""  # the operator's value: nothing to add
            shown: object = value if kind == "cap" else f"{value} s" if value else tr(lang, "limits.off")
            lines.append(tr(lang, f"limits.line.{kind}", name=limit.name, label=tr(lang, f"limits.name.{limit.name}"),
                            value=shown, note=note))
    lines.append(tr(lang, "limits.how"))
    return "\n".join(lines)


class Limits(ServerCog):
    """The server's limits."""

    def __init__(self, bot: ElfballBot) -> None:
        self.bot = bot

    @app_commands.command(name="limits", description="This server's cooldowns and caps; Manage Server may make one stricter")
    @app_commands.describe(limit="Manage Server: the limit to change",
                           value="its new value (a cooldown in seconds); empty: back to the bot's value")
    @app_commands.choices(limit=LIMIT_CHOICES)
    async def limits(self, interaction: discord.Interaction, limit: str | None = None,
                     value: app_commands.Range[int, 0, MAX_COOLDOWN] | None = None) -> None:
        guild = interaction.guild_id or 0
        perms = getattr(interaction.user, "guild_permissions", None)
        moderator = bool(perms and perms.manage_guild)

        def work() -> ServerLimits:
            if limit is None:
                return server_limits.server_limits(guild)
            return server_limits.change_limit(guild, limit, value, moderator=moderator)

        found = await run_work(interaction, work)
        lang = (await languages(interaction)).user
        head = "" if limit is None else tr(lang, "limits.changed", name=limit, value=found[limit]) + "\n"
        await say(interaction, (head + limits_text(found, lang))[:1990], ephemeral=True)


async def setup(bot: ElfballBot) -> None:
    await bot.add_cog(Limits(bot))
