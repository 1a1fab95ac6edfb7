"""``/learn``: short lessons that teach Elfball by playing them, in the member's private thread.

- ``/learn start [lesson]`` opens (or finds again) the member's private thread under the channel
  (from inside a thread: under its parent), "Elfball lessons – <name>", not invitable, with the
  member in it, and starts the lesson there (default: his first lesson not done). The command is
  answered privately with a link to the thread. Only the member and the server's moderators
  (Manage Threads) see the thread, so the channel is not flooded.
- The lesson is a match of the lesson service (``service.lessons``): hot-seat (the member decides
  for both teams), no deadline, not rated. Its board, narration and panel are a match's
  (``bot.play.poster``), in the member's language; he plays it with the panel and the usual
  slash commands. After each command the service judges the try; the verdict (``posts``) follows
  the board: the explanation quoting the rule with **Next lesson**, **Try again**, **All
  lessons**, or the hint with **Try again**. At the end of the Basic track and of the book: a
  match against the AI coach at the easy level (**Play the AI coach**) and the server's league.
- ``/learn progress``: every lesson with ✅ and the member's tries, privately; ``/learn
  restart``: his last lesson again.

Nothing pings: the one exception is the first post of a new thread, which tells the member
where his lessons are.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Final, Literal

import discord
from discord import app_commands

from bot.app import ElfballBot
from bot.common.checks import ServerGroupCog
from bot.common.i18n import catalogue, languages, server_language, tr
from bot.common.reply import NO_PINGS, Refusal, ping, run_work, say, split_lines
from bot.common.rule_options import rule_options
from bot.learn.posts import LessonButton, choice_name, header, progress_lines, verdict_text, verdict_view
from bot.match.cog import start_view
from service import challenges, lesson_book, limits
from service.challenges import entropy_of
from service.lesson_book import lesson, lessons
from service.lessons import LessonService
from service.matches import Outcome
from service.names import safe_name
from service.vocabulary import describe_rules, language_of, team_list

__all__ = ["Learn", "LESSON_PERMISSIONS", "AI_TEAM", "setup"]

log = logging.getLogger("elfball.bot")

#: What the bot needs where it opens a lessons thread (and posts boards in it).
LESSON_PERMISSIONS = ("view_channel", "send_messages_in_threads", "embed_links", "attach_files", "read_message_history")
#: The team list the member plays against the AI coach when a lesson offers the match (he may
#: challenge with his own team by ``/match challenge`` instead).
AI_TEAM = "gnolls"
#: A lessons thread archives itself after a week without posts; ``/learn`` wakes it.
ARCHIVE_MINUTES: Final[Literal[10080]] = 10080


def lessons_of(bot: ElfballBot) -> LessonService:
    """The bot's lesson service (``bot.app`` makes it next to the match service)."""
    return bot.lessons


async def _missing(interaction: discord.Interaction, names: list[str]) -> Refusal:
    lang = (await languages(interaction)).user
    said = ", ".join(f"**{tr(lang, 'perm.' + n)}**" if "perm." + n in catalogue(lang) else n for n in names)
    return Refusal("refuse.learn_bot_permissions", permissions=said)


