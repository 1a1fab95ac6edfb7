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
    ``settle=None``: interactions return as soon as the answer is complete, without waiting for
    the bot's trailing requests (a load generator with hundreds of channels at once, where the
    whole fake is never quiet; ``fake.settle()`` still works when called).

Building the world (synchronous; changes made after the bot connected are sent to it as
GUILD_CREATE / GUILD_ROLE_CREATE / CHANNEL_CREATE / GUILD_MEMBER_ADD / THREAD_CREATE):
    fake.add_guild(name="Elfball Club", *, locale="en-US") -> FakeGuild
    guild.add_text_channel(name, *, topic=None) -> FakeChannel
    guild.add_member(name, *, roles=(), manage_guild=False, administrator=False, permissions=None,
                     nick=None, locale="en-US") -> FakeMember  # permissions: int or discord.Permissions;
                                                # locale: his client's language (his interactions')
    guild.add_role(name, permissions=0) -> FakeRole
    guild.add_thread(parent, name, *, owner=None, auto_archive_duration=1440, archived=False,
                     locked=False) -> FakeChannel   # a public thread (type 11); owner None: the bot
    guild.threads, guild.thread(name_or_id); thread.parent, .is_thread, .archived, .locked,
        .auto_archive_duration, .owner_id
    fake.dm_channel_for(member) -> FakeChannel      # his DM with the bot (opened if needed)
    channel.set_permissions(role_or_member, *, allow=0, deny=0)   # a channel's permission overwrite
        (``guild.everyone`` for @everyone, a role, a member or ``guild.bot_member``; both 0 removes
        it; a thread follows its parent's); sent as CHANNEL_UPDATE once the bot is connected.
    channel.permissions_for(member) -> int   # Discord's computation: guild permissions (owner,
        Administrator: all), then @everyone's, the roles' and the member's overwrites; no View
        Channel: nothing. Interactions carry it: the member's ``permissions`` and the bot's
        ``app_permissions`` are computed for the interaction's channel (discord.py's
        ``interaction.permissions`` / ``app_permissions``). The bot's own requests need them:
        POST /channels/{id}/messages wants Send Messages (in a thread: Send Messages in Threads)
        and Attach Files with files, a new thread Create Public Threads; without View Channel
        403 50001, else 403 50013. Embed Links and Read Message History are not enforced.
    guild.owner (a separate "Server Owner" member: owners have every permission), guild.bot_member,
    guild.member(name_or_id), guild.channel(name_or_id) (threads too), member.mention, member.permissions
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
an edit of the original (or of the pressed message), a followup or a new message in that
channel; an edit of another message is not its answer; then it settles):
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
    await fake.post(member, channel, content, *, reply_to=None, allowed_mentions=None) -> FakeMessage
        the member types (``fake.typing``) and writes a message (a reply to ``reply_to``); the bot
        gets MESSAGE_CREATE if its intents ask for it (see Gateway intents below).
    fake.typing(member, channel)             # TYPING_START, with GUILD_MESSAGE_TYPING / DIRECT_MESSAGE_TYPING
    Like Discord's client, the harness refuses what a user could not do: a command hidden by its
    ``default_member_permissions``, clicking someone else's ephemeral message, a disabled button,
    a command whose synced ``dm_permission`` is false or whose ``contexts`` lack 1 in a DM (or
    lack 0 in a server), a command in a locked thread (unless he has Manage Threads).
    In a DM (``fake.slash(member, fake.dm_channel_for(member), ...)``) the interaction has no
    guild_id, a ``user`` instead of a ``member``, ``context`` 1 (BOT_DM) and only global commands.
    In a thread, ``channel_id`` is the thread's and ``channel`` is typed 11 with its parent_id.
    In an archived thread the member's client unarchives it first (THREAD_UPDATE), as Discord's
    does before sending a message or a component interaction; if it is also locked (and he
    cannot manage threads) the interaction is never sent: FakeDiscordError.
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
    id, channel_id, guild_id, author, author_id, content, embeds, components (raw dicts),
    attachments, flags, ephemeral, loading, type (19 for a reply), webhook_id,
    interaction_metadata, message_reference, edit_count, edited_timestamp, deleted, reactions, uploads;
    text (content + embeds + text displays), buttons, selects, labels, custom_ids,
    find_component(custom_id=None, label=None), png;
    mentions: user ids *rendered* as mentions now (content, embeds, text displays), mentions_user(m);
    notified: user ids Discord *notified* when the message was created (see Notifications);
    api_mentions: the message object's ``mentions`` (content only, filtered by allowed_mentions).
FakeAttachment: filename, data (bytes), size, url (served by the fake), content_type, is_png,
    is_image, dimensions (PNG width, height), description, ephemeral.

