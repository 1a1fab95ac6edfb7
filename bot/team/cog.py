"""``/team``: a server's Basic teams (create, show, list).

The league extension adds the Advanced team commands (hire, fire, buy, sell, learn, sheet) to the
same group (``bot.league.cog``). Names a member typed (teams, players) are shown through
``service.names.safe_name``, as every post shows them: no markdown, no ping, no bidi override.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.app import ElfballBot
from bot.common.autocomplete import list_name, team_choices
from bot.common.checks import TEAM_CREATE, ServerGroupCog
from bot.common.i18n import catalogue, languages, tr
from bot.common.reply import run_work, say
from bot.common.transformers import TeamOption
from service import teams as team_store
from service.names import safe_name
from service.vocabulary import ABILITIES

__all__ = ["Teams", "setup"]


class Teams(ServerGroupCog, group_name="team", group_description="Your server's teams"):
    """A server's teams."""

    def __init__(self, bot: ElfballBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="create", description="Create a Basic team for this server")
    @app_commands.describe(name="the team's name", list="a team list", lineup='e.g. "6 imps, 2 hunters, 2 strikers" (default: a balanced team)')
    @app_commands.autocomplete(list=team_choices)
    @TEAM_CREATE
    async def create(self, interaction: discord.Interaction, name: str, list: str, lineup: str | None = None) -> None:
        def work() -> Any:
            return team_store.create(guild_id=interaction.guild_id or 0, coach_id=interaction.user.id, name=name,
                                     team_list=list, lineup=lineup)

        team = await run_work(interaction, work)
        players = ", ".join(f"#{p.number} {safe_name(p.name)}" for p in team.players)
        lang = (await languages(interaction)).public
        await say(interaction, tr(lang, "team.created", team=safe_name(team.name), list=list_name(team.team_list), coach=team.coach_id,
                                   players=players)[:1990], allowed_mentions=discord.AllowedMentions.none())


    @app_commands.command(name="show", description="Show one of this server's teams")
    async def show(self, interaction: discord.Interaction, name: app_commands.Transform[str, TeamOption()]) -> None:
        def work() -> Any:
            return team_store.team(interaction.guild_id or 0, name)

        team = await run_work(interaction, work)
        lang = (await languages(interaction)).public
        rows = [f"#{p.number} {safe_name(p.name)} — " + "/".join(str(p.attributes[k]) for k in ("jog", "might", "tackle", "dodge", "skill", "grit"))
                + (" — " + ", ".join(ABILITIES[a].name_in(lang) if a in ABILITIES else a for a in p.abilities) if p.abilities else "")
                for p in team.players]
        support = ", ".join(f"{tr(lang, 'support.' + item) if 'support.' + item in catalogue(lang) else item} ×{n}"
                            for item, n in team.support.items() if n)
        if support:
            rows.append(tr(lang, "team.support", support=support))
        await say(interaction, (tr(lang, "team.show", team=safe_name(team.name), list=list_name(team.team_list), coach=team.coach_id) + "\n"
                                 + "\n".join(rows))[:1990], allowed_mentions=discord.AllowedMentions.none())


    @app_commands.command(name="list", description="This server's teams")
    async def list_(self, interaction: discord.Interaction) -> None:
        def work() -> Any:
            return team_store.teams(interaction.guild_id or 0)

        teams = await run_work(interaction, work)
        lang = (await languages(interaction)).public
        text = "\n".join(tr(lang, "team.line", team=safe_name(t.name), list=list_name(t.team_list), coach=t.coach_id) for t in teams) \
            or tr(lang, "team.none")
        await say(interaction, text[:1990], allowed_mentions=discord.AllowedMentions.none())


async def setup(bot: ElfballBot) -> None:
    await bot.add_cog(Teams(bot))
