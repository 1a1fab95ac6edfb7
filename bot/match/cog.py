"""``/match``: challenge, accept or decline, follow, and end a match in a channel or a thread.

The challenges' and abandons' transactions are the service's (``service.challenges``): at most
one pending challenge per channel, accept and decline acting on the challenge's id and version,
an accept starting the match in the same transaction that consumes the challenge, and a stored
team played only by its coach. This cog reads the options and words the answers.

``/match challenge ... thread:true`` opens a public thread for the match: the thread is the
match's channel, so one channel can host many matches.

A coach may give ``words`` of his own on a challenge and an accept: they are shown in public and
their SHA-256's first 16 hex digits become his part of the dice's entropy (docs/dice.md). A
challenge to the bot posts its commitment with **Start** buttons (``StartButton``, custom id
``elfball-start[w]:<challenge>``): the challenger's press (or the words he types in the modal it
opens) adds the entropy after the commitment is public, and the match starts.
"""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands

from bot.app import ElfballBot, elfball
from bot.common.checks import CHALLENGE, REPLAY, ServerGroupCog, match_permissions, starts_match
from bot.common.errors import answer_press, permissions_refusal
from bot.common.i18n import languages, tr
from bot.common.reply import NO_PINGS, Refusal, ping, refuse, run_work, say
from bot.common.rule_options import PROFILE_CHOICES, RULES_HELP, rule_options, rules_autocomplete, status_line
from bot.common.transformers import TeamOption
from bot.play.cog import act, same_guild, show
from bot.play.panels import live_post
from bot.trust.cog import describe_reply, verify_reply
from service import challenges, limits, lookup
from service.challenges import CHALLENGE_LAPSE, DEFAULT_AI_LEVEL, MAX_WORDS, entropy_of
from service.matches import Outcome, ai_level, dice_unverifiable
from service.names import safe_name
from service.posts import Piece
from service.verify import commitment_text, reveal_text
from service.vocabulary import commands as C
from service.vocabulary import describe_rules, team_list

__all__ = ["Match", "CHALLENGE_LAPSE", "StartButton", "setup"]

#: A team option: the server's teams and the team lists offered.
TeamName = app_commands.Transform[str, TeamOption()]
LEVEL_CHOICES = [
    app_commands.Choice(name="easy (the heuristic)", value="easy"),
    app_commands.Choice(name="hard (every Advanced option, searches by playing moves out)", value="hard"),
]
#: The ``words`` option: any words of the coach's own, shown in public, that enter the dice.
Words = app_commands.Range[str, 1, MAX_WORDS]
WORDS_HELP = "words of your own for the dice (shown in public; default: your command's id)"


def words_line(lang: str, member: int, words: str | None, part: str) -> str:
    """``<@member>``'s words and the part of the entropy they give (nothing without words)."""
    if not words or not words.strip() or "-" not in part:
        return ""
    return tr(lang, "match.words", member=member, words=safe_name(words), part=part)


def _header(outcome: Outcome, lang: str, *, ai_coach: int | None = None, words: str = "") -> str:
    st, m = outcome.state, outcome.match
    if ai_coach is not None:
        first = tr(lang, "match.header.ai", west=st.teams["west"].name, coach=ai_coach, east=st.teams["east"].name,
                   goals=st.options.goals_to_win, level=tr(lang, f"match.ai_level.{ai_level(m) or DEFAULT_AI_LEVEL}"))
    else:
        first = tr(lang, "match.header", west=st.teams["west"].name, west_coach=m.west_coach_id,
                   east=st.teams["east"].name, east_coach=m.east_coach_id, goals=st.options.goals_to_win)
    return "\n".join(line for line in [first, tr(lang, "match.rules", rules=describe_rules(st.options, lang)),
                                       commitment_text(m.seed_commitment, entropy=m.dice_entropy, language=lang), words]
                     if line)


