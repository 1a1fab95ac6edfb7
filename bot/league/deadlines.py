"""League round deadlines in Discord: the reminder and the notice in the league's channel, and
the commissioner's private choices when a deadline passed.

The words and rules are the service's (``service.deadlines``); this module only posts. The
sweep (``deadline_sweep``) runs in the bot's reminder loop (``ElfballBot.sweeps``): one message
per round, 24 hours before its deadline, pinging only the coaches whose fixtures are unplayed;
one when it passes, pinging only the commissioner, with a *Decide* button. Pressed by the
commissioner (or a moderator standing in), it answers privately with a row of choices per
overdue fixture. Custom ids ``elfball-dlo:<league>`` and ``elfball-dl:<choice>:<fixture>:<deadline>``
(the deadline as the panel showed it), so a restarted bot still answers them and a press on a
panel that a later change made out of date is refused.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import Any

import discord

from bot.app import ElfballBot, elfball
from bot.common.errors import answer_press
from bot.common.i18n import languages, server_language, tr
from bot.common.reply import NO_PINGS, run_work
from service.deadlines import Deadlines, RoundNotice, unix
from service.leagues import FixtureView
from service.names import safe_name

__all__ = ["deadlines_of", "when_words", "deadline_suffix", "deadline_sweep", "DecideButton", "RuleButton",
           "ruling_panel"]

log = logging.getLogger("elfball.bot")
#: Fixtures per private panel: five rows of five buttons is what a Discord message holds.
PANEL_FIXTURES = 5


def deadlines_of(bot: Any) -> Deadlines:
    """The bot's deadline service (on its league service and its clock)."""
    if bot.league is None:
        raise RuntimeError("the league extension is not loaded")
    return Deadlines(bot.league)


def when_words(when: datetime) -> str:
    """A deadline as Discord shows it to each member in his own time zone: date and time, and
    how long from now."""
    return f"<t:{unix(when)}:f> (<t:{unix(when)}:R>)"


def deadline_suffix(view: FixtureView, lang: str) -> str:
    """`` — due <t:…>`` for a fixture still to play that has a deadline (nothing otherwise)."""
    f = view.fixture
    if f.deadline is None or f.status != "scheduled":
        return ""
    return tr(lang, "league.deadline.due", when=when_words(f.deadline))


def _lines(notice: RoundNotice, lang: str, *, mention: bool) -> str:
    key = "league.deadline.fixture.mention" if mention else "league.deadline.fixture"
    return "\n".join(tr(lang, key, id=v.id, home=safe_name(v.home), away=safe_name(v.away), home_coach=v.home_coach,
                        away_coach=v.away_coach) for v in notice.fixtures)


async def _post(bot: ElfballBot, notice: RoundNotice, make: Any) -> None:
    try:  # one deleted channel must not hold up the other rounds
        channel = await bot.poster.channel(notice.channel_id)
        lang = await asyncio.to_thread(server_language, notice.league.guild_id, getattr(channel, "guild", None))
        await channel.send(**make(lang))
    except (discord.HTTPException, ValueError, TypeError):
        log.warning("could not post league %s round %s's deadline in channel %s", notice.league.id, notice.round,
                    notice.channel_id)


async def deadline_sweep(bot: ElfballBot) -> None:
    """Remind the rounds whose deadline is near and announce those that passed: each once."""
    svc = deadlines_of(bot)
    reminders = await asyncio.to_thread(svc.due_reminders, accept=bot.serves)
    for notice in reminders:
        def reminder(lang: str, notice: RoundNotice = notice) -> dict[str, Any]:
            text = tr(lang, "league.deadline.reminder", league=safe_name(notice.league.name), round=notice.round,
                      when=when_words(notice.deadline), fixtures=_lines(notice, lang, mention=True))
            return {"content": text[:1900], "allowed_mentions": discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(id=c) for c in notice.coaches])}

        if notice.channel_id:
            await _post(bot, notice, reminder)
    lapses = await asyncio.to_thread(svc.due_lapses, accept=bot.serves)
    for notice in lapses:
        def lapsed(lang: str, notice: RoundNotice = notice) -> dict[str, Any]:
            commissioner = notice.league.commissioner_id
            text = tr(lang, "league.deadline.lapsed", league=safe_name(notice.league.name), round=notice.round,
                      when=when_words(notice.deadline), fixtures=_lines(notice, lang, mention=False),
                      commissioner=commissioner)
            view = discord.ui.View(timeout=None)
            view.add_item(DecideButton(notice.league.id, label=tr(lang, "league.deadline.decide")))
            return {"content": text[:1900], "view": view, "allowed_mentions": discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(id=commissioner)])}

        if notice.channel_id:
            await _post(bot, notice, lapsed)


