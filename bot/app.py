"""The Discord bot: the client, its extensions and its background work.

``ElfballBot`` loads one package per domain (discord.py's extension and Cog mechanism, laid out
as Avrae's ``cogs5e/<domain>/`` and Red's ``redbot/cogs/<cog>/``), each with its cog, views and
autocomplete: ``bot.match`` (challenges and the match's life), ``bot.play`` (set-up, play
commands, panels and the match poster), ``bot.team``, ``bot.league``, ``bot.trust`` (preferences,
the board in words, checking the dice), ``bot.limits`` (a server's cooldowns and caps),
``bot.lookup`` (rules, odds, dice), ``bot.ladder`` (coach ratings), ``bot.learn`` (the lessons)
and ``bot.help``.
Replies, refusals, the one error handler, checks and transformers live in ``bot.common``. The
bot talks only to the service (``service``); nothing here rolls a die or applies a rule.

Background work, safe with several processes (each reads its shards' guilds only and claims
each job in the database): reminders to the deciding coach, and the owed-board sweep that posts
a board whose post failed after its command was saved.

Command sync: the tree's digest is stored in the database, and only the process that changes it
syncs, so N processes starting together sync once and an unchanged tree is not synced at all
(``elfball sync-commands`` forces it).
"""

from __future__ import annotations

import asyncio
import gc
import hashlib
import json
import logging
import os
import sys
from datetime import timedelta
from importlib import resources
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.common.errors import answer_error
from bot.common.i18n import CommandTranslator, server_language, tr
from bot.common.metrics import DEFAULT_HOST, BotMetrics, MetricsServer
from bot.common.reply import NO_PINGS, ping
from bot.common.ratelimits import pace_bucket_sweeps
from bot.play.items import PanelButton, PanelSelect
from bot.play.panels import CloseUpButton, DescribeButton
from bot.play.poster import Poster
from service import operations
from service.drawing import Drawing, render_processes
from service.leagues import LeagueService
from service.lessons import LessonService
from service.matches import AI_COACH_ID, MatchService, prompt_for

__all__ = ["ElfballBot", "elfball", "EXTENSIONS", "command_list", "main", "metrics_settings", "shard_settings", "sync_commands", "tree_digest"]

log = logging.getLogger("elfball.bot")
#: The domains, in load order (the league adds its commands to the team group).
EXTENSIONS = ("bot.match.cog", "bot.play.cog", "bot.team.cog", "bot.league.cog", "bot.trust.cog", "bot.limits.cog", "bot.lookup.cog",
              "bot.ladder.cog", "bot.learn.cog", "bot.help.cog")


def tree_digest(tree: app_commands.CommandTree, guild: discord.abc.Snowflake | None = None) -> str:
    """A digest of what a sync would send: every command's payload and the translations."""
    payload = [c.to_dict(tree) for c in sorted(tree.get_commands(guild=guild), key=lambda c: c.name)]
    h = hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode())
    for name in ("fr.json",):
        h.update(resources.files("bot").joinpath("locales/commands", name).read_bytes())
    return h.hexdigest()


#: How often the bot looks for decisions that have waited too long, and for owed boards.
REMINDER_SWEEP_SECONDS = 60.0
OWED_SWEEP_SECONDS = 20.0


#: The cyclic collector's thresholds once the bot is ready (Python's: 700, 10, 10). Nearly every
#: object an action makes is freed by its reference count; a young generation ten times larger
#: is walked ten times less often for the same few survivors (the collector's CPU per action
#: about halved, the memory under load the same; docs/benchmarks.md).
GC_THRESHOLDS = (7000, 10, 10)


