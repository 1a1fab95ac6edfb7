"""``/match``: challenge, accept or decline, follow, and end a match in a channel or a thread.

The challenges' and abandons' transactions are the service's (``service.challenges``): at most
one pending challenge per channel, accept and decline acting on the challenge's id and version,
an accept starting the match in the same transaction that consumes the challenge, and a stored
team played only by its coach. This cog reads the options and words the answers.

``/match challenge ... thread:true`` opens a public thread for the match: the thread is the
match's channel, so one channel can host many matches.
"""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands

from bot.app import ElfballBot
from bot.common.checks import ServerGroupCog
from bot.common.i18n import languages, tr
from bot.common.reply import NO_PINGS, Refusal, ping, refuse, run_work, say
from bot.common.rule_options import PROFILE_CHOICES, RULES_HELP, rule_options, rules_autocomplete, status_line
from bot.common.transformers import TeamOption
from bot.play.cog import act, same_guild, show
from bot.play.panels import live_post
from bot.trust.cog import describe_reply, verify_reply
from service import challenges, lookup
from service.challenges import CHALLENGE_LAPSE, DEFAULT_AI_LEVEL
from service.matches import Outcome, ai_level
from service.posts import Piece
from service.verify import commitment_text, reveal_text
from service.vocabulary import commands as C
from service.vocabulary import describe_rules

__all__ = ["Match", "CHALLENGE_LAPSE", "setup"]

#: A team option: the server's teams and the team lists offered.
TeamName = app_commands.Transform[str, TeamOption()]
LEVEL_CHOICES = [
    app_commands.Choice(name="easy (the heuristic)", value="easy"),
    app_commands.Choice(name="hard (every Advanced option, searches by playing moves out)", value="hard"),
]


def _header(outcome: Outcome, lang: str, *, ai_coach: int | None = None) -> str:
    st, m = outcome.state, outcome.match
    if ai_coach is not None:
        first = tr(lang, "match.header.ai", west=st.teams["west"].name, coach=ai_coach, east=st.teams["east"].name,
                   goals=st.options.goals_to_win, level=tr(lang, f"match.ai_level.{ai_level(m) or DEFAULT_AI_LEVEL}"))
    else:
        first = tr(lang, "match.header", west=st.teams["west"].name, west_coach=m.west_coach_id,
                   east=st.teams["east"].name, east_coach=m.east_coach_id, goals=st.options.goals_to_win)
    return "\n".join([first, tr(lang, "match.rules", rules=describe_rules(st.options, lang)),
                      commitment_text(m.seed_commitment, entropy=m.dice_entropy, language=lang)])


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
                           level="the AI coach's level, when you challenge the bot (default easy)")
    @app_commands.choices(profile=PROFILE_CHOICES, level=LEVEL_CHOICES)
    @app_commands.autocomplete(rules=rules_autocomplete)
    async def challenge(self, interaction: discord.Interaction, opponent: discord.User, team: TeamName,
                        goals: app_commands.Range[int, 1, 3] | None = None,
                        clock_hours: app_commands.Range[int, 0, 168] = 0, profile: str = "standard", rules: str = "",
                        thread: bool = False, level: str | None = None) -> None:
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
        lang = (await languages(interaction)).public
        where = interaction.channel
        if thread:
            where = await self._open_thread(interaction, opponent, lang)
            if where is None:
                return
        channel = where.id if where is not None else (interaction.channel_id or 0)

        if against_ai:
            def start() -> Outcome:
                return challenges.challenge_ai(bot.service, guild_id=guild, channel_id=channel, user_id=interaction.user.id,
                                               team=team, options=options, level=level, draw=interaction.id)

            outcome = await run_work(interaction, start)
            await bot.poster.publish(interaction, outcome, header=_header(outcome, lang, ai_coach=interaction.user.id))
            await self._thread_note(interaction, where, thread, lang)
            return

        def propose() -> Any:
            return challenges.propose(guild_id=guild, channel_id=channel, challenger_id=interaction.user.id,
                                      opponent_id=opponent.id, team=team, options=options, entropy=f"c{interaction.id}")

        proposed = await run_work(interaction, propose)
        text = (tr(lang, "match.challenged", opponent=opponent.id, challenger=interaction.user.id, team=team,
                   goals=options.goals_to_win) + " " + tr(lang, "match.rules", rules=describe_rules(options, lang))
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
    @app_commands.describe(team="your team or a team list")
    async def accept(self, interaction: discord.Interaction, team: TeamName) -> None:
        bot = self.bot
        channel, guild, user = interaction.channel_id or 0, interaction.guild_id or 0, interaction.user.id

        def start() -> Outcome:
            return challenges.accept(bot.service, guild_id=guild, channel_id=channel, user_id=user, team=team,
                                     entropy=f"a{interaction.id}")

        outcome = await run_work(interaction, start)
        lang = (await languages(interaction)).public
        await bot.poster.publish(interaction, outcome, header=_header(outcome, lang))

    @app_commands.command(name="decline", description="Decline the challenge made to you here (or withdraw yours)")
    async def decline(self, interaction: discord.Interaction) -> None:
        channel, user = interaction.channel_id or 0, interaction.user.id

        def work() -> Any:
            return challenges.decline(channel_id=channel, user_id=user)

        ch = await run_work(interaction, work)
        lang = (await languages(interaction)).public
        key = "match.withdrawn" if user == ch.challenger_id else "match.declined"
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
    @app_commands.describe(match_id="a finished match of this server (default: this channel's last one)")
    async def verify(self, interaction: discord.Interaction, match_id: app_commands.Range[int, 1] | None = None) -> None:
        await verify_reply(interaction, match_id)

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
            return said + "\n" + reveal_text(done.ended.id, done.ended.seed, language=lang), None

        text, other = await run_work(interaction, work)
        await say(interaction, text, allowed_mentions=ping(other))


async def setup(bot: ElfballBot) -> None:
    await bot.add_cog(Match(bot))