def _moderator(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


def ruling_panel(views: list[FixtureView], lang: str, extension_days: int) -> tuple[str, discord.ui.View | None]:
    """The commissioner's private choices: per overdue fixture (five at most), a forfeit of
    either side, of both, a draw, or more time."""
    if not views:
        return tr(lang, "league.deadline.nothing_overdue"), None
    shown = views[:PANEL_FIXTURES]
    lines = [tr(lang, "league.deadline.panel.head")]
    panel = discord.ui.View(timeout=None)
    for row, v in enumerate(shown):
        f = v.fixture
        seen = unix(f.deadline) if f.deadline else 0
        lines.append(tr(lang, "league.deadline.panel.fixture", id=v.id, round=f.round, home=safe_name(v.home),
                        away=safe_name(v.away), when=when_words(f.deadline) if f.deadline else "-"))
        labels = {"home": tr(lang, "league.deadline.choice.forfeit", id=v.id, team=v.home),
                  "away": tr(lang, "league.deadline.choice.forfeit", id=v.id, team=v.away),
                  "both": tr(lang, "league.deadline.choice.both", id=v.id),
                  "draw": tr(lang, "league.deadline.choice.draw", id=v.id),
                  "extend": tr(lang, "league.deadline.choice.extend", id=v.id, days=extension_days)}
        for choice, label in labels.items():
            panel.add_item(RuleButton(choice, v.id, seen, label=label[:80], row=row))
    if len(views) > len(shown):
        lines.append(tr(lang, "league.deadline.panel.more", count=len(views) - len(shown)))
    return "\n".join(lines)[:1900], panel


def _panel_for(interaction: discord.Interaction, league_id: int, lang: str) -> tuple[str, discord.ui.View | None]:
    svc = deadlines_of(elfball(interaction))
    lg, late = svc.overdue(interaction.guild_id or 0, interaction.user.id, league_id, moderator=_moderator(interaction))
    return ruling_panel(late, lang, svc.extension(lg).days)


class DecideButton(discord.ui.DynamicItem[discord.ui.Button], template=r"elfball-dlo:(?P<league>[0-9]+)"):
    """*Decide* under a lapsed round's notice: the commissioner's choices, privately."""

    def __init__(self, league: int, *, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or "Decide", style=discord.ButtonStyle.primary,
                                           custom_id=f"elfball-dlo:{league}"))
        self.league = league

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any) -> DecideButton:  # type: ignore[override]  # discord.py's DynamicItem.from_custom_id is generic over the item's type
        return cls(int(match["league"]), label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        lang = (await languages(interaction)).user

        async def answer() -> None:
            text, view = await run_work(interaction, lambda: _panel_for(interaction, self.league, lang), component=True)
            extra: dict[str, Any] = {"view": view} if view is not None else {}
            await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS, **extra) \
                if interaction.response.is_done() else \
                await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS, **extra)

        await answer_press(interaction, answer())


class RuleButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=r"elfball-dl:(?P<choice>[a-z]+):(?P<fixture>[0-9]+):(?P<seen>[0-9]+)"):
    """One choice for one overdue fixture, on the commissioner's private panel."""

    def __init__(self, choice: str, fixture: int, seen: int, *, label: str = "", row: int | None = None) -> None:
        style = discord.ButtonStyle.secondary if choice == "extend" else discord.ButtonStyle.danger \
            if choice in ("home", "away", "both") else discord.ButtonStyle.primary
        super().__init__(discord.ui.Button(label=label or choice, style=style, row=row,
                                           custom_id=f"elfball-dl:{choice}:{fixture}:{seen}"))
        self.choice, self.fixture, self.seen = choice, fixture, seen

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any) -> RuleButton:  # type: ignore[override]  # discord.py's DynamicItem.from_custom_id is generic over the item's type
        return cls(match["choice"], int(match["fixture"]), int(match["seen"]), label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        langs = await languages(interaction)
        svc = deadlines_of(elfball(interaction))

        def work() -> tuple[FixtureView, tuple[str, discord.ui.View | None]]:
            ruled = svc.rule(interaction.guild_id or 0, interaction.user.id, self.fixture, self.choice, self.seen,
                             moderator=_moderator(interaction))
            return ruled, _panel_for(interaction, ruled.fixture.league_id, langs.user)

        async def answer() -> None:
            ruled, (text, view) = await run_work(interaction, work, component=True)
            if interaction.response.is_done():
                await interaction.edit_original_response(content=text, view=view)
            else:
                await interaction.response.edit_message(content=text, view=view)
            f = ruled.fixture
            if self.choice == "extend":
                said = tr(langs.public, "league.deadline.ruled.extend", when=when_words(f.deadline) if f.deadline else "-")
            else:
                said = tr(langs.public, "league.deadline.ruled.result", score=ruled.score(langs.public, name=safe_name))
            await interaction.followup.send(
                tr(langs.public, "league.deadline.ruled", user=interaction.user.id, id=f.id, home=safe_name(ruled.home),
                   away=safe_name(ruled.away), said=said)[:1900], allowed_mentions=NO_PINGS)

        await answer_press(interaction, answer())
