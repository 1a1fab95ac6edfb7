"""A fake Discord (REST + gateway) on 127.0.0.1 for end-to-end tests through the real discord.py client.

The bot under test is an ordinary ``discord.Client`` / ``commands.Bot`` / ``AutoShardedBot``: it
logs in, connects to the gateway, syncs its ``CommandTree``, receives INTERACTION_CREATE and
answers through the interaction callback and webhook endpoints, exactly as against Discord.
``FakeDiscord`` patches ``discord.http.Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY``
while it runs (and restores them), so nothing but 127.0.0.1 is ever contacted.

Quick start (pytest-asyncio, auto mode)::

    from fakediscord import FakeDiscord

    async def test_challenge():
        async with FakeDiscord() as fake:
            guild = fake.add_guild("Elfball Club")            # build the world *before* the bot starts
            pitch = guild.add_text_channel("pitch")
            alice, bob = guild.add_member("Alice"), guild.add_member("Bob")
            mod = guild.add_member("Mod", manage_guild=True)
            await fake.start_bot(make_bot())                  # ready + commands synced + settled
            reply = await fake.slash(alice, pitch, "match challenge", opponent=bob, team="gnolls")
            assert reply.attachments[0].is_png and not reply.ephemeral
            again = await fake.click(bob, reply.message, label="Accept")
            refused = await fake.click(alice, reply.message, custom_id="elfball:accept:*")
            assert refused.ephemeral and fake.message(reply.message).content == reply.content
            choices = await fake.autocomplete(alice, pitch, "act", option="player", value="dr")

FakeDiscord(*, token="fake-bot-token", app_name="Elfball", shard_count=1, timeout=5.0, settle=0.05,
            ack_deadline=3.0, application_flags=0)
    ``timeout``: default wait for each interaction's answer. ``settle``: after an answer is complete,
    wait until no REST request has arrived for this long (catches trailing followups and channel
    posts). ``ack_deadline``: Discord's 3-second window; a later callback gets 404 "Unknown
    interaction" (10062), as on Discord. ``shard_count`` is what ``GET /gateway/bot`` recommends
    (AutoShardedClient); each shard gets the guilds ``(guild_id >> 22) % count`` assigns it.

Building the world (synchronous; changes made after the bot connected are sent to it as
GUILD_CREATE / GUILD_ROLE_CREATE / CHANNEL_CREATE / GUILD_MEMBER_ADD):
    fake.add_guild(name="Elfball Club", *, locale="en-US") -> FakeGuild
    guild.add_text_channel(name, *, topic=None) -> FakeChannel
    guild.add_member(name, *, roles=(), manage_guild=False, administrator=False, permissions=None,
                     nick=None, locale="en-US") -> FakeMember  # permissions: int or discord.Permissions;
                                                # locale: his client's language (his interactions')
    guild.add_role(name, permissions=0) -> FakeRole
    guild.owner (a separate "Server Owner" member: owners have every permission), guild.bot_member,
    guild.member(name_or_id), guild.channel(name_or_id), member.mention, member.permissions
    fake.attachment(filename, data) -> FakeAttachment   # value for an attachment option

Running bots:
    await fake.start_bot(bot, *, token=None, timeout=None, guild_ready_timeout=0.05, synced=True,
                         fast_identify=True) -> bot
        starts ``bot.start(fake.token)`` in a task; returns once the bot is ready, every shard
        is connected and (``synced``) some commands are registered. It sets the bot's
        ``guild_ready_timeout`` (discord.py waits that long after the last GUILD_CREATE before
        READY; default 2 s) and, with ``fast_identify``, replaces ``before_identify_hook`` (5 s
        sleep before every IDENTIFY but the first: each extra shard, each re-identify).
        A bot that crashes makes the next harness call raise. Any ``discord.Client`` works;
        build it (with its database etc.) in the test and hand it over unstarted.
    await fake.stop_bot(bot)                 # bot.close() and wait for its task (restarts)
    await fake.wait_until_ready(timeout=None, *, synced=True)
    await fake.settle(quiet=None)            # until the bot's REST traffic is quiet

Interactions (each dispatches INTERACTION_CREATE on the gateway and returns once the bot's
answer is complete: a message/update/autocomplete/modal callback, or a deferral *followed by*
an edit of the original, a followup or a message in that channel; then it settles):
    await fake.slash(member, channel, "match challenge", options=None, *, subcommand=None,
                     group=None, locale=None, timeout=None, **options) -> Reply
        options are checked against the synced command: unknown names, wrong types, values
        outside ``choices``/min/max and missing required options raise FakeDiscordError.
        Values: str/int/float/bool, FakeMember (user option; ``resolved`` is filled in),
        FakeChannel, FakeRole, FakeAttachment. ``locale="fr"`` sets the user's locale for this
        interaction (default: the member's ``locale``).
    await fake.autocomplete(member, channel, "setup place", option="player", value="dr",
                            options=None, *, locale=None) -> list[Choice(name, value, ...)]
    await fake.click(member, message, custom_id=None, *, label=None, values=None, locale=...) -> Reply
        ``message``: a FakeMessage (a Reply's snapshot is fine), a Reply or an id; the component
        is found on the message's *current* state by custom_id (exact, or prefix + "*") or by
        label/placeholder. Disabled components and link buttons raise FakeDiscordError.
    await fake.select(member, message, custom_id, values=[...]) -> Reply   # select menus
    await fake.submit_modal(member, reply_that_opened_it, {"input_custom_id": "text"}) -> Reply
    await fake.wait_for_message(channel=None, check=None, *, timeout=None) -> FakeMessage
        the next message the bot posts on its own from now on (reminders, clocks).
    Like Discord's client, the harness refuses what a user could not do: a command hidden by its
    ``default_member_permissions``, clicking someone else's ephemeral message, a disabled button.
    A bot that does not answer in time raises InteractionTimeout (an AssertionError) that
    lists its requests and the errors discord.py logged (e.g. the traceback of a command).

Reply (snapshots taken when the answer was complete):
    kind ("command"|"component"|"autocomplete"|"modal_submit"), interaction_id, token,
    callback_type (4 message, 5 deferred message, 6 deferred update, 7 update, 8 choices, 9 modal),
    message: the response message (types 4/5, after the deferred edit / first followup; for 6/7
    the component's message after the update), target: the message the component was on,
    followups, posted (every message created meanwhile, any channel), edited, choices, modal,
    ack_latency, latency (seconds from dispatch), and shortcuts to ``message``: content, text,
    embeds, components, attachments, png, flags, ephemeral; plus deferred, updated, messages,
    all_text.

FakeMessage (live in ``fake.message(id)`` / ``fake.channel_messages(chan)``):
    id, channel_id, guild_id, author, content, embeds, components (raw dicts), attachments,
    flags, ephemeral, loading, type, webhook_id, interaction_metadata, edit_count, deleted,
    reactions; text (content + embeds + text displays), mentions (user ids), mentions_user(m),
    buttons, selects, labels, custom_ids, find_component(custom_id=None, label=None), png.
FakeAttachment: filename, data (bytes), size, url (served by the fake), content_type, is_png,
    is_image, dimensions (PNG width, height), description, ephemeral.

Inspection and realism:
    fake.commands(guild=None) -> {name: payload as synced}  (guild=None: global commands);
    fake.command_names(guild=None); fake.sync_count
    fake.channel_messages(chan, *, include_ephemeral=False, include_deleted=False); chan.messages
    fake.dm_messages(member); fake.message(id_or_message_or_reply)
    fake.requests (RecordedRequest: method, path, query, json, files, status);
    fake.requests_matching("POST /channels/*/messages"); fake.unhandled (routes not served);
    fake.bot_errors() (discord.py ERROR log records, formatted)
    fake.fail_next("POST /interactions/*/callback", status=429, *, times=1, retry_after=0.05,
                   is_global=False, body=None) -> InjectedFailure (``.hits``): the next matching
        requests get 429 (Discord's body + headers) or 500/502/...; discord.py retries 429 after
        retry_after and 5xx after 1 s, 3 s, ...
    await fake.send_reconnect(guild=None) (op 7), await fake.drop_connection(guild=None, code=4000)
        (the bot RESUMEs; events sent meanwhile are replayed), fake.identify_count,
        fake.resume_count, fake.dispatch_event(name, data, guild=None)
    The fake rejects what Discord rejects: >2000-character content, bad embeds, >5 rows, more than
    25 choices, duplicate custom ids, empty messages, callbacks after 3 s or twice (40060),
    invalid command names/descriptions at sync (their ``name_localizations`` and
    ``description_localizations`` too).

Only one FakeDiscord may run at a time (the patches are process-wide). Everything runs in the
test's event loop: no threads besides discord.py's heartbeat, no network beyond 127.0.0.1.
"""

from .models import (
    Choice, FakeAttachment, FakeChannel, FakeGuild, FakeMember, FakeMessage, FakeRole, FakeUser, Perm, Reply,
)
from .server import FakeDiscord, FakeDiscordError, InjectedFailure, InteractionTimeout, RecordedRequest

__all__ = [
    "Choice", "FakeAttachment", "FakeChannel", "FakeDiscord", "FakeDiscordError", "FakeGuild", "FakeMember",
    "FakeMessage", "FakeRole", "FakeUser", "InjectedFailure", "InteractionTimeout", "Perm", "RecordedRequest",
    "Reply",
]
