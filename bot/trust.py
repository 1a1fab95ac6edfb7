"""Reach and trust in Discord: checking the dice, and the board in words.

- ``/match verify [match_id]``: a finished match's dice checked against its revealed seed
  (``service.verify``), with its record attached; refused while the match is played, the seed
  being secret until it ends.
- ``/match describe`` and the "Describe the board" button (anyone, privately): the position in
  words.
- ``/preferences [screen_reader] [language] [server_language]``: a coach's screen-reader mode
  (when on, every board post of his matches carries the position in words,
  ``Outcome.description``), the language of the bot's answers to him, and (Manage Server) the
  language of the server's public posts; "auto" follows Discord (``bot.i18n``).
- ``decorate(post, outcome)``: what a board post gains here: the words, the revealed seed on
  the final post, and the Describe button.

The app's helpers (``run_work``, ``_refuse``, ``Refusal``) are imported inside the callbacks:
``bot.app`` imports this module.
"""

from __future__ import annotations

import io
import json
from typing import Any

import discord
from discord import app_commands

from db import matches as store
from db import settings as db_settings
from db.engine import session_scope
from db.errors import StoreError
from engine.errors import ElfballError
from service.accessibility import board_words
from service.matches import Outcome
from service.verify import MatchRecord, Verdict, latest_finished_match, load_record, reveal_text, verify

from .i18n import AUTO, languages, tr
from .panels import Post

__all__ = ["DescribeButton", "decorate", "match_verify", "match_describe", "cmd_preferences", "EMBED_LIMIT",
           "LANGUAGE_CHOICES"]

#: Discord's limit on an embed's description.
EMBED_LIMIT = 4096
#: Choices of /preferences language and server_language ("auto": follow Discord).
LANGUAGE_CHOICES = [app_commands.Choice(name=n, value=v) for n, v in
                    (("Discord's language", AUTO), ("English", "en"), ("Français", "fr"))]


def _words_embed(text: str, language: str = "en") -> discord.Embed:
    if len(text) > EMBED_LIMIT:
        text = text[: EMBED_LIMIT - 2] + " …"
    return discord.Embed(title=tr(language, "trust.words_title"), description=text)


# --- board posts -------------------------------------------------------------------------------
def decorate(post: Post, outcome: Outcome, language: str = "en") -> Post:
    """The words for a screen-reader coach's match, the seed once the match is over, and the
    Describe button on every panel."""
    if outcome.description:
        post.embeds.append(_words_embed(outcome.description_in(language) or outcome.description, language))
    if outcome.finished:  # the store has revealed the seed with the final state
        reveal = reveal_text(outcome.match.id, getattr(outcome.match, "seed", None), language=language)
        if reveal:
            post.embeds.append(discord.Embed(title=tr(language, "trust.check_dice"), description=reveal))
    if post.view is not None and not outcome.description:
        try:
            post.view.add_item(DescribeButton(outcome.match.id, language))
        except ValueError:  # a full panel: /match describe says the same
            pass
    return post


