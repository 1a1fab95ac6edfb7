"""The server's coach ratings in Discord: ``/ladder table`` and ``/ladder coach``.

Every rule is ``service.ladder``'s (what is rated, in which order, with which library); this
only shows it. Coaches are shown by their display name on the server, never pinged; a coach who
left the server is shown as a mention that Discord draws as his name and that pings nobody.
``/ladder table`` is posted for the channel (the ladder is public in its server), a page at a
time with Previous/Next buttons that turn the page in place (custom ids
``elfball-ladder:<page>:<p|n>``, so a restarted bot still answers them); ``/ladder coach`` is a
private lookup.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands

from bot.app import ElfballBot
from bot.common.checks import ServerGroupCog
from bot.common.errors import answer_press
from bot.common.i18n import languages, tr
from bot.common.reply import NO_PINGS, run_work, say
from service.ladder import CoachHistory, HistoryLine, LadderRow, LadderService
from service.names import safe_name

__all__ = ["Ladder", "LadderPageButton", "PAGE_ROWS", "coach_names", "history_text", "setup", "table_page"]

log = logging.getLogger("elfball.bot")

#: Coaches on one page of ``/ladder table``.
PAGE_ROWS = 20
#: The most a message of ``/ladder coach`` holds (Discord's limit is 2,000).
MAX_TEXT = 1900


def number(value: float, lang: str) -> str:
    """A rating as the language writes it: one decimal (a comma in French)."""
    text = f"{value:.1f}"
    return text.replace(".", ",") if lang == "fr" else text


def signed(value: float, lang: str) -> str:
    return ("+" if value >= 0 else "−") + number(abs(value), lang)


async def coach_names(guild: discord.Guild | None, ids: list[int]) -> dict[int, str]:
    """Each coach's display name on the server, escaped (no markdown, no ping); a coach the
    bot cannot find (he left) is a mention, which Discord draws as a name and which the answers
    send with no pings allowed."""
    names: dict[int, str] = {}
    missing = []
    for i in dict.fromkeys(ids):
        member = guild.get_member(i) if guild is not None else None
        if member is not None:
            names[i] = safe_name(member.display_name)
        else:
            missing.append(i)
    if missing and guild is not None:
        try:  # without the members intent: asked by id, at most 100 at a time
            found = await asyncio.wait_for(guild.query_members(user_ids=missing[:100], cache=True), timeout=5)
            names.update({m.id: safe_name(m.display_name) for m in found})
        except (asyncio.TimeoutError, discord.ClientException, discord.HTTPException):
            log.info("could not look up %d coaches of guild %s", len(missing), guild.id)
    return {i: names.get(i, f"<@{i}>") for i in dict.fromkeys(ids)}


def table_page(rows: list[LadderRow], names: dict[int, str], page: int, lang: str) -> tuple[str, int]:
    """Page ``page`` (1-based, clamped) of the table, and how many pages there are."""
    if not rows:
        return tr(lang, "ladder.empty"), 1
    pages = (len(rows) + PAGE_ROWS - 1) // PAGE_ROWS
    page = max(1, min(page, pages))
    shown = rows[(page - 1) * PAGE_ROWS: page * PAGE_ROWS]
    lines = [tr(lang, "ladder.head", coaches=len(rows))]
    lines += [tr(lang, "ladder.row", rank=r.rank, coach=names.get(r.coach_id, f"<@{r.coach_id}>"),
                 rating=number(r.shown, lang), played=r.played, won=r.won, drawn=r.drawn, lost=r.lost) for r in shown]
    if pages > 1:
        lines.append(tr(lang, "ladder.page", page=page, pages=pages))
    lines.append(tr(lang, "ladder.how"))
    return "\n".join(lines), pages


def _line(h: HistoryLine, names: dict[int, str], lang: str) -> str:
    how = tr(lang, "ladder.history.conceded_me") if h.by_me else \
        tr(lang, "ladder.history.conceded_them") if h.conceded else ""
    where = tr(lang, "ladder.history.league", league=safe_name(h.result.league)) if h.result.league \
        else tr(lang, "ladder.history.casual")
    return tr(lang, f"ladder.history.{h.outcome}", when=f"{h.result.when:%Y-%m-%d}",
              opponent=names.get(h.opponent, f"<@{h.opponent}>"), how=how, where=where,
              rating=number(h.after, lang), change=signed(h.after - h.before, lang))


def history_text(history: CoachHistory, names: dict[int, str], lang: str) -> str:
    """A coach's row and his rated matches, newest first, as many as fit in one message."""
    coach = names.get(history.coach_id, f"<@{history.coach_id}>")
    row = history.row
    if row is None:
        return tr(lang, "ladder.history.none", coach=coach)
    lines = [tr(lang, "ladder.history.head", coach=coach, rating=number(row.shown, lang), rank=row.rank,
                coaches=history.coaches, played=row.played, won=row.won, drawn=row.drawn, lost=row.lost)]
    size = len(lines[0])
    for i, h in enumerate(history.lines):
        line = _line(h, names, lang)
        more = tr(lang, "ladder.history.more", n=len(history.lines) - i)
        if size + len(line) + len(more) + 2 > MAX_TEXT:
            lines.append(more)
            break
        lines.append(line)
        size += len(line) + 1
    return "\n".join(lines)


