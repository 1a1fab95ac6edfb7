"""Reach and trust in Discord: checking the dice, and the board in words.

- ``/match verify [match_id]``: a finished match's dice checked against its revealed seed
  (``service.verify``), with its record attached; refused while the match is played, the seed
  being secret until it ends.
- ``/match describe`` and the "Describe the board" button (anyone, privately): the position in
  words.
- ``/preferences [screen_reader]``: a coach's screen-reader mode; when on, every board post of
  his matches carries the position in words (``Outcome.description``).
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

from .panels import Post

__all__ = ["DescribeButton", "decorate", "match_verify", "match_describe", "cmd_preferences", "EMBED_LIMIT"]

#: Discord's limit on an embed's description.
EMBED_LIMIT = 4096
DESCRIBE_LABEL = "Describe the board"


def _words_embed(text: str, title: str = "The board in words") -> discord.Embed:
    if len(text) > EMBED_LIMIT:
        text = text[: EMBED_LIMIT - 2] + " …"
    return discord.Embed(title=title, description=text)


# --- board posts -------------------------------------------------------------------------------
def decorate(post: Post, outcome: Outcome) -> Post:
    """The words for a screen-reader coach's match, the seed once the match is over, and the
    Describe button on every panel."""
    if outcome.description:
        post.embeds.append(_words_embed(outcome.description))
    if outcome.finished:  # the store has revealed the seed with the final state
        reveal = reveal_text(outcome.match.id, getattr(outcome.match, "seed", None))
        if reveal:
            post.embeds.append(discord.Embed(title="Check the dice", description=reveal))
    if post.view is not None and not outcome.description:
        try:
            post.view.add_item(DescribeButton(outcome.match.id))
        except ValueError:  # a full panel: /match describe says the same
            pass
    return post


class DescribeButton(discord.ui.DynamicItem[discord.ui.Button], template=r"elfball-describe:(?P<match>[0-9]+)"):
    """Anyone may press it: the match's current position in words, privately."""

    def __init__(self, match_id: int) -> None:
        super().__init__(discord.ui.Button(label=DESCRIBE_LABEL, style=discord.ButtonStyle.secondary,
                                           custom_id=f"elfball-describe:{match_id}"))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any) -> DescribeButton:  # type: ignore[override]
        return cls(int(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        await _describe(interaction, self.match_id)


def _position_words(match_id: int | None, channel_id: int, guild_id: int) -> str:
    """The match's position in words, with the last command's events as its last action."""
    from .app import Refusal

    with session_scope() as s:
        m = store.get_match(session=s, match_id=match_id) if match_id else store.active_match(session=s, channel_id=channel_id)
        if m is None:
            raise Refusal("there is no active match in this channel")
        if m.guild_id != guild_id:
            raise Refusal("that match belongs to another server")
        rows = store.match_events(session=s, match_id=m.id, after_seq=m.version - 1)
    events = [e for r in rows for e in r.events]
    return board_words(m.engine_state(), events)


async def _describe(interaction: discord.Interaction, match_id: int | None) -> None:
    from .app import Refusal, _refuse, run_work

    try:
        text = await run_work(interaction, lambda: _position_words(match_id, interaction.channel_id or 0,
                                                                   interaction.guild_id or 0),
                              component=match_id is not None)
    except (ElfballError, StoreError, Refusal) as exc:
        await _refuse(interaction, str(exc))
        return
    embed = _words_embed(text)
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

    secret = "its dice seed stays secret until it ends; /match verify works once it is over"
    with session_scope() as s:
        if match_id is None:
            if store.active_match(session=s, channel_id=channel_id) is not None:
                raise Refusal(f"this channel's match is still being played: {secret}")
            match_id = latest_finished_match(session=s, guild_id=guild_id, channel_id=channel_id)
            if match_id is None:
                raise Refusal("no match has ended in this channel yet")
        m = store.get_match(session=s, match_id=match_id)
        if m.guild_id != guild_id:
            raise Refusal(f"there is no match #{match_id} on this server")
        if m.active:
            raise Refusal(f"match #{match_id} is still being played: {secret}")
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
        await _refuse(interaction, str(exc))
        return
    info = record.info
    mark = "✅" if verdict.ok else "❌"
    text = (f"{mark} Match #{record.match_id} ({info.get('west')} v {info.get('east')}): {verdict.summary()}\n"
            f"Seed `{record.seed}`, commitment `{record.commitment}`. The attached record checks offline: "
            f"`elfball verify --file match-{record.match_id}-record.json`.")
    data = json.dumps(record.to_json(), separators=(",", ":")).encode()
    file = discord.File(io.BytesIO(data), filename=f"match-{record.match_id}-record.json")
    await _say(interaction, text[:1990], file=file, allowed_mentions=discord.AllowedMentions.none())


# --- preferences --------------------------------------------------------------------------------
@app_commands.command(name="preferences", description="Your Elfball preferences, the same on every server")
@app_commands.describe(screen_reader="True: every board post of your matches also gives the position in words")
async def cmd_preferences(interaction: discord.Interaction, screen_reader: bool | None = None) -> None:
    from .app import _refuse, run_work

    def work() -> bool:
        with session_scope() as s:
            if screen_reader is None:
                return db_settings.get_coach_preferences(session=s, user_id=interaction.user.id).screen_reader
            return db_settings.update_coach_preferences(session=s, user_id=interaction.user.id,
                                                        screen_reader=screen_reader).screen_reader

    try:
        on = await run_work(interaction, work)
    except StoreError as exc:
        await _refuse(interaction, str(exc))
        return
    now = "is now" if screen_reader is not None else "is"
    text = (f"Screen-reader mode {now} **on**: every board post of your matches gives the position in words "
            f"(who is where, facing, Down or Dazed, the ball, Momentum, whose decision). "
            f"`/preferences screen_reader:False` turns it off." if on else
            f"Screen-reader mode {now} **off**: board posts show the picture (with alt text); "
            f"`/match describe` or the \"{DESCRIBE_LABEL}\" button gives the words at any time, and "
            f"`/preferences screen_reader:True` adds them to every board post of your matches.")
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)