class Match(ServerGroupCog, group_name="match", group_description="Start, follow and end Elfball matches in this channel"):
    """Challenges, the match's status and log, and its end."""

    def __init__(self, bot: ElfballBot) -> None:
        self.bot = bot
        super().__init__()

    # -- challenges -----------------------------------------------------------------------------
    @app_commands.command(name="challenge", description="Challenge another member (or the bot) to a match here")
    @app_commands.describe(opponent="who you challenge (mention the bot to play the AI coach)",
                           team="your team or a team list", goals="goals to win (1-3; the profile's otherwise)",
                           clock_hours="hours per decision before a moderator may declare a forfeit (0: none)",
                           profile="a rules profile (default standard)", rules=RULES_HELP,
                           thread="open a thread for this match (one channel can then host many matches)",
                           level="the AI coach's level, when you challenge the bot (default easy)",
                           words=WORDS_HELP)
    @app_commands.choices(profile=PROFILE_CHOICES, level=LEVEL_CHOICES)
    @app_commands.autocomplete(rules=rules_autocomplete)
    @CHALLENGE  # the member's cooldown (checked second: a missing permission costs him nothing)
    @starts_match  # Discord's permissions here, the bot's and (for a thread) the member's
    async def challenge(self, interaction: discord.Interaction, opponent: discord.User, team: TeamName,
                        goals: app_commands.Range[int, 1, 3] | None = None,
                        clock_hours: app_commands.Range[int, 0, 168] = 0, profile: str = "standard", rules: str = "",
                        thread: bool = False, level: str | None = None, words: Words | None = None) -> None:
        bot = self.bot
        options = rule_options(profile, rules, goals=goals, clock_hours=clock_hours)
        if opponent.id == interaction.user.id:
            await refuse(interaction, Refusal("refuse.challenge_yourself"))
            return
        against_ai = bot.user is not None and opponent.id == bot.user.id
        if opponent.bot and not against_ai:
            await refuse(interaction, Refusal("refuse.other_bot"))
            return
        if level is not None and not against_ai:
            await refuse(interaction, Refusal("refuse.level_for_bot"))
            return
        guild = interaction.guild_id or 0
        # The caps (service.limits) before a thread is opened: a refusal leaves nothing behind.
        await run_work(interaction, lambda: limits.check_room("ai_match" if against_ai else "challenge", guild,
                                                              interaction.user.id, sessions=bot.service.sessions))
        lang = (await languages(interaction)).public
        where = interaction.channel
        if thread:
            where = await self._open_thread(interaction, opponent, lang)
            if where is None:
                return
        channel = where.id if where is not None else (interaction.channel_id or 0)

        challenger = interaction.user.id
        entropy = entropy_of("c", words, interaction.id)
        words_said = words_line(lang, challenger, words, entropy)
        if against_ai:
            def challenge_bot() -> Any:
                return challenges.challenge_ai(guild_id=guild, channel_id=channel, user_id=challenger, team=team,
                                               options=options, level=level, draw=interaction.id, entropy=entropy)

            proposed = await run_work(interaction, challenge_bot)
            level_name = tr(lang, f"match.ai_level.{proposed.ai_level or DEFAULT_AI_LEVEL}")
            lines = [tr(lang, "match.ai_challenged", challenger=challenger, team=safe_name(team), level=level_name,
                        ai_team=team_list(proposed.ai_team).name, goals=options.goals_to_win),
                     tr(lang, "match.rules", rules=describe_rules(options, lang)), words_said,
                     tr(lang, "match.ai_commitment", commitment=proposed.dice_commitment)]
            text = "\n".join(line for line in lines if line)[:2000]
            view = start_view(proposed.id, lang)
            if thread and where is not None:
                await where.send(text, view=view, allowed_mentions=NO_PINGS)
                await self._thread_note(interaction, where, thread, lang)
            else:
                await say(interaction, text, view=view)
            return

        def propose() -> Any:
            return challenges.propose(guild_id=guild, channel_id=channel, challenger_id=challenger,
                                      opponent_id=opponent.id, team=team, options=options, entropy=entropy)

        proposed = await run_work(interaction, propose)
        text = (tr(lang, "match.challenged", opponent=opponent.id, challenger=challenger, team=safe_name(team),
                   goals=options.goals_to_win) + " " + tr(lang, "match.rules", rules=describe_rules(options, lang))
                + ("\n" + words_said if words_said else "")
                + "\n" + tr(lang, "match.challenge_commitment", commitment=proposed.dice_commitment))
        if thread and where is not None:
            await where.send(text[:2000], allowed_mentions=ping(opponent.id))
            await self._thread_note(interaction, where, thread, lang)
        else:
            await say(interaction, text[:2000], allowed_mentions=ping(opponent.id))

    async def _open_thread(self, interaction: discord.Interaction, opponent: discord.User, lang: str) -> Any:
        """A public thread off this channel for the match (None, refused, when not possible)."""
        if isinstance(interaction.channel, discord.Thread) or interaction.channel is None:
            await refuse(interaction, Refusal("refuse.thread_in_thread"))
            return None
        name = tr(lang, "match.thread_name", challenger=interaction.user.display_name, opponent=opponent.display_name)
        try:
            return await interaction.channel.create_thread(  # type: ignore[union-attr]  # a command's channel here is a text channel, which has create_thread
                name=name[:100], type=discord.ChannelType.public_thread, auto_archive_duration=10080)
        except discord.HTTPException:
            await refuse(interaction, Refusal("refuse.thread_failed"))
            return None

    async def _thread_note(self, interaction: discord.Interaction, where: Any, thread: bool, lang: str) -> None:
        """In the channel the challenge was typed in: where the match goes on."""
        if not thread or where is None:
            return
        text = tr(lang, "match.thread_opened", thread=where.id)
        if interaction.response.is_done():
            await interaction.followup.send(text, allowed_mentions=NO_PINGS)
        else:
            await interaction.response.send_message(text, allowed_mentions=NO_PINGS)

    @app_commands.command(name="accept", description="Accept the challenge made to you in this channel")
    @app_commands.describe(team="your team or a team list", words=WORDS_HELP)
    @starts_match
    async def accept(self, interaction: discord.Interaction, team: TeamName, words: Words | None = None) -> None:
        bot = self.bot
        channel, guild, user = interaction.channel_id or 0, interaction.guild_id or 0, interaction.user.id
        entropy = entropy_of("a", words, interaction.id)

        def start() -> Outcome:
            return challenges.accept(bot.service, guild_id=guild, channel_id=channel, user_id=user, team=team,
                                     entropy=entropy)

        outcome = await run_work(interaction, start)
        lang = (await languages(interaction)).public
        said = words_line(lang, user, words, entropy) if entropy in outcome.match.dice_entropy.split(".") else ""
        await bot.poster.publish(interaction, outcome, header=_header(outcome, lang, words=said))

    @app_commands.command(name="decline", description="Decline the challenge made to you here (or withdraw yours)")
    async def decline(self, interaction: discord.Interaction) -> None:
        channel, user = interaction.channel_id or 0, interaction.user.id

        def work() -> Any:
            return challenges.decline(channel_id=channel, user_id=user)

        ch = await run_work(interaction, work)
        lang = (await languages(interaction)).public
        key = "match.withdrawn_ai" if ch.ai_level else "match.withdrawn" if user == ch.challenger_id else "match.declined"
        await say(interaction, tr(lang, key, member=user, challenger=ch.challenger_id, opponent=ch.opponent_id))

    # -- following ------------------------------------------------------------------------------
    @app_commands.command(name="status", description="The board and whose decision it is")
    async def status(self, interaction: discord.Interaction) -> None:
        bot = self.bot
        outcome = await run_work(interaction, lambda: bot.service.status(interaction.channel_id or 0))
        same_guild(outcome.match, interaction)
        m = outcome.match
        if interaction.user.id in (m.west_coach_id, m.east_coach_id):
            # A coach brings the board (and his panel) down to the bottom of the channel.
            lang = (await languages(interaction)).public
            await bot.poster.publish(interaction, outcome, force_new=True, notice=status_line(outcome.state, lang))
            return
        lang = (await languages(interaction)).user  # a spectator's look: just for him
        post = live_post(outcome, Piece(None, m.version, m.version, outcome.deciding_side), lang,
                         notice=status_line(outcome.state, lang))
        kwargs: dict[str, Any] = {"embeds": post.embeds, "allowed_mentions": NO_PINGS, "ephemeral": True}
        files = [f for f in [post.file, *post.extra_files] if f is not None]
        if files:
            kwargs["files"] = files
        if interaction.response.is_done():
            await interaction.followup.send(post.content, **kwargs)
        else:
            await interaction.response.send_message(post.content, **kwargs)

    @app_commands.command(name="describe", description="The board in words (for screen readers), just for you")
    async def describe(self, interaction: discord.Interaction) -> None:
        await describe_reply(interaction, None)

    @app_commands.command(name="log", description="What happened in this match (the last lines)")
    @app_commands.describe(lines="how many lines (default 40)")
    async def log(self, interaction: discord.Interaction, lines: app_commands.Range[int, 1, 200] = 40) -> None:
        bot = self.bot
        lang = (await languages(interaction)).user

        def work() -> list[str]:
            same_guild(bot.service.current(interaction.channel_id or 0), interaction)
            return bot.service.log(interaction.channel_id or 0, last=lines, language=lang)

        text = await run_work(interaction, work)
        file = discord.File(io.BytesIO("\n".join(text).encode()), filename="match-log.txt")
        await say(interaction, tr(lang, "match.log"), ephemeral=True, file=file)

    @app_commands.command(name="replay", description="An animated replay of this channel's current (or last) match")
    @REPLAY
    async def replay(self, interaction: discord.Interaction) -> None:
        bot = self.bot
        lang = (await languages(interaction)).public

        def work() -> bytes:
            m = bot.service.latest(interaction.channel_id or 0)
            same_guild(m, interaction)
            return lookup.replay(m.id, language=lang)

        gif = await run_work(interaction, work)
        await say(interaction, tr(lang, "match.replay"), file=discord.File(io.BytesIO(gif), filename="replay.gif"))

    @app_commands.command(name="verify", description="Check a finished match's dice against its revealed seed")
    @app_commands.describe(match_id="a finished match of this server (default: this channel's last one)",
                           commitment="the sha256 hex posted with the challenge (\"Dice commitment\"): checks against it",
                           entropy="the entropy posted in the match's first post (with commitment)")
    async def verify(self, interaction: discord.Interaction, match_id: app_commands.Range[int, 1] | None = None,
                     commitment: app_commands.Range[str, 1, 200] | None = None,
                     entropy: app_commands.Range[str, 1, 400] | None = None) -> None:
        await verify_reply(interaction, match_id, commitment=commitment, entropy=entropy)

    # -- ending ---------------------------------------------------------------------------------
    @app_commands.command(name="concede", description="Concede the match")
    async def concede(self, interaction: discord.Interaction) -> None:
        await act(interaction, C.Concede())

    @app_commands.command(name="forfeit", description="Moderators: the deciding coach ran out of his clock; he forfeits")
    async def forfeit(self, interaction: discord.Interaction) -> None:
        bot = self.bot
        perms = getattr(interaction.user, "guild_permissions", None)
        if not (perms and perms.manage_guild):
            await refuse(interaction, Refusal("refuse.forfeit_moderator"))
            return

        def work() -> Outcome:
            same_guild(bot.service.current(interaction.channel_id or 0), interaction)
            return bot.service.forfeit(interaction.channel_id or 0, interaction.user.id)

        await show(interaction, work)

    @app_commands.command(name="abandon", description="End the match without a result (both coaches, or Manage Server)")
    @app_commands.describe(reason="why (a moderator's or a team owner's abandon of a league match goes in its audit)",
                           as_coach="you coach this match and manage the server: vote as its coach (the other must agree)")
    async def abandon(self, interaction: discord.Interaction, reason: app_commands.Range[str, 1, 200] | None = None,
                      as_coach: bool = False) -> None:
        bot = self.bot
        perms = getattr(interaction.user, "guild_permissions", None)
        moderator = bool(perms and perms.manage_guild)
        channel, user = interaction.channel_id or 0, interaction.user.id
        lang = (await languages(interaction)).public

        def work() -> tuple[str, int | None]:
            # Who may end it, and how, is authority.abandon_right's: a moderator who coaches the
            # match is refused privately (he votes with as_coach, or concedes).
            done = challenges.abandon(bot.service, guild_id=interaction.guild_id or 0, channel_id=channel, user_id=user,
                                      moderator=moderator, as_coach=as_coach, reason=reason or "")
            if done.ended is None:
                return tr(lang, "match.abandon.vote", member=user, other=done.waiting_on), done.waiting_on
            said = (tr(lang, "match.abandoned", member=user) if done.moderator
                    else tr(lang, "match.abandoned.owner", member=user) if done.owner
                    else tr(lang, "match.abandoned.agreed"))
            if dice_unverifiable(done.ended):  # the dice key was lost: ended without a reveal
                return said + "\n" + tr(lang, "match.abandoned.unverifiable", match=done.ended.id), None
            return said + "\n" + reveal_text(done.ended.id, done.ended.seed, language=lang), None

        text, other = await run_work(interaction, work)
        await say(interaction, text, allowed_mentions=ping(other))