def _service(interaction: discord.Interaction) -> LadderService:
    cog = interaction.client.get_cog("Ladder")  # type: ignore[attr-defined]  # interaction.client is ElfballBot
    if not isinstance(cog, Ladder):
        raise RuntimeError("the ladder extension is not loaded")
    return cog.service


async def _page(interaction: discord.Interaction, page: int, lang: str, *,
                component: bool = False) -> tuple[str, discord.ui.View | None]:
    guild = interaction.guild_id or 0
    rows = await run_work(interaction, lambda: _service(interaction).table(guild), component=component)
    pages = (len(rows) + PAGE_ROWS - 1) // PAGE_ROWS or 1
    page = max(1, min(page, pages))
    shown = rows[(page - 1) * PAGE_ROWS: page * PAGE_ROWS]
    names = await coach_names(interaction.guild, [r.coach_id for r in shown])
    text, pages = table_page(rows, names, page, lang)
    if pages == 1:
        return text, None
    view = discord.ui.View(timeout=None)
    view.add_item(LadderPageButton(page - 1, "p", label=tr(lang, "ladder.previous"), disabled=page == 1))
    view.add_item(LadderPageButton(page + 1, "n", label=tr(lang, "ladder.next"), disabled=page == pages))
    return text, view


class LadderPageButton(discord.ui.DynamicItem[discord.ui.Button], template=r"elfball-ladder:(?P<page>[0-9]+):(?P<way>[pn])"):
    """Previous / Next under ``/ladder table``: the press shows that page in the same message,
    read again (so the ratings are current, and a restarted bot still answers)."""

    def __init__(self, page: int, way: str, *, label: str = "", disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label or way, style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=f"elfball-ladder:{max(page, 0)}:{way}"))
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any) -> LadderPageButton:  # type: ignore[override]  # discord.py's DynamicItem.from_custom_id is generic over the item's type
        return cls(int(match["page"]), match["way"], label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        lang = (await languages(interaction)).public

        async def answer() -> None:
            text, view = await _page(interaction, self.page, lang, component=True)
            kwargs: dict[str, Any] = {"content": text, "view": view, "allowed_mentions": NO_PINGS}
            if interaction.response.is_done():
                await interaction.edit_original_response(**kwargs)
            else:
                await interaction.response.edit_message(**kwargs)

        await answer_press(interaction, answer())


class Ladder(ServerGroupCog, group_name="ladder", group_description="Coach ratings on this server (OpenSkill)"):
    """The server's coach ratings."""

    def __init__(self, bot: ElfballBot) -> None:
        self.bot = bot
        self.service = LadderService(bot.service)
        super().__init__()

    async def cog_unload(self) -> None:
        finish = getattr(self.bot.service, "on_finish", [])
        if self.service.match_finished in finish:
            finish.remove(self.service.match_finished)

    @app_commands.command(name="table", description="The server's coach ratings, best first")
    @app_commands.describe(page="which page (20 coaches a page); Previous and Next turn the pages")
    async def table(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 10000] = 1) -> None:
        lang = (await languages(interaction)).public
        text, view = await _page(interaction, page, lang)
        extra: dict[str, Any] = {"view": view} if view is not None else {}
        await say(interaction, text, allowed_mentions=NO_PINGS, **extra)

    @app_commands.command(name="coach", description="One coach's rated matches: opponent, result, rating after each")
    @app_commands.describe(member="the coach (a member of this server)")
    async def coach(self, interaction: discord.Interaction, member: discord.Member) -> None:
        lang = (await languages(interaction)).user
        guild = interaction.guild_id or 0

        history = await run_work(interaction, lambda: self.service.history(guild, member.id))
        names = await coach_names(interaction.guild, [member.id, *(h.opponent for h in history.lines)])
        names[member.id] = safe_name(member.display_name)
        await say(interaction, history_text(history, names, lang), ephemeral=True, allowed_mentions=NO_PINGS)


async def setup(bot: ElfballBot) -> None:
    await bot.add_cog(Ladder(bot))
    bot.add_dynamic_items(LadderPageButton)