Notifications (who gets pinged), recorded when a message is *created* (a channel post, an
interaction response of type 4, a followup that is a new message, a member's ``post``):
    fake.notifications -> [Notification(user_id, message_id, channel_id, at, reason)]
        ``at`` is ``fake.clock()``; reason "mention", "reply" or "dm".
    fake.notifications_for(member_or_id, *, since=None, channel=None) -> [Notification]
    Discord's rules, modelled: only ``<@id>``/``<@!id>`` in ``content`` (never embeds or
    components); ``allowed_mentions`` absent: every user mentioned, plus the replied-to author
    of a reply; present: users only if ``parse`` has "users" or they are in ``users``, and the
    replied-to author only with ``replied_user: true``; ``parse: ["users"]`` together with a
    non-empty ``users`` list is a 400 (50035 MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE), as on
    Discord. Never the author, nor anyone who cannot see the channel (not in the guild). In a
    DM every new message notifies the recipient (reason "dm"). Ephemeral messages notify nobody.
    Edits never notify, whatever mention they add: channel or webhook PATCH, @original, callback
    7, and also filling in a deferred response (the edit of @original or the first followup
    that replaces the "thinking" placeholder: Discord treats it as an edit, so a bot that defers
    and then mentions someone pings nobody). The guilds say "only @mentions"
    (default_message_notifications 1); role, @everyone and @here mentions are not modelled.

Counting what a channel shows (non-ephemeral, non-deleted messages; a "thinking" placeholder
counts, it is on screen):
    mark = fake.mark()                                   # a point in history, for since=
    fake.channel_history(chan) -> [FakeMessage]          # what a member scrolling sees, in order
    fake.new_messages(chan, since=mark), fake.new_message_count(chan, since=mark)
    fake.edit_count(chan, since=mark)     # edits of visible messages; filling a deferral is none
    Edits are never new messages: they bump ``edit_count`` and ``edited_timestamp``. The bot may
    edit its own non-ephemeral interaction responses and followups through
    PATCH /channels/{c}/messages/{m} (it is their author; Discord allows it, ephemeral ones are
    "Unknown Message"); editing someone else's message is 403 (50005). An edit with
    ``attachments`` keeps exactly the listed files (kept ids and new uploads, API v10); without
    it, uploads are appended to what the message had.
    fake.uploaded_bytes(since=mark) -> int   # bytes of every file the bot uploaded (all requests)
    FakeMessage.uploads -> [int]            # bytes uploaded with each create/edit of it that carried files

