"""Reach and trust in Discord: checking the dice, and the board in words.

- ``/match verify [match_id] [commitment] [entropy]``: a finished match's dice checked against
  its revealed seed (``service.verify``), with its record attached; refused while the match is
  played, the seed being secret until it ends. With ``commitment`` (and ``entropy``), what a
  coach copied from the match's first post, the seed is checked against it and only then is it
  "Verified"; without, the answer says the record only holds together with itself.
- ``/match describe`` and the "Describe the board" button (anyone, privately): the position in
  words.
- ``/preferences [screen_reader] [language] [server_language]``: a coach's screen-reader mode
  (when on, every board post of his matches carries the position in words,
  ``Outcome.description``), the language of the bot's answers to him, and (Manage Server) the
  language of the server's public posts; "auto" follows Discord (``bot.common.i18n``).

The trust extension (``setup``) adds the ``Trust`` cog: ``/preferences``, and the answers to the
Describe button (``bot.common.presses``); ``/match verify`` and ``/match describe`` are
the match cog's commands and call ``verify_reply`` and ``describe_reply`` here.
"""

from __future__ import annotations

import dataclasses
import io
import json
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import ElfballBot
from bot.common.i18n import AUTO, languages, tr
from bot.common.reply import Refusal, refuse, run_work, say
from bot.play.panels import words_embed
from service import lookup
from service import settings as stored_settings
from service.verify import posted_commitment, posted_entropy

__all__ = ["Trust", "describe_reply", "close_up_reply", "verify_reply", "LANGUAGE_CHOICES", "setup"]
#: Choices of /preferences language and server_language ("auto": follow Discord).
LANGUAGE_CHOICES = [app_commands.Choice(name=n, value=v) for n, v in
                    (("Discord's language", AUTO), ("English", "en"), ("Français", "fr"))]


async def describe_reply(interaction: discord.Interaction, match_id: int | None) -> None:
    """The match's position in words, privately (``match_id`` None: this channel's match)."""
    lang = (await languages(interaction)).user
    text = await run_work(interaction, lambda: lookup.position_words(match_id, channel_id=interaction.channel_id or 0,
                                                                     guild_id=interaction.guild_id or 0, language=lang),
                          component=match_id is not None)
    embed = words_embed(text, lang)
    if interaction.response.is_done():
        await interaction.followup.send(embed=embed, ephemeral=True)
    else:
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def close_up_reply(interaction: discord.Interaction, match_id: int, drawing: Any) -> None:
    """The close-up of the match's decision as it stands, privately, in the presser's language:
    the channel's board post carries the board only unless its coach chose otherwise."""
    lang = (await languages(interaction)).user
    picture = await run_work(interaction, lambda: lookup.close_up_picture(
        match_id, guild_id=interaction.guild_id or 0, drawing=drawing, language=lang), component=True)
    if picture is None:
        await say(interaction, tr(lang, "trust.close_up_none"), ephemeral=True)
        return
    data, alt = picture
    file = discord.File(io.BytesIO(data), filename="close-up.png", description=alt[:1024])
    await say(interaction, tr(lang, "trust.close_up_shown"), ephemeral=True, file=file)


# --- checking the dice -------------------------------------------------------------------------
async def verify_reply(interaction: discord.Interaction, match_id: int | None, *, commitment: str | None = None,
                       entropy: str | None = None) -> None:
    """A finished match's dice checked, with its record attached (``match_id`` None: this
    channel's last finished match); against the ``commitment`` and ``entropy`` a coach copied
    from Discord, if given (a malformed one is refused privately, nothing posted)."""
    posted = posted_commitment(commitment) if commitment is not None else None
    if commitment is not None and posted is None:
        await refuse(interaction, Refusal("refuse.verify_commitment_form"))
        return
    copied = posted_entropy(entropy) if entropy is not None else None
    if entropy is not None and copied is None:
        await refuse(interaction, Refusal("refuse.verify_entropy_form"))
        return
    if copied is not None and posted is None:
        await refuse(interaction, Refusal("refuse.verify_entropy_alone"))
        return
    record, verdict = await run_work(interaction, lambda: lookup.verify_match(
        match_id, channel_id=interaction.channel_id or 0, guild_id=interaction.guild_id or 0, posted=posted,
        posted_entropy=copied))
    info = record.info
    # ✅ only against what was posted; ℹ️: the record holds together, which its writer could make so.
    mark = "❌" if not verdict.ok else "✅" if verdict.against_posted else "ℹ️"
    lang = (await languages(interaction)).public
    summary = verdict.summary(lang)
    if verdict.ok and not verdict.against_posted:
        summary = f"{summary}\n{tr(lang, 'trust.verify_hint', match_id=record.match_id)}"
    text = tr(lang, "trust.verified", mark=mark, match_id=record.match_id, west=info.get("west"), east=info.get("east"),
              summary=summary, seed=record.seed, commitment=record.commitment)
    data = json.dumps(record.to_json(), separators=(",", ":")).encode()
    file = discord.File(io.BytesIO(data), filename=f"match-{record.match_id}-record.json")
    await say(interaction, text[:1990], file=file, allowed_mentions=discord.AllowedMentions.none())


