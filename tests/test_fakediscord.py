"""The fake Discord harness (tests/fakediscord), validated with a tiny discord.py bot.

The bot below is a real ``commands.Bot`` with a ``CommandTree``; it talks to the fake over HTTP and
the gateway exactly as it would to Discord. These tests pin what the real bot's end-to-end tests
rely on: login + sync, replies with a PNG and a persistent view, deferred answers, button edits,
refusals to other members, autocomplete, locales, rate limits and 5xx, restarts, sharding.
"""

from __future__ import annotations

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
    assert reply.ack_latency is not None and reply.latency < 2


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
