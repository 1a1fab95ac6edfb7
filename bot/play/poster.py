"""The match poster: shows a match's outcomes in its channel, one message per action.

It edits the action's message while the same coach keeps deciding and posts a new one when the
action or the decider changes (``service.posts``). A post that fails for good after its command
was saved is *owed* in the database; ``Poster.sweep`` posts the current board when Discord
answers again, from whichever process holds the shard.

An edit uploads only the pictures that changed: the poster remembers, for the live messages it
posted or edited last, each picture's digest and the id of the attachment Discord made of it,
and an edit lists an unchanged picture by that id (Discord keeps it) instead of sending its
bytes again. What it does not remember (another process, a restart, a failed edit) is uploaded
afresh, as before.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from typing import Any, Protocol, TypeVar

import discord

from bot.common.i18n import languages, server_language, tr
from bot.common.metrics import BotMetrics
from bot.common.reply import NO_PINGS, command_name, defer, ping
from bot.play.panels import Post, closed_text, live_post
from service import operations, posts
from service.matches import AI_COACH_ID, MatchService, Outcome, Said, note_text

__all__ = ["Poster", "Listener", "POST_TIMEOUT", "OWED_SWEEP_SECONDS", "OWED_CLAIM", "PICTURES_REMEMBERED"]

log = logging.getLogger("elfball.bot")
T = TypeVar("T")


class Host(Protocol):
    """What the poster needs of the bot (``ElfballBot``): its service, metrics and channels."""

    service: MatchService
    metrics: BotMetrics

    def get_guild(self, guild_id: int, /) -> discord.Guild | None: ...
    def get_channel(self, channel_id: int, /) -> Any: ...
    async def fetch_channel(self, channel_id: int, /) -> Any: ...
    def serves_match(self, match: Any) -> bool: ...


#: Seconds a post may take (discord.py retries 5xx for ~25 s) before it is owed to the sweep.
POST_TIMEOUT = 8.0
#: How often the owed-board sweep runs, and how long a claim keeps other processes off a post.
OWED_SWEEP_SECONDS = 20.0
OWED_CLAIM = timedelta(seconds=30)
#: Live messages whose pictures the poster remembers (one per active channel; a forgotten one is
#: uploaded again at its next edit). Each costs a few hundred bytes.
PICTURES_REMEMBERED = 4096

Listener = Callable[[discord.Interaction | None, Outcome], Awaitable[None]]


class Kept:
    """A picture a message already shows, as an edit lists it to keep it: its attachment id, file
    name and (new) alt text. discord.py sends any non-``File`` item of ``attachments`` as its
    ``to_dict()``, as it does a ``discord.Attachment``; this keeps ~100 bytes per picture
    remembered instead of a whole ``Attachment`` (URLs, alt text)."""

    __slots__ = ("id", "filename", "description")

    def __init__(self, attachment_id: int, filename: str, description: str | None = None) -> None:
        self.id, self.filename, self.description = attachment_id, filename, description

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "filename": self.filename}
        if self.description is not None:
            out["description"] = self.description
        return out


class Poster:
    """Shows a match's outcomes in its channel, one message per action (see the module doc)."""

    def __init__(self, bot: Host, *, timeout: float = POST_TIMEOUT) -> None:
        self.bot = bot
        self.timeout = timeout
        #: How long a claimed owed board is left to this process (a post takes at most ``timeout``).
        self.claim = OWED_CLAIM
        self._locks: dict[int, asyncio.Lock] = {}
        #: Called after an outcome is shown (the league posts its post-match panels).
        self.listeners: list[Listener] = []
        #: message id -> {file name: (digest, id of the attachment Discord made of it)}: what each
        #: live message shows, for the next edit to keep (see the module doc).
        self._pictures: OrderedDict[int, dict[str, tuple[str, int]]] = OrderedDict()

    def _metrics(self, counter: str) -> None:
        metrics = getattr(self.bot, "metrics", None)
        if metrics is not None:
            getattr(metrics, counter).inc()

    def _lock(self, match_id: int) -> asyncio.Lock:
        return self._locks.setdefault(match_id, asyncio.Lock())

    @property
    def _sessions(self) -> Any:
        return self.bot.service.sessions

    async def publish(self, interaction: discord.Interaction | None, outcome: Outcome, *, header: str = "",
                      force_new: bool = False, notice: str = "", sweep: bool = False, language: str | None = None,
                      actor: int | None = None) -> bool:
        """Show ``outcome``: edit the action's message or post the next one. True if the board
        reached the channel; False if it is owed (the coach is told his move counted).
        ``sweep``: the owed-board sweep's post (a failure is the same debt, not a new one).
        Without an interaction, ``language`` and ``actor`` (who acted: no ping for him) may say
        what the interaction would have (a lesson posted in its thread by ``/learn``). A lesson's
        posts are in its member's language, a match's in its server's."""
        match = outcome.match
        actor = interaction.user.id if interaction is not None else actor
        log.info("match %s now at version %s (guild=%s channel=%s user=%s)", match.id, match.version, match.guild_id,
                 match.channel_id, actor)
        if language is not None:
            lang = language
        elif interaction is not None:
            found = await languages(interaction)
            lang = found.user if outcome.lesson is not None else found.public
        else:
            lang = await asyncio.to_thread(server_language, match.guild_id, self.bot.get_guild(match.guild_id))
        lock = self._lock(match.id)
        if interaction is not None and lock.locked():
            await defer(interaction, component=interaction.type is discord.InteractionType.component)
        async with lock:
            extra = [x.in_language(lang) if isinstance(x, Said) else x for x in outcome.after]
            notes = [note_text(lang, k, v) for k, v in outcome.notes if k != "note.undo"]

            def make() -> posts.Plan:
                plan, _ = posts.plan_for(self._sessions, match, outcome.state, actor_user_id=actor, header=header,
                                         language=lang, note=lambda key: note_text(lang, key, {}),
                                         extra_lines=[*notes, *extra], read=outcome.post_read)
                if force_new and not plan.live.new:
                    plan = _as_new(plan, outcome)
                return plan

            plan = await asyncio.to_thread(make)
            shown = await self._show(interaction, outcome, plan, lang, notice, sweep=sweep)
        for listener in self.listeners:
            try:
                await listener(interaction, outcome)
            except Exception:  # noqa: BLE001 - the board is shown; a listener's failure is its own
                log.exception("outcome listener failed for match %s", match.id)
        return shown

    async def _show(self, interaction: discord.Interaction | None, outcome: Outcome, plan: posts.Plan, lang: str,
                    notice: str, *, sweep: bool = False) -> bool:
        match = outcome.match
        channel_id = match.channel_id
        if interaction is not None and interaction.channel_id != channel_id:
            # The match is elsewhere (a thread this command opened): post there, answer here.
            shown = await self._show(None, outcome, plan, lang, notice, sweep=sweep)
            return shown
        earlier, live = plan.pieces[:-1], plan.live
        coaches = (match.west_coach_id, match.east_coach_id)

        async def close_earlier() -> None:
            for piece in earlier:
                try:
                    await self._bounded(self._plain(channel_id, piece, lang, coaches, outcome.state))
                except (discord.HTTPException, asyncio.TimeoutError):
                    log.warning("could not update message %s of match %s", piece.message_id, match.id)

        # New messages must appear in order (an AI's action before the board it hands back), so
        # they go first and the answer waits; edits of earlier messages wait for the answer
        # instead, which keeps it inside Discord's window.
        in_order = any(p.new for p in earlier)
        if in_order:
            if interaction is not None:
                await defer(interaction, component=interaction.type is discord.InteractionType.component)
            await close_earlier()
        post = live_post(outcome, live, lang, notice=notice)
        try:
            message_id = await self._bounded(self._live(interaction, channel_id, post, live, lang))
        except (discord.HTTPException, asyncio.TimeoutError) as exc:
            log.warning("board of match %s version %s owed: %s", match.id, match.version, exc)
            now = datetime.now(timezone.utc)
            await asyncio.to_thread(posts.record_owed, self._sessions, match, channel_id, now)
            if not sweep:
                self._metrics("owed_recorded")
            if interaction is not None:
                await self._tell_owed(interaction)
            if not in_order:
                await close_earlier()
            return False
        await asyncio.to_thread(posts.record, self._sessions, match, channel_id, live, message_id)
        if not in_order:
            await close_earlier()
        return True

    def _attachments(self, message_id: int | None, post: Post) -> list[Any]:  # discord.File and Kept, for discord.py's ``attachments``
        """The pictures of an edit of ``message_id``: one it already shows (the same digest) is
        listed by its attachment, so Discord keeps it and nothing is uploaded; the others are new
        files. The message is forgotten until the edit succeeds (``_remember``): after a failed
        or timed-out edit nobody knows which attachments it kept."""
        shown = self._pictures.pop(message_id, {}) if message_id is not None else {}
        out: list[discord.File | Kept] = []
        for file in post.files:
            kept = shown.get(file.filename)
            if kept is not None and kept[0] == post.digests.get(file.filename):
                out.append(Kept(kept[1], file.filename, file.description))  # the alt text may say more now
            else:
                out.append(file)
        return out

    def _remember(self, message: Any, post: Post) -> None:
        """After a send or an edit: the attachments ``message`` now shows, by their digests."""
        attachments = getattr(message, "attachments", None) or []
        by_name = {a.filename: a for a in attachments if isinstance(a, discord.Attachment)}
        shown = {name: (digest, by_name[name].id) for name, digest in post.digests.items() if name in by_name}
        if not shown or getattr(message, "id", None) is None:
            return
        self._pictures[message.id] = shown
        self._pictures.move_to_end(message.id)
        while len(self._pictures) > PICTURES_REMEMBERED:
            self._pictures.popitem(last=False)

    async def _bounded(self, coro: Awaitable[T]) -> T:
        return await asyncio.wait_for(coro, timeout=self.timeout)

    async def channel(self, channel_id: int) -> Any:
        """The channel or thread, unarchived if it was archived (a match there goes on)."""
        channel = self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)
        if isinstance(channel, discord.Thread) and channel.archived and not channel.locked:
            await channel.edit(archived=False)
        return channel

    async def _plain(self, channel_id: int, piece: posts.Piece, lang: str, coaches: tuple[int, ...], state: Any) -> None:
        """An earlier piece: its narration, no board or panel."""
        text = closed_text(piece, lang, coaches, state)
        if piece.new:
            channel = await self.channel(channel_id)
            await channel.send(text, allowed_mentions=NO_PINGS)
        else:
            channel = await self.channel(channel_id)
            await channel.get_partial_message(piece.message_id).edit(content=text, view=None, allowed_mentions=NO_PINGS)

    async def _live(self, interaction: discord.Interaction | None, channel_id: int, post: Post,
                    piece: posts.Piece, lang: str) -> int:
        """Post or edit the live message; its id. An edit uploads only the pictures that changed."""
        mentions = ping(piece.mention)
        files = post.files
        view = post.view
        if interaction is not None:
            pressed = interaction.message
            if not piece.new and pressed is not None and pressed.id == piece.message_id:
                attachments = self._attachments(piece.message_id, post)
                if interaction.response.is_done():
                    msg = await interaction.edit_original_response(content=post.content, attachments=attachments,
                                                                   view=view, embeds=post.embeds,
                                                                   allowed_mentions=NO_PINGS)
                    self._remember(msg, post)
                    return msg.id
                resp = await interaction.response.edit_message(content=post.content, attachments=attachments,
                                                               view=view, embeds=post.embeds, allowed_mentions=NO_PINGS)
                self._remember(getattr(resp, "resource", None), post)
                return piece.message_id
            if piece.new:
                kwargs: dict[str, Any] = {"content": post.content, "files": files, "embeds": post.embeds,
                                          "allowed_mentions": mentions}
                if view is not None:
                    kwargs["view"] = view
                if interaction.response.is_done():
                    if interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
                        # Filling the deferred answer takes its files as ``attachments`` (an edit).
                        edit = {k: v for k, v in kwargs.items() if k != "files"}
                        msg = await interaction.edit_original_response(attachments=files, **edit)
                        self._remember(msg, post)
                        if piece.mention is not None:
                            # Filling in a deferred answer is an edit, and an edit pings nobody:
                            # the coach the decision passed to gets one short line that does.
                            text = tr(lang, "post.handover", coach=piece.mention)
                            await (await self.channel(channel_id)).send(text, allowed_mentions=mentions)
                        return msg.id
                    msg = await interaction.followup.send(wait=True, **kwargs)
                    self._remember(msg, post)
                    return msg.id
                resp = await interaction.response.send_message(**kwargs)
                self._remember(getattr(resp, "resource", None), post)
                if resp.message_id is not None:
                    return int(resp.message_id)
                return (await interaction.original_response()).id
            # A slash command within the action: the action's message is updated, the coach
            # gets a short private acknowledgement.
            channel = await self.channel(channel_id)
            # The update and the acknowledgement go out together; if the update fails the board
            # is owed (the caller marks it) and the coach was told his move counted.
            edit = channel.get_partial_message(piece.message_id).edit(
                content=post.content, attachments=self._attachments(piece.message_id, post), view=view,
                embeds=post.embeds, allowed_mentions=NO_PINGS)
            msg, _ = await asyncio.gather(edit, self._ack(interaction, channel, piece.message_id))
            self._remember(msg, post)
            return int(piece.message_id)  # type: ignore[arg-type]  # a stored post's message id is set once it is posted
        channel = await self.channel(channel_id)
        if piece.new:
            kwargs = {"content": post.content, "files": files, "embeds": post.embeds, "allowed_mentions": mentions}
            if view is not None:
                kwargs["view"] = view
            msg = await channel.send(**kwargs)
            self._remember(msg, post)
            return msg.id
        msg = await channel.get_partial_message(piece.message_id).edit(
            content=post.content, attachments=self._attachments(piece.message_id, post), view=view,
            embeds=post.embeds, allowed_mentions=NO_PINGS)
        self._remember(msg, post)
        return int(piece.message_id)  # type: ignore[arg-type]  # a stored post's message id is set once it is posted

    async def _ack(self, interaction: discord.Interaction, channel: Any, message_id: int | None) -> None:
        lang = (await languages(interaction)).user
        guild = interaction.guild_id or "@me"
        link = f"https://discord.com/channels/{guild}/{channel.id}/{message_id}"
        text = tr(lang, "post.updated", link=link)
        try:
            if interaction.response.is_done():
                if interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
                    await interaction.delete_original_response()
                    await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS)
                # a deferred press needs nothing more: its message was updated
            else:
                await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            log.info("could not acknowledge %s", command_name(interaction))

    async def _tell_owed(self, interaction: discord.Interaction) -> None:
        text = tr((await languages(interaction)).user, "post.owed")
        try:
            if interaction.response.is_done():
                await self._bounded(interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS))
            else:
                await self._bounded(interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS))
        except (discord.HTTPException, asyncio.TimeoutError):
            log.info("could not tell the coach that his board is owed; the sweep's post will say it")

    # -- the owed-board sweep ------------------------------------------------------------------
    def claim_owed(self, *, limit: int = 25, now: datetime | None = None) -> list[Any]:
        """Claim up to ``limit`` owed boards of matches this process serves (blocking). The
        boards of other processes' shards stay owed for them: page past them, or a long outage
        of theirs would hide ours behind the first page."""
        now = now or datetime.now(timezone.utc)
        serves: Callable[[Any], bool] = getattr(self.bot, "serves_match", lambda m: True)
        out: list[Any] = []
        skipped = 0
        with self._sessions() as s:
            while len(out) < limit:
                page = operations.owed_page(s, now=now, limit=limit, offset=skipped)
                for match in page:
                    if len(out) == limit:
                        break
                    if not serves(match):
                        skipped += 1
                    elif operations.claim_owed(s, match_id=match.id, now=now, until=now + self.claim):
                        out.append(match)
                if len(page) < limit:
                    break
        return out

    async def sweep(self, *, limit: int = 25) -> int:
        """Post every owed board this process serves (each claimed in the database first, so
        one process posts it). Returns how many reached the channel."""
        shown = 0
        for match in await asyncio.to_thread(self.claim_owed, limit=limit):
            try:
                outcome = await asyncio.to_thread(self.bot.service.snapshot, match.id)
                lang = await asyncio.to_thread(server_language, match.guild_id, self.bot.get_guild(match.guild_id))
                if await self.publish(None, outcome, force_new=True, notice=tr(lang, "post.owed_notice"), sweep=True):
                    shown += 1
                    self._metrics("owed_sent")
            except Exception:  # noqa: BLE001 - one channel's trouble must not hold up the others
                log.exception("owed board of match %s not posted", match.id)
        return shown


def _as_new(plan: posts.Plan, outcome: Outcome) -> posts.Plan:
    """The same plan with its live message posted anew (the sweep: the old one is not seen)."""
    live = plan.live
    closed = replace(live, live=False, closed=True, lines=live.lines)
    m = outcome.match
    user = m.deciding_user_id if m.active else None
    hot_seat = m.west_coach_id == m.east_coach_id  # one coach decides for both (a lesson): nobody to call
    fresh = replace(live, message_id=None, lines=(), header="", first_version=m.version,
                    mention=user if user not in (None, AI_COACH_ID) and not hot_seat else None)
    return posts.Plan([*plan.pieces[:-1], closed, fresh])