def settle_garbage_collector() -> None:
    """Once the bot is ready: everything made until now (modules, the servers' channels and
    roles, the extensions) lives as long as the process, so the collector's full passes leave it
    alone from here (``gc.freeze``) instead of walking it again every few hundred actions (~80 ms
    each at 1,000 channels); garbage is collected first, so none is kept for good."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


class ElfballBot(commands.AutoShardedBot):
    def __init__(self, service: MatchService | None = None, *, dev_guild: int | None = None,
                 reminder_sweep: float = REMINDER_SWEEP_SECONDS, owed_sweep: float = OWED_SWEEP_SECONDS,
                 sync: str = "auto", background: bool = True, warm: bool = True,
                 metrics_port: int | None = None, metrics_host: str = DEFAULT_HOST, tune_gc: bool = False,
                 **kwargs: Any) -> None:
        """``sync``: "auto" (when the tree changed), "force" or "never"; ``background``: run the
        reminder and owed-board sweeps (not for a one-off ``sync-commands``); ``warm``: draw a
        picture at start so the first post finds the renderer's caches ready (when drawing in the
        bot's process; picture workers start, and warm, at the first picture instead); ``metrics_port``:
        serve ``/metrics`` and ``/healthz`` there (0: any free port, see ``metrics_server.port``)."""
        # Only the gateway events the bot uses. GUILDS: its servers, channels, threads and roles
        # (GUILD_CREATE, CHANNEL_*, THREAD_*, GUILD_ROLE_*), which discord.py's cache needs to
        # know a channel, a thread and permissions. Nothing else: the bot answers interactions
        # (sent whatever the intents), edits its posts by id, has no prefix command, no
        # on_message, no message cache, and asks members by id (ladder names; no intent needed).
        # The defaults would add GUILD_MESSAGES (a MESSAGE_CREATE for every message in every
        # channel, its own posts included, a MESSAGE_UPDATE for every edit of its boards: each
        # parsed into a Message and run through process_commands), typing, reactions, voice...
        intents = discord.Intents.none()
        intents.guilds = True
        kwargs.setdefault("allowed_mentions", NO_PINGS)  # a ping is always chosen, never a default
        # No message cache: the bot reads no message event and edits its posts by id (partial
        # messages); discord.py would otherwise keep the last 1,000 messages of every channel it
        # sees (its own posts with their embeds, attachments and panels; members' chat), memory
        # that grows with the servers' activity and serves nothing (docs/memory.md).
        kwargs.setdefault("max_messages", None)
        #: Counted whether or not they are served (``bot.metrics``): a registry of this bot's own.
        self.metrics = BotMetrics()
        kwargs.setdefault("http_trace", self.metrics.trace_config())
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, **kwargs)
        pace_bucket_sweeps(self.http)
        self.service = service or MatchService()
        self._lessons: LessonService | None = None
        if getattr(self.service, "language_for", "") is None:  # boards are drawn in their server's language
            self.service.language_for = self.match_language
        if getattr(self.service, "close_ups", None) is False:  # a close-up beside the board, for phones
            self.service.close_ups = True
        self.metrics.picture_fallbacks.set_function(
            lambda: getattr(getattr(self.service, "drawing", None), "fallbacks", 0))
        self.dev_guild = dev_guild
        self.reminder_sweep = reminder_sweep
        self.owed_sweep = owed_sweep
        self.sync_mode = sync
        self.background = background
        self.warm = warm
        self.poster = Poster(self)
        #: The league extension's service (``bot.league.cog`` sets it up).
        self.league: LeagueService | None = None
        #: The extensions' own reminders, run after the matches' in each reminder sweep (the
        #: league's round deadlines): each claims what it sends in the database, as ``remind``.
        self.sweeps: list[Callable[[], Awaitable[None]]] = []
        self.synced = False
        self.metrics_server = MetricsServer(self, host=metrics_host, port=metrics_port) \
            if metrics_port is not None else None
        self._tasks: list[asyncio.Task[None]] = []
        #: Tune the cyclic garbage collector once ready (``settle_garbage_collector``): a bot
        #: process's own choice (``main``), not a test's that starts many bots in one process.
        self.tune_gc = tune_gc
        self._frozen = False

    @property
    def lessons(self) -> LessonService:
        """The lessons of ``/learn``: matches of this bot's match service, judged after each
        command. Made when the learn extension loads (at start, before any command is played),
        so a lesson's press after a restart is judged too."""
        if self._lessons is None:
            self._lessons = LessonService(self.service)
        return self._lessons

    def match_language(self, match: Any) -> str:
        """The language of a match's public posts: its server's (blocking: a worker thread's)."""
        return server_language(match.guild_id, self.get_guild(match.guild_id))

    def serves(self, guild_id: int) -> bool:
        """Whether this process holds the shard of ``guild_id`` (Discord: (id >> 22) % count)."""
        count = self.shard_count or 1
        mine = self.shard_ids if self.shard_ids is not None else range(count)
        return (guild_id >> 22) % count in mine

    def serves_match(self, match: Any) -> bool:
        return self.serves(match.guild_id)

    async def _every(self, seconds: float, job: Any, name: str) -> None:
        await self.wait_until_ready()
        while not self.is_closed():
            try:
                await job()
            except Exception:  # a failed sweep must not stop the next one
                log.exception("%s failed", name)
            await asyncio.sleep(seconds)

    async def remind(self) -> None:
        """Remind the deciding coach of every match whose deadline passed. Deadlines live in the
        database and each reminder is claimed there, so restarts and other processes are safe."""
        due = await asyncio.to_thread(self.service.due_reminders, accept=self.serves_match)
        for match, prompt in due:
            try:  # one deleted channel must not hold up the other reminders
                coach = match.deciding_user_id
                channel = await self.poster.channel(match.channel_id)
                lang = await asyncio.to_thread(server_language, match.guild_id, getattr(channel, "guild", None))
                if lang != "en":
                    prompt = prompt_for(match.engine_state(), language=lang)
                mention = f"<@{coach}> — " if coach and coach != AI_COACH_ID else ""
                await channel.send(tr(lang, "reminder", mention=mention, prompt=prompt), allowed_mentions=ping(coach))
                self.metrics.reminders.inc()
            except discord.HTTPException:
                log.warning("could not remind match %s in channel %s", match.id, match.channel_id)
        for sweep in self.sweeps:
            try:
                await sweep()
            except Exception:  # one extension's failure must not stop the others
                log.exception("reminder sweep of an extension failed")

    async def _warm(self) -> None:
        warm = getattr(self.service, "warm_pictures", None)
        if warm is not None:
            try:
                await asyncio.to_thread(warm)
            except Exception:  # noqa: BLE001 - only a head start: the first post draws them anyway
                log.warning("could not warm the picture caches", exc_info=True)

    async def on_ready(self) -> None:
        if self.tune_gc and not self._frozen:
            self._frozen = True
            settle_garbage_collector()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.metrics.seen(interaction)

    async def on_app_command_completion(self, interaction: discord.Interaction, _command: Any) -> None:
        # A command that neither refused nor needed work in a thread (help, rules...) is done.
        self.metrics.outcome(interaction, "ok")

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        if self.metrics_server is not None:
            await self.metrics_server.stop()
        await super().close()
        close = getattr(self.service, "close", None)
        if close is not None:  # its picture workers, if it has any
            await asyncio.to_thread(close)

    async def setup_hook(self) -> None:
        # Panels of earlier runs keep working: their items are rebuilt from the custom ids.
        self.add_dynamic_items(PanelButton, PanelSelect, DescribeButton, CloseUpButton)
        # French (and any other catalogued) names and descriptions, synced with the tree.
        await self.tree.set_translator(CommandTranslator())
        for name in EXTENSIONS:
            await self.load_extension(name)
        self.tree.on_error = self.on_tree_error  # type: ignore[method-assign]  # discord.py documents replacing CommandTree.on_error
        if self.metrics_server is not None:  # before the gateway: /healthz says "not ready" meanwhile
            await self.metrics_server.start()
        if self.background:
            if self.warm:
                self._tasks.append(asyncio.create_task(self._warm()))
            self._tasks.append(asyncio.create_task(self._every(self.reminder_sweep, self.remind, "reminder sweep")))
            self._tasks.append(asyncio.create_task(self._every(self.owed_sweep, self.poster.sweep, "owed-board sweep")))
        guild = discord.Object(id=self.dev_guild) if self.dev_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        if self.sync_mode != "never":
            await self.sync_commands(guild=guild, force=self.sync_mode == "force")

    async def sync_commands(self, *, guild: discord.abc.Snowflake | None = None, force: bool = False) -> bool:
        """Sync the tree to Discord if it changed since the last sync (or ``force``); one process
        of several wins the claim in the database. True if this call synced."""
        digest = tree_digest(self.tree, guild)
        key = f"commands:{guild.id}" if guild is not None else "commands:global"

        def claim() -> bool:
            return operations.claim_command_sync(self.service.sessions, key, digest)

        if not force and not await asyncio.to_thread(claim):
            log.info("commands unchanged (%s): not synced", key)
            return False
        try:
            await self.tree.sync(guild=guild)
        except Exception:
            def release() -> None:
                operations.release_command_sync(self.service.sessions, key, digest)

            await asyncio.to_thread(release)  # the next start tries again
            raise
        if force:  # a forced sync is the tree Discord now has
            await asyncio.to_thread(claim)
        self.synced = True
        log.info("commands synced (%s)", key)
        return True

    async def on_tree_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await answer_error(interaction, error)