class Learn(ServerGroupCog, group_name="learn", group_description="Learn Elfball by playing short lessons in your own thread"):
    """``/learn start``, ``/learn progress``, ``/learn restart`` and the lesson buttons."""

    def __init__(self, bot: ElfballBot) -> None:
        self.bot = bot
        bot.lessons  # noqa: B018 - made now: its goal check must judge every lesson's command from the start
        super().__init__()

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.poster.listeners.append(self.lesson_shown)

    async def cog_unload(self) -> None:
        if self.lesson_shown in self.bot.poster.listeners:
            self.bot.poster.listeners.remove(self.lesson_shown)

    # -- the thread ----------------------------------------------------------------------------------
    async def parent_of(self, interaction: discord.Interaction) -> discord.TextChannel:
        """The text channel the member's lessons thread hangs from: this one, or this thread's."""
        channel: Any = interaction.channel
        if isinstance(channel, discord.Thread):
            parent_id = channel.parent_id
            channel = self.bot.get_channel(parent_id) or await self.bot.fetch_channel(parent_id)
        if not isinstance(channel, discord.TextChannel):
            raise Refusal("refuse.learn_text_channel")
        return channel

    async def thread_for(self, interaction: discord.Interaction, lang: str) -> tuple[discord.Thread, bool]:
        """The member's lessons thread under this channel, unarchived and with him in it, or a new
        one (True). Refused privately, nothing created, when the bot may not open it here."""
        bot, user = self.bot, interaction.user
        guild = interaction.guild_id or 0
        parent = await self.parent_of(interaction)
        have = interaction.app_permissions
        missing = [n for n in LESSON_PERMISSIONS if not getattr(have, n)]
        if missing:
            raise await _missing(interaction, missing)
        service = lessons_of(bot)
        known = await asyncio.to_thread(service.thread_for, guild_id=guild, user_id=user.id, parent_id=parent.id)
        thread = await self._existing(known) if known is not None else None
        if thread is not None:
            if thread.archived:
                await thread.edit(archived=False)
            await thread.add_user(user)  # he may have left it
            return thread, False
        if not have.create_private_threads:
            raise await _missing(interaction, ["create_private_threads"])
        name = tr(lang, "learn.thread_name", member=user.display_name)[:100]
        try:
            thread = await parent.create_thread(name=name, type=discord.ChannelType.private_thread, invitable=False,
                                                auto_archive_duration=ARCHIVE_MINUTES)
        except discord.Forbidden:
            raise await _missing(interaction, ["create_private_threads"]) from None
        await thread.add_user(user)
        await asyncio.to_thread(service.remember_thread, guild_id=guild, user_id=user.id, parent_id=parent.id,
                                thread_id=thread.id)
        return thread, True

    async def _existing(self, thread_id: int) -> discord.Thread | None:
        """The remembered thread if it is still there and usable (not deleted, not locked)."""
        try:
            found = self.bot.get_channel(thread_id) or await self.bot.fetch_channel(thread_id)
        except (discord.NotFound, discord.Forbidden):
            return None
        if not isinstance(found, discord.Thread) or found.locked:
            return None
        return found

    # -- starting a lesson ---------------------------------------------------------------------------
    async def open_lesson(self, interaction: discord.Interaction,
                          start: Callable[[LessonService, int], Outcome]) -> None:
        """The member's thread, ``start(service, thread id)`` in it, the lesson's first post there,
        and a private answer with the link."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = (await languages(interaction)).user
        thread, new = await self.thread_for(interaction, lang)
        if new:  # the one post that pings: where his lessons are
            await thread.send(tr(lang, "learn.welcome", member=interaction.user.id),
                              allowed_mentions=ping(interaction.user.id))
        outcome = await run_work(interaction, lambda: start(lessons_of(self.bot), thread.id))
        await self.show_start(outcome, lang, interaction.user.id)
        chosen = lesson(outcome.lesson.lesson_id) if outcome.lesson else None
        title = chosen.text("title", lang) if chosen else ""
        await interaction.followup.send(tr(lang, "learn.opened", title=title, thread=thread.id), ephemeral=True,
                                        allowed_mentions=NO_PINGS)

    async def show_start(self, outcome: Outcome, lang: str, user_id: int) -> None:
        """A lesson's first post in its thread: its title, goal and rule above the board."""
        note = outcome.lesson
        chosen = lesson(note.lesson_id) if note else None
        top = header(chosen, lang, tries=note.tries if note else 1) if chosen else ""
        await self.bot.poster.publish(None, outcome, header=top, language=lang, actor=user_id)

    @app_commands.command(name="start", description="Play a lesson in your own thread (default: your next one)")
    @app_commands.describe(lesson="a lesson (✅: done); default: your next one")
    async def start(self, interaction: discord.Interaction, lesson: str | None = None) -> None:
        guild, user = interaction.guild_id or 0, interaction.user.id
        chosen = lesson
        if chosen is not None:
            lesson_book.lesson(chosen)  # an unknown one is refused before any thread is opened

        def begin(service: LessonService, thread_id: int) -> Outcome:
            name = chosen or service.progress(guild_id=guild, user_id=user).next_id or lessons()[0].id
            return service.start(guild_id=guild, channel_id=thread_id, user_id=user, lesson_id=name)

        await self.open_lesson(interaction, begin)

    @start.autocomplete("lesson")
    async def lesson_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        lang = language_of(interaction.locale)
        service = lessons_of(self.bot)
        try:
            done = (await asyncio.to_thread(service.progress, guild_id=interaction.guild_id or 0,
                                            user_id=interaction.user.id)).done
        except Exception:  # noqa: BLE001 - the list without its ticks beats no list
            log.warning("lesson progress unavailable for the autocomplete", exc_info=True)
            done = frozenset()
        typed = current.strip().lower()
        out = []
        for x in lessons():
            name = choice_name(x, lang, done)
            if typed and typed not in name.lower() and typed not in x.id:
                continue
            out.append(app_commands.Choice(name=name, value=x.id))
        return out[:25]

    @app_commands.command(name="restart", description="Your last lesson again, from its start")
    async def restart(self, interaction: discord.Interaction) -> None:
        guild, user = interaction.guild_id or 0, interaction.user.id

        def again(service: LessonService, thread_id: int) -> Outcome:
            return service.restart(guild_id=guild, channel_id=thread_id, user_id=user)

        await self.open_lesson(interaction, again)

    @app_commands.command(name="progress", description="Your lessons: those done, your tries, the next one")
    async def progress(self, interaction: discord.Interaction) -> None:
        await self.answer_progress(interaction)

    async def answer_progress(self, interaction: discord.Interaction) -> None:
        service = lessons_of(self.bot)
        found = await run_work(interaction, lambda: service.progress(guild_id=interaction.guild_id or 0,
                                                                       user_id=interaction.user.id))
        lang = (await languages(interaction)).user
        for text in split_lines(progress_lines(found, lang), 1900):
            await say(interaction, text, ephemeral=True)

    # -- after each command in a lesson: the verdict ----------------------------------------------------
    async def lesson_shown(self, interaction: discord.Interaction | None, outcome: Outcome) -> None:
        """The poster showed ``outcome``: under a finished try, its verdict and buttons."""
        note = outcome.lesson
        if note is None or note.status not in ("done", "try_over"):
            return
        match = outcome.match
        if interaction is not None:
            lang = (await languages(interaction)).user
        else:
            lang = await asyncio.to_thread(server_language, match.guild_id, self.bot.get_guild(match.guild_id))
        channel = await self.bot.poster.channel(match.channel_id)
        await channel.send(verdict_text(note, lang), view=verdict_view(note, lang),
                           allowed_mentions=NO_PINGS)

    # -- the lesson buttons --------------------------------------------------------------------------
    async def lesson_pressed(self, interaction: discord.Interaction, verb: str, lesson_id: str | None) -> None:
        """Next lesson and Try again start a lesson in this thread (the service refuses anyone
        but its member); All lessons answers the presser's progress; Play the AI coach posts a
        challenge to the AI coach in the thread."""
        if verb == "all":
            await self.answer_progress(interaction)
            return
        if verb == "ai":
            await self.play_ai(interaction)
            return
        if lesson_id is None:
            raise Refusal("refuse.panel_stale")
        guild, user, channel = interaction.guild_id or 0, interaction.user.id, interaction.channel_id or 0
        service = lessons_of(self.bot)
        outcome = await run_work(interaction, lambda: service.start(guild_id=guild, channel_id=channel, user_id=user,
                                                                    lesson_id=lesson_id), component=True)
        lang = (await languages(interaction)).user
        # The verdict's buttons have done their work: the next post carries the next ones.
        if interaction.response.is_done():
            await interaction.edit_original_response(view=None)
        else:
            await interaction.response.edit_message(view=None)
        await self.show_start(outcome, lang, user)

    async def play_ai(self, interaction: discord.Interaction) -> None:
        """A challenge to the AI coach at the easy level, posted in the member's lessons thread with
        its Start buttons (as ``/match challenge`` with the bot posts it)."""
        bot = self.bot
        guild, user = interaction.guild_id or 0, interaction.user.id
        # In his own lessons thread (free once the lesson is closed): the channel he learned in may
        # well have a match going on, and his first match floods nobody's channel.
        here = interaction.channel
        if not isinstance(here, discord.Thread):
            raise Refusal("refuse.panel_stale")
        lang = (await languages(interaction)).user
        public = (await languages(interaction)).public
        options = rule_options("standard", "")
        entropy = entropy_of("c", None, interaction.id)

        def challenge() -> Any:
            limits.check_room("ai_match", guild, user, sessions=bot.service.sessions)
            return challenges.challenge_ai(guild_id=guild, channel_id=here.id, user_id=user, team=AI_TEAM,
                                           options=options, level="easy", draw=interaction.id, entropy=entropy)

        proposed = await run_work(interaction, challenge, component=True)
        text = "\n".join([
            tr(public, "match.ai_challenged", challenger=user, team=safe_name(AI_TEAM),
               level=tr(public, "match.ai_level.easy"), ai_team=team_list(proposed.ai_team).name,
               goals=options.goals_to_win),
            tr(public, "match.rules", rules=describe_rules(options, public)),
            tr(public, "match.ai_commitment", commitment=proposed.dice_commitment)])[:2000]
        posted = await here.send(text, view=start_view(proposed.id, public), allowed_mentions=NO_PINGS)
        await say(interaction, tr(lang, "learn.ai_posted", link=posted.jump_url), ephemeral=True)


async def setup(bot: ElfballBot) -> None:
    await bot.add_cog(Learn(bot))
    bot.add_dynamic_items(LessonButton)
