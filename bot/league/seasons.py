"""A league's seasons in Discord: ``/league new-season``, ``/league seasons``, ``/league withdraw``.

Only translates: the rules are ``service.seasons`` (who may, in ``service.authority``). The
commands join the ``/league`` group (``bot.league.cog`` adds ``SEASON_COMMANDS``).

* ``new-season``: one public message naming the new season and its teams, pinging only the
  coaches whose teams were carried over (not the member who typed it): they may withdraw
  before the schedule is drawn. A refusal is private and changes nothing.
* ``seasons``: the league's seasons with each champion, or one season's table and results; no
  pings.
* ``withdraw``: a coach (or the commissioner) takes a team out before the schedule; no pings.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
from discord import app_commands

from bot.app import elfball
from bot.common.i18n import languages, tr
from bot.common.reply import Refusal, run_work, split_lines
from bot.common.reply import say as _say
from service import teams as team_store
from service.leagues import LeagueService
from service.names import safe_name
from service.seasons import SeasonService, SeasonStart, SeasonSummary
from service.vocabulary import ElfballError, StoreError

__all__ = ["SEASON_COMMANDS"]

MAX_TEXT = 1900
REASON_HELP = "why you stand in for the commissioner as a moderator (needed then; kept in the league's audit)"


def _league_svc(interaction: discord.Interaction) -> LeagueService:
    league = elfball(interaction).league
    if league is None:
        raise RuntimeError("the league extension is not loaded")
    return league


def _guild(interaction: discord.Interaction) -> int:
    return interaction.guild_id or 0


def _moderator(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


def _target(svc: LeagueService, guild: int, league: str | None) -> int | str:
    """The league named, else the server's one league."""
    if league:
        return league
    leagues = svc.leagues(guild)
    if len(leagues) == 1:
        return leagues[0].id
    raise Refusal("league.refuse.which" if leagues else "league.refuse.none")


async def _league_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    try:
        names = await asyncio.to_thread(team_store.league_names, _guild(interaction), current)
    except (ElfballError, StoreError):
        return []
    return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names[:25]]


async def _say_chunks(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    for chunk in split_lines(text.splitlines(), MAX_TEXT) or ["-"]:
        await _say(interaction, chunk, **kwargs)


@app_commands.command(name="new-season", description="Commissioner: start the league's next season with its teams")
@app_commands.describe(reason=REASON_HELP)
@app_commands.autocomplete(league=_league_names)
async def league_new_season(interaction: discord.Interaction, league: str | None = None,
                            reason: app_commands.Range[str, 1, 200] | None = None) -> None:
    def work() -> SeasonStart:
        svc = _league_svc(interaction)
        return SeasonService(svc).start(_guild(interaction), interaction.user.id, _target(svc, _guild(interaction), league),
                                        moderator=_moderator(interaction), reason=reason or "")

    started = await run_work(interaction, work)
    lang = (await languages(interaction)).public
    teams = "\n".join(tr(lang, "league.season.team", team=safe_name(t.name), coach=t.coach_id)
                      for t in sorted(started.teams, key=lambda t: t.name.casefold()))
    text = tr(lang, "league.season.started", league=safe_name(started.league.name), season=started.league.season,
              previous=started.previous.season, count=len(started.teams)) + "\n" + teams
    coaches = sorted({t.coach_id for t in started.teams} - {interaction.user.id})
    text += "\n" + tr(lang, "league.season.draw", commitment=started.league.draw_commitment)
    await _say_chunks(interaction, text + "\n" + tr(lang, "league.season.next", previous=started.previous.season),
                      allowed_mentions=discord.AllowedMentions(users=[discord.Object(c) for c in coaches],
                                                               roles=False, everyone=False))


def _history(lang: str, rows: list[SeasonSummary]) -> str:
    lines = [tr(lang, "league.seasons.head", league=safe_name(rows[-1].league.name))]
    for r in rows:
        champion = tr(lang, "league.seasons.champion", team=safe_name(r.champion.name)) if r.champion else ""
        key = "league.seasons.current" if r.current else "league.seasons.line"
        lines.append(tr(lang, key, season=r.league.season, teams=r.teams, played=r.played, fixtures=r.fixtures,
                        champion=champion))
    return "\n".join(lines)


@app_commands.command(name="seasons", description="The league's seasons, or one season's table and results")
@app_commands.describe(season="a season's number: its table and results")
@app_commands.autocomplete(league=_league_names)
async def league_seasons(interaction: discord.Interaction, league: str | None = None,
                         season: app_commands.Range[int, 1, 1000] | None = None) -> None:
    lang = (await languages(interaction)).public

    def work() -> str:
        svc = _league_svc(interaction)
        seasons = SeasonService(svc)
        target = _target(svc, _guild(interaction), league)
        if season is None:
            return _history(lang, seasons.seasons(_guild(interaction), target))
        lg = seasons.season(_guild(interaction), target, season)
        _, rows = svc.standings(_guild(interaction), lg.id)
        lines = [tr(lang, "league.seasons.table", league=safe_name(lg.name), season=lg.season),
                 tr(lang, "league.standings.head", league=safe_name(lg.name))]
        lines += [tr(lang, "league.standings.row", rank=i, team=safe_name(r.name), played=r.played, won=r.won,
                     drawn=r.drawn, lost=r.lost, scored=r.goals_for, conceded=r.goals_against,
                     casualties=r.casualties, points=r.points) for i, r in enumerate(rows, 1)]
        results = svc.results(_guild(interaction), lg.id)
        lines.append(tr(lang, "league.seasons.results"))
        lines += [v.line(mention=False, language=lang, name=safe_name) for v in results] \
            or [tr(lang, "league.results.none")]
        return "\n".join(lines)

    text = await run_work(interaction, work)
    await _say_chunks(interaction, text, allowed_mentions=discord.AllowedMentions.none())


@app_commands.command(name="withdraw", description="Take your team out of a league before its schedule is drawn")
@app_commands.describe(team="the team to withdraw", reason=REASON_HELP)
@app_commands.autocomplete(league=_league_names)
async def league_withdraw(interaction: discord.Interaction, team: str, league: str | None = None,
                          reason: app_commands.Range[str, 1, 200] | None = None) -> None:
    def work() -> tuple[Any, Any]:
        svc = _league_svc(interaction)
        return SeasonService(svc).withdraw(_guild(interaction), interaction.user.id,
                                           _target(svc, _guild(interaction), league), team,
                                           moderator=_moderator(interaction), reason=reason or "")

    lg, tm = await run_work(interaction, work)
    lang = (await languages(interaction)).public
    await _say(interaction, tr(lang, "league.season.withdrawn", team=safe_name(tm.name), coach=tm.coach_id,
                               league=safe_name(lg.name)), allowed_mentions=discord.AllowedMentions.none())


SEASON_COMMANDS = (league_new_season, league_seasons, league_withdraw)
