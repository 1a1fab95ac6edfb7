"""The world of the fake Discord: guilds, channels, members, roles, messages, attachments, replies.

Everything here is plain data plus the JSON payloads Discord would send for it. The server
(``server.py``) owns the objects and mutates messages as the bot edits them; a :class:`Reply`
holds *snapshots* taken when the interaction was complete, while ``FakeDiscord.message(id)``
returns the live, current message.
"""

from __future__ import annotations

import copy
import datetime as _dt
import re
import struct
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterator, Optional

if TYPE_CHECKING:  # pragma: no cover
    from .server import FakeDiscord

# --------------------------------------------------------------------------------------------
# Snowflakes and permissions
# --------------------------------------------------------------------------------------------

DISCORD_EPOCH_MS = 1420070400000


class Snowflakes:
    """Realistic, strictly increasing snowflake ids (timestamp << 22 | worker | process | counter)."""

    def __init__(self) -> None:
        self._last = 0
        self._lock = threading.Lock()
        #: Milliseconds added to the wall clock: ``FakeDiscord.advance(seconds, snowflakes=True)``.
        self.offset_ms = 0

    def next(self) -> int:
        with self._lock:
            ms = int(time.time() * 1000) + self.offset_ms - DISCORD_EPOCH_MS
            value = (ms << 22) | (1 << 17) | (1 << 12)
            if value <= self._last:
                value = self._last + 1
            self._last = value
            return value


def snowflake_time(snowflake: int) -> str:
    ms = (snowflake >> 22) + DISCORD_EPOCH_MS
    return _dt.datetime.fromtimestamp(ms / 1000, _dt.timezone.utc).isoformat()


def now_iso() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat()


class Perm:
    """The permission bits the harness uses (the values of ``discord.Permissions``)."""

    CREATE_INSTANT_INVITE = 1 << 0
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    CONNECT = 1 << 20
    SPEAK = 1 << 21
    CHANGE_NICKNAME = 1 << 26
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38
    ALL = (1 << 51) - 1

    EVERYONE_DEFAULT = (
        CREATE_INSTANT_INVITE | ADD_REACTIONS | VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES
        | READ_MESSAGE_HISTORY | USE_EXTERNAL_EMOJIS | CONNECT | SPEAK | CHANGE_NICKNAME
        | USE_APPLICATION_COMMANDS | CREATE_PUBLIC_THREADS | CREATE_PRIVATE_THREADS | SEND_MESSAGES_IN_THREADS
    )
    BOT_ROLE = MANAGE_MESSAGES | MANAGE_THREADS | MENTION_EVERYONE


class Intent:
    """Gateway intent bits (IDENTIFY's ``intents``; the values of ``discord.Intents``) and the
    events each one gates on Discord, as far as the fake sends them."""

    GUILDS = 1 << 0  # GUILD_CREATE/UPDATE/DELETE, GUILD_ROLE_*, CHANNEL_*, THREAD_*
    GUILD_MEMBERS = 1 << 1  # privileged: GUILD_MEMBER_ADD/UPDATE/REMOVE
    GUILD_MESSAGES = 1 << 9  # MESSAGE_CREATE/UPDATE/DELETE in a server channel or thread
    GUILD_MESSAGE_REACTIONS = 1 << 10
    GUILD_MESSAGE_TYPING = 1 << 11  # TYPING_START in a server
    DIRECT_MESSAGES = 1 << 12  # MESSAGE_CREATE/UPDATE/DELETE in a DM
    DIRECT_MESSAGE_TYPING = 1 << 14  # TYPING_START in a DM
    MESSAGE_CONTENT = 1 << 15  # privileged: without it, others' messages arrive without their content
    ALL = (1 << 26) - 1


def _perm_value(value: Any) -> int:
    """Accept an int or a ``discord.Permissions``."""
    return int(getattr(value, "value", value) or 0)


# --------------------------------------------------------------------------------------------
# Users, roles, members, channels, guilds
# --------------------------------------------------------------------------------------------


