"""The checks that run before a command: where it may run, how often, and with which of
Discord's permissions.

- Matches, teams and leagues belong to a server's channels: ``ServerCog`` says so once for all
  the commands of a cog. Discord's clients do not offer those commands in direct messages
  (``guild_only``); an old client that still sends one is answered by the cog's check, which the
  tree's error handler turns into the private "servers only" refusal.
- The commands that cost (a challenge, a replay, an export, a team's or a league's creation)
  have a cooldown per member and server (``CHALLENGE``, ``REPLAY``, ``EXPORT``, ``TEAM_CREATE``,
  ``LEAGUE_CREATE``: decorators), as long as the server's limits say (``service.limits``). They
  are discord.py's ``Cooldown`` buckets, counted at the interaction's time (its snowflake, as
  discord.py's own cooldowns do); too soon raises ``CommandOnCooldown``, whose ``retry_after``
  the error handler turns into "try again <t:…:R>". A command refused after its check (a busy
  channel, a team that does not exist) gives its use back (``give_back``): only what was done
  counts.
- ``match_permissions``: before a match starts in a channel, the bot must be able to play it
  there (see it, post, attach the board, embed, read the history) and, for a thread it opens,
  create it and post in it; the member must be allowed to create public threads himself.
  Discord computes both sets for the channel of the interaction (``interaction.permissions``,
  ``interaction.app_permissions``: roles and the channel's overwrites); what is missing is
  refused by name, privately, before anything is created.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from service.limits import cooldown_seconds, operator_value

__all__ = ["ServerCog", "ServerGroupCog", "server_only", "refuse_direct_messages", "MemberCooldown", "CHALLENGE",
           "REPLAY", "EXPORT", "TEAM_CREATE", "LEAGUE_CREATE", "give_back", "retry_time", "match_permissions",
           "MATCH_PERMISSIONS", "THREAD_PERMISSIONS", "starts_match"]

T = TypeVar("T")
log = logging.getLogger("elfball.bot")


def server_only(cog: commands.Cog) -> None:
    """Mark a cog's commands as server-only: Discord's clients do not offer them in direct
    messages."""
    group = getattr(cog, "__cog_app_commands_group__", None)  # a GroupCog: its group decides
    for command in [*cog.__cog_app_commands__, *([group] if group is not None else [])]:
        command.guild_only = True


def refuse_direct_messages(interaction: discord.Interaction) -> bool:
    """The check: True in a server; in a direct message ``NoPrivateMessage`` (answered by the
    tree's error handler)."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return True


class ServerCog(commands.Cog):
    """A cog whose commands are played in a server's channels only."""

    async def cog_load(self) -> None:
        server_only(self)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return refuse_direct_messages(interaction)


class ServerGroupCog(commands.GroupCog):
    """A group cog (``/match``, ``/team``) whose commands are played in a server's channels only."""

    async def cog_load(self) -> None:
        server_only(self)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return refuse_direct_messages(interaction)


# --- cooldowns ----------------------------------------------------------------------------------------
_USED = "elfball_cooldown"


class MemberCooldown:
    """One cooldown per member and server for a costly action ("challenge", "replay", ...), its
    length read from the server's limits. Apply the instance to every command it covers
    (``/match replay`` and ``/league replay`` share ``REPLAY``)."""

    def __init__(self, action: str) -> None:
        self.action = action
        self.buckets: dict[tuple[int, int], app_commands.Cooldown] = {}

    async def check(self, interaction: discord.Interaction) -> bool:
        try:
            seconds = await asyncio.to_thread(cooldown_seconds, interaction.guild_id or 0, self.action)
        except Exception:  # noqa: BLE001 - without the database, the operator's value still holds
            log.warning("server limits unavailable; using the operator's %s cooldown", self.action, exc_info=True)
            seconds = operator_value(f"{self.action}_cooldown")
        now = interaction.created_at.timestamp()
        for key in [k for k, b in self.buckets.items() if b.get_tokens(now) == b.rate]:  # full again: nothing to keep
            del self.buckets[key]
        if seconds <= 0:
            return True
        key = (interaction.guild_id or 0, interaction.user.id)
        bucket = self.buckets.get(key)
        if bucket is None or bucket.per != seconds:  # the server changed its cooldown: the new one
            bucket = self.buckets[key] = app_commands.Cooldown(1, seconds)
        retry_after = bucket.update_rate_limit(now)
        if retry_after is not None:
            raise app_commands.CommandOnCooldown(bucket, retry_after)
        interaction.extras[_USED] = bucket
        return True

    def __call__(self, func: T) -> T:
        return app_commands.check(self.check)(func)


CHALLENGE = MemberCooldown("challenge")
REPLAY = MemberCooldown("replay")
EXPORT = MemberCooldown("export")
TEAM_CREATE = MemberCooldown("team")
LEAGUE_CREATE = MemberCooldown("league")


def give_back(interaction: discord.Interaction) -> None:
    """A command refused after its cooldown's check: the member did nothing, so the use is his
    again."""
    bucket = interaction.extras.pop(_USED, None)
    if bucket is not None:
        bucket.reset()


def retry_time(interaction: discord.Interaction, retry_after: float) -> int:
    """When the member may try again, as the Unix time of Discord's ``<t:…:R>``."""
    return int(interaction.created_at.timestamp() + retry_after + 0.999)


# --- Discord's permissions ------------------------------------------------------------------------------
#: What the bot needs where a match is played: see the channel, post the boards with their
#: pictures and embeds, and read the history (to edit and find its own posts).
MATCH_PERMISSIONS = ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history")
#: What opening a thread for a match also needs (the member too needs Create Public Threads).
THREAD_PERMISSIONS = ("create_public_threads", "send_messages_in_threads")


def _in_thread(interaction: discord.Interaction) -> bool:
    channel: Any = interaction.channel
    return isinstance(channel, discord.Thread) or getattr(channel, "type", None) in (
        discord.ChannelType.public_thread, discord.ChannelType.private_thread, discord.ChannelType.news_thread)


async def match_permissions(interaction: discord.Interaction) -> bool:
    """The check of the commands that start a match in this channel (``thread`` option: in a
    thread they open). Raises ``MissingPermissions`` (the member's) or ``BotMissingPermissions``."""
    thread = bool(getattr(interaction.namespace, "thread", False)) and not _in_thread(interaction)
    if thread and not interaction.permissions.create_public_threads:
        raise app_commands.MissingPermissions(["create_public_threads"])
    needed = list(MATCH_PERMISSIONS)
    if thread or _in_thread(interaction):  # posts go to a thread: Send Messages in Threads instead
        needed[needed.index("send_messages")] = "send_messages_in_threads"
    if thread:
        needed.insert(1, "create_public_threads")
    bot = interaction.app_permissions
    missing = [name for name in needed if not getattr(bot, name)]
    if missing:
        raise app_commands.BotMissingPermissions(missing)
    return True


def starts_match(func: T) -> T:
    """The decorator: ``match_permissions`` before the command runs."""
    return app_commands.check(match_permissions)(func)

