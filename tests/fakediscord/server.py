"""An in-process fake Discord: REST (``/api/v10``) and gateway (websocket) on 127.0.0.1.

See the package docstring (``fakediscord/__init__.py``) for the test-facing API. This module has
three parts: the HTTP plumbing (routing, multipart, failure injection, request log), the REST
handlers (login, commands, interaction callbacks, webhooks, channels, guilds), and the gateway
(HELLO / IDENTIFY / READY / GUILD_CREATE / heartbeats / RESUME / REQUEST_GUILD_MEMBERS).
"""

from __future__ import annotations

import asyncio
import collections
import copy
import fnmatch
import json
import logging
import re
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Iterable, Iterator, Mapping, Optional, Union

import aiohttp
import yarl
from aiohttp import web

from .models import (
    AUTO_ARCHIVE_DURATIONS, COMPONENTS_V2, EPHEMERAL, LOADING, MENTION_PATTERN, Choice, FakeAttachment, FakeChannel,
    FakeGuild, FakeMember, FakeMessage, FakeRole, FakeUser, Intent, Mark, Notification, Perm, Reply, Snowflakes,
    guess_content_type, now_iso,
)

log = logging.getLogger("fakediscord")

API_PREFIX = re.compile(r"^/api(?:/v\d+)?")
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
MAX_ATTACHMENTS = 10
HAS_THREAD = 1 << 5  # message flag: a thread was started from this message
INTERACTION_KINDS = {2: "command", 3: "component", 4: "autocomplete", 5: "modal_submit"}
# Which callback types Discord accepts for each interaction type.
ALLOWED_CALLBACKS = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}
OPTION_TYPES = {3: "string", 4: "integer", 5: "boolean", 6: "user", 7: "channel", 8: "role",
                9: "mentionable", 10: "number", 11: "attachment"}


class FakeDiscordError(Exception):
    """The test asked for something a real Discord client could not do (unknown command or
    option, a disabled button, a value outside the choices...)."""


class InteractionTimeout(AssertionError):
    """The bot did not complete its answer in time; the message explains what it did do."""