@dataclass(eq=False)
class FakeUser:
    id: int
    name: str
    bot: bool = False

    @property
    def username(self) -> str:
        return re.sub(r"[^a-z0-9_.]", "", self.name.lower()) or f"user{self.id % 10000}"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict:
        return {
            "id": str(self.id),
            "username": self.username,
            "global_name": None if self.bot else self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeRole:
    guild: "FakeGuild" = field(repr=False)
    id: int
    name: str
    permissions: int = 0
    position: int = 0
    managed: bool = False

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> dict:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": self.managed,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeMember:
    """A member of one guild. Pass it to ``slash``/``click``/... as the acting user, or as the
    value of a user option."""

    guild: "FakeGuild" = field(repr=False)
    user: FakeUser
    roles: list[FakeRole] = field(default_factory=list, repr=False)
    nick: Optional[str] = None
    joined_at: str = field(default_factory=now_iso, repr=False)
    #: The language of the member's Discord client: the default ``locale`` of his interactions.
    locale: str = "en-US"

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.nick or self.user.name

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def permissions(self) -> int:
        """Guild-level permissions (the @everyone role plus every role; owner/admin: all)."""
        if self.guild.owner_id == self.id:
            return Perm.ALL
        value = self.guild.everyone.permissions
        for role in self.roles:
            value |= role.permissions
        return Perm.ALL if value & Perm.ADMINISTRATOR else value

    def payload(self, *, with_user: bool = True, with_permissions: bool = False,
                channel: Optional["FakeChannel"] = None) -> dict:
        """``with_permissions``: his permissions as an interaction carries them, in ``channel``
        (its overwrites applied) when given, else the guild's."""
        data: dict[str, Any] = {
            "roles": [str(r.id) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "communication_disabled_until": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
        }
        if with_user:
            data["user"] = self.user.payload()
        if with_permissions:
            data["permissions"] = str(channel.permissions_for(self) if channel is not None else self.permissions)
        return data


THREAD_TYPES = (10, 11, 12)
AUTO_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel (type 0), a public (11) or private (12) thread (``parent`` set) or a
    DM channel (type 1, ``guild`` None). A private thread is seen only by its members
    (``thread_members``) and by members who may manage threads in its parent."""

    fake: "FakeDiscord" = field(repr=False)
    id: int
    name: str
    guild: Optional["FakeGuild"] = field(default=None, repr=False)
    type: int = 0
    position: int = 0
    topic: Optional[str] = None
    recipient: Optional[FakeUser] = field(default=None, repr=False)
    # ---- threads only ----
    parent: Optional["FakeChannel"] = field(default=None, repr=False)
    owner_id: Optional[int] = field(default=None, repr=False)
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = field(default=1440, repr=False)
    archive_timestamp: str = field(default_factory=now_iso, repr=False)
    create_timestamp: str = field(default_factory=now_iso, repr=False)
    #: A private thread's: whether non-moderators may add members; the ids of its members.
    invitable: bool = field(default=True, repr=False)
    thread_members: list[int] = field(default_factory=list, repr=False)
    # ---- text channels: permission overwrites (a thread follows its parent's) ----
    #: target id -> (type 0 role / 1 member, allow, deny), as Discord stores them.
    overwrites: dict[int, tuple[int, int, int]] = field(default_factory=dict, repr=False)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def set_permissions(self, target: Any, *, allow: Any = 0, deny: Any = 0) -> None:
        """A permission overwrite on this text channel for a role (``guild.everyone`` too) or a
        member, as a moderator sets one in the channel's settings; ``allow=deny=0`` removes it.
        A thread's are its parent's. Made after the bot connected, it is sent as CHANNEL_UPDATE."""
        if self.guild is None or self.is_thread:
            raise ValueError("overwrites belong to a server's text channel (a thread follows its parent)")
        kind = 0 if isinstance(target, FakeRole) else 1
        allow_bits, deny_bits = _perm_value(allow), _perm_value(deny)
        if allow_bits or deny_bits:
            self.overwrites[target.id] = (kind, allow_bits, deny_bits)
        else:
            self.overwrites.pop(target.id, None)
        self.fake._on_channel_updated(self)

    def permissions_for(self, member: "FakeMember") -> int:
        """Discord's computation: the guild's permissions (owner and Administrator: all), then
        this channel's overwrites for @everyone, for his roles together, and for him. Without
        View Channel he has none here. A thread uses its parent's overwrites; a DM the defaults.
        A private thread: none for who is neither its member nor allowed to manage threads."""
        if self.guild is None:
            return Perm.EVERYONE_DEFAULT
        if self.is_private and self.parent is not None:
            inherited = self.parent.permissions_for(member)
            if member.id not in self.thread_members and not inherited & Perm.MANAGE_THREADS:
                return 0
            return inherited
        base = member.permissions
        if base & Perm.ADMINISTRATOR or base == Perm.ALL:
            return Perm.ALL
        source = self.parent if self.is_thread and self.parent is not None else self
        overwrites = source.overwrites
        if self.guild.id in overwrites:
            _, allow, deny = overwrites[self.guild.id]
            base = (base & ~deny) | allow
        role_ids = {r.id for r in member.roles}
        allow = deny = 0
        for target, (kind, a, d) in overwrites.items():
            if kind == 0 and target in role_ids:
                allow, deny = allow | a, deny | d
        base = (base & ~deny) | allow
        if member.id in overwrites:
            _, a, d = overwrites[member.id]
            base = (base & ~d) | a
        return base if base & Perm.VIEW_CHANNEL else 0

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def is_private(self) -> bool:
        """A private thread (type 12)."""
        return self.type == 12

    def can_see(self, member: "FakeMember") -> bool:
        """Whether ``member`` sees this channel and its messages (View Channel here)."""
        return bool(self.permissions_for(member) & Perm.VIEW_CHANNEL)

    @property
    def messages(self) -> list["FakeMessage"]:
        """Everything visible in the channel, in order (live objects; no ephemeral, no deleted)."""
        return self.fake.channel_messages(self)

    def payload(self, member: Optional[FakeMember] = None) -> dict:
        if self.guild is None:
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "recipients": [self.recipient.payload()] if self.recipient else [],
                "flags": 0,
            }
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.is_thread:
            assert self.parent is not None
            count = len(self.fake.channel_messages(self))
            data.update(
                parent_id=str(self.parent.id), owner_id=str(self.owner_id or self.fake.application_id),
                message_count=count, total_message_sent=count, member_count=max(1, len(self.thread_members)),
                thread_metadata={
                    "archived": self.archived, "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": self.archive_timestamp, "locked": self.locked,
                    "create_timestamp": self.create_timestamp,
                    **({"invitable": self.invitable} if self.is_private else {}),
                },
            )
        else:
            data.update(position=self.position, nsfw=False, topic=self.topic, parent_id=None,
                        permission_overwrites=[{"id": str(t), "type": kind, "allow": str(a), "deny": str(d)}
                                               for t, (kind, a, d) in self.overwrites.items()])
        if member is not None:
            data["permissions"] = str(self.permissions_for(member))
        return data


class FakeGuild:
    """A guild. Build it before the bot starts: GUILD_CREATE carries its roles, channels, members."""

    def __init__(self, fake: "FakeDiscord", name: str, *, locale: str = "en-US") -> None:
        self.fake = fake
        self.id = fake.ids.next()
        self.name = name
        self.locale = locale
        self.roles: list[FakeRole] = []
        self.channels: list[FakeChannel] = []
        self.members: list[FakeMember] = []
        self.threads: list[FakeChannel] = []
        # @everyone has the guild's id.
        self.everyone = FakeRole(self, self.id, "@everyone", Perm.EVERYONE_DEFAULT, 0)
        self.roles.append(self.everyone)
        self._moderator: Optional[FakeRole] = None
        self._admin: Optional[FakeRole] = None
        # The owner has every permission, so it is a separate member, never one of the players.
        self.owner = self._new_member("Server Owner")
        self.owner_id = self.owner.id
        # The bot is a member too, with its managed role.
        bot_role = self.add_role(fake.app_name, Perm.BOT_ROLE, managed=True)
        self.bot_member = FakeMember(self, fake.bot_user, [bot_role])
        self.members.append(self.bot_member)

    def __repr__(self) -> str:
        return f"<FakeGuild {self.name!r} id={self.id}>"

    # ---- building ---------------------------------------------------------------------
    def add_role(self, name: str, permissions: Any = 0, *, managed: bool = False) -> FakeRole:
        role = FakeRole(self, self.fake.ids.next(), name, _perm_value(permissions), len(self.roles), managed)
        self.roles.append(role)
        self.fake._on_role_added(role)
        return role

    def add_text_channel(self, name: str, *, topic: Optional[str] = None) -> FakeChannel:
        chan = FakeChannel(self.fake, self.fake.ids.next(), name, self, 0, len(self.channels), topic)
        self.channels.append(chan)
        self.fake._channels[chan.id] = chan
        self.fake._on_channel_added(chan)
        return chan

    def add_thread(self, parent: FakeChannel, name: str, *, owner: Optional[FakeMember] = None,
                   auto_archive_duration: int = 1440, archived: bool = False, locked: bool = False,
                   private: bool = False, members: tuple["FakeMember", ...] = ()) -> FakeChannel:
        """A public thread (type 11; ``private``: 12, not invitable, its ``owner`` and ``members``
        its members) in the text channel ``parent``, started by ``owner`` (default: the bot).
        Made after the bot connected, it is announced with THREAD_CREATE."""
        if parent.guild is not self or parent.type != 0:
            raise ValueError(f"a thread needs a text channel of {self.name!r} as its parent")
        owner_id = owner.id if owner else self.fake.application_id
        thread = FakeChannel(self.fake, self.fake.ids.next(), name, self, 12 if private else 11, parent=parent,
                             owner_id=owner_id,
                             auto_archive_duration=auto_archive_duration, archived=archived, locked=locked,
                             invitable=not private,
                             thread_members=[owner_id, *(m.id for m in members if m.id != owner_id)] if private else [])
        self.threads.append(thread)
        self.fake._channels[thread.id] = thread
        self.fake._on_thread_created(thread)
        return thread

    def thread(self, name_or_id: Any) -> FakeChannel:
        for t in self.threads:
            if t.id == name_or_id or t.name == name_or_id:
                return t
        raise KeyError(f"no thread {name_or_id!r} in {self.name!r}")

    def _new_member(self, name: str, roles: list[FakeRole] | None = None, nick: Optional[str] = None,
                    locale: str = "en-US") -> FakeMember:
        user = self.fake._new_user(name)
        member = FakeMember(self, user, list(roles or []), nick, locale=locale)
        self.members.append(member)
        self.fake._on_member_added(member)
        return member

    def add_member(
        self,
        name: str,
        *,
        roles: tuple[FakeRole, ...] | list[FakeRole] = (),
        manage_guild: bool = False,
        administrator: bool = False,
        permissions: Any = None,
        nick: Optional[str] = None,
        locale: str = "en-US",
    ) -> FakeMember:
        """Add a member. ``manage_guild`` gives a "Moderator" role with Manage Server,
        ``administrator`` an "Admin" role; ``permissions`` (int or ``discord.Permissions``) a
        role of its own with exactly those extra bits. ``locale``: his Discord client's language
        (``"fr"``), sent with each of his interactions unless the call gives another."""
        role_list = list(roles)
        if manage_guild:
            if self._moderator is None:
                self._moderator = self.add_role("Moderator", Perm.MANAGE_GUILD)
            role_list.append(self._moderator)
        if administrator:
            if self._admin is None:
                self._admin = self.add_role("Admin", Perm.ADMINISTRATOR)
            role_list.append(self._admin)
        if permissions is not None:
            role_list.append(self.add_role(f"{name} perms", permissions))
        return self._new_member(name, role_list, nick, locale)

    def member(self, name_or_id: Any) -> FakeMember:
        for m in self.members:
            if m.id == name_or_id or m.name == name_or_id or m.user.name == name_or_id:
                return m
        raise KeyError(f"no member {name_or_id!r} in {self.name!r}")

    def channel(self, name_or_id: Any) -> FakeChannel:
        for c in self.channels + self.threads:
            if c.id == name_or_id or c.name == name_or_id:
                return c
        raise KeyError(f"no channel {name_or_id!r} in {self.name!r}")

    def shard_id(self, shard_count: int) -> int:
        return (self.id >> 22) % max(1, shard_count)

    # ---- payloads ---------------------------------------------------------------------
    def partial_payload(self) -> dict:
        return {"id": str(self.id), "locale": self.locale, "features": []}

    def payload(self) -> dict:
        """The GUILD_CREATE / GET /guilds/{id} body."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "application_id": None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "system_channel_id": str(self.channels[0].id) if self.channels else None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "verification_level": 0,
            "default_message_notifications": 1,  # only @mentions: the notification model
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": self.locale,
            "features": [],
            "vanity_url_code": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "roles": [r.payload() for r in self.roles],
            "emojis": [],
            "stickers": [],
            "joined_at": self.bot_member.joined_at,
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "voice_states": [],
            "members": [m.payload() for m in self.members],
            "channels": [c.payload() for c in self.channels],
            "threads": [t.payload() for t in self.threads if not t.archived],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "incidents_data": None,
        }


# --------------------------------------------------------------------------------------------
# Messages and attachments
# --------------------------------------------------------------------------------------------

_EXT_TYPES = {
    "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
    "txt": "text/plain; charset=utf-8", "json": "application/json; charset=utf-8", "svg": "image/svg+xml",
}


def guess_content_type(filename: str, data: bytes) -> str:
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    return _EXT_TYPES.get(filename.rsplit(".", 1)[-1].lower(), "application/octet-stream")


@dataclass(eq=False)
class FakeAttachment:
    id: int
    filename: str
    data: bytes = field(repr=False)
    url: str = ""
    content_type: str = "application/octet-stream"
    description: Optional[str] = None
    ephemeral: bool = False

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def is_png(self) -> bool:
        return self.data.startswith(b"\x89PNG\r\n\x1a\n")

    @property
    def is_image(self) -> bool:
        return self.content_type.startswith("image/")

    @property
    def dimensions(self) -> Optional[tuple[int, int]]:
        """(width, height) of a PNG, read from its IHDR chunk; None for anything else."""
        if self.is_png and len(self.data) >= 24:
            return struct.unpack(">II", self.data[16:24])
        return None

    def payload(self) -> dict:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "ephemeral": self.ephemeral,
        }
        if self.description is not None:
            data["description"] = self.description
        dims = self.dimensions
        if dims:
            data["width"], data["height"] = dims
        return data


EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15
MENTION_PATTERN = re.compile(r"<@!?(\d+)>")  # a user mention as Discord parses it


def walk_components(components: list[dict]) -> Iterator[dict]:
    """Every component, depth first: action rows, their buttons/selects, v2 containers/sections."""
    for comp in components or []:
        yield comp
        yield from walk_components(comp.get("components") or [])
        if isinstance(comp.get("accessory"), dict):
            yield from walk_components([comp["accessory"]])
        if isinstance(comp.get("component"), dict):  # modal labels (type 18)
            yield from walk_components([comp["component"]])


@dataclass(eq=False)
class FakeMessage:
    """A message as Discord stores it. ``components``/``embeds`` are the raw dicts the bot sent."""

    id: int
    channel_id: int
    guild_id: Optional[int]
    author: dict = field(repr=False)
    content: str = ""
    embeds: list[dict] = field(default_factory=list)
    components: list[dict] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    webhook_id: Optional[int] = None
    application_id: Optional[int] = None
    interaction_metadata: Optional[dict] = field(default=None, repr=False)
    message_reference: Optional[dict] = field(default=None, repr=False)
    timestamp: str = field(default_factory=now_iso, repr=False)
    edited_timestamp: Optional[str] = field(default=None, repr=False)
    edit_count: int = 0
    #: Bytes of the files Discord received for this message: one entry per create or edit that
    #: carried files (an edit that keeps its attachments by id uploads nothing and adds none).
    uploads: list[int] = field(default_factory=list, repr=False)
    deleted: bool = False
    reactions: list[str] = field(default_factory=list, repr=False)
    tts: bool = False
    #: The user ids Discord notified when the message was *created* (see ``FakeDiscord.notifications``).
    notified: list[int] = field(default_factory=list, repr=False)
    #: The message object's ``mentions`` as Discord sends it (user payloads), see ``mentions``.
    api_mentions: list[dict] = field(default_factory=list, repr=False)

    # ---- convenience for assertions ---------------------------------------------------
    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Still the "Bot is thinking..." placeholder of a deferred response."""
        return bool(self.flags & LOADING)

    @property
    def text(self) -> str:
        """Content plus every embed's title/description/fields/footer and v2 text displays, joined
        by newlines: handy for ``"Alice" in msg.text``."""
        parts = [self.content] if self.content else []
        for e in self.embeds:
            for key in ("title", "description"):
                if e.get(key):
                    parts.append(str(e[key]))
            for f in e.get("fields") or []:
                parts.append(f"{f.get('name', '')}\n{f.get('value', '')}")
            if (e.get("footer") or {}).get("text"):
                parts.append(e["footer"]["text"])
            if (e.get("author") or {}).get("name"):
                parts.append(e["author"]["name"])
        for c in walk_components(self.components):
            if c.get("type") == 10 and c.get("content"):
                parts.append(c["content"])
        return "\n".join(parts)

    @property
    def author_id(self) -> int:
        return int(self.author["id"])

    @property
    def mentions(self) -> list[int]:
        """User ids *rendered* as mentions (``<@id>``) in the current content, embeds and text
        displays: what a reader sees highlighted. Not who was pinged: embeds never ping, nor do
        edits, ephemeral messages or mentions that ``allowed_mentions`` filtered out; that is
        ``notified``."""
        return [int(m) for m in MENTION_PATTERN.findall(self.text)]

    def mentions_user(self, who: Any) -> bool:
        return int(getattr(who, "id", who)) in self.mentions

    @property
    def all_components(self) -> list[dict]:
        return list(walk_components(self.components))

    @property
    def buttons(self) -> list[dict]:
        return [c for c in walk_components(self.components) if c.get("type") == 2]

    @property
    def selects(self) -> list[dict]:
        return [c for c in walk_components(self.components) if c.get("type") in (3, 5, 6, 7, 8)]

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in walk_components(self.components) if c.get("custom_id")]

    @property
    def labels(self) -> list[str]:
        return [c.get("label") or "" for c in self.buttons]

    def find_component(self, custom_id: Optional[str] = None, *, label: Optional[str] = None) -> dict:
        """The interactive component with this custom_id (exact, or a prefix ending in ``*``) or
        this button label / select placeholder. Raises LookupError listing what is there."""
        for c in walk_components(self.components):
            if c.get("type") not in (2, 3, 5, 6, 7, 8):
                continue
            cid = c.get("custom_id") or ""
            if custom_id is not None:
                if cid == custom_id or (custom_id.endswith("*") and cid.startswith(custom_id[:-1])):
                    return c
            elif label is not None and label in (c.get("label"), c.get("placeholder")):
                return c
        raise LookupError(
            f"message {self.id} has no component {custom_id or label!r}; it has "
            f"{[(c.get('label') or c.get('placeholder'), c.get('custom_id')) for c in self.buttons + self.selects]}"
        )

    @property
    def png(self) -> bytes:
        """The bytes of the first PNG attachment (AssertionError if there is none)."""
        for a in self.attachments:
            if a.is_png:
                return a.data
        raise AssertionError(f"message {self.id} has no PNG attachment: {[a.filename for a in self.attachments]}")

    def __repr__(self) -> str:
        bits = [f"id={self.id}", repr(self.content[:60] + ("..." if len(self.content) > 60 else ""))]
        if self.embeds:
            bits.append(f"embeds={len(self.embeds)}")
        if self.attachments:
            bits.append(f"files={[a.filename for a in self.attachments]}")
        if self.components:
            bits.append(f"components={self.custom_ids}")
        for flag, name in ((EPHEMERAL, "ephemeral"), (LOADING, "loading")):
            if self.flags & flag:
                bits.append(name)
        if self.deleted:
            bits.append("deleted")
        return f"<FakeMessage {' '.join(bits)}>"

    def snapshot(self) -> "FakeMessage":
        return copy.deepcopy(self)

    def payload(self) -> dict:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author,
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": self.tts,
            "mention_everyone": False,
            "mentions": self.api_mentions,
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        return data


@dataclass(frozen=True)
class Notification:
    """One user notified by one new message (``fake.notifications``). ``reason``: "mention" (a
    ``<@id>`` in the content that ``allowed_mentions`` let through), "reply" (the author of the
    message replied to) or "dm" (a new message in his DM with the bot). ``at``: ``fake.clock()``."""

    user_id: int
    message_id: int
    channel_id: int
    at: float
    reason: str = "mention"


@dataclass(frozen=True)
class Mark:
    """A point in the fake's history (``fake.mark()``), for the ``since=`` of the counting helpers."""

    events: int
    notifications: int
    at: float
    requests: int = 0


