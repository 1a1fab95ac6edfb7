"""``/team``: a server's Basic teams (create, show, list).

The league extension adds the Advanced team commands (hire, fire, buy, sell, learn, sheet) to the
same group (``bot.league``). Names a member typed are shown with no mention able to ping.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from service import teams as team_store
from service.vocabulary import StoreError
from service.vocabulary import ABILITIES
from service.vocabulary import ElfballError

from .choices import list_name, team_choices
from .i18n import catalogue, languages, tr
from .reply import refuse, run_work, say, server_only

__all__ = ["Teams", "setup"]


class Teams(commands.GroupCog, group_name="team", group_description="Your server's teams"):
    """A server's teams."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        server_only(self)

    @app_commands.command(name="create", description="Create a Basic team for this server")
    @app_commands.describe(name="the team's name", list="a team list", lineup='e.g. "6 imps, 2 hunters, 2 strikers" (default: a balanced team)')
    @app_commands.autocomplete(list=team_choices)
    async def create(self, interaction: discord.Interaction, name: str, list: str, lineup: str | None = None) -> None:
        def work() -> Any:
            return team_store.create(guild_id=interaction.guild_id or 0, coach_id=interaction.user.id, name=name,
                                     team_list=list, lineup=lineup)

        try:
            team = await run_work(interaction, work)
        except (ElfballError, StoreError) as exc:
            await refuse(interaction, exc)
            return
        players = ", ".join(f"#{p.number} {p.name}" for p in team.players)
        lang = (await languages(interaction)).public
        await say(interaction, tr(lang, "team.created", team=team.name, list=list_name(team.team_list), coach=team.coach_id,
                                   players=players)[:1990], allowed_mentions=discord.AllowedMentions.none())


    @app_commands.command(name="show", description="Show one of this server's teams")
    @app_commands.autocomplete(name=team_choices)
    async def show(self, interaction: discord.Interaction, name: str) -> None:
        def work() -> Any:
            return team_store.team(interaction.guild_id or 0, name)

        try:
            team = await run_work(interaction, work)
        except StoreError as exc:
            await refuse(interaction, exc)
            return
        lang = (await languages(interaction)).public
        rows = [f"#{p.number} {p.name} — " + "/".join(str(p.attributes[k]) for k in ("jog", "might", "tackle", "dodge", "skill", "grit"))
                + (" — " + ", ".join(ABILITIES[a].name_in(lang) if a in ABILITIES else a for a in p.abilities) if p.abilities else "")
                for p in team.players]
        support = ", ".join(f"{tr(lang, 'support.' + item) if 'support.' + item in catalogue(lang) else item} ×{n}"
                            for item, n in team.support.items() if n)
        if support:
            rows.append(tr(lang, "team.support", support=support))
        await say(interaction, (tr(lang, "team.show", team=team.name, list=list_name(team.team_list), coach=team.coach_id) + "\n"
                                 + "\n".join(rows))[:1990], allowed_mentions=discord.AllowedMentions.none())


    @app_commands.command(name="list", description="This server's teams")
    async def list_(self, interaction: discord.Interaction) -> None:
        def work() -> Any:
            return team_store.teams(interaction.guild_id or 0)

        teams = await run_work(interaction, work)
        lang = (await languages(interaction)).public
        text = "\n".join(tr(lang, "team.line", team=t.name, list=list_name(t.team_list), coach=t.coach_id) for t in teams) \
            or tr(lang, "team.none")
        await say(interaction, text[:1990], allowed_mentions=discord.AllowedMentions.none())


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Teams(bot))