# --- preferences --------------------------------------------------------------------------------
class Trust(commands.Cog):
    """Preferences and the board in words."""

    def __init__(self, bot: ElfballBot) -> None:
        self.bot = bot

    async def describe_pressed(self, interaction: discord.Interaction, match_id: int) -> None:
        """A board's Describe button (``bot.common.presses``)."""
        await describe_reply(interaction, match_id)

    async def close_up_pressed(self, interaction: discord.Interaction, match_id: int) -> None:
        """A board's Close-up button (``bot.common.presses``)."""
        await close_up_reply(interaction, match_id, self.bot.service.drawing)

    @app_commands.command(name="preferences", description="Your Elfball preferences, the same on every server")
    @app_commands.describe(screen_reader="True: every board post of your matches also gives the position in words",
                           language="the language of the bot's answers to you (default: your Discord's)",
                           server_language="Manage Server: the language of this server's public posts (default: its Discord's)",
                           close_up="True: your board posts carry a close-up of the action (for phones); False: the board only",
                           server_close_up="Manage Server: whether board posts carry the close-up by default (default False)")
    @app_commands.choices(language=LANGUAGE_CHOICES, server_language=LANGUAGE_CHOICES)
    async def preferences(self, interaction: discord.Interaction, screen_reader: bool | None = None,
                              language: str | None = None, server_language: str | None = None,
                          close_up: bool | None = None, server_close_up: bool | None = None) -> None:
        perms = getattr(interaction.user, "guild_permissions", None)
        if (server_language is not None or server_close_up is not None) and not (
                interaction.guild_id and perms and perms.manage_guild):
            await refuse(interaction, Refusal("refuse.server_language"))
            return

        def work() -> stored_settings.Preferences:
            return stored_settings.preferences(interaction.user.id, interaction.guild_id, screen_reader=screen_reader,
                                               language=language, close_up=close_up, server_language=server_language,
                                               server_close_up=server_close_up)

        on, chosen, server, mine, server_view = dataclasses.astuple(await run_work(interaction, work))
        lang = (await languages(interaction)).user  # read after the change: the answer speaks the new choice
        now = tr(lang, "prefs.now" if screen_reader is not None else "prefs.is")
        lines = [tr(lang, "prefs.screen_reader.on" if on else "prefs.screen_reader.off", now=now,
                    describe=tr(lang, "trust.describe"))]
        lines.append(tr(lang, "prefs.language", language=tr(lang, f"prefs.language.{chosen if chosen in ('en', 'fr') else AUTO}")))
        if server is not None:
            lines.append(tr(lang, "prefs.server_language",
                            language=tr(lang, f"prefs.language.{server if server in ('en', 'fr') else AUTO}")))
        yes_no = {True: tr(lang, "prefs.on"), False: tr(lang, "prefs.off")}
        if mine is not None:
            lines.append(tr(lang, "prefs.close_up", value=yes_no[bool(mine)]))
        elif server_view is not None:
            lines.append(tr(lang, "prefs.close_up.server", value=yes_no[bool(server_view)]))
        if server_close_up is not None:
            lines.append(tr(lang, "prefs.server_close_up", value=yes_no[bool(server_view)]))
        await say(interaction, "\n".join(lines), ephemeral=True)


async def setup(bot: ElfballBot) -> None:
    await bot.add_cog(Trust(bot))