class DescribeButton(discord.ui.DynamicItem[discord.ui.Button], template=r"elfball-describe:(?P<match>[0-9]+)"):
    """Anyone may press it: the match's current position in words, privately."""

    def __init__(self, match_id: int, language: str = "en") -> None:
        super().__init__(discord.ui.Button(label=tr(language, "trust.describe"), style=discord.ButtonStyle.secondary,
                                           custom_id=f"elfball-describe:{match_id}"))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any) -> DescribeButton:  # type: ignore[override]
        return cls(int(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        await _describe(interaction, self.match_id)


def _position_words(match_id: int | None, channel_id: int, guild_id: int, language: str = "en") -> str:
    """The match's position in words, with the last command's events as its last action."""
    from .app import Refusal

    with session_scope() as s:
        m = store.get_match(session=s, match_id=match_id) if match_id else store.active_match(session=s, channel_id=channel_id)
        if m is None:
            raise Refusal("refuse.no_active_match")
        if m.guild_id != guild_id:
            raise Refusal("refuse.other_server")
        rows = store.match_events(session=s, match_id=m.id, after_seq=m.version - 1)
    events = [e for r in rows for e in r.events]
    return board_words(m.engine_state(), events, language=language)


async def _describe(interaction: discord.Interaction, match_id: int | None) -> None:
    from .app import Refusal, _refuse, run_work

    lang = (await languages(interaction)).user
    try:
        text = await run_work(interaction, lambda: _position_words(match_id, interaction.channel_id or 0,
                                                                   interaction.guild_id or 0, lang),
                              component=match_id is not None)
    except (ElfballError, StoreError, Refusal) as exc:
        await _refuse(interaction, exc)
        return
    embed = _words_embed(text, lang)
    if interaction.response.is_done():
        await interaction.followup.send(embed=embed, ephemeral=True)
    else:
        await interaction.response.send_message(embed=embed, ephemeral=True)


@app_commands.command(name="describe", description="The board in words (for screen readers), just for you")
async def match_describe(interaction: discord.Interaction) -> None:
    await _describe(interaction, None)


# --- checking the dice -------------------------------------------------------------------------
def _verify_work(match_id: int | None, channel_id: int, guild_id: int) -> tuple[MatchRecord, Verdict]:
    from .app import Refusal

    with session_scope() as s:
        if match_id is None:
            if store.active_match(session=s, channel_id=channel_id) is not None:
                raise Refusal("refuse.verify_channel_playing")
            match_id = latest_finished_match(session=s, guild_id=guild_id, channel_id=channel_id)
            if match_id is None:
                raise Refusal("refuse.verify_none")
        m = store.get_match(session=s, match_id=match_id)
        if m.guild_id != guild_id:
            raise Refusal("refuse.verify_unknown", match_id=match_id)
        if m.active:
            raise Refusal("refuse.verify_playing", match_id=match_id)
        record = load_record(session=s, match_id=match_id)
    return record, verify(record)


@app_commands.command(name="verify", description="Check a finished match's dice against its revealed seed")
@app_commands.describe(match_id="a finished match of this server (default: this channel's last one)")
async def match_verify(interaction: discord.Interaction, match_id: app_commands.Range[int, 1] | None = None) -> None:
    from .app import Refusal, _refuse, _say, run_work

    try:
        record, verdict = await run_work(interaction, lambda: _verify_work(match_id, interaction.channel_id or 0,
                                                                           interaction.guild_id or 0))
    except (ElfballError, StoreError, Refusal) as exc:
        await _refuse(interaction, exc)
        return
    info = record.info
    mark = "✅" if verdict.ok else "❌"
    lang = (await languages(interaction)).public
    text = tr(lang, "trust.verified", mark=mark, match_id=record.match_id, west=info.get("west"), east=info.get("east"),
              summary=verdict.summary(lang), seed=record.seed, commitment=record.commitment)
    data = json.dumps(record.to_json(), separators=(",", ":")).encode()
    file = discord.File(io.BytesIO(data), filename=f"match-{record.match_id}-record.json")
    await _say(interaction, text[:1990], file=file, allowed_mentions=discord.AllowedMentions.none())


# --- preferences --------------------------------------------------------------------------------
@app_commands.command(name="preferences", description="Your Elfball preferences, the same on every server")
@app_commands.describe(screen_reader="True: every board post of your matches also gives the position in words",
                       language="the language of the bot's answers to you (default: your Discord's)",
                       server_language="Manage Server: the language of this server's public posts (default: its Discord's)")
@app_commands.choices(language=LANGUAGE_CHOICES, server_language=LANGUAGE_CHOICES)
async def cmd_preferences(interaction: discord.Interaction, screen_reader: bool | None = None,
                          language: str | None = None, server_language: str | None = None) -> None:
    from .app import Refusal, _refuse, _say, run_work

    perms = getattr(interaction.user, "guild_permissions", None)
    if server_language is not None and not (interaction.guild_id and perms and perms.manage_guild):
        await _refuse(interaction, Refusal("refuse.server_language"))
        return

    def work() -> tuple[bool, str, str | None]:
        with session_scope() as s:
            prefs = db_settings.update_coach_preferences(session=s, user_id=interaction.user.id, screen_reader=screen_reader,
                                                         language=language) \
                if screen_reader is not None or language is not None else \
                db_settings.get_coach_preferences(session=s, user_id=interaction.user.id)
            server = None
            if server_language is not None:
                server = db_settings.update_guild_settings(session=s, guild_id=interaction.guild_id or 0,
                                                           language=server_language).language
        return prefs.screen_reader, prefs.language, server

    try:
        on, chosen, server = await run_work(interaction, work)
    except StoreError as exc:
        await _refuse(interaction, exc)
        return
    lang = (await languages(interaction)).user  # read after the change: the answer speaks the new choice
    now = tr(lang, "prefs.now" if screen_reader is not None else "prefs.is")
    lines = [tr(lang, "prefs.screen_reader.on" if on else "prefs.screen_reader.off", now=now,
                describe=tr(lang, "trust.describe"))]
    lines.append(tr(lang, "prefs.language", language=tr(lang, f"prefs.language.{chosen if chosen in ('en', 'fr') else AUTO}")))
    if server is not None:
        lines.append(tr(lang, "prefs.server_language",
                        language=tr(lang, f"prefs.language.{server if server in ('en', 'fr') else AUTO}")))
    await _say(interaction, "\n".join(lines), ephemeral=True)