def elfball(interaction: discord.Interaction) -> ElfballBot:
    """The bot that received ``interaction``, typed: cogs reach its service and poster here."""
    client = interaction.client
    if not isinstance(client, ElfballBot):
        raise TypeError(f"an Elfball interaction reached {type(client).__name__}")
    return client


def command_list() -> list[Any]:
    """The top-level commands as the extensions build them, without Discord (docs and tests)."""
    bot = ElfballBot(MatchService(render=False), sync="never", background=False)
    asyncio.run(bot.setup_hook())
    return bot.tree.get_commands()


def shard_settings(spec: str) -> dict[str, Any]:
    """``ELFBALL_SHARDS``: empty for Discord's automatic sharding in one process, or
    ``FIRST-LAST/COUNT`` (e.g. ``0-3/8``) for this process's share when several run."""
    spec = spec.strip()
    if not spec:
        return {}
    try:
        shards, count = spec.split("/")
        first, _, last = shards.partition("-")
        ids = list(range(int(first), int(last or first) + 1))
        total = int(count)
    except ValueError:
        raise SystemExit(f"ELFBALL_SHARDS={spec!r}: write FIRST-LAST/COUNT, e.g. 0-3/8") from None
    if not ids or ids[-1] >= total:
        raise SystemExit(f"ELFBALL_SHARDS={spec!r}: shard ids must be below the count {total}")
    return {"shard_ids": ids, "shard_count": total}