# -- starting a match against the AI coach -------------------------------------------------------------
def start_view(challenge_id: int, lang: str) -> discord.ui.View:
    """The two buttons under a challenge to the bot: Start, and Start with my words."""
    view = discord.ui.View(timeout=None)
    view.add_item(StartButton(challenge_id, False, label=tr(lang, "match.start")))
    view.add_item(StartButton(challenge_id, True, label=tr(lang, "match.start_words")))
    return view


class StartButton(discord.ui.DynamicItem[discord.ui.Button], template=r"elfball-start(?P<words>w?):(?P<challenge>[0-9]+)"):
    """Start a match against the AI coach (``words``: first ask the challenger for his words)."""

    def __init__(self, challenge_id: int, words: bool, *, label: str = "") -> None:
        style = discord.ButtonStyle.secondary if words else discord.ButtonStyle.primary
        super().__init__(discord.ui.Button(label=label or ("Start with my words" if words else "Start"), style=style,
                                           custom_id=f"elfball-start{'w' if words else ''}:{challenge_id}"))
        self.challenge_id, self.words = challenge_id, words

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any) -> StartButton:  # type: ignore[override]  # discord.py's DynamicItem.from_custom_id is generic over the item's type
        return cls(int(match["challenge"]), bool(match["words"]), label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.words:
            await interaction.response.send_modal(WordsModal(self.challenge_id, (await languages(interaction)).user))
            return
        await answer_press(interaction, start_against_ai(interaction, self.challenge_id, None))


class WordsModal(discord.ui.Modal):
    """The challenger's words for the dice of his match against the AI coach."""

    def __init__(self, challenge_id: int, lang: str) -> None:
        super().__init__(title=tr(lang, "match.words_modal.title")[:45], custom_id=f"elfball-startm:{challenge_id}")
        self.challenge_id = challenge_id
        self.words: discord.ui.TextInput[WordsModal] = discord.ui.TextInput(
            label=tr(lang, "match.words_modal.label")[:45], custom_id="words", max_length=MAX_WORDS)
        self.add_item(self.words)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await answer_press(interaction, start_against_ai(interaction, self.challenge_id, self.words.value))


async def start_against_ai(interaction: discord.Interaction, challenge_id: int, words: str | None) -> None:
    """The challenger's Start: his entropy (words, or this press's id) recorded, then the match."""
    bot = elfball(interaction)
    user, entropy = interaction.user.id, entropy_of("s", words, interaction.id)
    try:  # the channel's permissions may have changed since the challenge was checked
        await match_permissions(interaction)
    except (app_commands.MissingPermissions, app_commands.BotMissingPermissions) as error:
        await refuse(interaction, await permissions_refusal(interaction, error))
        return

    def work() -> Outcome:
        return challenges.start_ai(bot.service, guild_id=interaction.guild_id or 0, channel_id=interaction.channel_id or 0,
                                   challenge_id=challenge_id, user_id=user, entropy=entropy)

    outcome = await run_work(interaction, work, component=True)
    lang = (await languages(interaction)).public
    said = words_line(lang, user, words, entropy) if entropy in outcome.match.dice_entropy.split(".") else ""
    await bot.poster.publish(interaction, outcome, header=_header(outcome, lang, ai_coach=user, words=said))
    if interaction.message is not None:  # the challenge's buttons have done their work
        try:
            await interaction.message.edit(view=None)
        except discord.HTTPException:
            pass


async def setup(bot: ElfballBot) -> None:
    await bot.add_cog(Match(bot))
    bot.add_dynamic_items(StartButton)