class _ApiError(Exception):
    def __init__(self, status: int, code: int, message: str, errors: Any = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> dict:
        data: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            data["errors"] = self.errors
        return data


def _not_found(code: int, what: str) -> _ApiError:
    return _ApiError(404, code, f"Unknown {what}")


@dataclass
class RecordedRequest:
    """One REST request the bot made (``fake.requests``)."""

    method: str
    path: str  # without the /api/v10 prefix
    query: dict
    json: Any
    files: list[tuple[str, int]]  # (filename, size)
    status: int = 0
    at: float = 0.0

    def __str__(self) -> str:
        path = "/".join(p if len(p) < 40 else p[:8] + "..." for p in self.path.split("/"))
        return f"{self.method} {path} -> {self.status}"


@dataclass
class InjectedFailure:
    """Made by ``fake.fail_next`` / ``fail_for`` / ``fail_until``; ``hits`` counts the requests it
    answered. It stops matching after ``times`` hits, once ``fake.clock()`` reaches ``until``, or
    after ``stop()``, whichever comes first (``None``: no such limit)."""

    pattern: str
    status: int
    times: Optional[int]
    retry_after: float
    is_global: bool
    body: Optional[dict]
    hits: int = 0
    until: Optional[float] = None
    stopped: bool = False

    def matches(self, method: str, path: str, now: Optional[float] = None) -> bool:
        return self.active(now) and fnmatch.fnmatchcase(f"{method} {path}", self.pattern)

    def active(self, now: Optional[float] = None) -> bool:
        if self.stopped or (self.times is not None and self.hits >= self.times):
            return False
        return self.until is None or now is None or now < self.until

    def stop(self) -> None:
        """End the failure now: the next matching request is served normally."""
        self.stopped = True


@dataclass(eq=False)
class _Interaction:
    """The server's record of one dispatched interaction."""

    id: int
    token: str
    type: int
    name: str  # command path or custom_id, for messages
    guild: Optional[FakeGuild]
    channel: FakeChannel
    member: FakeMember
    message_id: Optional[int] = None  # the component's message (component / modal from a component)
    payload: dict = field(default_factory=dict, repr=False)
    dispatched_at: float = 0.0
    acked_at: Optional[float] = None
    completed_at: Optional[float] = None
    callback_type: Optional[int] = None
    original_id: Optional[int] = None
    followup_ids: list[int] = field(default_factory=list)
    choices: list[dict] = field(default_factory=list)
    modal: Optional[dict] = None
    done: asyncio.Event = field(default_factory=asyncio.Event, repr=False)
    event_start: int = 0
    request_start: int = 0
    log_start: int = 0
    late: Optional[float] = None  # when a callback came after the acknowledgement deadline

    @property
    def kind(self) -> str:
        return INTERACTION_KINDS.get(self.type, str(self.type))


class _Session:
    """A gateway session (survives a dropped connection so that RESUME can replay events)."""

    def __init__(self, fake: "FakeDiscord", shard: tuple[int, int], intents: Optional[int] = None) -> None:
        self.fake = fake
        self.id = secrets.token_hex(16)
        self.shard = shard
        #: What IDENTIFY asked for (a RESUME keeps them): Discord sends only the events they cover.
        self.intents = Intent.ALL if intents is None else int(intents)
        self.seq = 0
        self.buffer: collections.deque[dict] = collections.deque(maxlen=2000)
        self.queue: Optional[asyncio.Queue] = None
        self.ws: Optional[web.WebSocketResponse] = None
        self.ready = False
        self.writer: Optional[asyncio.Task] = None
        self.guild_ids: list[int] = []  # sent in READY

    @property
    def live(self) -> bool:
        return self.ws is not None and not self.ws.closed

    def covers(self, guild: Optional[FakeGuild]) -> bool:
        shard_id, count = self.shard
        return (guild.shard_id(count) if guild is not None else 0) == shard_id

    def has(self, intent: int) -> bool:
        return self.intents & intent == intent

    def attach(self, ws: web.WebSocketResponse, queue: asyncio.Queue) -> None:
        self.ws, self.queue = ws, queue

    def detach(self, ws: web.WebSocketResponse) -> None:
        if self.ws is ws:
            self.ws, self.queue = None, None

    def dispatch(self, event: str, data: Any) -> None:
        """Queue an op-0 DISPATCH synchronously: events go out in the order they were made."""
        self.seq += 1
        payload = {"op": 0, "t": event, "s": self.seq, "d": data}
        self.fake.dispatched[event] += 1
        self.buffer.append(payload)
        if self.queue is not None:
            self.queue.put_nowait(payload)


_Handler = Callable[..., Awaitable[Any]]


class FakeDiscord:
    """The fake Discord. Use ``async with FakeDiscord() as fake:`` (see the package docstring)."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        app_name: str = "Elfball",
        shard_count: int = 1,
        timeout: float = 5.0,
        settle: Optional[float] = 0.05,
        ack_deadline: float = 3.0,
        application_flags: int = 0,
    ) -> None:
        self.token = token
        self.app_name = app_name
        self.shard_count = shard_count
        self.timeout = timeout
        self.settle_time = settle
        self.ack_deadline = ack_deadline
        self.application_flags = application_flags
        self.ids = Snowflakes()
        self.application_id = self.ids.next()
        self.bot_user = FakeUser(self.application_id, app_name, bot=True)
        self.app_owner = FakeUser(self.ids.next(), "App Owner")
        self._users: dict[int, FakeUser] = {u.id: u for u in (self.bot_user, self.app_owner)}
        self.guilds: list[FakeGuild] = []
        self._channels: dict[int, FakeChannel] = {}
        self._dms: dict[int, FakeChannel] = {}
        self._messages: dict[int, FakeMessage] = {}
        self._channel_log: dict[int, list[int]] = collections.defaultdict(list)
        self._attachments: dict[int, FakeAttachment] = {}
        self._events: list[tuple[str, int]] = []  # ("create"|"edit"|"delete", message id)
        self._global_cmds: dict[tuple[str, int], dict] = {}
        self._guild_cmds: dict[int, dict[tuple[str, int], dict]] = collections.defaultdict(dict)
        self.sync_count = 0
        self.identify_count = 0
        #: Gateway DISPATCH events queued for any session, by name (READY, MESSAGE_CREATE, ...),
        #: and bytes written on gateway sockets (every op): what the bots received.
        self.dispatched: collections.Counter[str] = collections.Counter()
        self.gateway_bytes = 0
        self.resume_count = 0
        self._interactions: dict[int, _Interaction] = {}
        self._by_token: dict[str, _Interaction] = {}
        self._sessions: list[_Session] = []
        self.requests: list[RecordedRequest] = []
        self.unhandled: list[str] = []
        self.log_records: list[logging.LogRecord] = []
        self._failures: list[InjectedFailure] = []
        self.notifications: list[Notification] = []
        self._clock_offset = 0.0
        self._bots: dict[Any, asyncio.Task] = {}
        self._inflight = 0
        self._last_activity = 0.0
        self._runner: Optional[web.AppRunner] = None
        self._saved: Optional[tuple[Any, Any]] = None
        self._log_handler: Optional[logging.Handler] = None
        self.port = 0
        self._routes = self._route_table()

    # ================================================================================
    # Lifecycle
    # ================================================================================
    @property
    def http_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.http_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def __aenter__(self) -> "FakeDiscord":
        await self.start()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def start(self) -> None:
        """Serve on a free port of 127.0.0.1 and point discord.py at it."""
        import discord.gateway
        import discord.http

        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway_handler)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._attachment_handler)
        app.router.add_route("*", "/api/{tail:.*}", self._api_handler)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        self._log_handler = _ListHandler(self.log_records)
        logging.getLogger().addHandler(self._log_handler)  # discord.py's and the bot's own loggers
        self._last_activity = asyncio.get_running_loop().time()

    async def close(self) -> None:
        """Stop every bot started by ``start_bot``, close the server, undo the patches."""
        import discord.gateway
        import discord.http

        for bot in list(self._bots):
            await self.stop_bot(bot)
        for session in self._sessions:
            if session.ws is not None and not session.ws.closed:
                await session.ws.close(code=1001)
            if session.writer is not None:
                session.writer.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._saved is not None:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved
            self._saved = None
        if self._log_handler is not None:
            logging.getLogger().removeHandler(self._log_handler)
            self._log_handler = None

    # ================================================================================
    # Building the world
    # ================================================================================
    def add_guild(self, name: str = "Elfball Club", *, locale: str = "en-US") -> FakeGuild:
        guild = FakeGuild(self, name, locale=locale)
        self.guilds.append(guild)
        self._broadcast(guild, "GUILD_CREATE", guild.payload)
        return guild

    def _new_user(self, name: str) -> FakeUser:
        user = FakeUser(self.ids.next(), name)
        self._users[user.id] = user
        return user

    def _broadcast(self, guild: FakeGuild, event: str, make: Callable[[], Any], intent: int = Intent.GUILDS) -> None:
        """Tell a connected bot about a change made after it connected (sync, ordered), if it
        identified with the ``intent`` that gates the event (GUILDS for guilds, roles, channels
        and threads)."""
        if guild not in self.guilds:
            return  # still being built: GUILD_CREATE will carry it
        for session in self._sessions:
            if session.ready and session.covers(guild) and session.has(intent):
                session.dispatch(event, make())
                self._touch()  # ``settle`` now waits for whatever the bot does about it

    def _count_gateway_bytes(self, n: int) -> None:
        self.gateway_bytes += n

    def _on_role_added(self, role: FakeRole) -> None:
        self._broadcast(role.guild, "GUILD_ROLE_CREATE", lambda: {"guild_id": str(role.guild.id), "role": role.payload()})

    def _on_channel_added(self, chan: FakeChannel) -> None:
        assert chan.guild is not None
        self._broadcast(chan.guild, "CHANNEL_CREATE", chan.payload)

    def _on_channel_updated(self, chan: FakeChannel) -> None:
        assert chan.guild is not None
        self._broadcast(chan.guild, "CHANNEL_UPDATE", chan.payload)

    def _on_member_added(self, member: FakeMember) -> None:
        self._broadcast(member.guild, "GUILD_MEMBER_ADD", lambda: {**member.payload(), "guild_id": str(member.guild.id)},
                        Intent.GUILD_MEMBERS)

    def attachment(self, filename: str, data: bytes) -> FakeAttachment:
        """An uploaded file, for attachment options of ``slash`` (the bot can download it)."""
        att = FakeAttachment(self.ids.next(), filename, data, content_type=guess_content_type(filename, data))
        att.url = f"{self.http_url}/attachments/0/{att.id}/{filename}"
        self._attachments[att.id] = att
        return att

    def _on_thread_created(self, thread: FakeChannel) -> None:
        assert thread.guild is not None
        self._broadcast(thread.guild, "THREAD_CREATE", lambda: {**thread.payload(), "newly_created": True})

    def _set_thread(self, thread: FakeChannel, **changes: Any) -> None:
        """Change a thread and tell the bot (THREAD_UPDATE), as Discord does for every change."""
        if "archived" in changes and changes["archived"] != thread.archived or "auto_archive_duration" in changes:
            thread.archive_timestamp = now_iso()
        for key, value in changes.items():
            setattr(thread, key, value)
        assert thread.guild is not None
        self._broadcast(thread.guild, "THREAD_UPDATE", thread.payload)

    def delete_thread(self, thread: FakeChannel) -> None:
        """A moderator deletes ``thread`` (THREAD_DELETE): its id is unknown from then on (10003)."""
        if not thread.is_thread or thread.guild is None or thread.parent is None:
            raise FakeDiscordError(f"#{thread.name} is not a thread")
        thread.guild.threads.remove(thread)
        del self._channels[thread.id]
        self._broadcast(thread.guild, "THREAD_DELETE", lambda: {
            "id": str(thread.id), "guild_id": str(thread.guild.id), "parent_id": str(thread.parent.id),
            "type": thread.type})

    def visible_history(self, member: FakeMember, channel: FakeChannel) -> list[FakeMessage]:
        """``channel_history`` as ``member`` sees it: nothing where he lacks View Channel (a
        private thread he is not in, unless he may manage threads)."""
        if channel.guild is not None and not channel.can_see(member):
            return []
        return self.channel_history(channel)

    def archive(self, thread: FakeChannel, *, locked: Optional[bool] = None) -> None:
        """Archive ``thread`` as Discord's auto-archive does after inactivity (THREAD_UPDATE);
        ``locked=True`` also locks it, as a moderator would."""
        if not thread.is_thread:
            raise FakeDiscordError(f"#{thread.name} is not a thread")
        self._set_thread(thread, archived=True, **({} if locked is None else {"locked": locked}))

    def dm_channel_for(self, member: Union[FakeMember, FakeUser]) -> FakeChannel:
        """The DM channel between ``member`` and the bot, opened if needed (as the member's client
        does when he writes to the bot): pass it to ``slash`` to run a command in a DM."""
        user = member.user if isinstance(member, FakeMember) else member
        if user.id not in self._dms:
            chan = FakeChannel(self, self.ids.next(), f"dm-{user.username}", None, 1, recipient=user)
            self._dms[user.id] = self._channels[chan.id] = chan
        return self._dms[user.id]

    # ---- time -----------------------------------------------------------------------
    def clock(self) -> float:
        """The fake's notion of now (seconds, monotonic): real time plus every ``advance``. It
        times ``fail_for`` windows and stamps notifications; Discord's 3 s acknowledgement
        window and discord.py's own retry sleeps stay on real time."""
        return time.monotonic() + self._clock_offset

    def advance(self, seconds: float, *, snowflakes: bool = False) -> None:
        """Move ``clock()`` forward: e.g. end a ``fail_for(..., 30)`` window without waiting 30 s.
        ``snowflakes``: the ids minted from now on carry the later time too, as Discord's would
        after that long (an interaction's ``created_at``, which discord.py's cooldowns read)."""
        self._clock_offset += seconds
        if snowflakes:
            self.ids.offset_ms += int(seconds * 1000)

    def mark(self) -> Mark:
        """A point in the history, for the ``since=`` of the counting helpers."""
        return Mark(len(self._events), len(self.notifications), self.clock(), len(self.requests))

    def uploaded_bytes(self, since: Optional[Mark] = None) -> int:
        """Bytes of the files the bot uploaded (every request's multipart files, retries and
        failed requests included: Discord received them), since ``since``."""
        start = since.requests if since is not None else 0
        return sum(size for r in self.requests[start:] for _, size in r.files)

    # ================================================================================
    # Running bots
    # ================================================================================
    async def start_bot(
        self,
        bot: Any,
        *,
        token: Optional[str] = None,
        timeout: Optional[float] = None,
        guild_ready_timeout: Optional[float] = 0.05,
        synced: bool = True,
        fast_identify: bool = True,
    ) -> Any:
        """Run ``bot.start(token)`` in a task and wait until it is ready (and, with ``synced``,
        until application commands have been registered). ``guild_ready_timeout`` overrides
        discord.py's 2 s wait for late GUILD_CREATEs (None leaves the bot's own value).
        ``fast_identify`` replaces ``before_identify_hook``, which sleeps 5 s before every
        IDENTIFY but a client's first (each extra shard, each re-identify), with a no-op."""
        if guild_ready_timeout is not None:
            bot._connection.guild_ready_timeout = guild_ready_timeout
        if fast_identify:
            async def before_identify_hook(shard_id: Optional[int], *, initial: bool = False) -> None:
                return None

            bot.before_identify_hook = before_identify_hook
        task = asyncio.create_task(bot.start(token or self.token), name=f"fakediscord-bot-{id(bot)}")
        self._bots[bot] = task
        limit = asyncio.get_running_loop().time() + (timeout or max(self.timeout, 10.0))
        while not bot.is_ready():
            if task.done():
                self._bots.pop(bot, None)
                exc = task.exception()
                raise RuntimeError(f"the bot stopped before it was ready: {exc!r}") from exc
            if asyncio.get_running_loop().time() > limit:
                raise TimeoutError(f"the bot was not ready in time; requests: {self._recent_requests(0)}")
            await asyncio.sleep(0.01)
        await self.wait_until_ready(timeout=max(0.1, limit - asyncio.get_running_loop().time()), synced=synced)
        return bot

    async def stop_bot(self, bot: Any, *, timeout: float = 5.0) -> None:
        """``bot.close()`` and wait for its ``start`` task to end."""
        task = self._bots.pop(bot, None)
        await bot.close()
        if task is not None:
            try:
                await asyncio.wait_for(task, timeout)
            except (asyncio.TimeoutError, asyncio.CancelledError):
                task.cancel()
            except Exception:  # the bot's own failure; already visible in its log
                log.exception("bot task ended with an error")

    async def wait_until_ready(self, timeout: Optional[float] = None, *, synced: bool = True) -> None:
        """Wait until every shard has a live, READY gateway session (and, with ``synced``, at
        least one command registration), then until the bot's HTTP traffic has settled."""
        loop = asyncio.get_running_loop()
        limit = loop.time() + (timeout or max(self.timeout, 10.0))
        while True:
            shards = {s.shard[0] for s in self._sessions if s.live and s.ready}
            count = max([s.shard[1] for s in self._sessions if s.live] or [self.shard_count])
            if len(shards) >= count and (not synced or self.sync_count > 0):
                break
            if loop.time() > limit:
                raise TimeoutError(
                    f"fake Discord not ready: live shards {sorted(shards)} of {count}, command syncs "
                    f"{self.sync_count} (pass synced=False if the bot does not sync); "
                    f"requests: {self._recent_requests(0)}"
                )
            self._check_bots()
            await asyncio.sleep(0.01)
        await self.settle()

    async def settle(self, quiet: Optional[float] = None, timeout: Optional[float] = None) -> None:
        """Wait until no REST request is in flight and none arrived for ``quiet`` seconds."""
        loop = asyncio.get_running_loop()
        quiet = (self.settle_time or 0.0) if quiet is None else quiet
        limit = loop.time() + (timeout or self.timeout)
        while loop.time() < limit:
            idle_for = loop.time() - self._last_activity
            if self._inflight == 0 and idle_for >= quiet:
                return
            await asyncio.sleep(max(0.005, quiet - idle_for) if self._inflight == 0 else 0.005)

    def _check_bots(self) -> None:
        for bot, task in list(self._bots.items()):
            if task.done():
                self._bots.pop(bot)
                exc = None if task.cancelled() else task.exception()
                raise RuntimeError(f"the bot stopped: {exc!r}") from exc

    # ================================================================================
    # Inspection
    # ================================================================================
    def commands(self, guild: Optional[FakeGuild] = None) -> dict[str, dict]:
        """Registered commands by name: global ones, or ``guild``'s guild commands."""
        scope = self._global_cmds if guild is None else self._guild_cmds.get(guild.id, {})
        return {name: cmd for (name, _t), cmd in scope.items()}

    def command_names(self, guild: Optional[FakeGuild] = None) -> set[str]:
        return set(self.commands(guild))

    def message(self, message: Union[int, FakeMessage, Reply]) -> FakeMessage:
        """The live, current state of a message (by id, snapshot or Reply)."""
        if isinstance(message, Reply):
            if message.message is None:
                raise FakeDiscordError("this reply has no message")
            message = message.message
        mid = message.id if isinstance(message, FakeMessage) else int(message)
        try:
            return self._messages[mid]
        except KeyError:
            raise FakeDiscordError(f"no message {mid}") from None

    def channel_messages(
        self, channel: FakeChannel, *, include_ephemeral: bool = False, include_deleted: bool = False
    ) -> list[FakeMessage]:
        """Every message posted in ``channel``, oldest first (live objects)."""
        out = []
        for mid in self._channel_log.get(channel.id, []):
            msg = self._messages[mid]
            if (msg.ephemeral and not include_ephemeral) or (msg.deleted and not include_deleted):
                continue
            out.append(msg)
        return out

    def dm_channel(self, member: Union[FakeMember, FakeUser]) -> Optional[FakeChannel]:
        return self._dms.get(member.id)

    def dm_messages(self, member: Union[FakeMember, FakeUser]) -> list[FakeMessage]:
        chan = self._dms.get(member.id)
        return self.channel_messages(chan) if chan else []

    def channel_history(self, channel: FakeChannel) -> list[FakeMessage]:
        """What a member scrolling ``channel`` sees, oldest first: every message that is neither
        ephemeral nor deleted (a deferred response still "thinking" included), live objects."""
        return self.channel_messages(channel)

    def new_messages(self, channel: FakeChannel, since: Optional[Mark] = None) -> list[FakeMessage]:
        """Messages *created* in ``channel`` after ``since`` (a ``fake.mark()``; None: ever) that a
        member can still see. An edit, a deferred response filled in, or a followup that replaced
        the "thinking" placeholder is not a new message."""
        start = since.events if since is not None else 0
        ids = [mid for kind, mid in self._events[start:] if kind == "create"]
        return [m for m in map(self._messages.__getitem__, ids)
                if m.channel_id == channel.id and not m.ephemeral and not m.deleted]

    def new_message_count(self, channel: FakeChannel, since: Optional[Mark] = None) -> int:
        return len(self.new_messages(channel, since))

    def edit_count(self, channel: FakeChannel, since: Optional[Mark] = None) -> int:
        """Edits of visible messages of ``channel`` after ``since``, each counted (filling in a
        deferred response is not an edit: its members saw "thinking" turn into the answer)."""
        start = since.events if since is not None else 0
        return sum(1 for kind, mid in self._events[start:] if kind == "edit"
                   and self._messages[mid].channel_id == channel.id and not self._messages[mid].ephemeral
                   and not self._messages[mid].deleted)

    def notifications_for(self, who: Union[FakeMember, FakeUser, int], *, since: Optional[Mark] = None,
                          channel: Optional[FakeChannel] = None) -> list[Notification]:
        """The notifications ``who`` got (after ``since``, in ``channel`` if given), oldest first."""
        uid = int(getattr(who, "id", who))
        start = since.notifications if since is not None else 0
        return [n for n in self.notifications[start:]
                if n.user_id == uid and (channel is None or n.channel_id == channel.id)]

    async def wait_for_message(
        self,
        channel: Optional[FakeChannel] = None,
        check: Optional[Callable[[FakeMessage], bool]] = None,
        *,
        timeout: Optional[float] = None,
    ) -> FakeMessage:
        """Wait for the next message the bot posts (in ``channel``, passing ``check``) from now
        on: for what it does on its own, such as reminders. Returns the live message."""
        loop = asyncio.get_running_loop()
        limit, start = loop.time() + (timeout or self.timeout), len(self._events)
        while True:
            for kind, mid in self._events[start:]:
                msg = self._messages[mid]
                in_channel = channel is None or msg.channel_id == channel.id
                mine = msg.author_id == self.bot_user.id  # not a member's ``post``
                if kind == "create" and in_channel and mine and (check is None or check(msg)):
                    await self.settle()
                    return msg
            start = len(self._events)
            if loop.time() > limit:
                raise InteractionTimeout(f"no matching message in {channel.name if channel else 'any channel'} "
                                         f"within {timeout or self.timeout:.1f}s")
            self._check_bots()
            await asyncio.sleep(0.01)

    def requests_matching(self, pattern: str) -> list[RecordedRequest]:
        """Requests whose ``"METHOD /path"`` matches the fnmatch ``pattern``."""
        return [r for r in self.requests if fnmatch.fnmatchcase(f"{r.method} {r.path}", pattern)]

    def bot_errors(self, since: int = 0) -> list[str]:
        """Log records at ERROR or above from any logger while the fake ran (discord.py's
        "Ignoring exception in ...", the bot's own errors), formatted with their tracebacks."""
        return [_format_record(r) for r in self.log_records[since:] if r.levelno >= logging.ERROR]

    # ================================================================================
    # Failure injection and gateway control
    # ================================================================================
    def fail_next(
        self,
        pattern: str,
        status: int = 429,
        *,
        times: int = 1,
        retry_after: float = 0.05,
        is_global: bool = False,
        body: Optional[dict] = None,
    ) -> InjectedFailure:
        """Answer the next ``times`` requests matching ``pattern`` (fnmatch on ``"METHOD /path"``,
        path without ``/api/v10``, e.g. ``"POST /interactions/*/callback"``) with ``status``
        instead of handling them. A 429 carries Discord's body and headers (``retry_after``,
        ``Via``: discord.py treats a 429 without ``Via`` as a Cloudflare ban and gives up)."""
        failure = InjectedFailure(pattern, status, times, retry_after, is_global, body)
        self._failures.append(failure)
        return failure

    def fail_for(
        self,
        pattern: str,
        seconds: Optional[float] = None,
        status: int = 500,
        *,
        retry_after: float = 0.05,
        is_global: bool = False,
        body: Optional[dict] = None,
    ) -> InjectedFailure:
        """Answer every request matching ``pattern`` with ``status`` for ``seconds`` of
        ``fake.clock()`` (None: until ``.stop()``). The window ends early with ``handle.stop()``
        or ``fake.advance(seconds)``, so "followups fail for 30 s" needs no 30 s of real time.
        ``hits`` counts the failed requests. discord.py makes 5 tries, sleeping 1, 3, 5, 7 s
        (real time) after a 5xx, then raises (on bot-token routes, 503 raises at once)."""
        until = None if seconds is None else self.clock() + seconds
        failure = InjectedFailure(pattern, status, None, retry_after, is_global, body, until=until)
        self._failures.append(failure)
        return failure

    def fail_until(self, pattern: str, status: int = 500, **kw: Any) -> InjectedFailure:
        """``fail_for`` without an end: the failure lasts until ``handle.stop()``."""
        return self.fail_for(pattern, None, status, **kw)

    def _live_session(self, guild: Optional[FakeGuild]) -> _Session:
        for session in reversed(self._sessions):
            if session.live and session.ready and session.covers(guild):
                return session
        raise FakeDiscordError(f"no live gateway session for {guild!r}: is the bot running and connected?")

    async def _await_session(self, guild: Optional[FakeGuild], timeout: float) -> _Session:
        """The live session for ``guild``, waiting a little if the bot is reconnecting."""
        limit = asyncio.get_running_loop().time() + timeout
        while True:
            try:
                return self._live_session(guild)
            except FakeDiscordError:
                if asyncio.get_running_loop().time() > limit:
                    raise
                self._check_bots()
                await asyncio.sleep(0.01)

    async def send_reconnect(self, guild: Optional[FakeGuild] = None) -> None:
        """Send op 7 RECONNECT: discord.py closes and RESUMEs on resume_gateway_url."""
        session = self._live_session(guild)
        assert session.queue is not None
        session.queue.put_nowait({"op": 7, "d": None})

    async def drop_connection(self, guild: Optional[FakeGuild] = None, *, code: int = 4000) -> None:
        """Close the gateway websocket from the server side (the bot should resume)."""
        session = self._live_session(guild)
        assert session.ws is not None
        await session.ws.close(code=code)

    def live_shards(self) -> dict[int, int]:
        """The shards a client holds now: {shard id: shard count} of every live, READY gateway
        session (several processes: each holds its own ids, all with the same count)."""
        return {s.shard[0]: s.shard[1] for s in self._sessions if s.live and s.ready}

    def shard_guilds(self, shard_id: int) -> set[int]:
        """The guild ids the live session of ``shard_id`` was given in READY (its GUILD_CREATEs)."""
        for session in reversed(self._sessions):
            if session.live and session.ready and session.shard[0] == shard_id:
                return set(session.guild_ids)
        raise FakeDiscordError(f"no live gateway session holds shard {shard_id}")

    def dispatch_event(self, event: str, data: Any, guild: Optional[FakeGuild] = None) -> None:
        """Send any gateway DISPATCH event to the bot (the shard covering ``guild``)."""
        self._live_session(guild).dispatch(event, data)

    # ================================================================================
    # Interactions: the test-facing API
    # ================================================================================
    async def slash(
        self,
        member: FakeMember,
        channel: FakeChannel,
        command: str,
        options: Optional[Mapping[str, Any]] = None,
        *,
        subcommand: Optional[str] = None,
        group: Optional[str] = None,
        locale: Optional[str] = None,
        timeout: Optional[float] = None,
        **more_options: Any,
    ) -> Reply:
        """Run a slash command as ``member`` in ``channel`` and wait for the bot's whole answer.

        ``command`` may hold the full path (``"match challenge"``) or use ``subcommand``/``group``.
        Options are checked against the synced command (names, types, choices, required)."""
        path = command.split() + ([group] if group else []) + ([subcommand] if subcommand else [])
        given = {**(options or {}), **more_options}
        cmd, guild_scoped = self._find_command(member, channel, path[0])
        needed = int(cmd.get("default_member_permissions") or 0)
        if channel.guild is not None and member.permissions & needed != needed:
            raise FakeDiscordError(f"Discord does not show /{path[0]} to {member.name}: it needs permissions {needed}")
        self._client_enters(member, channel, command=True)
        opts, resolved = self._build_options(cmd, path, given)
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": opts}
        if resolved:
            data["resolved"] = resolved
        if guild_scoped:
            data["guild_id"] = cmd["guild_id"]
        rec, payload = self._new_interaction(2, " ".join(path), member, channel, locale, data)
        return await self._run(rec, payload, timeout)

    async def autocomplete(
        self,
        member: FakeMember,
        channel: FakeChannel,
        command: str,
        option: str,
        value: Any = "",
        options: Optional[Mapping[str, Any]] = None,
        *,
        locale: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> list[Choice]:
        """Type ``value`` into the autocomplete option ``option`` of ``command`` (a path such as
        ``"setup place"``), the other ``options`` already filled in; returns the choices."""
        path = command.split()
        cmd, guild_scoped = self._find_command(member, channel, path[0])
        opts, resolved = self._build_options(cmd, path, dict(options or {}), focused=(option, value))
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": opts}
        if resolved:
            data["resolved"] = resolved
        if guild_scoped:
            data["guild_id"] = cmd["guild_id"]
        rec, payload = self._new_interaction(4, f"{command} [{option}]", member, channel, locale, data)
        reply = await self._run(rec, payload, timeout)
        return reply.choices

    async def click(
        self,
        member: FakeMember,
        message: Union[FakeMessage, Reply, int],
        custom_id: Optional[str] = None,
        *,
        label: Optional[str] = None,
        values: Optional[Iterable[Any]] = None,
        locale: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> Reply:
        """Press a button (or choose ``values`` in a select menu) on ``message``, found by
        ``custom_id`` (exact, or a prefix ending in ``*``) or by ``label``/placeholder. The
        component is looked up on the message's *current* state."""
        msg = self.message(message)
        if msg.deleted:
            raise FakeDiscordError(f"message {msg.id} was deleted")
        if custom_id is None and label is None:
            raise FakeDiscordError("click needs custom_id or label")
        viewer = (msg.interaction_metadata or {}).get("user", {}).get("id")
        if msg.ephemeral and viewer != str(member.id):
            raise FakeDiscordError(f"message {msg.id} is ephemeral: only its recipient can see it, not {member.name}")
        comp = msg.find_component(custom_id, label=label)
        if comp.get("disabled"):
            raise FakeDiscordError(f"component {comp.get('custom_id')!r} is disabled: a user cannot use it")
        ctype = comp["type"]
        data: dict[str, Any] = {"custom_id": comp.get("custom_id"), "component_type": ctype}
        if ctype == 2:
            if comp.get("style") in (5, 6) or not comp.get("custom_id"):
                raise FakeDiscordError("link/premium buttons do not send interactions")
            if values is not None:
                raise FakeDiscordError("values are for select menus, not buttons")
        else:
            data["values"], resolved = self._select_values(comp, list(values or []))
            if resolved:
                data["resolved"] = resolved
        channel = self._channels[msg.channel_id]
        self._client_enters(member, channel, command=False)
        rec, payload = self._new_interaction(3, data["custom_id"], member, channel, locale, data, message=msg)
        return await self._run(rec, payload, timeout)

    async def select(self, member: FakeMember, message: Union[FakeMessage, Reply, int], custom_id: Optional[str] = None,
                     values: Iterable[Any] = (), **kw: Any) -> Reply:
        """``click`` for select menus: ``values`` are option values (or members/channels/roles)."""
        return await self.click(member, message, custom_id, values=values, **kw)

    async def forge_press(self, member: FakeMember, message: Union[FakeMessage, Reply, int], custom_id: str,
                          values: Optional[Iterable[str]] = None, *, timeout: Optional[float] = None) -> Reply:
        """A component interaction on ``message`` that its components could not have sent (a
        modified client, or a garbled id): ``custom_id`` and ``values`` are sent as given, unchecked
        (``values`` None: a button press, else a select's)."""
        msg = self.message(message)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2 if values is None else 3}
        if values is not None:
            data["values"] = list(values)
        channel = self._channels[msg.channel_id]
        self._client_enters(member, channel, command=False)
        rec, payload = self._new_interaction(3, custom_id, member, channel, None, data, message=msg)
        return await self._run(rec, payload, timeout)

    async def submit_modal(
        self,
        member: FakeMember,
        modal: Reply,
        values: Optional[Mapping[str, Any]] = None,
        *,
        locale: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> Reply:
        """Fill in and submit the modal the bot opened (``modal`` is the Reply that holds it);
        ``values`` maps text input custom_ids to text (select custom_ids to lists)."""
        if modal.modal is None:
            raise FakeDiscordError("that reply opened no modal")
        origin = self._by_token[modal.token]
        remaining = dict(values or {})
        components = self._modal_components(modal.modal.get("components") or [], remaining)
        if remaining:
            raise FakeDiscordError(f"the modal has no inputs {sorted(remaining)}")
        data = {"custom_id": modal.modal["custom_id"], "components": components}
        msg = self._messages.get(origin.message_id) if origin.message_id else None
        rec, payload = self._new_interaction(5, data["custom_id"], member, origin.channel, locale, data, message=msg)
        return await self._run(rec, payload, timeout)

    async def post(
        self,
        member: FakeMember,
        channel: FakeChannel,
        content: str,
        *,
        reply_to: Union[FakeMessage, Reply, int, None] = None,
        allowed_mentions: Optional[dict] = None,
    ) -> FakeMessage:
        """``member`` writes ``content`` in ``channel`` (a reply to ``reply_to`` if given): the
        message is stored like any other (it notifies the members it mentions) and the bot gets
        MESSAGE_CREATE; returns once the bot's traffic settles. In an archived thread his client
        unarchives it first; a locked thread refuses him unless he may manage threads."""
        if channel.guild is not None and member.guild is not channel.guild:
            raise FakeDiscordError(f"{member.name} is not a member of the guild of #{channel.name}")
        if channel.guild is None and (channel.recipient is None or channel.recipient.id != member.id):
            raise FakeDiscordError(f"{member.name} is not in the DM {channel.name}")
        if channel.is_thread and channel.locked and not member.permissions & Perm.MANAGE_THREADS:
            raise FakeDiscordError(f"thread #{channel.name} is locked: Discord does not let {member.name} write there")
        if channel.is_private and not channel.can_see(member):
            raise FakeDiscordError(f"#{channel.name} is a private thread {member.name} is not in")
        body: dict[str, Any] = {"content": content}
        if reply_to is not None:
            body["message_reference"] = {"message_id": str(self.message(reply_to).id)}
        if allowed_mentions is not None:
            body["allowed_mentions"] = allowed_mentions
        self.typing(member, channel)  # his client says he is typing before it sends
        try:
            msg = self._create_message(channel, body, {}, author=member.user)  # MESSAGE_CREATE, by intent
        except _ApiError as e:
            raise FakeDiscordError(f"Discord refuses {member.name}'s message: {e.status} {e.code} {e.message}") from None
        self._touch()
        await self.settle()
        return msg

    def typing(self, member: FakeMember, channel: FakeChannel) -> None:
        """``member`` starts typing in ``channel``: TYPING_START to the session holding the guild
        if it identified with GUILD_MESSAGE_TYPING (in a DM: DIRECT_MESSAGE_TYPING)."""
        guild = channel.guild
        need = Intent.GUILD_MESSAGE_TYPING if guild is not None else Intent.DIRECT_MESSAGE_TYPING
        data: dict[str, Any] = {"channel_id": str(channel.id), "user_id": str(member.id), "timestamp": int(time.time())}
        if guild is not None:
            data.update(guild_id=str(guild.id), member=member.payload())
        for session in self._sessions:
            if session.ready and session.covers(guild) and session.has(need):
                session.dispatch("TYPING_START", data)

    # ---- building interactions ---------------------------------------------------------
    def _find_command(self, member: FakeMember, channel: FakeChannel, name: str) -> tuple[dict, bool]:
        guild = channel.guild
        if guild is None:  # a DM with the bot: global commands whose contexts allow BOT_DM (1)
            if channel.recipient is None or channel.recipient.id != member.id:
                raise FakeDiscordError(f"{member.name} is not in the DM {channel.name}")
            cmd = self._global_cmds.get((name, 1))
            if cmd is None:
                raise FakeDiscordError(f"no global command /{name}: {sorted(self.command_names())} (did the bot sync?)")
            contexts = cmd.get("contexts")
            if cmd.get("dm_permission") is False or (contexts is not None and 1 not in contexts):
                raise FakeDiscordError(f"Discord does not offer /{name} in DMs: dm_permission "
                                       f"{cmd.get('dm_permission')}, contexts {contexts}")
            return cmd, False
        if member.guild is not guild:
            raise FakeDiscordError(f"{member.name} is not a member of the guild of #{channel.name}")
        key = (name, 1)  # chat input commands; guild commands win over global ones
        if key in self._guild_cmds.get(guild.id, {}):
            return self._guild_cmds[guild.id][key], True
        if key in self._global_cmds:
            contexts = self._global_cmds[key].get("contexts")
            if contexts is not None and 0 not in contexts:
                raise FakeDiscordError(f"Discord does not offer /{name} in servers: contexts {contexts}")
            return self._global_cmds[key], False
        raise FakeDiscordError(
            f"no command /{name} registered for {guild.name!r}: global {sorted(self.command_names())}, "
            f"guild {sorted(self.command_names(guild))} (did the bot sync?)"
        )

    def _client_enters(self, member: FakeMember, channel: FakeChannel, *, command: bool) -> None:
        """What the member's Discord client does before an interaction in a thread. Its composer
        is closed in a locked thread unless he may manage threads (no commands); in an archived
        thread it first unarchives it (PATCH archived=false, as sending a message would), which
        fails if the thread is also locked, and then the interaction is never sent."""
        if not channel.is_thread:
            return
        if channel.is_private and not channel.can_see(member):
            raise FakeDiscordError(f"#{channel.name} is a private thread {member.name} is not in: "
                                   "Discord does not show it to him")
        manages = bool(member.permissions & Perm.MANAGE_THREADS)
        if channel.locked and not manages and (command or channel.archived):
            raise FakeDiscordError(f"thread #{channel.name} is locked{' and archived' if channel.archived else ''}: "
                                   f"Discord does not let {member.name} "
                                   f"{'run commands there' if command else 'unarchive it to use its components'}")
        if channel.archived:
            self._set_thread(channel, archived=False)

    def _build_options(
        self, cmd: dict, path: list[str], given: dict, focused: Optional[tuple[str, Any]] = None,
    ) -> tuple[list[dict], dict]:
        schema = cmd.get("options") or []
        chain: list[tuple[int, str]] = []
        for part in path[1:]:
            sub = next((o for o in schema if o["name"] == part and o.get("type") in (1, 2)), None)
            if sub is None:
                names = [o["name"] for o in schema if o.get("type") in (1, 2)]
                raise FakeDiscordError(f"/{' '.join(path)}: no subcommand {part!r} (there are {names})")
            chain.append((sub["type"], part))
            schema = sub.get("options") or []
        if any(o.get("type") in (1, 2) for o in schema):
            raise FakeDiscordError(f"/{' '.join(path)} needs a subcommand: {[o['name'] for o in schema]}")
        resolved: dict[str, dict] = {}
        leaf: list[dict] = []
        by_name = {o["name"]: o for o in schema}
        for name, value in given.items():
            opt = by_name.get(name)
            if opt is None:
                raise FakeDiscordError(f"/{' '.join(path)} has no option {name!r}; options: {list(by_name)}")
            leaf.append({"name": name, "type": opt["type"], "value": self._option_value(opt, value, resolved)})
        if focused is not None:
            fname, fvalue = focused
            opt = by_name.get(fname)
            if opt is None or not opt.get("autocomplete"):
                raise FakeDiscordError(f"/{' '.join(path)} has no autocomplete option {fname!r}")
            leaf = [o for o in leaf if o["name"] != fname]
            leaf.append({"name": fname, "type": opt["type"], "value": str(fvalue), "focused": True})
        else:
            missing = [o["name"] for o in schema if o.get("required") and o["name"] not in given]
            if missing:
                raise FakeDiscordError(f"/{' '.join(path)}: Discord requires options {missing}")
        options = leaf
        for ctype, name in reversed(chain):
            options = [{"name": name, "type": ctype, "options": options}]
        return options, resolved

    def _option_value(self, opt: dict, value: Any, resolved: dict) -> Any:
        otype, name = opt["type"], opt["name"]
        bad = FakeDiscordError(f"option {name!r} is a {OPTION_TYPES.get(otype, otype)}; got {value!r}")
        if otype in (6, 9) and isinstance(value, (FakeMember, FakeUser)):
            user = value.user if isinstance(value, FakeMember) else value
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            if isinstance(value, FakeMember):
                resolved.setdefault("members", {})[str(user.id)] = value.payload(with_user=False, with_permissions=True)
            return str(user.id)
        if otype in (8, 9) and isinstance(value, FakeRole):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        if otype == 7 and isinstance(value, FakeChannel):
            data = value.payload()
            resolved.setdefault("channels", {})[str(value.id)] = {
                k: data.get(k) for k in ("id", "name", "type", "parent_id", "guild_id")} | {"permissions": str(Perm.ALL)}
            return str(value.id)
        if otype == 11 and isinstance(value, FakeAttachment):
            resolved.setdefault("attachments", {})[str(value.id)] = value.payload()
            return str(value.id)
        if otype == 3:
            if not isinstance(value, str):
                raise bad
            if len(value) < opt.get("min_length", 0) or len(value) > opt.get("max_length", 6000):
                raise FakeDiscordError(f"option {name!r}: length outside {opt.get('min_length')}..{opt.get('max_length')}")
        elif otype == 4:
            if isinstance(value, bool) or not isinstance(value, int):
                raise bad
        elif otype == 10:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise bad
        elif otype == 5:
            if not isinstance(value, bool):
                raise bad
        else:
            raise bad
        if otype in (4, 10) and not (opt.get("min_value", value) <= value <= opt.get("max_value", value)):
            raise FakeDiscordError(f"option {name!r}: {value} outside {opt.get('min_value')}..{opt.get('max_value')}")
        choices = opt.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise FakeDiscordError(f"option {name!r} only takes the choices {[c['value'] for c in choices]}")
        return value

    def _select_values(self, comp: dict, values: list[Any]) -> tuple[list[str], dict]:
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise FakeDiscordError(f"select {comp.get('custom_id')!r} takes {lo}..{hi} values, got {len(values)}")
        resolved: dict[str, dict] = {}
        out: list[str] = []
        if comp["type"] == 3:
            allowed = [o["value"] for o in comp.get("options") or []]
            for v in values:
                if v not in allowed:
                    raise FakeDiscordError(f"select {comp.get('custom_id')!r} has no option {v!r}: {allowed}")
                out.append(v)
            return out, resolved
        for v in values:  # user / role / mentionable / channel selects
            otype = {5: 6, 6: 8, 7: 7, 8: 9}[comp["type"]]
            out.append(self._option_value({"type": otype, "name": comp.get("custom_id")}, v, resolved))
        return out, resolved

    def _modal_components(self, components: list[dict], values: dict) -> list[dict]:
        out = []
        for c in components:
            t = c.get("type")
            if t == 1:
                out.append({"type": 1, "components": self._modal_components(c.get("components") or [], values)})
            elif t == 18:
                inner = self._modal_components([c["component"]], values)[0]
                out.append({"type": 18, "id": c.get("id"), "component": inner})
            elif t == 4:
                cid = c["custom_id"]
                text = str(values.pop(cid, c.get("value") or ""))
                if c.get("required", True) and not text:
                    raise FakeDiscordError(f"text input {cid!r} is required")
                out.append({"type": 4, "id": c.get("id"), "custom_id": cid, "value": text})
            elif t in (3, 5, 6, 7, 8):
                cid = c["custom_id"]
                vals, _ = self._select_values(c, list(values.pop(cid, [])))
                out.append({"type": t, "id": c.get("id"), "custom_id": cid, "values": vals})
            else:
                out.append({"type": t, "id": c.get("id")})
        return out

    def _new_interaction(
        self, itype: int, name: str, member: FakeMember, channel: FakeChannel, locale: Optional[str], data: dict,
        message: Optional[FakeMessage] = None,
    ) -> tuple[_Interaction, dict]:
        guild = channel.guild
        rec = _Interaction(self.ids.next(), "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(96), itype, name, guild,
                           channel, member, message.id if message else None)
        payload: dict[str, Any] = {
            "id": str(rec.id),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "token": rec.token,
            "version": 1,
            "channel_id": str(channel.id),
            "channel": channel.payload(member),
            "locale": locale or member.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            # Discord computes both for the interaction's channel: roles and its overwrites.
            "app_permissions": str(channel.permissions_for(guild.bot_member) if guild else Perm.EVERYONE_DEFAULT),
            "context": 0 if guild else 1,  # GUILD, or BOT_DM
            # A guild-installed app: the guild's id, "0" outside a guild (the bot's DM).
            "authorizing_integration_owners": {"0": str(guild.id) if guild else "0"},
        }
        if guild is not None:
            payload.update(guild_id=str(guild.id), guild=guild.partial_payload(), guild_locale=guild.locale,
                           member=member.payload(with_permissions=True, channel=channel))
        else:
            payload["user"] = member.user.payload()
        if message is not None:
            payload["message"] = message.payload()
        rec.payload = payload
        return rec, payload

    async def _run(self, rec: _Interaction, payload: dict, timeout: Optional[float]) -> Reply:
        """Dispatch over the gateway, wait for the complete answer, settle, build the Reply."""
        self._check_bots()
        session = await self._await_session(rec.guild, timeout or self.timeout)
        loop = asyncio.get_running_loop()
        self._interactions[rec.id] = rec
        self._by_token[rec.token] = rec
        rec.event_start, rec.request_start, rec.log_start = len(self._events), len(self.requests), len(self.log_records)
        rec.dispatched_at = loop.time()
        session.dispatch("INTERACTION_CREATE", payload)
        limit = timeout or self.timeout
        waiter = asyncio.ensure_future(rec.done.wait())
        try:
            # Wake on the answer, or on a bot task ending (a crash must not look like a timeout).
            await asyncio.wait({waiter, *self._bots.values()}, timeout=limit, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiter.cancel()
        if not rec.done.is_set():
            self._check_bots()
            raise InteractionTimeout(self._diagnose(rec, limit))
        rec.completed_at = loop.time()
        if self.settle_time is not None:  # None: a load generator, which waits for what it needs itself
            await self.settle()
        return self._reply(rec)

    def _reply(self, rec: _Interaction) -> Reply:
        created, edited = [], []
        for kind, mid in self._events[rec.event_start:]:
            target = created if kind == "create" else edited
            if mid not in target:
                target.append(mid)
        snap = lambda mid: self._messages[mid].snapshot()  # noqa: E731
        return Reply(
            kind=rec.kind,
            interaction_id=rec.id,
            token=rec.token,
            callback_type=rec.callback_type,
            message=snap(rec.original_id) if rec.original_id else None,
            target=snap(rec.message_id) if rec.message_id else None,
            followups=[snap(m) for m in rec.followup_ids if m != rec.original_id],
            posted=[snap(m) for m in created],
            edited=[snap(m) for m in edited],
            choices=[Choice(c["name"], c["value"], c.get("name_localizations")) for c in rec.choices],
            modal=copy.deepcopy(rec.modal),
            ack_latency=None if rec.acked_at is None else rec.acked_at - rec.dispatched_at,
            latency=(rec.completed_at or rec.dispatched_at) - rec.dispatched_at,
        )

    def _diagnose(self, rec: _Interaction, limit: float) -> str:
        if rec.callback_type is None and rec.late is not None:
            state = (f"the callback came {rec.late:.2f}s after dispatch, past the {self.ack_deadline:.1f}s window "
                     "(Discord answers 404 Unknown interaction): defer first when work may be slow")
        elif rec.callback_type is None:
            state = f"no interaction callback within {limit:.1f}s"
        else:
            acked = (rec.acked_at or rec.dispatched_at) - rec.dispatched_at
            state = (f"callback type {rec.callback_type} after {acked:.2f}s "
                     f"but no edit or followup within {limit:.1f}s")
        lines = [f"{rec.kind} interaction {rec.name!r} by {rec.member.name} in #{rec.channel.name}: {state}.",
                 f"  requests since dispatch: {self._recent_requests(rec.request_start) or 'none'}"]
        errors = self.bot_errors(rec.log_start)
        if errors:
            text = "\n".join(errors).replace("\n", "\n    ")
            lines.append(f"  logged (discord.py and the bot):\n    {text}")
        if self.unhandled:
            lines.append(f"  routes the fake does not serve: {self.unhandled}")
        return "\n".join(lines)

    def _recent_requests(self, start: int) -> list[str]:
        return [str(r) for r in self.requests[start:]]

    # ================================================================================
    # HTTP plumbing
    # ================================================================================
    def _route_table(self) -> list[tuple[str, re.Pattern, bool, _Handler]]:
        table = [
            ("GET", "/users/@me", True, self._get_me),
            ("POST", "/users/@me/channels", True, self._create_dm),
            ("GET", "/users/{user_id}", True, self._get_user),
            ("GET", "/gateway", False, self._get_gateway),
            ("GET", "/gateway/bot", True, self._get_gateway_bot),
            ("GET", "/oauth2/applications/@me", True, self._get_application),
            ("GET", "/applications/@me", True, self._get_application),
            ("GET", "/applications/{app_id}/commands", True, self._list_commands),
            ("PUT", "/applications/{app_id}/commands", True, self._bulk_commands),
            ("POST", "/applications/{app_id}/commands", True, self._upsert_command),
            ("GET", "/applications/{app_id}/commands/{command_id}", True, self._get_command),
            ("PATCH", "/applications/{app_id}/commands/{command_id}", True, self._edit_command),
            ("DELETE", "/applications/{app_id}/commands/{command_id}", True, self._delete_command),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", True, self._list_commands),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", True, self._bulk_commands),
            ("POST", "/applications/{app_id}/guilds/{guild_id}/commands", True, self._upsert_command),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}", True, self._get_command),
            ("PATCH", "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}", True, self._edit_command),
            ("DELETE", "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}", True, self._delete_command),
            ("POST", "/interactions/{interaction_id}/{token}/callback", False, self._interaction_callback),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", False, self._webhook_get),
            ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", False, self._webhook_edit),
            ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", False, self._webhook_delete),
            ("POST", "/webhooks/{app_id}/{token}", False, self._webhook_followup),
            ("GET", "/channels/{channel_id}", True, self._get_channel),
            ("PATCH", "/channels/{channel_id}", True, self._edit_channel),
            ("POST", "/channels/{channel_id}/threads", True, self._start_thread),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", True, self._start_thread),
            ("GET", "/channels/{channel_id}/thread-members", True, self._list_thread_members),
            ("GET", "/channels/{channel_id}/thread-members/{user_id}", True, self._get_thread_member),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", True, self._add_thread_member),
            ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", True, self._remove_thread_member),
            ("GET", "/channels/{channel_id}/messages", True, self._list_messages),
            ("POST", "/channels/{channel_id}/messages", True, self._post_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", True, self._get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", True, self._edit_message_route),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", True, self._delete_message_route),
            ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", True, self._react),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", True, self._react),
            ("POST", "/channels/{channel_id}/typing", True, self._typing),
            ("GET", "/guilds/{guild_id}", True, self._get_guild),
            ("GET", "/guilds/{guild_id}/channels", True, self._get_guild_channels),
            ("GET", "/guilds/{guild_id}/roles", True, self._get_guild_roles),
            ("GET", "/guilds/{guild_id}/members", True, self._list_members),
            ("GET", "/guilds/{guild_id}/members/{user_id}", True, self._get_member),
        ]
        out = []
        for method, template, auth, handler in table:
            regex = "^" + re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template)) + "$"
            out.append((method, re.compile(regex), auth, handler))
        return out

    def _touch(self) -> None:
        self._last_activity = time.monotonic()  # the loop's clock, readable outside the loop too

    async def _api_handler(self, request: web.Request) -> web.StreamResponse:
        self._inflight += 1
        self._touch()
        try:
            return await self._api(request)
        finally:
            self._inflight -= 1
            self._touch()

    async def _api(self, request: web.Request) -> web.StreamResponse:
        method = request.method
        path = API_PREFIX.sub("", request.path) or "/"
        payload, files = await _read_body(request)
        rec = RecordedRequest(method, path, dict(request.query), payload,
                              [(f[0], len(f[1])) for f in files.values()], at=time.monotonic())
        self.requests.append(rec)
        now = self.clock()
        failure = next((f for f in self._failures if f.matches(method, path, now)), None)
        if failure is not None:
            failure.hits += 1
            rec.status = failure.status
            return self._failure_response(failure)
        for route_method, regex, auth, handler in self._routes:
            m = regex.match(path)
            if m is None or route_method != method:
                continue
            if auth and request.headers.get("Authorization") != f"Bot {self.token}":
                rec.status = 401
                return _json(401, {"message": "401: Unauthorized", "code": 0})
            try:
                status, body = 200, await handler(request, payload or {}, files, **m.groupdict())
                if isinstance(body, tuple):
                    status, body = body
            except _ApiError as e:
                status, body = e.status, e.body()
                log.warning("fake Discord answered %s %s with %s %s", method, path, e.status, body)
            rec.status = status
            return _json(status, body) if body is not None else web.Response(status=204)
        self.unhandled.append(f"{method} {path}")
        log.warning("fake Discord does not serve %s %s", method, path)
        rec.status = 404
        return _json(404, {"message": "404: Not Found", "code": 0})

    def _failure_response(self, failure: InjectedFailure) -> web.Response:
        if failure.status == 429:
            body = failure.body or {"message": "You are being rate limited.", "retry_after": failure.retry_after,
                                    "global": failure.is_global}
            headers = {
                "Retry-After": str(max(1, round(failure.retry_after))),
                "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{time.time() + failure.retry_after:.3f}",
                "X-RateLimit-Reset-After": f"{failure.retry_after:.3f}",
                "X-RateLimit-Bucket": "fakebucket", "X-RateLimit-Scope": "user",
                "Via": "1.1 google",
            }
            if failure.is_global:
                headers["X-RateLimit-Global"] = "true"
            return _json(429, body, headers)
        body = failure.body or {"message": f"{failure.status}: Server error", "code": 0}
        return _json(failure.status, body)

    async def _attachment_handler(self, request: web.Request) -> web.Response:
        att = self._attachments.get(int(request.match_info["attachment_id"]))
        if att is None:
            return web.Response(status=404)
        return web.Response(body=att.data, headers={"Content-Type": att.content_type})

    # ================================================================================
    # REST: login, gateway, application, users, guilds
    # ================================================================================
    async def _get_me(self, request: web.Request, body: Any, files: dict) -> Any:
        return {**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"}

    async def _get_user(self, request: web.Request, body: Any, files: dict, user_id: str) -> Any:
        user = self._users.get(int(user_id)) if user_id.isdigit() else None
        if user is None:
            raise _not_found(10013, "User")
        return user.payload()

    async def _create_dm(self, request: web.Request, body: Any, files: dict) -> Any:
        user = self._users.get(int(body.get("recipient_id", 0)))
        if user is None:
            raise _not_found(10013, "User")
        return self.dm_channel_for(user).payload()

    async def _get_gateway(self, request: web.Request, body: Any, files: dict) -> Any:
        return {"url": self.gateway_url}

    async def _get_gateway_bot(self, request: web.Request, body: Any, files: dict) -> Any:
        return {"url": self.gateway_url, "shards": self.shard_count,
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 14400000, "max_concurrency": 1}}

    async def _get_application(self, request: web.Request, body: Any, files: dict) -> Any:
        return {
            "id": str(self.application_id), "name": self.app_name, "icon": None, "description": "",
            "summary": "", "type": None, "bot_public": True, "bot_require_code_grant": False,
            "owner": self.app_owner.payload(), "team": None, "verify_key": "0" * 64,
            "flags": self.application_flags, "bot": self.bot_user.payload(), "tags": [],
            "redirect_uris": [], "interactions_endpoint_url": None, "approximate_guild_count": len(self.guilds),
            "integration_types_config": {"0": {}},
        }

    def _guild(self, guild_id: str) -> FakeGuild:
        for g in self.guilds:
            if str(g.id) == guild_id:
                return g
        raise _not_found(10004, "Guild")

    async def _get_guild(self, request: web.Request, body: Any, files: dict, guild_id: str) -> Any:
        data = self._guild(guild_id).payload()
        for key in ("members", "channels", "threads", "presences", "voice_states", "joined_at", "large",
                    "member_count", "unavailable"):
            data.pop(key, None)
        return data

    async def _get_guild_channels(self, request: web.Request, body: Any, files: dict, guild_id: str) -> Any:
        return [c.payload() for c in self._guild(guild_id).channels]

    async def _get_guild_roles(self, request: web.Request, body: Any, files: dict, guild_id: str) -> Any:
        return [r.payload() for r in self._guild(guild_id).roles]

    async def _list_members(self, request: web.Request, body: Any, files: dict, guild_id: str) -> Any:
        limit, after = int(request.query.get("limit", 1)), int(request.query.get("after", 0))
        members = sorted(self._guild(guild_id).members, key=lambda m: m.id)
        return [m.payload() for m in members if m.id > after][:limit]

    async def _get_member(self, request: web.Request, body: Any, files: dict, guild_id: str, user_id: str) -> Any:
        for m in self._guild(guild_id).members:
            if str(m.id) == user_id:
                return m.payload()
        raise _not_found(10007, "Member")

    # ================================================================================
    # REST: application commands
    # ================================================================================
    def _scope(self, app_id: str, guild_id: Optional[str]) -> dict[tuple[str, int], dict]:
        if app_id != str(self.application_id):
            raise _ApiError(403, 50001, "Missing Access")
        if guild_id is None:
            return self._global_cmds
        return self._guild_cmds[self._guild(guild_id).id]

    def _store_command(self, scope: dict, payload: dict, guild_id: Optional[str]) -> dict:
        _validate_command(payload)
        key = (payload["name"], payload.get("type", 1))
        old = scope.get(key)
        stored = {
            "type": 1, "description": "", "options": [], "default_member_permissions": None,
            "nsfw": False, "contexts": None, "integration_types": [0], **payload,
            "id": old["id"] if old else str(self.ids.next()),
            "application_id": str(self.application_id), "version": str(self.ids.next()),
        }
        if stored["default_member_permissions"] is not None:  # Discord answers with a string
            stored["default_member_permissions"] = str(int(stored["default_member_permissions"]))
        if guild_id is not None:
            stored["guild_id"] = guild_id
        scope[key] = stored
        return stored

    async def _list_commands(self, request: web.Request, body: Any, files: dict, app_id: str,
                             guild_id: Optional[str] = None) -> Any:
        return list(self._scope(app_id, guild_id).values())

    async def _bulk_commands(self, request: web.Request, body: Any, files: dict, app_id: str,
                             guild_id: Optional[str] = None) -> Any:
        scope = self._scope(app_id, guild_id)
        if not isinstance(body, list):
            raise _ApiError(400, 50035, "Invalid Form Body")
        if len(body) > 100:
            raise _ApiError(400, 30032, "Maximum number of application commands reached (100)")
        old = dict(scope)
        scope.clear()
        try:
            out = [self._store_command(scope, {**cmd}, guild_id) for cmd in body]
        except _ApiError:
            scope.clear()
            scope.update(old)
            raise
        self.sync_count += 1
        return out

    async def _upsert_command(self, request: web.Request, body: Any, files: dict, app_id: str,
                              guild_id: Optional[str] = None) -> Any:
        result = self._store_command(self._scope(app_id, guild_id), body, guild_id)
        self.sync_count += 1
        return 201, result

    def _command_by_id(self, scope: dict, command_id: str) -> tuple[tuple[str, int], dict]:
        for key, cmd in scope.items():
            if cmd["id"] == command_id:
                return key, cmd
        raise _not_found(10063, "application command")

    async def _get_command(self, request: web.Request, body: Any, files: dict, app_id: str, command_id: str,
                           guild_id: Optional[str] = None) -> Any:
        return self._command_by_id(self._scope(app_id, guild_id), command_id)[1]

    async def _edit_command(self, request: web.Request, body: Any, files: dict, app_id: str, command_id: str,
                            guild_id: Optional[str] = None) -> Any:
        scope = self._scope(app_id, guild_id)
        key, cmd = self._command_by_id(scope, command_id)
        del scope[key]
        return self._store_command(scope, {**cmd, **body}, guild_id)

    async def _delete_command(self, request: web.Request, body: Any, files: dict, app_id: str, command_id: str,
                              guild_id: Optional[str] = None) -> Any:
        scope = self._scope(app_id, guild_id)
        del scope[self._command_by_id(scope, command_id)[0]]
        return None

    # ================================================================================
    # REST: interaction callbacks and webhooks
    # ================================================================================
    async def _interaction_callback(self, request: web.Request, body: Any, files: dict,
                                    interaction_id: str, token: str) -> Any:
        rec = self._interactions.get(int(interaction_id)) if interaction_id.isdigit() else None
        if rec is None or rec.token != token:
            raise _not_found(10062, "interaction")
        if rec.callback_type is not None:
            raise _ApiError(400, 40060, "Interaction has already been acknowledged.")
        now = asyncio.get_running_loop().time()
        if now - rec.dispatched_at > self.ack_deadline:
            log.warning("interaction %s answered after %.2fs: Discord's 3 s window is over",
                        rec.name, now - rec.dispatched_at)
            rec.late = now - rec.dispatched_at
            raise _not_found(10062, "interaction")
        ctype, data = body.get("type"), body.get("data") or {}
        if ctype not in ALLOWED_CALLBACKS[rec.type]:
            raise _ApiError(400, 50035, "Invalid Form Body", {"type": f"callback {ctype} not valid for a {rec.kind}"})
        message: Optional[FakeMessage] = None
        if ctype == 4:
            message = self._create_message(rec.channel, data, files, rec=rec)
            rec.original_id = message.id
        elif ctype == 5:
            message = self._create_message(rec.channel, {"flags": (data.get("flags") or 0) & EPHEMERAL}, {},
                                           rec=rec, loading=True)
            rec.original_id = message.id
        elif ctype in (6, 7):
            if rec.message_id is None:
                raise _ApiError(400, 50035, "Invalid Form Body", {"type": "no message to update"})
            rec.original_id = rec.message_id
            if ctype == 7:
                message = self._edit_message(self._messages[rec.message_id], data, files)
        elif ctype == 8:
            rec.choices = _validate_choices(data.get("choices"))
        elif ctype == 9:
            rec.modal = _validate_modal(data)
        rec.callback_type, rec.acked_at = ctype, now
        if ctype in (4, 7, 8, 9):
            rec.done.set()
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return None
        resource: dict[str, Any] = {"type": ctype}
        if message is not None:
            resource["message"] = message.payload()
        inter: dict[str, Any] = {"id": str(rec.id), "type": rec.type}
        if rec.original_id is not None and ctype in (4, 5, 7):
            orig = self._messages[rec.original_id]
            inter.update(response_message_id=str(orig.id), response_message_loading=orig.loading,
                         response_message_ephemeral=orig.ephemeral)
        return {"interaction": inter, "resource": resource}

    def _webhook_rec(self, app_id: str, token: str) -> _Interaction:
        rec = self._by_token.get(token)
        if rec is None or app_id != str(self.application_id):
            raise _not_found(10015, "Webhook")
        if rec.callback_type is None:
            raise _not_found(10015, "Webhook")  # Discord: nothing to follow up before the ack
        return rec

    def _webhook_message(self, rec: _Interaction, message_id: str) -> FakeMessage:
        if message_id == "@original":
            if rec.original_id is None:
                raise _not_found(10008, "Message")
            mid = rec.original_id
        else:
            mid = int(message_id)
            if mid != rec.original_id and mid not in rec.followup_ids:
                raise _not_found(10008, "Message")
        msg = self._messages.get(mid)
        if msg is None or msg.deleted:
            raise _not_found(10008, "Message")
        return msg

    def _progress(self, rec: _Interaction) -> None:
        """A deferred interaction is complete once the bot edits or follows up."""
        if rec.callback_type is not None:
            rec.done.set()

    async def _webhook_get(self, request: web.Request, body: Any, files: dict, app_id: str, token: str,
                           message_id: str) -> Any:
        return self._webhook_message(self._webhook_rec(app_id, token), message_id).payload()

    async def _webhook_edit(self, request: web.Request, body: Any, files: dict, app_id: str, token: str,
                            message_id: str) -> Any:
        rec = self._webhook_rec(app_id, token)
        msg = self._edit_message(self._webhook_message(rec, message_id), body, files)
        self._progress(rec)
        return msg.payload()

    async def _webhook_delete(self, request: web.Request, body: Any, files: dict, app_id: str, token: str,
                              message_id: str) -> Any:
        rec = self._webhook_rec(app_id, token)
        self._delete_message(self._webhook_message(rec, message_id))
        self._progress(rec)
        return None

    async def _webhook_followup(self, request: web.Request, body: Any, files: dict, app_id: str, token: str) -> Any:
        rec = self._webhook_rec(app_id, token)
        original = self._messages.get(rec.original_id or 0)
        if rec.callback_type == 5 and original is not None and original.loading:
            # Discord: the first followup after a "thinking" defer replaces the placeholder and
            # keeps its ephemerality (whatever flags the followup asks for).
            msg = self._edit_message(original, {**body, "flags": original.flags & EPHEMERAL}, files)
        else:
            msg = self._create_message(rec.channel, body, files, rec=rec, followup=True)
        rec.followup_ids.append(msg.id)
        self._progress(rec)
        return msg.payload() if request.query.get("wait", "").lower() in ("1", "true") else None

    # ================================================================================
    # REST: channels and messages
    # ================================================================================
    def _channel(self, channel_id: str) -> FakeChannel:
        chan = self._channels.get(int(channel_id)) if channel_id.isdigit() else None
        if chan is None:
            raise _not_found(10003, "Channel")
        return chan

    def _channel_message(self, channel_id: str, message_id: str) -> FakeMessage:
        chan = self._channel(channel_id)
        msg = self._messages.get(int(message_id)) if message_id.isdigit() else None
        if msg is None or msg.channel_id != chan.id or msg.deleted or msg.ephemeral:
            raise _not_found(10008, "Message")
        return msg

    async def _get_channel(self, request: web.Request, body: Any, files: dict, channel_id: str) -> Any:
        return self._channel(channel_id).payload()

    async def _list_messages(self, request: web.Request, body: Any, files: dict, channel_id: str) -> Any:
        msgs = self.channel_messages(self._channel(channel_id))
        q = request.query
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
        if "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])]
        limit = int(q.get("limit", 50))
        return [m.payload() for m in reversed(msgs)][:limit]

    def _bot_needs(self, channel: FakeChannel, bits: int) -> None:
        """Discord refuses a bot-token request without these permissions in ``channel``: 403 50001
        "Missing Access" without View Channel, else 403 50013 "Missing Permissions"."""
        if channel.guild is None:
            return
        have = channel.permissions_for(channel.guild.bot_member)
        if not have & Perm.VIEW_CHANNEL:
            raise _ApiError(403, 50001, "Missing Access")
        if have & bits != bits:
            raise _ApiError(403, 50013, "Missing Permissions")

    async def _post_message(self, request: web.Request, body: Any, files: dict, channel_id: str) -> Any:
        channel = self._channel(channel_id)
        send = Perm.SEND_MESSAGES_IN_THREADS if channel.is_thread else Perm.SEND_MESSAGES
        self._bot_needs(channel, send | (Perm.ATTACH_FILES if files else 0))
        msg = self._create_message(channel, body, files)
        for rec in self._active_deferred(msg.channel_id):
            self._progress(rec)
        return msg.payload()

    async def _get_message(self, request: web.Request, body: Any, files: dict, channel_id: str,
                           message_id: str) -> Any:
        return self._channel_message(channel_id, message_id).payload()

    async def _edit_message_route(self, request: web.Request, body: Any, files: dict, channel_id: str,
                                  message_id: str) -> Any:
        # The bot authored its interaction responses and followups, so it may edit them here too
        # (not ephemeral ones: _channel_message does not find those, as on Discord).
        msg = self._channel_message(channel_id, message_id)
        if msg.author_id != self.bot_user.id:
            raise _ApiError(403, 50005, "Cannot edit a message authored by another user")
        msg = self._edit_message(msg, body, files)
        # Only an edit of the interaction's own message answers it: an edit of another message
        # is the bot's trailing work for an earlier command (e.g. closing the previous action's
        # panel after the hand-over), which may land just after the next press was deferred.
        for rec in self._active_deferred(msg.channel_id):
            if msg.id in (rec.message_id, rec.original_id):
                self._progress(rec)
        return msg.payload()

    async def _delete_message_route(self, request: web.Request, body: Any, files: dict, channel_id: str,
                                    message_id: str) -> Any:
        self._delete_message(self._channel_message(channel_id, message_id))
        return None

    async def _react(self, request: web.Request, body: Any, files: dict, channel_id: str, message_id: str,
                     emoji: str) -> Any:
        msg = self._channel_message(channel_id, message_id)
        if self._channels[msg.channel_id].archived:
            raise _ApiError(400, 50083, "Thread is archived")
        if request.method == "PUT" and emoji not in msg.reactions:
            msg.reactions.append(emoji)
        elif request.method == "DELETE" and emoji in msg.reactions:
            msg.reactions.remove(emoji)
        return None

    async def _typing(self, request: web.Request, body: Any, files: dict, channel_id: str) -> Any:
        self._channel(channel_id)
        return None

    async def _start_thread(self, request: web.Request, body: Any, files: dict, channel_id: str,
                            message_id: Optional[str] = None) -> Any:
        """POST /channels/{id}/threads (type 11, or 12: a private thread, which needs Create
        Private Threads; the bot is its first member) and /channels/{id}/messages/{mid}/threads
        (public; the thread takes the message's id). THREAD_CREATE follows, as on Discord."""
        parent = self._channel(channel_id)
        if parent.guild is None or parent.type != 0:
            raise _ApiError(400, 50024, "Cannot execute action on this channel type")
        private = message_id is None and body.get("type") == 12
        self._bot_needs(parent, Perm.VIEW_CHANNEL | (Perm.CREATE_PRIVATE_THREADS if private else Perm.CREATE_PUBLIC_THREADS))
        errors = _FormErrors()
        name = body.get("name") or ""
        if not 1 <= len(name) <= 100:
            errors.add("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        duration = body.get("auto_archive_duration") or 1440
        if duration not in AUTO_ARCHIVE_DURATIONS:
            errors.add("auto_archive_duration", "BASE_TYPE_CHOICES", f"Value must be one of {AUTO_ARCHIVE_DURATIONS}.")
        if message_id is None and body.get("type") not in (11, 12):
            # Discord makes a private thread without ``type`` (API v9's default); the fake wants
            # it said, so a bot that forgets it is caught.
            errors.add("type", "FAKE_UNSUPPORTED", "the fake Discord wants type 11 (public) or 12 (private)")
        errors.raise_if_any()
        thread_id = self.ids.next()
        if message_id is not None:
            starter = self._channel_message(channel_id, message_id)
            if starter.id in self._channels:
                raise _ApiError(400, 160004, "A thread has already been created for this message")
            starter.flags |= HAS_THREAD
            thread_id = starter.id
        thread = FakeChannel(self, thread_id, name, parent.guild, 12 if private else 11, parent=parent,
                             owner_id=self.bot_user.id, auto_archive_duration=duration,
                             invitable=bool(body.get("invitable", True)) if private else True,
                             thread_members=[self.bot_user.id] if private else [])
        parent.guild.threads.append(thread)
        self._channels[thread.id] = thread
        self._on_thread_created(thread)
        return 201, thread.payload()

    def _thread(self, channel_id: str) -> FakeChannel:
        chan = self._channel(channel_id)
        if not chan.is_thread:
            raise _ApiError(400, 50024, "Cannot execute action on this channel type")
        self._bot_needs(chan, Perm.VIEW_CHANNEL)
        return chan

    def _thread_member(self, thread: FakeChannel, user_id: int) -> dict:
        return {"id": str(thread.id), "user_id": str(user_id), "join_timestamp": thread.create_timestamp, "flags": 0}

    async def _list_thread_members(self, request: web.Request, body: Any, files: dict, channel_id: str) -> Any:
        """GET /channels/{thread}/thread-members (a public thread's members are not modelled: [])."""
        thread = self._thread(channel_id)
        return [self._thread_member(thread, uid) for uid in thread.thread_members]

    async def _get_thread_member(self, request: web.Request, body: Any, files: dict, channel_id: str,
                                 user_id: str) -> Any:
        thread = self._thread(channel_id)
        if not user_id.isdigit() or int(user_id) not in thread.thread_members:
            raise _not_found(10007, "Member")
        return self._thread_member(thread, int(user_id))

    async def _add_thread_member(self, request: web.Request, body: Any, files: dict, channel_id: str,
                                 user_id: str) -> Any:
        """PUT /channels/{thread}/thread-members/{user}: Discord wants the thread unarchived
        (50083), the user in the guild (10007), and, in a private thread that is not invitable,
        the thread's owner or Manage Threads (50013). 204, no event to a bot without the members
        intent."""
        thread = self._thread(channel_id)
        assert thread.guild is not None
        self._bot_needs(thread, Perm.SEND_MESSAGES_IN_THREADS)
        if thread.archived:
            raise _ApiError(400, 50083, "Thread is archived")
        if not user_id.isdigit() or not any(m.id == int(user_id) for m in thread.guild.members):
            raise _not_found(10007, "Member")
        if thread.is_private and not thread.invitable and thread.owner_id != self.bot_user.id \
                and not self._can_manage_threads(thread, self.bot_user):
            raise _ApiError(403, 50013, "Missing Permissions")
        if int(user_id) not in thread.thread_members:
            thread.thread_members.append(int(user_id))
        return None

    async def _remove_thread_member(self, request: web.Request, body: Any, files: dict, channel_id: str,
                                    user_id: str) -> Any:
        thread = self._thread(channel_id)
        if thread.archived:
            raise _ApiError(400, 50083, "Thread is archived")
        if user_id.isdigit() and int(user_id) in thread.thread_members:
            thread.thread_members.remove(int(user_id))
        return None

    async def _edit_channel(self, request: web.Request, body: Any, files: dict, channel_id: str) -> Any:
        """PATCH /channels/{id}: a thread's name, archived, locked, auto_archive_duration
        (THREAD_UPDATE follows). An archived thread takes no change but being unarchived (50083)."""
        chan = self._channel(channel_id)
        if not chan.is_thread:
            raise _ApiError(403, 50013, "Missing Permissions")  # the bot has no Manage Channels
        errors = _FormErrors()
        if "name" in body and not 1 <= len(body["name"] or "") <= 100:
            errors.add("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        if "auto_archive_duration" in body and body["auto_archive_duration"] not in AUTO_ARCHIVE_DURATIONS:
            errors.add("auto_archive_duration", "BASE_TYPE_CHOICES", f"Value must be one of {AUTO_ARCHIVE_DURATIONS}.")
        errors.raise_if_any()
        changes = {k: body[k] for k in ("name", "archived", "locked", "auto_archive_duration") if k in body}
        if chan.archived and changes.get("archived") is not False and any(
                changes.get(k, getattr(chan, k)) != getattr(chan, k) for k in changes):
            raise _ApiError(400, 50083, "Thread is archived")
        bot = self.bot_user
        if not self._can_manage_threads(chan, bot) and (
                "locked" in changes or (chan.owner_id != bot.id and changes)):
            raise _ApiError(403, 50013, "Missing Permissions")
        self._set_thread(chan, **changes)
        return chan.payload()

    def _active_deferred(self, channel_id: int) -> list[_Interaction]:
        return [r for r in self._interactions.values()
                if not r.done.is_set() and r.callback_type in (5, 6) and r.channel.id == channel_id]

    # ---- message storage -------------------------------------------------------------
    def _create_message(self, channel: FakeChannel, body: dict, files: dict, *, rec: Optional[_Interaction] = None,
                        loading: bool = False, followup: bool = False, author: Optional[FakeUser] = None
                        ) -> FakeMessage:
        """Store a new message: validate it as Discord would, apply the thread rules, record whom
        it notifies. ``author``: a member's own message (``post``); default the bot."""
        flags = int(body.get("flags") or 0)
        if not loading:
            _validate_message(body, files, flags)
        if rec is None:
            flags &= ~EPHEMERAL  # only interaction responses can be ephemeral
        author = author or self.bot_user
        reference = self._reference(channel, body.get("message_reference"))
        msg = FakeMessage(
            id=self.ids.next(), channel_id=channel.id, guild_id=channel.guild.id if channel.guild else None,
            author=author.payload(), content=body.get("content") or "",
            embeds=list(body.get("embeds") or []), components=list(body.get("components") or []),
            flags=flags | (LOADING if loading else 0), tts=bool(body.get("tts")),
            message_reference=reference, type=19 if reference and rec is None else 0,
        )
        if rec is not None:
            msg.type = 20 if rec.type == 2 and not followup else 0
            msg.webhook_id = msg.application_id = self.application_id
            meta: dict[str, Any] = {"id": str(rec.id), "type": rec.type, "user": rec.member.user.payload(),
                                    "authorizing_integration_owners": rec.payload.get("authorizing_integration_owners", {})}
            if rec.type == 2:
                meta["name"] = rec.name
            if followup and rec.original_id:
                meta["original_response_message_id"] = str(rec.original_id)
            if rec.message_id:
                meta["interacted_message_id"] = str(rec.message_id)
            msg.interaction_metadata = meta
        msg.attachments = self._attachments_for(msg, body, files, [])
        if files:
            msg.uploads.append(sum(len(data) for _, data in files.values()))
        if not msg.ephemeral:
            self._thread_gate(channel, author, creating=True)
        self._messages[msg.id] = msg
        self._channel_log[channel.id].append(msg.id)
        self._events.append(("create", msg.id))
        self._set_api_mentions(msg, body)
        if not loading and not msg.ephemeral:  # a "thinking" placeholder has nothing to notify about
            for uid, reason in self._recipients(channel, msg, body):
                msg.notified.append(uid)
                self.notifications.append(Notification(uid, msg.id, channel.id, self.clock(), reason))
        self._message_event("MESSAGE_CREATE", msg)
        return msg

    def _reference(self, channel: FakeChannel, ref: Optional[dict]) -> Optional[dict]:
        """A reply's ``message_reference``: the message must exist in this channel (Discord
        answers 400 otherwise, unless ``fail_if_not_exists`` is false: then no reply)."""
        if not ref or ref.get("type", 0) != 0:
            return ref or None
        target = self._messages.get(int(ref.get("message_id") or 0))
        if target is None or target.deleted or target.ephemeral or target.channel_id != channel.id:
            if ref.get("fail_if_not_exists", True) is False:
                return None
            raise _ApiError(400, 50035, "Invalid Form Body", _form_error(
                "message_reference", "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message"))
        return {"type": 0, "message_id": str(target.id), "channel_id": str(channel.id),
                **({"guild_id": str(channel.guild.id)} if channel.guild else {})}

    def _recipients(self, channel: FakeChannel, msg: FakeMessage, body: dict) -> list[tuple[int, str]]:
        """Whom Discord notifies for a new message: user mentions parsed from ``content`` (never
        embeds or components), as ``allowed_mentions`` lets them through (absent: all of them and
        the replied-to author; present: ``parse: ["users"]`` or the ``users`` list, and the
        replied-to author only with ``replied_user: true``). Never the author himself nor anyone
        who cannot see the channel. In a DM, the recipient is notified of every new message."""
        allowed, replied = _allowed_mentions(msg.content, body.get("allowed_mentions"))
        out: list[tuple[int, str]] = []

        def add(uid: int, reason: str) -> None:
            if uid != msg.author_id and uid not in [u for u, _ in out] and self._can_see(channel, uid):
                out.append((uid, reason))

        for uid in allowed:
            add(uid, "mention")
        if replied and msg.message_reference and msg.message_reference.get("message_id"):
            add(self._messages[int(msg.message_reference["message_id"])].author_id, "reply")
        if channel.guild is None and channel.recipient is not None:
            add(channel.recipient.id, "dm")
        return out

    def _set_api_mentions(self, msg: FakeMessage, body: dict) -> None:
        """The message object's ``mentions`` (what discord.py's ``Message.mentions`` reads): the
        users parsed from the content as ``allowed_mentions`` allows, re-parsed on every edit."""
        allowed, replied = _allowed_mentions(msg.content, body.get("allowed_mentions"))
        ids = [u for u in allowed if u in self._users]
        ref = msg.message_reference or {}
        if replied and ref.get("message_id") and int(ref["message_id"]) in self._messages:
            ids.append(self._messages[int(ref["message_id"])].author_id)
        msg.api_mentions = [self._users[u].payload() for u in dict.fromkeys(ids) if u in self._users]

    def _can_see(self, channel: FakeChannel, user_id: int) -> bool:
        if channel.guild is None:
            return channel.recipient is not None and channel.recipient.id == user_id
        member = next((m for m in channel.guild.members if m.id == user_id), None)
        if member is None or user_id == self.application_id:
            return False
        return not channel.is_private or channel.can_see(member)

    def _can_manage_threads(self, channel: FakeChannel, author: FakeUser) -> bool:
        guild = channel.guild
        member = next((m for m in guild.members if m.id == author.id), None) if guild else None
        return member is not None and bool(member.permissions & Perm.MANAGE_THREADS)

    def _thread_gate(self, channel: FakeChannel, author: FakeUser, *, creating: bool) -> None:
        """Discord's thread rules for a non-ephemeral message. Locked: only members with Manage
        Threads may write or edit. Archived: an edit is refused (50083, "Thread is archived");
        a new message unarchives the thread (THREAD_UPDATE), unless it is locked: then 50083 too."""
        if not channel.is_thread:
            return
        if channel.locked and not self._can_manage_threads(channel, author):
            raise _ApiError(403, 50013, "Missing Permissions")
        if channel.archived:
            if creating and not channel.locked:
                self._set_thread(channel, archived=False)
            else:
                raise _ApiError(400, 50083, "Thread is archived")

    def _edit_message(self, msg: FakeMessage, body: dict, files: dict) -> FakeMessage:
        """Edit in place: never a new message and never a notification, whatever mentions it adds."""
        flags = msg.flags if body.get("flags") is None else (int(body["flags"]) & ~EPHEMERAL) | (msg.flags & EPHEMERAL)
        merged = {"content": msg.content, "embeds": msg.embeds, "components": msg.components, **body}
        merged.pop("attachments", None)
        if body.get("attachments") is not None:
            merged["attachments"] = body["attachments"]
        kept = len(msg.attachments) if body.get("attachments") is None else 0
        _validate_message(merged, files, flags & ~LOADING, existing_attachments=kept)
        if not msg.ephemeral:
            self._thread_gate(self._channels[msg.channel_id], self.bot_user, creating=False)
        for key in ("content",):
            if key in body:
                msg.content = body[key] or ""
        for key in ("embeds", "components"):
            if key in body:
                setattr(msg, key, list(body[key] or []))
        msg.attachments = self._attachments_for(msg, body, files, msg.attachments)
        if files:
            msg.uploads.append(sum(len(data) for _, data in files.values()))
        if "content" in body:
            self._set_api_mentions(msg, body)
        was_loading = msg.loading
        msg.flags = flags & ~LOADING
        if not was_loading:
            msg.edited_timestamp = now_iso()
            msg.edit_count += 1
        # Filling in a deferred response is not an edit to its readers: "thinking" becomes the answer.
        self._events.append(("fill" if was_loading else "edit", msg.id))
        self._message_event("MESSAGE_UPDATE", msg)  # Discord's gateway sends it for both
        return msg

    def _delete_message(self, msg: FakeMessage) -> None:
        msg.deleted = True
        self._events.append(("delete", msg.id))
        self._message_event("MESSAGE_DELETE", msg)

    def _message_event(self, event: str, msg: FakeMessage) -> None:
        """Discord's echo of a message created, edited or deleted (by a member, by the bot through
        REST, an interaction's response or followup): MESSAGE_CREATE / MESSAGE_UPDATE (the whole
        message, with ``guild_id`` and the author's ``member``) / MESSAGE_DELETE (ids), sent to
        the session holding the guild (a DM: shard 0) only if it identified with GUILD_MESSAGES
        (in a server channel or thread) or DIRECT_MESSAGES (in a DM), the bot's own messages
        included; never for an ephemeral message. Without MESSAGE_CONTENT, a server message
        neither by the bot nor mentioning it arrives with empty content, embeds, attachments and
        components. (Not modelled: private threads the bot is not in still echo to it.)"""
        if msg.ephemeral:
            return
        guild = self._channels[msg.channel_id].guild if msg.channel_id in self._channels else None
        need = Intent.GUILD_MESSAGES if msg.guild_id is not None else Intent.DIRECT_MESSAGES
        sessions = [s for s in self._sessions if s.ready and s.covers(guild) and s.has(need)]
        if not sessions:
            return
        if event == "MESSAGE_DELETE":
            data: dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id is not None:
                data["guild_id"] = str(msg.guild_id)
        else:
            data = msg.payload()
            member = next((m for m in guild.members if m.id == msg.author_id), None) if guild else None
            if member is not None:
                data["member"] = member.payload(with_user=False)
        hidden = None
        if event != "MESSAGE_DELETE" and guild is not None and msg.author_id != self.bot_user.id \
                and not any(u.get("id") == str(self.bot_user.id) for u in msg.api_mentions):
            hidden = {**data, "content": "", "embeds": [], "attachments": [], "components": []}
            hidden.pop("poll", None)
        for session in sessions:
            session.dispatch(event, data if hidden is None or session.has(Intent.MESSAGE_CONTENT) else hidden)

    def _attachments_for(self, msg: FakeMessage, body: dict, files: dict, existing: list[FakeAttachment]
                         ) -> list[FakeAttachment]:
        """Discord's rule (API v10): without ``attachments`` the uploaded files are appended to what
        the message had; with it, the message keeps exactly what the array lists, existing ids and
        new files (``id`` = the upload's index), in that order: a file uploaded but not listed is
        dropped, an existing attachment not listed is removed."""
        def new(index: int, spec: dict) -> FakeAttachment:
            filename, data = files[index]
            if len(data) > ATTACHMENT_SIZE_LIMIT:
                raise _ApiError(413, 40005, "Request entity too large")
            name = spec.get("filename") or filename
            att = FakeAttachment(self.ids.next(), name, data, content_type=guess_content_type(name, data),
                                 description=spec.get("description"), ephemeral=msg.ephemeral)
            att.url = f"{self.http_url}/attachments/{msg.channel_id}/{att.id}/{name}"
            self._attachments[att.id] = att
            return att

        specs = body.get("attachments")
        if specs is None:
            return list(existing) + [new(i, {}) for i in sorted(files)]
        keep = {a.id: a for a in existing}
        out = []
        for n, spec in enumerate(specs):
            sid = int(spec["id"])
            if sid in keep:
                kept = keep[sid]
                if "description" in spec:  # an edit may change a kept file's alt text
                    kept.description = spec["description"]
                out.append(kept)
            elif sid in files:
                out.append(new(sid, spec))
            else:
                raise _ApiError(400, 50035, "Invalid Form Body", _form_error(
                    f"attachments.{n}.id", "ATTACHMENT_NOT_FOUND", f"Unknown attachment {sid}"))
        return out

    # ================================================================================
    # Gateway
    # ================================================================================
    async def _gateway_handler(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, compress=False, autoping=True)
        await ws.prepare(request)
        # Frames are plain JSON text: discord.py only decompresses *binary* frames, so the
        # compress=zlib-stream (or zstd-stream) it asks for in the query can be ignored.
        queue: asyncio.Queue = asyncio.Queue()
        writer = asyncio.create_task(_writer(ws, queue, self._count_gateway_bytes))
        session: Optional[_Session] = None
        queue.put_nowait({"op": 10, "d": {"heartbeat_interval": 41250}})
        try:
            async for frame in ws:
                if frame.type != aiohttp.WSMsgType.TEXT:
                    continue
                msg = json.loads(frame.data)
                op, d = msg.get("op"), msg.get("d")
                if op == 1:
                    queue.put_nowait({"op": 11})
                elif op == 2:
                    session = self._identify(ws, queue, d)
                    if session is None:
                        await ws.close(code=4004, message=b"Authentication failed.")
                        break
                elif op == 6:
                    session = self._resume(ws, queue, d)
                    if session is None:
                        queue.put_nowait({"op": 9, "d": False})
                elif op == 8 and session is not None:
                    self._request_members(session, d)
                # op 3 (presence) and 4 (voice state) need no answer.
        finally:
            if session is not None:
                session.detach(ws)
            await asyncio.sleep(0)
            writer.cancel()
        return ws

    def _identify(self, ws: web.WebSocketResponse, queue: asyncio.Queue, d: dict) -> Optional[_Session]:
        if d.get("token") != self.token:
            return None
        shard_id, count = d.get("shard") or [0, 1]
        self.identify_count += 1
        session = _Session(self, (shard_id, count), d.get("intents"))
        session.attach(ws, queue)
        guilds = [g for g in self.guilds if g.shard_id(count) == shard_id]
        session.guild_ids = [g.id for g in guilds]
        session.dispatch("READY", {
            "v": 10, "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id, "session_type": "normal", "resume_gateway_url": self.gateway_url,
            "shard": [shard_id, count], "application": {"id": str(self.application_id), "flags": self.application_flags},
            "private_channels": [], "relationships": [], "presences": [], "guild_join_requests": [],
            "geo_ordered_rtc_regions": [], "user_settings": {},
        })
        for g in guilds:
            session.dispatch("GUILD_CREATE", g.payload())
        session.ready = True
        self._sessions = self._sessions[-20:] + [session]  # old ones stay resumable
        return session

    def _resume(self, ws: web.WebSocketResponse, queue: asyncio.Queue, d: dict) -> Optional[_Session]:
        session = next((s for s in self._sessions if s.id == d.get("session_id")), None)
        if session is None or d.get("token") != self.token:
            return None
        self.resume_count += 1
        session.attach(ws, queue)
        for payload in session.buffer:
            if payload["s"] > (d.get("seq") or 0):
                queue.put_nowait(payload)
        session.dispatch("RESUMED", {})
        if session not in self._sessions:
            self._sessions.append(session)
        return session

    def _request_members(self, session: _Session, d: dict) -> None:
        ids = d.get("guild_id")
        for gid in ids if isinstance(ids, list) else [ids]:
            guild = next((g for g in self.guilds if str(g.id) == str(gid)), None)
            if guild is None:
                continue
            members = guild.members
            if d.get("user_ids"):
                wanted = {str(u) for u in d["user_ids"]}
                members = [m for m in members if str(m.id) in wanted]
            elif d.get("query"):
                members = [m for m in members if m.user.username.startswith(d["query"].lower())]
            if d.get("limit"):
                members = members[: d["limit"]]
            session.dispatch("GUILD_MEMBERS_CHUNK", {
                "guild_id": str(guild.id), "members": [m.payload() for m in members],
                "chunk_index": 0, "chunk_count": 1, "not_found": [], "nonce": d.get("nonce"),
            })


# ================================================================================
# Helpers
# ================================================================================
def _json(status: int, body: Any, headers: Optional[dict] = None) -> web.Response:
    # Exactly "application/json": discord.py compares the header verbatim, and aiohttp's
    # json_response would append "; charset=utf-8" and turn every answer into a string.
    return web.Response(status=status, body=json.dumps(body).encode(),
                        headers={"Content-Type": "application/json", **(headers or {})})


async def _read_body(request: web.Request) -> tuple[Any, dict[int, tuple[str, bytes]]]:
    """JSON body, or multipart ``payload_json`` + ``files[n]`` parts."""
    files: dict[int, tuple[str, bytes]] = {}
    if request.content_type == "multipart/form-data":
        payload: Any = {}
        reader = await request.multipart()
        async for part in reader:
            name = getattr(part, "name", None) or ""
            if name == "payload_json":
                payload = json.loads(await part.text())  # type: ignore[union-attr]
            elif name.startswith("files[") or name.startswith("file"):
                index = int(name[6:-1]) if name.startswith("files[") else len(files)
                data = bytes(await part.read(decode=False))  # type: ignore[union-attr]
                files[index] = (part.filename or f"file{index}", data)
        return payload, files
    raw = await request.read()
    if not raw:
        return None, files
    try:
        return json.loads(raw), files
    except ValueError:
        raise web.HTTPBadRequest(text="body is not JSON") from None


async def _writer(ws: web.WebSocketResponse, queue: asyncio.Queue, count: Callable[[int], None]) -> None:
    while True:
        payload = await queue.get()
        if ws.closed:
            return
        try:
            text = json.dumps(payload)
            count(len(text.encode()))
            await ws.send_str(text)
        except (ConnectionResetError, RuntimeError):
            return


class _ListHandler(logging.Handler):
    def __init__(self, records: list) -> None:
        super().__init__(logging.WARNING)
        self.records = records

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def _format_record(record: logging.LogRecord) -> str:
    text = f"{record.levelname} {record.name}: {record.getMessage()}"
    if record.exc_info:
        text += "\n" + logging.Formatter().formatException(record.exc_info)
    return text


# ---- validation: what real Discord rejects -------------------------------------------
class _FormErrors:
    """Discord's 50035 "Invalid Form Body" ``errors``: nested by the path of the bad field, each
    leaf ``{"_errors": [{"code": ..., "message": ...}]}`` (discord.py flattens it back)."""

    def __init__(self) -> None:
        self.errors: dict[str, Any] = {}

    def add(self, path: str, code: str, message: str) -> None:
        node = self.errors
        for part in path.split("."):
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def max_length(self, path: str, value: Any, limit: int) -> None:
        if value is not None and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def raise_if_any(self) -> None:
        if self.errors:
            raise _ApiError(400, 50035, "Invalid Form Body", self.errors)


def _form_error(path: str, code: str, message: str) -> dict:
    errors = _FormErrors()
    errors.add(path, code, message)
    return errors.errors


def _walk_with_paths(components: list[dict], prefix: str) -> Iterator[tuple[str, dict]]:
    for i, comp in enumerate(components or []):
        path = f"{prefix}.{i}"
        yield path, comp
        yield from _walk_with_paths(comp.get("components") or [], f"{path}.components")
        if isinstance(comp.get("accessory"), dict):
            yield f"{path}.accessory", comp["accessory"]


def _allowed_mentions(content: str, rules: Optional[dict]) -> tuple[list[int], bool]:
    """The user ids ``content`` mentions that ``allowed_mentions`` lets through, and whether the
    replied-to author is mentioned too. Absent rules: every user mention, and the replied user
    (Discord's default); present: ``parse: ["users"]`` or the ``users`` list, ``replied_user``."""
    parsed = list(dict.fromkeys(int(m) for m in MENTION_PATTERN.findall(content or "")))
    if rules is None:
        return parsed, True
    if "users" in (rules.get("parse") or []):
        return parsed, bool(rules.get("replied_user"))
    listed = {str(u) for u in rules.get("users") or []}
    return [u for u in parsed if str(u) in listed], bool(rules.get("replied_user"))


def _validate_allowed_mentions(rules: Any, errors: _FormErrors) -> None:
    if rules is None:
        return
    parse = rules.get("parse") or []
    for i, kind in enumerate(parse):
        if kind not in ("users", "roles", "everyone"):
            errors.add(f"allowed_mentions.parse.{i}", "BASE_TYPE_CHOICES",
                       "Value must be one of {'users', 'roles', 'everyone'}.")
    for kind in ("users", "roles"):
        # Discord: an empty list (or null) next to parse is fine; a non-empty one is not.
        if kind in parse and rules.get(kind):
            errors.add("allowed_mentions", "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                       f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.')
        errors.max_length(f"allowed_mentions.{kind}", rules.get(kind), 100)


def _validate_message(body: dict, files: dict, flags: int, *, existing_attachments: int = 0) -> None:
    """Discord's limits on a message body (create, or an edit merged with the current message).
    ``existing_attachments``: files an edit without ``attachments`` keeps."""
    errors = _FormErrors()
    content = body.get("content") or ""
    embeds = body.get("embeds") or []
    comps = body.get("components") or []
    specs = body.get("attachments")
    errors.max_length("content", content, 2000)
    errors.max_length("embeds", embeds, 10)
    total = 0
    for i, e in enumerate(embeds):
        texts = {"title": (e.get("title"), 256), "description": (e.get("description"), 4096),
                 "footer.text": ((e.get("footer") or {}).get("text"), 2048),
                 "author.name": ((e.get("author") or {}).get("name"), 256)}
        for key, (text, limit) in texts.items():
            errors.max_length(f"embeds.{i}.{key}", text, limit)
            total += len(text or "")
        fields = e.get("fields") or []
        errors.max_length(f"embeds.{i}.fields", fields, 25)
        for j, f in enumerate(fields):
            for key, limit in (("name", 256), ("value", 1024)):
                if not f.get(key):
                    errors.add(f"embeds.{i}.fields.{j}.{key}", "BASE_TYPE_REQUIRED", "This field is required")
                errors.max_length(f"embeds.{i}.fields.{j}.{key}", f.get(key), limit)
                total += len(f.get(key) or "")
    if total > 6000:
        errors.add("embeds", "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")
    v2 = bool(flags & COMPONENTS_V2)
    if v2 and (content or embeds):
        errors.add("content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                   "The 'content' and 'embeds' fields cannot be used when using the IS_COMPONENTS_V2 flag")
    if not v2:
        errors.max_length("components", comps, 5)
        for i, row in enumerate(comps):
            children = row.get("components") or []
            if row.get("type") != 1 or not 1 <= len(children) <= 5:
                errors.add(f"components.{i}.components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
            elif any(c.get("type") != 2 for c in children) and len(children) != 1:
                errors.add(f"components.{i}.components", "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                           "The specified component exceeds the maximum width")
    seen: set[str] = set()
    for path, c in _walk_with_paths(comps, "components"):
        cid = c.get("custom_id")
        if cid is not None:
            errors.max_length(f"{path}.custom_id", cid, 100)
            if cid in seen:
                errors.add(f"{path}.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
            seen.add(cid)
        ctype = c.get("type")
        if ctype == 2:
            errors.max_length(f"{path}.label", c.get("label"), 80)
            if (c.get("style") == 5) != bool(c.get("url")) or (c.get("style") not in (5, 6) and not cid):
                errors.add(path, "BUTTON_COMPONENT_INVALID", "link buttons need a url and the others a custom_id")
        if ctype in (3, 5, 6, 7, 8):
            errors.max_length(f"{path}.placeholder", c.get("placeholder"), 150)
            lo, hi = c.get("min_values", 1), c.get("max_values", 1)
            if not (0 <= lo <= 25 and 1 <= hi <= 25):
                errors.add(path, "BASE_TYPE_BAD_LENGTH", "min_values must be 0-25 and max_values 1-25")
        if ctype == 3:
            opts = c.get("options") or []
            if not 1 <= len(opts) <= 25:
                errors.add(f"{path}.options", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length.")
            for k, o in enumerate(opts):
                for key in ("label", "value", "description"):
                    errors.max_length(f"{path}.options.{k}.{key}", o.get(key), 100)
    for i, spec in enumerate(specs or []):
        errors.max_length(f"attachments.{i}.description", spec.get("description"), 1024)
    _validate_allowed_mentions(body.get("allowed_mentions"), errors)
    count = len(specs) if specs is not None else existing_attachments + len(files)
    if not (content or embeds or comps or count or body.get("sticker_ids") or body.get("poll")):
        raise _ApiError(400, 50006, "Cannot send an empty message")
    errors.raise_if_any()
    if count > MAX_ATTACHMENTS:
        raise _ApiError(400, 30015, f"Maximum number of attachments in a message reached ({MAX_ATTACHMENTS})")


def _validate_choices(choices: Any) -> list[dict]:
    choices = choices or []
    errors = _FormErrors()
    errors.max_length("choices", choices, 25)
    for i, c in enumerate(choices):
        if not 1 <= len(str(c.get("name", ""))) <= 100:
            errors.add(f"choices.{i}.name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        if isinstance(c.get("value"), str):
            errors.max_length(f"choices.{i}.value", c["value"], 100)
        for loc, text in (c.get("name_localizations") or {}).items():
            if not 1 <= len(text or "") <= 100:
                errors.add(f"choices.{i}.name_localizations.{loc}", "BASE_TYPE_BAD_LENGTH",
                           "Must be between 1 and 100 in length.")
    errors.raise_if_any()
    return choices


def _validate_modal(data: dict) -> dict:
    if not data.get("custom_id") or not 1 <= len(data.get("title") or "") <= 45 \
            or not 1 <= len(data.get("components") or []) <= 5:
        raise _ApiError(400, 50035, "Invalid Form Body", {"modal": "custom_id, title 1-45, 1-5 components"})
    return data


_NAME = re.compile(r"^[-_\w]{1,32}$")


def _validate_command(cmd: dict, depth: int = 0) -> None:
    name, desc = cmd.get("name") or "", cmd.get("description") or ""
    ctype = cmd.get("type", 1)
    problems = []
    if ctype == 1 and (not _NAME.match(name) or name != name.lower()):
        problems.append(f"name {name!r} must be 1-32 lowercase characters")
    if ctype == 1 and not 1 <= len(desc) <= 100:
        problems.append(f"{name}: description must be 1-100 characters")
    options = cmd.get("options") or []
    if len(options) > 25:
        problems.append(f"{name}: at most 25 options")
    seen_optional = False
    for opt in options:
        if opt.get("type") in (1, 2):
            _validate_command({**opt, "type": 1}, depth + 1)
            continue
        if opt.get("required"):
            if seen_optional:
                problems.append(f"{name}: required option {opt['name']!r} after an optional one")
        else:
            seen_optional = True
        if not _NAME.match(opt.get("name") or "") or not 1 <= len(opt.get("description") or "") <= 100:
            problems.append(f"{name}: option {opt.get('name')!r} needs a valid name and a 1-100 description")
        if len(opt.get("choices") or []) > 25 or (opt.get("choices") and opt.get("autocomplete")):
            problems.append(f"{name}: option {opt['name']!r}: at most 25 choices, not with autocomplete")
    problems += _localization_problems(cmd, ctype)
    for opt in options:
        if opt.get("type") not in (1, 2):
            problems += _localization_problems(opt, 1)
            for choice in opt.get("choices") or []:
                for loc, text in (choice.get("name_localizations") or {}).items():
                    if not 1 <= len(text or "") <= 100:
                        problems.append(f"choice {choice.get('name')!r}: {loc} name must be 1-100 characters")
    if problems:
        raise _ApiError(400, 50035, "Invalid Form Body", {"commands": problems})


def _localization_problems(cmd: dict, ctype: int) -> list[str]:
    """Discord checks localised names and descriptions like the default ones."""
    problems = []
    name = cmd.get("name")
    for loc, text in (cmd.get("name_localizations") or {}).items():
        if ctype == 1 and (not _NAME.match(text or "") or text != text.lower()):
            problems.append(f"{name}: {loc} name {text!r} must be 1-32 lowercase characters")
    for loc, text in (cmd.get("description_localizations") or {}).items():
        if not 1 <= len(text or "") <= 100:
            problems.append(f"{name}: {loc} description must be 1-100 characters")
    return problems