def metrics_settings(environ: Any) -> dict[str, Any]:
    """``ELFBALL_METRICS_PORT`` (unset or empty: no endpoint) and ``ELFBALL_METRICS_HOST``
    (default 127.0.0.1; 0.0.0.0 to let another machine scrape it)."""
    port = str(environ.get("ELFBALL_METRICS_PORT", "")).strip()
    if not port:
        return {}
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise SystemExit(f"ELFBALL_METRICS_PORT={port!r}: write a TCP port number, e.g. 9108")
    host = str(environ.get("ELFBALL_METRICS_HOST", "")).strip() or DEFAULT_HOST
    return {"metrics_port": int(port), "metrics_host": host}


NO_TOKEN = (
    "DISCORD_TOKEN is not set.\n"
    "  1. Create an application at https://discord.com/developers/applications, add a Bot, copy its token.\n"
    "  2. Invite it with the 'bot' and 'applications.commands' scopes.\n"
    "  3. DISCORD_TOKEN=... elfball bot   (ELFBALL_DEV_GUILD=<server id> syncs commands there instantly)\n"
    "Meanwhile you can play without Discord: elfball local (or watch elfball demo)."
)


def main(argv: list[str] | None = None) -> int:
    """``elfball bot``: run the bot with ``DISCORD_TOKEN`` (and ``ELFBALL_DEV_GUILD``)."""
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    dev = os.environ.get("ELFBALL_DEV_GUILD", "").strip()
    hours = float(os.environ.get("ELFBALL_REMINDER_HOURS", "24") or 24)
    try:
        drawing = Drawing(render_processes())  # ELFBALL_RENDER_PROCESSES, checked before anything else
    except ValueError as exc:
        raise SystemExit(str(exc)) from None
    operations.upgrade_database()  # in a child process: the bot never imports Alembic
    service = MatchService(reminder_after=timedelta(hours=hours), drawing=drawing)
    bot = ElfballBot(service, dev_guild=int(dev) if dev.isdigit() else None, tune_gc=True,
                     **metrics_settings(os.environ), **shard_settings(os.environ.get("ELFBALL_SHARDS", "")))
    bot.run(token, log_handler=None)
    return 0


def sync_commands(guild: int | None = None) -> int:
    """``elfball sync-commands [--guild ID]``: log in over HTTP only, sync the tree (globally or
    to one server) whatever the stored digest says, and leave."""
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    operations.upgrade_database()

    async def run() -> None:
        bot = ElfballBot(MatchService(render=False), dev_guild=guild, sync="force", background=False)
        async with bot:
            await bot.login(token)  # runs setup_hook: extensions loaded, tree synced

    asyncio.run(run())
    print(f"commands synced {'to server ' + str(guild) if guild else 'globally (Discord may take up to an hour)'}")
    return 0