Threads (public, type 11, and private, type 12): POST /channels/{id}/threads (``type`` 11, or 12
with Create Private Threads (1<<36) and ``invitable``; the bot is the private thread's first
member), POST /channels/{id}/messages/{mid}/threads (the thread takes the
message's id; the message gets the HAS_THREAD flag), GET and PATCH /channels/{thread} (name,
archived, locked, auto_archive_duration); the bot gets THREAD_CREATE / THREAD_UPDATE.
    fake.archive(thread, *, locked=None)    # Discord's auto-archive (THREAD_UPDATE); locked=True locks
    Discord's rules: a new message in an archived thread unarchives it (THREAD_UPDATE), unless the
    thread is locked: then 400 50083 "Thread is archived"; editing a message or reacting in an
    archived thread is 50083; an archived thread takes no PATCH but unarchiving (50083); only
    members with Manage Threads (the bot has it) write or edit in a locked thread (403 50013).
    Deleting messages stays allowed. No THREAD_STARTER_MESSAGE is modelled.
    Private threads: PUT/DELETE /channels/{thread}/thread-members/{user} adds/removes a member
    (an archived thread 50083, a user not in the guild 10007; not invitable: only its owner or
    Manage Threads, else 50013), GET /channels/{thread}/thread-members[/{user}] (10007 for a
    non-member). Only its members and members with Manage Threads in the parent (owner,
    Administrator) see it: ``permissions_for`` is 0 for anyone else, he is never notified by its
    messages, his client cannot run a command, press or post there (FakeDiscordError).
    guild.add_thread(..., private=True, members=(...)); thread.thread_members, .invitable,
    .is_private, .can_see(member); fake.visible_history(member, chan) (empty when he cannot see it);
    fake.delete_thread(thread) (a moderator deletes it: THREAD_DELETE, then 10003 Unknown Channel).

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
        requests get 429 (Discord's body + headers) or 500/502/...; discord.py tries 5 times in
        all: it retries 429 after retry_after, and 5xx after 1 s, 3 s, 5 s, 7 s (real time) then
        raises; on bot-token routes (channels...) only 500/502/504/524 are retried, 503 raises at
        once; callbacks and webhooks (followups, @original) retry every 5xx.
    fake.fail_for("POST /webhooks/*", seconds=30, status=500, *, retry_after=0.05, is_global=False,
                  body=None) -> InjectedFailure: every matching request fails while ``fake.clock()``
        is inside the window (seconds=None: until stopped); ``handle.stop()`` ends it now,
        ``handle.active(fake.clock())`` tells, ``handle.hits`` counts.
    fake.fail_until(pattern, status=500, **kw) -> InjectedFailure   # fail_for without an end
    fake.advance(seconds, *, snowflakes=False): moves clock(); with ``snowflakes`` the ids minted
        from then on carry the later time too (an interaction's ``created_at``, which discord.py's
        cooldowns read): a cooldown passes without sleeping.
    fake.clock() -> float: real monotonic time plus every fake.advance(seconds); it times the
        fail_for windows and stamps notifications, so ``fake.advance(30)`` ends a 30 s outage at
        once. Discord's 3 s ack window and discord.py's retry sleeps stay on real time.
    await fake.send_reconnect(guild=None) (op 7), await fake.drop_connection(guild=None, code=4000)
        (the bot RESUMEs; events sent meanwhile are replayed), fake.identify_count,
        fake.resume_count, fake.dispatch_event(name, data, guild=None)
    Gateway intents, as Discord honours them: each session keeps the ``intents`` of its IDENTIFY
        (a RESUME keeps them; ``fakediscord.Intent`` has the bits). GUILD_CREATE,
        GUILD_ROLE_CREATE, CHANNEL_*, THREAD_* need GUILDS; GUILD_MEMBER_ADD needs GUILD_MEMBERS;
        every message created (a member's ``post``, the bot's REST posts, interaction responses,
        "thinking" placeholders and followups; never an ephemeral one), edited (a deferred
        response filled in too) or deleted is echoed as MESSAGE_CREATE / MESSAGE_UPDATE /
        MESSAGE_DELETE to the session holding its guild with GUILD_MESSAGES (a DM: shard 0, with
        DIRECT_MESSAGES), the bot's own messages included. Without MESSAGE_CONTENT a server
        message neither by the bot nor mentioning it arrives with empty content, embeds,
        attachments and components. INTERACTION_CREATE needs no intent; ``dispatch_event`` sends
        whatever it is given. ``fake.dispatched`` (a Counter: DISPATCH events by name, over all
        sessions) and ``fake.gateway_bytes`` (bytes written on gateway sockets) tell what the
        bots were sent.
    fake.live_shards() -> {shard id: count} held by live clients; fake.shard_guilds(shard_id) -> guild ids
        its READY carried. Each IDENTIFY names its shard [id, count] (``ELFBALL_SHARDS=0-0/2`` in
        one process, ``1-1/2`` in another); READY answers with it and carries only the guilds of
        that shard; every event of a guild (GUILD_CREATE, interactions, ...) goes to the live
        client holding ``(guild_id >> 22) % count``: none while that shard is down.
    Bots in other OS processes: serve the fake in the test process and, in the bot's process,
        call ``fakediscord.remote.use_fake_discord(fake.http_url)`` and ``ready_fast(bot)`` before
        starting the client; ``tests/support/shard_bot.py`` runs the Elfball bot that way.
    The fake rejects what Discord rejects, with Discord's status, code and (for 50035) nested
    ``errors`` shape ``{"content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message":
    "Must be 2000 or fewer in length."}]}}`` (discord.py's ``HTTPException.text`` reads
    "content: Must be ..."): content > 2000; > 10 embeds, embed title > 256, description > 4096,
    > 25 fields, field name > 256 / value > 1024, footer > 2048, author name > 256, all embeds
    together > 6000; > 5 action rows, 1-5 components a row, a select alone in its row;
    custom_id > 100 or duplicated, button label > 80, select placeholder > 150, 1-25 select
    options, option label/value/description > 100, min_values 0-25 / max_values 1-25;
    attachment description (alt text) > 1024; more than 10 attachments (400 30015); files
    > 10 MiB (413 40005); bad allowed_mentions; a reply to an unknown message (unless
    ``fail_if_not_exists`` is false); empty messages (50006); autocomplete > 25 choices, choice
    name 1-100, string value > 100; callbacks after 3 s or twice (40060); invalid command
    names/descriptions at sync (their ``name_localizations`` and ``description_localizations`` too).

Only one FakeDiscord may run at a time (the patches are process-wide). Everything runs in the
test's event loop: no threads besides discord.py's heartbeat, no network beyond 127.0.0.1.
"""

from .models import (
    Choice, FakeAttachment, FakeChannel, FakeGuild, FakeMember, FakeMessage, FakeRole, FakeUser, Intent, Mark,
    Notification, Perm, Reply,
)
from .server import FakeDiscord, FakeDiscordError, InjectedFailure, InteractionTimeout, RecordedRequest

__all__ = [
    "Choice", "FakeAttachment", "FakeChannel", "FakeDiscord", "FakeDiscordError", "FakeGuild", "FakeMember",
    "FakeMessage", "FakeRole", "FakeUser", "InjectedFailure", "Intent", "InteractionTimeout", "Mark", "Notification", "Perm",
    "RecordedRequest", "Reply",
]
