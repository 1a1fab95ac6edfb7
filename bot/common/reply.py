"""How the bot answers: refusals, private and public replies, work off the event loop, and the
match poster (one message per action, owed boards and their sweep).

Every command module imports these by their public names; nothing here knows a command.

* Replies meet Discord's 3-second window: the work gets ``WORK_WINDOW`` seconds in a worker
  thread; if it is not done by then the interaction is deferred and answered when it is.
* Refusals are ephemeral, in the member's language, say why and change nothing; anything
  unexpected answers with a short apology and an incident id that is logged.
* Nothing the bot posts pings anybody unless it says so: ``allowed_mentions`` defaults to none,
  so a team or player named ``<@id>`` never notifies that member.
* The match poster that shows a match's outcomes is the play package's (``bot.play.poster``).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import discord

from bot.common.checks import give_back
from bot.common.i18n import catalogue, languages, tr
from service.matches import AI_COACH_ID
from service.refusal import Refused
from service.refusals import render_refusal

__all__ = [
    "NO_PINGS", "Refusal", "reason_text", "say", "refuse", "run_work", "command_name", "incident", "WORK_WINDOW",
    "ping", "send_post", "defer", "too_late", "EXPIRED", "split_lines",
]

log = logging.getLogger("elfball.bot")
T = TypeVar("T")
#: Seconds of work before a reply is deferred (Discord closes the window at 3).
WORK_WINDOW = 2.0
#: Nothing pings unless a reply names whom it pings.
NO_PINGS = discord.AllowedMentions.none()
#: Discord's codes for an interaction whose window closed: Unknown interaction (the 3 s to
#: answer are over) and Unknown webhook (the 15 minutes of follow-ups are over).
EXPIRED = frozenset({10062, 10015})


def split_lines(lines: Iterable[str], limit: int) -> list[str]:
    """``lines`` joined into texts of at most ``limit`` characters (messages, embed fields), split
    only at line breaks; a line too long for one is cut with "…". No lines, no text."""
    out: list[str] = []
    for line in lines:
        line = line if len(line) <= limit else line[: limit - 1] + "…"
        if out and len(out[-1]) + 1 + len(line) <= limit:
            out[-1] += "\n" + line
        else:
            out.append(line)
    return out


def ping(user_id: int | None) -> discord.AllowedMentions:
    """Mentions that notify ``user_id`` only (none for the AI coach or nobody)."""
    if not user_id or user_id == AI_COACH_ID:
        return NO_PINGS
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=[discord.Object(id=user_id)])


class Refusal(Refused):
    """A reason to refuse politely (ephemeral), with nothing changed: a key of the bot's
    catalogue and its values (or, from older callers, a message written in English). The
    service's ``Refused`` carries keys of the same catalogue."""

    def __init__(self, key: str, /, **values: Any) -> None:
        super().__init__(key, **values)
        self.args = (self.text("en"),)

    def text(self, language: str) -> str:
        return tr(language, self.key, **self.values) if self.key in catalogue(language) else self.key


def reason_text(reason: str | BaseException, language: str) -> str:
    """Why something was refused, in ``language``: the bot's own refusals, and the service's that
    the bot's catalogue words (``service.refusal.Refused``), from that catalogue; everything else
    as the service says it (``service.refusals.render_refusal``: the keyed refusals of the rules,
    the parser and the store, and the bot's own phrases)."""
    if isinstance(reason, Refusal):
        return reason.text(language)
    if isinstance(reason, Refused):
        return Refusal(reason.key, **reason.values).text(language)
    return render_refusal(reason, language, phrases=catalogue(language).text)


async def say(interaction: discord.Interaction, text: str, *, ephemeral: bool = False, **kwargs: Any) -> None:
    """Answer with ``text`` whether or not the work had to defer the interaction first."""
    kwargs.setdefault("allowed_mentions", NO_PINGS)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=ephemeral, **kwargs)


def _count(interaction: discord.Interaction, outcome: str) -> None:
    metrics = getattr(interaction.client, "metrics", None)
    if metrics is not None:
        metrics.outcome(interaction, outcome)


