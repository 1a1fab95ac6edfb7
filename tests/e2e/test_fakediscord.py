"""The fake Discord harness (tests/fakediscord), validated with a tiny discord.py bot.

The bot below is a real ``commands.Bot`` with a ``CommandTree``; it talks to the fake over HTTP and
the gateway exactly as it would to Discord. These tests pin what the real bot's end-to-end tests
rely on: login + sync, replies with a PNG and a persistent view, deferred answers, button edits,
refusals to other members, autocomplete, locales, rate limits and 5xx, restarts, sharding.
A second tiny bot (``RealismBot``) pins the finer Discord rules the fake follows: who gets
notified, what an edit is, attachments on edit, limits, threads, DMs, failures over time.
"""

from __future__ import annotations

import asyncio
import io
import logging
import uuid
from types import SimpleNamespace
from typing import Optional

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from fakediscord import FakeDiscord, FakeDiscordError, InteractionTimeout

log = logging.getLogger("tinybot")


def png_bytes(width: int = 32, height: int = 24) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (width, height), (20, 120, 40)).save(buf, "PNG")
    return buf.getvalue()


# ------------------------------------------------------------------------------------------
# The tiny bot
# ------------------------------------------------------------------------------------------
class PingView(discord.ui.View):
    """A persistent view: fixed custom_id, no timeout, re-registered by every setup_hook."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Ping", style=discord.ButtonStyle.primary, custom_id="tiny:ping")
    async def ping(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        count = int((interaction.message.content.rsplit(" ", 1)[-1]) if "pings:" in interaction.message.content else 0)
        await interaction.response.edit_message(content=f"Hello! pings: {count + 1}", view=self)


class AcceptButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tiny:accept:(?P<uid>\d+)"):
    """Only the challenged member may press; anyone else gets an ephemeral explanation."""

    def __init__(self, uid: int) -> None:
        super().__init__(discord.ui.Button(label="Accept", style=discord.ButtonStyle.success,
                                           custom_id=f"tiny:accept:{uid}"))
        self.uid = uid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match, /):
        return cls(int(match["uid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.uid:
            await interaction.response.send_message(f"Only <@{self.uid}> can accept this duel.", ephemeral=True)
            return
        await interaction.response.edit_message(content=f"Duel accepted by {interaction.user.display_name}.",
                                                view=None)


class FrTranslator(app_commands.Translator):
    FR = {"hello": "bonjour", "Say hello with a picture": "Dire bonjour avec une image"}

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale, context) -> Optional[str]:
        return self.FR.get(string.message) if locale is discord.Locale.french else None


class TinyBot(commands.Bot):
    def __init__(self, dev_guild_id: Optional[int] = None, *, sharded: bool = False) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.dev_guild_id = dev_guild_id
        register(self.tree, dev_guild_id)

    async def setup_hook(self) -> None:
        self.add_view(PingView())
        self.add_dynamic_items(AcceptButton)
        await self.tree.set_translator(FrTranslator())
        await self.tree.sync()
        if self.dev_guild_id:
            await self.tree.sync(guild=discord.Object(self.dev_guild_id))


class TinyShardedBot(commands.AutoShardedBot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        register(self.tree, None)

    async def setup_hook(self) -> None:
        await self.tree.sync()


def register(tree: app_commands.CommandTree, dev_guild_id: Optional[int]) -> None:
    @tree.command(name="hello", description="Say hello with a picture")
    async def hello(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            "Hello!", file=discord.File(io.BytesIO(png_bytes()), "board.png"), view=PingView())

    @tree.command(name="slow", description="Defer, then edit the original response")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.edit_original_response(
            content="Done thinking.", attachments=[discord.File(io.BytesIO(png_bytes(64, 48)), "slow.png")])

    @tree.command(name="duel", description="Challenge a member")
    @app_commands.describe(opponent="Who to challenge", goals="Goals to win")
    async def duel(interaction: discord.Interaction, opponent: discord.Member, goals: int = 1) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(AcceptButton(opponent.id))
        await interaction.response.send_message(
            f"{interaction.user.mention} challenges {opponent.mention} ({goals} goal).", view=view)

    players = ["Drakon", "Dremel", "Grub", "Drusilla", "Orla"]

    async def player_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=p, value=p.lower()) for p in players if p.lower().startswith(current.lower())]

    @tree.command(name="pick", description="Pick a player")
    @app_commands.autocomplete(player=player_choices)
    async def pick(interaction: discord.Interaction, player: str) -> None:
        await interaction.response.send_message(f"You picked {player}.", ephemeral=True)

    @tree.command(name="whoami", description="Echo locale and permissions")
    async def whoami(interaction: discord.Interaction) -> None:
        user = interaction.user
        await interaction.response.send_message(
            f"locale={interaction.locale.value} kind={type(user).__name__} "
            f"manage_guild={interaction.permissions.manage_guild} "
            f"guild_perm={getattr(user, 'guild_permissions', discord.Permissions.none()).manage_guild}",
            ephemeral=True)

    @tree.command(name="boom", description="Fails on purpose")
    async def boom(interaction: discord.Interaction) -> None:
        raise RuntimeError("kaboom")

    @tree.command(name="silent", description="Never answers")
    async def silent(interaction: discord.Interaction) -> None:
        return None

    class Feedback(discord.ui.Modal, title="Feedback"):
        comment = discord.ui.TextInput(label="Comment", custom_id="tiny:comment")
        mood = discord.ui.TextInput(label="Mood", custom_id="tiny:mood", required=False, default="fine")

        async def on_submit(self, interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"Thanks: {self.comment.value} ({self.mood.value})")

    @tree.command(name="feedback", description="Open a modal")
    async def feedback(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(Feedback())

    class MenuView(discord.ui.View):
        def __init__(self) -> None:
            super().__init__(timeout=60)

        @discord.ui.select(custom_id="tiny:team", placeholder="Team",
                           options=[discord.SelectOption(label=t.title(), value=t) for t in ("gnolls", "elves")])
        async def team(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
            await interaction.response.defer()
            await interaction.edit_original_response(content=f"Team: {select.values[0]}")

        @discord.ui.select(cls=discord.ui.UserSelect, custom_id="tiny:who", placeholder="Who")
        async def who(self, interaction: discord.Interaction, select: discord.ui.UserSelect) -> None:
            await interaction.response.edit_message(content=f"Chosen: {select.values[0].display_name}")

    @tree.command(name="menu", description="Select menus")
    async def menu(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Choose", view=MenuView(), ephemeral=True)

    match = app_commands.Group(name="match", description="Matches")

    @match.command(name="challenge", description="Challenge with a team")
    @app_commands.choices(team=[app_commands.Choice(name="Gnolls", value="gnolls"),
                                app_commands.Choice(name="Elves", value="elves")])
    async def challenge(interaction: discord.Interaction, opponent: discord.Member,
                        team: app_commands.Choice[str]) -> None:
        await interaction.response.defer()
        await interaction.followup.send(f"{opponent.mention}: {interaction.user.display_name} plays {team.value}.")
        await interaction.channel.send(f"Reminder for {opponent.mention}.")

    tree.add_command(match)

    if dev_guild_id:
        @tree.command(name="modtools", description="Guild-only moderator tools", guild=discord.Object(dev_guild_id))
        @app_commands.default_permissions(manage_guild=True)
        async def modtools(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("mod tools here", ephemeral=True)

    @tree.error
    async def on_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        incident = uuid.uuid4().hex[:8]
        log.error("incident %s in %s", incident, interaction.command and interaction.command.name, exc_info=error)
        text = f"Sorry, something went wrong (incident {incident})."
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)


# ------------------------------------------------------------------------------------------
# Fixtures
# ------------------------------------------------------------------------------------------
def build_world(fake: FakeDiscord) -> SimpleNamespace:
    guild = fake.add_guild("Elfball Club")
    return SimpleNamespace(
        fake=fake, guild=guild, pitch=guild.add_text_channel("pitch"),
        alice=guild.add_member("Alice"), bob=guild.add_member("Bob"),
        mod=guild.add_member("Mod", manage_guild=True),
    )


@pytest.fixture
async def world():
    async with FakeDiscord() as fake:
        w = build_world(fake)
        w.bot = await fake.start_bot(TinyBot(w.guild.id))
        yield w


# ------------------------------------------------------------------------------------------
# Tests
# ------------------------------------------------------------------------------------------
async def test_connects_and_syncs_global_and_guild_commands(world):
    fake = world.fake
    assert fake.command_names() == {"hello", "slow", "duel", "pick", "whoami", "boom", "silent", "match",
                                    "feedback", "menu"}
    assert fake.command_names(world.guild) == {"modtools"}
    hello = fake.commands()["hello"]
    assert hello["name_localizations"]["fr"] == "bonjour"
    assert hello["description_localizations"]["fr"] == "Dire bonjour avec une image"
    challenge = fake.commands()["match"]["options"][0]
    assert challenge["name"] == "challenge" and [o["name"] for o in challenge["options"]] == ["opponent", "team"]
    assert world.bot.user.id == fake.application_id and world.bot.get_guild(world.guild.id).name == "Elfball Club"
    # The guild command only resolves because the interaction carries data.guild_id.
    reply = await fake.slash(world.mod, world.pitch, "modtools")
    assert reply.content == "mod tools here" and reply.ephemeral
    assert fake.commands(world.guild)["modtools"]["default_member_permissions"] == "32"
    with pytest.raises(FakeDiscordError, match="does not show /modtools to Alice"):
        await fake.slash(world.alice, world.pitch, "modtools")


async def test_slash_reply_has_png_and_persistent_view(world):
    fake = world.fake
    reply = await fake.slash(world.alice, world.pitch, "hello")
    assert reply.kind == "command" and reply.callback_type == 4
    assert reply.content == "Hello!" and not reply.ephemeral
    (att,) = reply.attachments
    assert att.filename == "board.png" and att.is_png and att.dimensions == (32, 24) and att.size == len(att.data)
    assert reply.png[:8] == b"\x89PNG\r\n\x1a\n"
    assert reply.message.custom_ids == ["tiny:ping"] and reply.message.labels == ["Ping"]
    assert reply.message.interaction_metadata["user"]["id"] == str(world.alice.id)
    assert [m.id for m in fake.channel_messages(world.pitch)] == [reply.message.id]
    assert reply.ack_latency is not None  # acknowledged (by its callback of type 4, above: no wall-clock comparison)


async def test_deferred_then_edited(world):
    reply = await world.fake.slash(world.alice, world.pitch, "slow")
    assert reply.callback_type == 5 and reply.deferred
    assert reply.content == "Done thinking." and not reply.message.loading
    assert reply.attachments[0].filename == "slow.png" and reply.attachments[0].dimensions == (64, 48)


async def test_click_edits_the_message(world):
    fake = world.fake
    reply = await fake.slash(world.alice, world.pitch, "hello")
    first = await fake.click(world.bob, reply.message, "tiny:ping")
    assert first.kind == "component" and first.callback_type == 7 and first.updated
    assert first.message.id == reply.message.id and first.content == "Hello! pings: 1"
    second = await fake.click(world.alice, first.message, label="Ping")
    assert second.content == "Hello! pings: 2"
    live = fake.message(reply.message.id)
    assert live.edit_count == 2 and live.attachments[0].is_png  # an edit without attachments keeps them
    assert reply.content == "Hello!"  # replies are snapshots


async def test_another_members_click_is_refused_ephemerally(world):
    fake = world.fake
    duel = await fake.slash(world.alice, world.pitch, "duel", opponent=world.bob, goals=2)
    assert duel.message.mentions_user(world.bob) and "(2 goal)" in duel.content
    refused = await fake.click(world.alice, duel.message, "tiny:accept:*")
    assert refused.ephemeral and refused.callback_type == 4
    assert refused.content == f"Only {world.bob.mention} can accept this duel."
    assert fake.message(duel.message).content == duel.content  # nothing changed
    assert refused.message.id not in [m.id for m in fake.channel_messages(world.pitch)]
    accepted = await fake.click(world.bob, duel.message, label="Accept")
    assert accepted.content == "Duel accepted by Bob." and accepted.components == []


async def test_user_option_resolves_to_a_member(world):
    # A user option needs data.resolved (users + members); the bot then gets a Member.
    reply = await world.fake.slash(world.alice, world.pitch, "duel", {"opponent": world.mod})
    assert world.mod.mention in reply.content


async def test_autocomplete_choices(world):
    choices = await world.fake.autocomplete(world.alice, world.pitch, "pick", option="player", value="dr")
    assert [c.name for c in choices] == ["Drakon", "Dremel", "Drusilla"]
    assert choices[0].value == "drakon"
    picked = await world.fake.slash(world.alice, world.pitch, "pick", player=choices[0].value)
    assert picked.ephemeral and picked.content == "You picked drakon."


async def test_locale_and_member_permissions(world):
    fake = world.fake
    fr = await fake.slash(world.alice, world.pitch, "whoami", locale="fr")
    assert fr.content == "locale=fr kind=Member manage_guild=False guild_perm=False"
    mod = await fake.slash(world.mod, world.pitch, "whoami")
    assert mod.content == "locale=en-US kind=Member manage_guild=True guild_perm=True"


async def test_subcommand_with_choices_deferred_followup_and_channel_post(world):
    fake = world.fake
    reply = await fake.slash(world.alice, world.pitch, "match challenge", opponent=world.bob, team="gnolls")
    # The first followup after a "thinking" defer replaces the placeholder, as on Discord.
    assert reply.callback_type == 5 and reply.content == f"{world.bob.mention}: Alice plays gnolls."
    assert reply.followups == []
    assert [m.content for m in reply.posted] == [reply.content, f"Reminder for {world.bob.mention}."]
    assert [m.content for m in fake.channel_messages(world.pitch)] == [m.content for m in reply.posted]
    with pytest.raises(FakeDiscordError, match="only takes the choices"):
        await fake.slash(world.alice, world.pitch, "match challenge", opponent=world.bob, team="orcs")
    with pytest.raises(FakeDiscordError, match="requires options"):
        await fake.slash(world.alice, world.pitch, "match", subcommand="challenge", opponent=world.bob)
    with pytest.raises(FakeDiscordError, match="no option"):
        await fake.slash(world.alice, world.pitch, "duel", opponent=world.bob, goal=3)


class HoldingBot(TinyBot):
    """TinyBot with /hold: it defers, then answers only once the test releases it."""

    def __init__(self, dev_guild_id: int) -> None:
        super().__init__(dev_guild_id)
        self.release = asyncio.Event()

        @self.tree.command(name="hold", description="Defer, answer when released")
        async def hold(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await self.release.wait()
            await interaction.edit_original_response(content="Answered.")


async def test_an_edit_of_another_message_does_not_answer_a_deferred_interaction():
    # The bot's trailing edit for an earlier command (closing the previous panel) may land while
    # the next interaction is deferred: it is not that interaction's answer.
    async with FakeDiscord() as fake:
        w = build_world(fake)
        bot = await fake.start_bot(HoldingBot(w.guild.id))
        earlier = await fake.slash(w.alice, w.pitch, "hello")
        held = asyncio.ensure_future(fake.slash(w.bob, w.pitch, "hold"))
        for _ in range(200):
            if any(m.loading for m in fake.channel_messages(w.pitch)):
                break
            await asyncio.sleep(0.01)
        else:
            raise AssertionError("/hold was never deferred")
        await bot.get_channel(w.pitch.id).get_partial_message(earlier.message.id).edit(content="Closed.")
        await fake.settle()
        assert fake.message(earlier).content == "Closed." and not held.done()
        bot.release.set()
        reply = await held
        assert reply.deferred and reply.content == "Answered."


async def test_failing_command_reaches_the_user_with_an_incident_id(world):
    fake = world.fake
    reply = await fake.slash(world.alice, world.pitch, "boom")
    assert reply.ephemeral and reply.content.startswith("Sorry, something went wrong (incident ")
    incident = reply.content.split("incident ")[1].rstrip(").")
    assert any(incident in e and "kaboom" in e for e in fake.bot_errors())


async def test_a_bot_that_never_answers_times_out_with_a_diagnosis(world):
    with pytest.raises(InteractionTimeout, match="no interaction callback"):
        await world.fake.slash(world.alice, world.pitch, "silent", timeout=0.3)


async def test_rate_limited_callback_is_retried(world):
    fake = world.fake
    failure = fake.fail_next("POST /interactions/*/callback", 429, retry_after=0.2)
    reply = await fake.slash(world.alice, world.pitch, "hello")
    assert failure.hits == 1 and reply.content == "Hello!" and reply.attachments[0].is_png
    assert [r.status for r in fake.requests_matching("POST /interactions/*/callback")] == [429, 200]
    assert reply.ack_latency >= 0.2


async def test_transient_5xx_on_edit_is_retried(world):
    fake = world.fake
    failure = fake.fail_next("PATCH /webhooks/*/messages/@original", 502)
    reply = await fake.slash(world.alice, world.pitch, "slow")
    assert failure.hits == 1 and reply.content == "Done thinking."
    assert len(fake.channel_messages(world.pitch)) == 1


async def test_restart_keeps_persistent_and_dynamic_buttons_working(world):
    fake = world.fake
    hello = await fake.slash(world.alice, world.pitch, "hello")
    duel = await fake.slash(world.alice, world.pitch, "duel", opponent=world.bob)
    await fake.stop_bot(world.bot)
    with pytest.raises(FakeDiscordError, match="no live gateway session"):
        await fake.click(world.bob, hello.message, "tiny:ping", timeout=0.2)
    await fake.start_bot(TinyBot(world.guild.id))
    assert (await fake.click(world.bob, hello.message, "tiny:ping")).content == "Hello! pings: 1"
    assert (await fake.click(world.bob, duel.message, label="Accept")).content == "Duel accepted by Bob."


async def test_gateway_reconnect_resumes(world):
    fake = world.fake
    await fake.send_reconnect()
    reply = await fake.slash(world.alice, world.pitch, "hello")
    assert reply.content == "Hello!"
    assert (fake.identify_count, fake.resume_count) == (1, 1)  # resumed, not re-identified
    await fake.drop_connection(code=4000)
    assert (await fake.slash(world.bob, world.pitch, "hello")).content == "Hello!"
    assert (fake.identify_count, fake.resume_count) == (1, 2)


async def test_members_added_after_connect_are_announced(world):
    fake = world.fake
    carol = world.guild.add_member("Carol", manage_guild=True)
    reply = await fake.slash(carol, world.pitch, "whoami")
    assert reply.content.endswith("manage_guild=True guild_perm=True")
    # GUILD_ROLE_CREATE reached the bot's cache, so guild_permissions sees the new role.
    assert world.bot.get_guild(world.guild.id).get_role(carol.roles[0].id).permissions.manage_guild


async def test_auto_sharded_bot_gets_each_guild_on_its_shard():
    async with FakeDiscord(shard_count=2) as fake:
        guilds = [fake.add_guild(f"Club {i}") for i in range(4)]
        chans = [g.add_text_channel("pitch") for g in guilds]
        players = [g.add_member("Player") for g in guilds]
        bot = await fake.start_bot(TinyShardedBot())
        assert bot.shard_count == 2 and len(bot.guilds) == 4
        for guild, chan, player in zip(guilds, chans, players):
            reply = await fake.slash(player, chan, "hello")
            assert reply.png and bot.get_guild(guild.id).shard_id == guild.shard_id(2)


async def test_validation_rejects_what_discord_rejects():
    async with FakeDiscord() as fake:
        w = build_world(fake)
        bot = TinyBot(w.guild.id)

        @bot.tree.command(name="long", description="Too long a message")
        async def long(interaction: discord.Interaction) -> None:
            try:
                await interaction.response.send_message("x" * 2001)
            except discord.HTTPException as exc:
                await interaction.response.send_message(f"rejected {exc.status} {exc.code}")

        await fake.start_bot(bot)
        reply = await fake.slash(w.alice, w.pitch, "long")
        assert reply.content == "rejected 400 50035"
        with pytest.raises(FakeDiscordError, match="no command /nope"):
            await fake.slash(w.alice, w.pitch, "nope")


async def test_modal_round_trip(world):
    fake = world.fake
    opened = await fake.slash(world.alice, world.pitch, "feedback")
    assert opened.callback_type == 9 and opened.message is None and opened.modal["title"] == "Feedback"
    reply = await fake.submit_modal(world.alice, opened, {"tiny:comment": "great game"})
    assert reply.kind == "modal_submit" and reply.content == "Thanks: great game (fine)"
    with pytest.raises(FakeDiscordError, match="required"):
        await fake.submit_modal(world.alice, opened, {"tiny:mood": "meh"})


async def test_select_menus_on_an_ephemeral_message(world):
    fake = world.fake
    menu = await fake.slash(world.alice, world.pitch, "menu")
    assert menu.ephemeral and [c["placeholder"] for c in menu.message.selects] == ["Team", "Who"]
    team = await fake.select(world.alice, menu.message, "tiny:team", values=["elves"])
    assert team.callback_type == 6 and team.content == "Team: elves" and team.ephemeral
    who = await fake.select(world.alice, team.message, label="Who", values=[world.bob])
    assert who.callback_type == 7 and who.content == "Chosen: Bob"
    with pytest.raises(FakeDiscordError, match="no option"):
        await fake.select(world.alice, menu.message, "tiny:team", values=["orcs"])
    with pytest.raises(FakeDiscordError, match="ephemeral"):
        await fake.select(world.bob, menu.message, "tiny:team", values=["elves"])


# ------------------------------------------------------------------------------------------
# Realism: notifications, edits, threads, DMs, limits, failures over time
# ------------------------------------------------------------------------------------------
class TagView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Tag me", custom_id="realm:tag")
    async def tag(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.edit_message(content=f"Tagged {interaction.user.mention}", view=self)


class RealismBot(commands.Bot):
    """A second tiny bot whose commands each exercise one Discord rule the fake must honour."""

    def __init__(self) -> None:
        # on_message reads members' words: GUILD_MESSAGES (in the defaults) and the privileged
        # MESSAGE_CONTENT, without which Discord (and the fake) sends them empty.
        intents = discord.Intents.default()
        intents.message_content = True
        super().__init__(command_prefix="!", intents=intents)
        self.thread_events: list[tuple[str, int, bool]] = []
        register_realism(self)

    async def setup_hook(self) -> None:
        await self.tree.sync()

    async def on_thread_create(self, thread: discord.Thread) -> None:
        self.thread_events.append(("create", thread.id, thread.archived))

    async def on_thread_join(self, thread: discord.Thread) -> None:
        self.thread_events.append(("join", thread.id, thread.archived))

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        self.thread_events.append(("update", payload.thread_id, payload.data["thread_metadata"]["archived"]))

    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot:
            return
        if message.content == "reply please":
            await message.reply("replying")
        elif message.content == "reply quietly":
            await message.reply("replying", mention_author=False)


def register_realism(bot: commands.Bot) -> None:
    tree = bot.tree

    async def report(interaction: discord.Interaction, exc: discord.HTTPException) -> None:
        text = f"rejected {exc.status} {exc.code} {exc.text}"
        if interaction.response.is_done():
            await interaction.followup.send(text[:1900], ephemeral=True)
        else:
            await interaction.response.send_message(text[:1900], ephemeral=True)

    @tree.command(name="ping", description="Mention members in many ways")
    @app_commands.choices(how=[app_commands.Choice(name=n, value=n) for n in (
        "plain", "none", "listed", "embed", "ephemeral", "deferred", "edited", "exclusive", "followup")])
    async def ping(interaction: discord.Interaction, how: str, who: discord.Member,
                   other: Optional[discord.Member] = None) -> None:
        both = f"{who.mention} {other.mention if other else ''}".strip()
        try:
            if how == "plain":
                await interaction.response.send_message(f"Hey {both}")
            elif how == "none":
                await interaction.response.send_message(f"Hey {both}", allowed_mentions=discord.AllowedMentions.none())
            elif how == "listed":
                await interaction.response.send_message(
                    f"Hey {both}", allowed_mentions=discord.AllowedMentions(users=[who], everyone=False, roles=False))
            elif how == "embed":
                await interaction.response.send_message(embed=discord.Embed(description=f"Hey {both}"))
            elif how == "ephemeral":
                await interaction.response.send_message(f"Hey {both}", ephemeral=True)
            elif how == "deferred":  # the first followup fills the "thinking" placeholder: an edit
                await interaction.response.defer(thinking=True)
                await interaction.followup.send(f"Hey {both}")
            elif how == "followup":  # a second followup is a new message
                await interaction.response.send_message("Thinking of someone...")
                await interaction.followup.send(f"Hey {both}")
            elif how == "edited":
                await interaction.response.send_message("Hey nobody")
                await interaction.edit_original_response(content=f"Hey {both}")
            elif how == "exclusive":  # discord.py cannot build this; Discord refuses it
                route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=interaction.channel_id)
                await interaction.response.defer(ephemeral=True)
                await interaction.client.http.request(route, json={
                    "content": f"Hey {both}", "allowed_mentions": {"parse": ["users"], "users": [str(who.id)]}})
        except discord.HTTPException as exc:
            await report(interaction, exc)

    @tree.command(name="tagme", description="A button whose update mentions the clicker")
    async def tagme(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Tag", view=TagView())

    @tree.command(name="anchor", description="Post, then edit that post through the channel endpoint")
    async def anchor(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message("v1")
        original = await interaction.original_response()
        await interaction.channel.get_partial_message(original.id).edit(content=text)  # PATCH /channels/...

    @tree.command(name="rewrite", description="Edit a message by id through the channel endpoint")
    async def rewrite(interaction: discord.Interaction, message_id: str, text: str,
                      thread_id: Optional[str] = None) -> None:
        target = interaction.client.get_partial_messageable(int(thread_id or interaction.channel_id))
        try:
            await target.get_partial_message(int(message_id)).edit(content=text)
            await interaction.response.send_message("rewritten", ephemeral=True)
        except discord.HTTPException as exc:
            await report(interaction, exc)

    @tree.command(name="files", description="Two files, then keep the first and add a third")
    async def files(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            "two", files=[discord.File(io.BytesIO(png_bytes()), "a.png"), discord.File(io.BytesIO(png_bytes()), "b.png")])
        original = await interaction.original_response()
        await interaction.edit_original_response(
            attachments=[original.attachments[0], discord.File(io.BytesIO(png_bytes(8, 8)), "c.png", description="C")])

    @tree.command(name="limit", description="Break one of Discord's limits")
    async def limit(interaction: discord.Interaction, what: str) -> None:
        view = discord.ui.View()
        kwargs: dict = {"content": "x"}
        if what == "files":
            kwargs["files"] = [discord.File(io.BytesIO(b"x"), f"f{i}.txt") for i in range(11)]
        elif what == "alt":
            kwargs["file"] = discord.File(io.BytesIO(png_bytes()), "a.png", description="d" * 1025)
        elif what == "placeholder":
            view.add_item(discord.ui.Select(custom_id="s", placeholder="p" * 151,
                                            options=[discord.SelectOption(label="a")]))
        elif what == "option":
            view.add_item(discord.ui.Select(custom_id="s", options=[
                discord.SelectOption(label="a", description="d" * 101)]))
        elif what == "footer":
            kwargs["embed"] = discord.Embed(description="ok").set_footer(text="f" * 2049)
        elif what == "total":
            kwargs["embeds"] = [discord.Embed(description="d" * 4000), discord.Embed(description="d" * 2001)]
        if view.children:
            kwargs["view"] = view
        try:
            await interaction.channel.send(**kwargs)
            await interaction.response.send_message("sent", ephemeral=True)
        except discord.HTTPException as exc:
            await report(interaction, exc)

    async def long_values(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name="long", value="v" * 101)]

    @tree.command(name="lookup", description="Autocomplete with too long a value")
    @app_commands.autocomplete(term=long_values)
    async def lookup(interaction: discord.Interaction, term: str) -> None:
        await interaction.response.send_message(term)

    @tree.command(name="whereami", description="Describe the interaction's channel")
    async def whereami(interaction: discord.Interaction) -> None:
        chan = interaction.channel
        await interaction.response.send_message(
            f"{type(chan).__name__} id={interaction.channel_id} guild={interaction.guild_id} "
            f"parent={getattr(chan, 'parent_id', None)} dm={interaction.context.dm_channel}")

    @tree.command(name="guildonly", description="Servers only")
    @app_commands.guild_only()
    async def guildonly(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("guild")

    @tree.command(name="serveronly", description="Servers only, by contexts")
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    async def serveronly(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("server")

    @tree.command(name="open", description="Open a public thread here (or on a new post) and write in it")
    async def open_thread(interaction: discord.Interaction, name: str, who: discord.Member,
                          from_message: bool = False) -> None:
        if from_message:
            await interaction.response.send_message(f"Match {name}")
            post = await interaction.original_response()
            thread = await post.create_thread(name=name, auto_archive_duration=60)
        else:
            thread = await interaction.channel.create_thread(name=name, type=discord.ChannelType.public_thread)
            await interaction.response.send_message(f"Opened {thread.mention}")
        await thread.send(f"Kick-off, {who.mention}!", view=PingView())

    @tree.command(name="say", description="Post in a channel or thread by id")
    async def say(interaction: discord.Interaction, channel_id: str, text: str) -> None:
        try:
            await interaction.client.get_partial_messageable(int(channel_id)).send(text)
            await interaction.response.send_message("said", ephemeral=True)
        except discord.HTTPException as exc:
            await report(interaction, exc)

    @tree.command(name="close", description="Archive (and lock) a thread by id")
    async def close(interaction: discord.Interaction, thread_id: str, lock: bool = False, rename: str = "") -> None:
        thread = await interaction.client.fetch_channel(int(thread_id))
        try:
            edits: dict = {"archived": True, "locked": lock}
            if rename:
                edits = {"name": rename}
            thread = await thread.edit(**edits)
            await interaction.response.send_message(f"closed archived={thread.archived}", ephemeral=True)
        except discord.HTTPException as exc:
            await report(interaction, exc)


@pytest.fixture
async def realm():
    async with FakeDiscord() as fake:
        w = build_world(fake)
        w.carol = w.guild.add_member("Carol")
        w.outsider = fake.add_guild("Elsewhere").add_member("Outsider")
        w.bot = await fake.start_bot(RealismBot())
        yield w


async def test_notifications_follow_allowed_mentions(realm):
    fake, alice, bob, carol = realm.fake, realm.alice, realm.bob, realm.carol
    plain = await fake.slash(alice, realm.pitch, "ping", how="plain", who=bob, other=carol)
    assert plain.message.notified == [bob.id, carol.id]
    (first, second) = fake.notifications[-2:]
    assert (first.user_id, first.message_id, first.channel_id, first.reason) == (
        bob.id, plain.message.id, realm.pitch.id, "mention")
    mark = fake.mark()
    none = await fake.slash(alice, realm.pitch, "ping", how="none", who=bob, other=carol)
    assert none.message.mentions == [bob.id, carol.id] and none.message.notified == []  # rendered, not pinged
    listed = await fake.slash(alice, realm.pitch, "ping", how="listed", who=bob, other=carol)
    assert listed.message.notified == [bob.id]
    embed = await fake.slash(alice, realm.pitch, "ping", how="embed", who=bob)
    assert embed.message.mentions == [bob.id] and embed.message.notified == []  # embeds never ping
    ephemeral = await fake.slash(alice, realm.pitch, "ping", how="ephemeral", who=bob)
    assert ephemeral.ephemeral and ephemeral.message.notified == []
    assert [n.message_id for n in fake.notifications_for(bob, since=mark)] == [listed.message.id]
    assert fake.notifications_for(carol, since=mark) == []
    # The message object's ``mentions`` follow allowed_mentions too (discord.py's Message.mentions).
    assert [u["id"] for u in fake.message(plain).payload()["mentions"]] == [str(bob.id), str(carol.id)]
    assert fake.message(none).payload()["mentions"] == []
    # A user outside the guild cannot be pinged there, and nobody pings himself.
    outsider = await fake.slash(alice, realm.pitch, "ping", how="plain", who=bob, other=realm.outsider)
    assert outsider.message.notified == [bob.id]


async def test_parse_users_with_a_users_list_is_refused_like_discord(realm):
    fake = realm.fake
    reply = await fake.slash(realm.alice, realm.pitch, "ping", how="exclusive", who=realm.bob)
    assert reply.ephemeral and reply.content.startswith("rejected 400 50035")
    assert 'allowed_mentions: parse:["users"] and users: [ids...] are mutually exclusive.' in reply.content
    assert fake.notifications_for(realm.bob) == [] and fake.channel_history(realm.pitch) == []


async def test_edits_and_filled_deferrals_never_notify(realm):
    fake, bob = realm.fake, realm.bob
    mark = fake.mark()
    edited = await fake.slash(realm.alice, realm.pitch, "ping", how="edited", who=bob)
    assert edited.content == f"Hey {bob.mention}" and edited.message.edit_count == 1
    assert edited.message.edited_timestamp is not None and edited.message.notified == []
    deferred = await fake.slash(realm.alice, realm.pitch, "ping", how="deferred", who=bob)
    assert deferred.content == f"Hey {bob.mention}" and deferred.followups == []
    assert deferred.message.notified == [] and deferred.message.edit_count == 0
    assert fake.notifications_for(bob, since=mark) == []
    tag = await fake.slash(realm.alice, realm.pitch, "tagme")
    tagged = await fake.click(bob, tag.message, "realm:tag")  # callback 7: an edit, however it mentions
    assert tagged.callback_type == 7 and tagged.content == f"Tagged {bob.mention}" and tagged.message.notified == []
    # A followup after a real response is a new message: that one notifies.
    followup = await fake.slash(realm.alice, realm.pitch, "ping", how="followup", who=bob)
    assert followup.followups[0].notified == [bob.id] and followup.message.notified == []
    assert len(fake.notifications_for(bob, since=mark)) == 1
    # Counting what the channel saw: four commands made five messages and two edits.
    assert fake.new_message_count(realm.pitch, since=mark) == 5
    assert fake.edit_count(realm.pitch, since=mark) == 2
    assert [m.id for m in fake.channel_history(realm.pitch)] == [
        edited.message.id, deferred.message.id, tag.message.id, followup.message.id, followup.followups[0].id]


async def test_replies_notify_the_replied_author_unless_told_not_to(realm):
    fake, alice = realm.fake, realm.alice
    await fake.post(alice, realm.pitch, "reply please")
    loud = fake.channel_history(realm.pitch)[-1]
    assert loud.content == "replying" and loud.type == 19 and loud.notified == [alice.id]
    assert fake.notifications_for(alice)[-1].reason == "reply"
    await fake.post(alice, realm.pitch, "reply quietly")
    quiet = fake.channel_history(realm.pitch)[-1]
    assert quiet.message_reference["message_id"] == str(fake.channel_history(realm.pitch)[-2].id)
    assert quiet.notified == []
    # A member's own message notifies whom he mentions.
    said = await fake.post(alice, realm.pitch, f"{realm.bob.mention} look")
    assert said.notified == [realm.bob.id] and said.author_id == alice.id


async def test_the_bot_edits_its_interaction_response_through_the_channel_endpoint(realm):
    fake = realm.fake
    reply = await fake.slash(realm.alice, realm.pitch, "anchor", text=f"v2 {realm.bob.mention}")
    assert fake.requests_matching("PATCH /channels/*/messages/*")[-1].status == 200
    live = fake.message(reply)
    assert live.content == f"v2 {realm.bob.mention}" and live.edit_count == 1 and live.notified == []
    assert fake.new_message_count(realm.pitch) == 1


async def test_editing_a_members_message_is_forbidden(realm):
    fake = realm.fake
    theirs = await fake.post(realm.bob, realm.pitch, "my words")
    reply = await fake.slash(realm.alice, realm.pitch, "rewrite", message_id=str(theirs.id), text="yours now")
    assert reply.content.startswith("rejected 403 50005")
    assert fake.message(theirs).content == "my words" and fake.message(theirs).edit_count == 0


async def test_an_edit_keeps_exactly_the_listed_attachments(realm):
    mark = realm.fake.mark()
    reply = await realm.fake.slash(realm.alice, realm.pitch, "files")
    live = realm.fake.message(reply)
    assert [a.filename for a in live.attachments] == ["a.png", "c.png"]
    assert live.attachments[1].description == "C" and live.attachments[1].dimensions == (8, 8)
    # The kept file is not uploaded again: the edit carried only the new one's bytes.
    sent, kept = len(png_bytes()), len(png_bytes(8, 8))
    assert live.uploads == [2 * sent, kept]
    assert realm.fake.uploaded_bytes(since=mark) == 2 * sent + kept


@pytest.mark.parametrize("what, expected", [
    ("files", "rejected 400 30015"),
    ("alt", "attachments.0.description: Must be 1024 or fewer in length."),
    ("placeholder", "components.0.components.0.placeholder: Must be 150 or fewer in length."),
    ("option", "components.0.components.0.options.0.description: Must be 100 or fewer in length."),
    ("footer", "embeds.0.footer.text: Must be 2048 or fewer in length."),
    ("total", "embeds: Embed size exceeds maximum size of 6000"),
])
async def test_discord_limits_are_refused_with_discords_errors(realm, what, expected):
    reply = await realm.fake.slash(realm.alice, realm.pitch, "limit", what=what)
    assert reply.ephemeral and expected in reply.content, reply.content
    assert realm.fake.channel_history(realm.pitch) == []


async def test_autocomplete_values_over_100_characters_are_refused(realm):
    fake = realm.fake
    with pytest.raises(InteractionTimeout):
        await fake.autocomplete(realm.alice, realm.pitch, "lookup", option="term", value="x", timeout=0.5)
    assert [r.status for r in fake.requests_matching("POST /interactions/*/callback")] == [400]


async def test_threads_created_by_the_bot_and_used_by_members(realm):
    fake, alice, bob = realm.fake, realm.alice, realm.bob
    opened = await fake.slash(alice, realm.pitch, "open", name="Alice vs Bob", who=bob)
    (thread,) = realm.guild.threads
    assert opened.content == f"Opened <#{thread.id}>" and thread.type == 11 and thread.parent is realm.pitch
    assert ("create", thread.id, False) in realm.bot.thread_events
    assert isinstance(realm.bot.get_channel(thread.id), discord.Thread)
    (kickoff,) = fake.channel_history(thread)
    assert kickoff.notified == [bob.id] and [m.id for m in fake.channel_history(realm.pitch)] == [opened.message.id]
    where = await fake.slash(bob, thread, "whereami")
    assert where.content == f"Thread id={thread.id} guild={realm.guild.id} parent={realm.pitch.id} dm=False"
    assert where.message.channel_id == thread.id
    clicked = await fake.click(alice, kickoff, "tiny:ping")
    assert clicked.content == "Hello! pings: 1"
    # Started from a post: the thread takes the post's id.
    from_post = await fake.slash(alice, realm.pitch, "open", name="Rematch", who=bob, from_message=True)
    rematch = realm.guild.thread("Rematch")
    assert rematch.id == from_post.message.id and rematch.auto_archive_duration == 60
    assert fake.message(from_post).flags & 32  # HAS_THREAD


async def test_archived_threads_unarchive_on_send_and_refuse_edits(realm):
    fake, alice = realm.fake, realm.alice
    thread = realm.guild.add_thread(realm.pitch, "Old match")
    await fake.settle()
    assert ("create", thread.id, False) in realm.bot.thread_events  # THREAD_CREATE reached the bot
    first = await fake.post(alice, thread, "still here")
    fake.archive(thread)
    await fake.settle()
    assert thread.archived and ("update", thread.id, True) in realm.bot.thread_events
    refused = await fake.slash(alice, realm.pitch, "rewrite", message_id=str(first.id), text="x",
                               thread_id=str(thread.id))
    assert refused.content.startswith("rejected 403 50005")  # not the bot's message
    said = await fake.slash(alice, realm.pitch, "say", channel_id=str(thread.id), text="wake up")
    assert said.content == "said" and not thread.archived  # a new message unarchives
    bots = fake.channel_history(thread)[-1]
    fake.archive(thread)
    edit = await fake.slash(alice, realm.pitch, "rewrite", message_id=str(bots.id), text="x", thread_id=str(thread.id))
    assert edit.content.startswith("rejected 400 50083") and thread.archived
    fake.archive(thread, locked=True)
    locked = await fake.slash(alice, realm.pitch, "say", channel_id=str(thread.id), text="knock")
    assert locked.content.startswith("rejected 400 50083") and thread.archived
    with pytest.raises(FakeDiscordError, match="locked"):
        await fake.slash(alice, thread, "whereami")


async def test_members_clients_unarchive_before_an_interaction(realm):
    fake = realm.fake
    await fake.slash(realm.alice, realm.pitch, "open", name="Quiet", who=realm.bob)
    thread = realm.guild.thread("Quiet")
    fake.archive(thread)
    where = await fake.slash(realm.bob, thread, "whereami")
    assert not thread.archived and where.content.startswith("Thread ")
    fake.archive(thread)
    kickoff = fake.channel_history(thread)[0]
    assert (await fake.click(realm.bob, kickoff, "tiny:ping")).content == "Hello! pings: 1"
    assert not thread.archived


async def test_the_bot_archives_locks_and_renames_threads(realm):
    fake = realm.fake
    thread = realm.guild.add_thread(realm.pitch, "To close")
    closed = await fake.slash(realm.mod, realm.pitch, "close", thread_id=str(thread.id), lock=True)
    assert closed.content == "closed archived=True" and thread.archived and thread.locked
    assert fake.requests_matching("PATCH /channels/*")[-1].json == {"archived": True, "locked": True}
    renamed = await fake.slash(realm.mod, realm.pitch, "close", thread_id=str(thread.id), rename="New")
    assert renamed.content.startswith("rejected 400 50083") and thread.name == "To close"


async def test_slash_commands_in_a_dm_with_the_bot(realm):
    fake, alice = realm.fake, realm.alice
    dm = fake.dm_channel_for(alice)
    assert fake.dm_channel_for(alice) is dm
    reply = await fake.slash(alice, dm, "whereami")
    assert reply.content == f"DMChannel id={dm.id} guild=None parent=None dm=True"
    assert reply.message.notified == [alice.id] and fake.notifications_for(alice)[-1].reason == "dm"
    for name in ("guildonly", "serveronly"):
        with pytest.raises(FakeDiscordError, match="in DMs"):
            await fake.slash(alice, dm, name)
    assert (await fake.slash(alice, realm.pitch, "guildonly")).content == "guild"
    with pytest.raises(FakeDiscordError, match="not in the DM"):
        await fake.slash(realm.bob, dm, "whereami")


async def test_fail_for_a_window_of_the_fake_clock(realm):
    fake = realm.fake
    window = fake.fail_for("POST /webhooks/*", 30, status=500)
    assert window.active(fake.clock())
    reply = await fake.slash(realm.alice, realm.pitch, "ping", how="followup", who=realm.bob)
    assert reply.content == "Thinking of someone..." and reply.followups == []  # the followup is failing
    while window.hits < 1:
        await asyncio.sleep(0.01)
    fake.advance(30)  # the 30 s pass at once; discord.py's retry (1 s later, real time) then succeeds
    followup = await fake.wait_for_message(realm.pitch, timeout=5)
    assert followup.content == f"Hey {realm.bob.mention}" and followup.notified == [realm.bob.id]
    assert not window.active(fake.clock()) and window.hits == 1
    assert [r.status for r in fake.requests_matching("POST /webhooks/*")] == [500, 200]


async def test_fail_until_stopped(realm):
    fake = realm.fake
    outage = fake.fail_until("POST /channels/*/messages", 429, retry_after=0.3)
    task = asyncio.ensure_future(fake.slash(realm.alice, realm.pitch, "say", channel_id=str(realm.pitch.id),
                                            text="finally", timeout=8))
    while outage.hits < 2:
        await asyncio.sleep(0.01)
    outage.stop()
    reply = await task
    assert reply.content == "said" and outage.hits == 2
    assert [m.content for m in fake.channel_history(realm.pitch)] == ["finally"]
