"""What a lesson says in its thread: the lesson's opening lines, the verdict after a try (the
explanation quoting the rule, or the hint) with its buttons, and the member's progress.

The board, the panel and the narration of a lesson are a match's (``bot.play.poster``); these
are the lines and buttons around them. Every text comes from ``bot/locales`` and the lesson's own
file (``service.lesson_book``), in the member's language.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord
from discord.ext.commands.bot import BotBase

from bot.common.errors import answer_press
from bot.common.i18n import tr
from bot.common.reply import Refusal, refuse
from service.lesson_book import Lesson, lesson, lessons, next_lesson, number
from service.lessons import LessonNote, Progress

__all__ = ["LessonButton", "header", "rule_line", "verdict_text", "verdict_view", "progress_lines", "end_of_track",
           "choice_name", "CUSTOM_ID"]

#: The custom ids of the lesson buttons: ``elfball-learn:<verb>[:<lesson id>]``.
CUSTOM_ID = "elfball-learn"
VERBS = ("next", "again", "all", "ai")


def rule_line(chosen: Lesson, language: str) -> str:
    """The rule the lesson teaches: the rulebook's page and section, and docs/rules.md's section."""
    rule = chosen.rule
    return tr(language, "learn.rule", page=rule.get("page", "?"), section=rule.get("section", ""),
              rules_md=rule.get("rules_md", ""))


def header(chosen: Lesson, language: str, *, tries: int = 1) -> str:
    """The lesson's first lines, above its board: its title and place, the goal, the rule."""
    total = len(lessons())
    lines = [tr(language, "learn.header", order=number(chosen.id), total=total, title=chosen.text("title", language),
                track=tr(language, f"learn.track.{chosen.track}")),
             tr(language, "learn.goal", goal=chosen.text("goal", language)),
             rule_line(chosen, language),
             tr(language, "learn.hot_seat")]
    if tries > 1:
        lines.append(tr(language, "learn.try", tries=tries))
    return "\n".join(lines)


def end_of_track(chosen: Lesson) -> bool:
    """The last lesson of the Basic track, or the last lesson of all: time for a real match."""
    after = next_lesson(chosen.id)
    return after is None or (chosen.track == "basic" and after.track != "basic")


def verdict_text(note: LessonNote, language: str) -> str:
    """After a try: on ``done`` the explanation quoting the rule (and, at the end of a track,
    the offer of a match against the AI coach and the league); on ``try_over`` the hint."""
    chosen = lesson(note.lesson_id)
    title = chosen.text("title", language)
    if note.status == "try_over":
        return "\n".join([tr(language, "learn.try_over", title=title),
                          tr(language, "learn.hint", hint=chosen.text("hint", language))])
    lines = [tr(language, "learn.done", title=title), chosen.text("explain", language), rule_line(chosen, language)]
    after = lesson(note.next_id) if note.next_id else None
    if end_of_track(chosen):
        lines.append(tr(language, "learn.finished_all" if after is None else "learn.finished_track"))
        lines.append(tr(language, "learn.ai_offer"))
        lines.append(tr(language, "learn.league"))
    if after is not None:
        lines.append(tr(language, "learn.next", title=after.text("title", language)))
    return "\n".join(lines)[:2000]


class LessonButton(discord.ui.DynamicItem[discord.ui.Button], template=rf"{CUSTOM_ID}:(?P<verb>[a-z]+)(?::(?P<lesson>[a-z0-9-]+))?"):
    """A lesson's button (``VERBS``): the next lesson, this one again, the list, a match against
    the AI coach. Persistent: rebuilt from its custom id after a restart; the learn cog answers
    (``interaction.client``'s cog ``Learn``, as the panels find theirs)."""

    def __init__(self, verb: str, lesson_id: str | None = None, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, emoji: str | None = None) -> None:
        custom_id = f"{CUSTOM_ID}:{verb}" + (f":{lesson_id}" if lesson_id else "")
        super().__init__(discord.ui.Button(label=label or verb, style=style, emoji=emoji, custom_id=custom_id))
        self.verb, self.lesson_id = verb, lesson_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any) -> LessonButton:  # type: ignore[override]  # discord.py's DynamicItem.from_custom_id is generic over the item's type
        return cls(match["verb"], match["lesson"], label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        client = interaction.client  # a Bot or an AutoShardedBot: both are BotBase
        cog = client.get_cog("Learn") if isinstance(client, BotBase) else None
        pressed = getattr(cog, "lesson_pressed", None)
        if pressed is None or self.verb not in VERBS:
            await refuse(interaction, Refusal("refuse.panel_stale"))
            return
        await answer_press(interaction, pressed(interaction, self.verb, self.lesson_id))


def verdict_view(note: LessonNote, language: str) -> discord.ui.View:
    """The buttons under a verdict: Next lesson, Try again, All lessons; at the end of a track,
    Play the AI coach."""
    view = discord.ui.View(timeout=None)
    chosen = lesson(note.lesson_id)
    if note.status == "done" and note.next_id:
        view.add_item(LessonButton("next", note.next_id, label=tr(language, "learn.button.next"),
                                   style=discord.ButtonStyle.primary, emoji="▶️"))
    view.add_item(LessonButton("again", chosen.id, label=tr(language, "learn.button.again"),
                               style=discord.ButtonStyle.primary if note.status == "try_over" else discord.ButtonStyle.secondary,
                               emoji="🔁"))
    view.add_item(LessonButton("all", None, label=tr(language, "learn.button.all"), emoji="📚"))
    if note.status == "done" and end_of_track(chosen):
        view.add_item(LessonButton("ai", None, label=tr(language, "learn.button.ai"),
                                   style=discord.ButtonStyle.success, emoji="🤖"))
    return view


def choice_name(chosen: Lesson, language: str, done: Iterable[str]) -> str:
    """A lesson as the autocomplete offers it: ✅ when done, its number and its title."""
    mark = "✅ " if chosen.id in set(done) else ""
    return f"{mark}{number(chosen.id):02d} · {chosen.text('title', language)}"[:100]


def progress_lines(progress: Progress, language: str) -> list[str]:
    """Every lesson with ✅ (done) and the member's tries, then the next one."""
    book = lessons()
    out = [tr(language, "learn.progress.title", done=len(progress.done & {x.id for x in book}), total=len(book))]
    track = None
    for n, x in enumerate(book, 1):
        if x.track != track:
            track = x.track
            out.append(f"__{tr(language, f'learn.track.{x.track}')}__")
        tries = progress.tries.get(x.id, 0)
        mark = "✅" if x.id in progress.done else ("▶️" if x.id == progress.next_id else "▫️")
        said = tr(language, "learn.progress.tries", tries=tries) if tries else ""
        out.append(f"{mark} {n:02d}. {x.text('title', language)} {said}".rstrip())
    if progress.next_id is not None:
        out.append(tr(language, "learn.progress.next", title=lesson(progress.next_id).text("title", language)))
    else:
        out.append(tr(language, "learn.progress.all_done"))
    return out