async def refuse(interaction: discord.Interaction, reason: str | BaseException) -> None:
    """Refuse privately, in the member's language. Nothing was done, so a cooldown the command
    passed is given back (``bot.common.checks``)."""
    _count(interaction, "refused")
    give_back(interaction)
    text = f"⛔ {reason_text(reason, (await languages(interaction)).user)}"[:1900]
    try:
        if interaction.response.is_done():
            # A deferred command left a public "thinking…" placeholder: remove it. A deferred press's
            # original response is the pressed panel itself (the board): it stays.
            if interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
                try:
                    await interaction.delete_original_response()
                except discord.HTTPException:
                    pass
            await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS)
        else:
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)
    except discord.NotFound as exc:
        if not too_late(interaction, exc, what=f"refusal {getattr(reason, 'key', type(reason).__name__)}"):
            raise


def too_late(interaction: discord.Interaction, exc: BaseException, *, what: str = "answer") -> bool:
    """True (and one log line, no traceback) if ``exc`` says Discord closed the interaction
    before the bot answered (``EXPIRED``): nobody is left to read the answer, nothing to report."""
    if not isinstance(exc, discord.NotFound) or exc.code not in EXPIRED:
        return False
    log.warning("%s to %s came too late (Discord %s: %s) guild=%s channel=%s user=%s", what, command_name(interaction),
                exc.code, exc.text or "interaction expired", interaction.guild_id, interaction.channel_id,
                interaction.user.id)
    return True


async def run_work(interaction: discord.Interaction, work: Callable[[], T], *, component: bool = False) -> T:
    """Run ``work`` in a thread; defer the interaction if it is not done within the window."""
    started = time.perf_counter()
    task = asyncio.ensure_future(asyncio.to_thread(work))
    done, _ = await asyncio.wait({task}, timeout=WORK_WINDOW)
    if not done:
        await defer(interaction, component=component)
    try:
        result = await task
        _count(interaction, "ok")
        return result
    finally:
        log.info("command %s guild=%s channel=%s user=%s latency_ms=%.0f", command_name(interaction),
                 interaction.guild_id, interaction.channel_id, interaction.user.id, (time.perf_counter() - started) * 1000)


async def defer(interaction: discord.Interaction, *, component: bool) -> None:
    if interaction.response.is_done():
        return
    try:
        if component:
            await interaction.response.defer()
        else:
            await interaction.response.defer(thinking=True)
        metrics = getattr(interaction.client, "metrics", None)
        if metrics is not None:
            metrics.deferred.inc()
    except discord.HTTPException:  # the window passed: the answer goes to the channel instead
        log.warning("could not defer %s", command_name(interaction))


def command_name(interaction: discord.Interaction) -> str:
    if interaction.command is not None:
        return interaction.command.qualified_name
    data = interaction.data or {}
    return str(data.get("custom_id", "?"))


async def incident(interaction: discord.Interaction, error: BaseException) -> None:
    """Log an unexpected failure under a short id and tell the member that id, privately."""
    code = secrets.token_hex(4)
    _count(interaction, "incident")
    log.error("incident %s in %s (guild=%s channel=%s)", code, command_name(interaction), interaction.guild_id,
              interaction.channel_id, exc_info=error)
    try:
        await refuse(interaction, Refusal("error.incident", incident=code))
    except discord.HTTPException:
        log.warning("could not report incident %s", code)


async def send_post(interaction: discord.Interaction, post: Any, *, edit_panel: bool = False) -> None:
    """A post that is not a match's board (the league's post-match panels), below the answer.
    ``edit_panel``: the pressed message loses its controls (the new post carries the next ones)."""
    if edit_panel and interaction.message is not None:
        if interaction.response.is_done():
            await interaction.edit_original_response(view=None)
        else:
            await interaction.response.edit_message(view=None)
    mention = post.mention if post.mention != interaction.user.id else None  # never in reply to his own command
    kwargs: dict[str, Any] = {"content": post.content, "allowed_mentions": ping(mention)}
    if post.file is not None:
        kwargs["file"] = post.file
    if post.view is not None:
        kwargs["view"] = post.view
    if post.embeds:
        kwargs["embeds"] = post.embeds
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)