# --------------------------------------------------------------------------------------------
# What a test gets back
# --------------------------------------------------------------------------------------------


@dataclass
class Choice:
    """One autocomplete choice."""

    name: str
    value: Any
    name_localizations: Optional[dict] = None


CALLBACK_NAMES = {
    4: "message", 5: "deferred message", 6: "deferred update", 7: "update message",
    8: "autocomplete result", 9: "modal",
}


@dataclass
class Reply:
    """How the bot answered one interaction, frozen when it was complete.

    ``message`` is the interaction's response message: the new message for callback types 4/5
    (after the deferred edit or first followup), or the component's message for 6/7 (after the
    update). ``target`` is the message the clicked component was on. Messages are snapshots.
    """

    kind: str  # "command" | "component" | "autocomplete" | "modal_submit"
    interaction_id: int
    token: str
    callback_type: Optional[int] = None
    message: Optional[FakeMessage] = None
    target: Optional[FakeMessage] = None
    followups: list[FakeMessage] = field(default_factory=list)
    posted: list[FakeMessage] = field(default_factory=list)
    edited: list[FakeMessage] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)
    modal: Optional[dict] = None
    ack_latency: Optional[float] = None
    latency: float = 0.0

    def __repr__(self) -> str:
        what = repr(self.message) if self.message is not None else (
            f"choices={[c.name for c in self.choices]}" if self.callback_type == 8 else
            f"modal={self.modal.get('title')!r}" if self.modal else "no message")
        return (f"<Reply {self.kind} callback={self.callback_type} {what} followups={len(self.followups)} "
                f"posted={len(self.posted)} latency={self.latency * 1000:.1f}ms>")

    # ---- shortcuts to the response message -------------------------------------------
    def _msg(self) -> FakeMessage:
        if self.message is None:
            raise AssertionError(
                f"the bot's answer to this {self.kind} interaction has no message "
                f"(callback {self.callback_type} = {CALLBACK_NAMES.get(self.callback_type or 0)})"
            )
        return self.message

    @property
    def content(self) -> str:
        return self._msg().content

    @property
    def text(self) -> str:
        return self._msg().text

    @property
    def embeds(self) -> list[dict]:
        return self._msg().embeds

    @property
    def components(self) -> list[dict]:
        return self._msg().components

    @property
    def attachments(self) -> list[FakeAttachment]:
        return self._msg().attachments

    @property
    def png(self) -> bytes:
        return self._msg().png

    @property
    def flags(self) -> int:
        return self._msg().flags

    @property
    def ephemeral(self) -> bool:
        return self.message is not None and self.message.ephemeral

    @property
    def deferred(self) -> bool:
        return self.callback_type in (5, 6)

    @property
    def updated(self) -> bool:
        """The answer edited the component's message (callback 7, or 6 followed by an edit)."""
        return self.callback_type == 7 or (self.callback_type == 6 and any(
            m.id == self.interaction_target_id for m in self.edited))

    @property
    def interaction_target_id(self) -> Optional[int]:
        return self.target.id if self.target is not None else None

    @property
    def messages(self) -> list[FakeMessage]:
        """The response message (if any) then the followups."""
        return ([self.message] if self.message is not None else []) + list(self.followups)

    @property
    def all_text(self) -> str:
        return "\n".join(m.text for m in self.messages)
