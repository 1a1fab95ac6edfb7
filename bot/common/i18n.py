"""The bot in English and French: the slash-command tree, and the language of every answer.

- The command tree is written in English in the code (the names Discord shows by default) and
  localised by ``CommandTranslator`` (``bot.tree.set_translator``) from
  ``bot/locales/commands/<language>.json``: per command path (``"match challenge"``) its name,
  description and options, and the choices by value. A French Discord client then shows
  ``/partie defier adversaire:`` for ``/match challenge opponent:``; the interactions still carry
  the English names, so the handlers do not change.
- Messages come from ``bot/locales/<language>.json`` through ``tr(language, key, **values)``.
- Which language: an ephemeral answer (a refusal, a private reply) is in the language of the
  member who asked: his ``/preferences language`` if he chose one, else his Discord client's
  (``interaction.locale``). A public post (a board, a challenge) is read by both coaches and
  the channel, so it is in the server's language: the one a moderator chose with
  ``/preferences server_language`` (``GuildSettings.language``), else the server's Discord
  locale (``interaction.guild_locale``; Community servers set it). ``languages(interaction)``
  resolves both once per interaction (one database read, kept in ``interaction.extras``).
  Autocomplete, called at every keystroke, reads no preference: it follows the client's locale.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from service.settings import AUTO, stored_languages
from service.vocabulary import DEFAULT, LANGUAGES, Catalogue, language_of

__all__ = ["CommandTranslator", "Languages", "languages", "tr", "catalogue", "command_catalogue", "AUTO",
           "cached_languages", "server_language", "read_languages_now"]

log = logging.getLogger("elfball.bot")


@cache
def catalogue(language: str) -> Catalogue:
    return Catalogue("bot", "locales", language)


def tr(language: str, key: str, /, **values: Any) -> str:
    """The bot's message ``key`` in ``language`` (English when the language lacks it)."""
    return catalogue(language).t(key, **values)


@cache
def command_catalogue(language: str) -> dict[str, Any]:
    """``bot/locales/commands/<language>.json``: the command tree's words (empty for English)."""
    path = resources.files("bot").joinpath(f"locales/commands/{language}.json")
    if language == DEFAULT or not path.is_file():
        return {}
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


class CommandTranslator(app_commands.Translator):
    """Names and descriptions of commands, options and choices from the command catalogues."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        language = language_of(locale)
        if language == DEFAULT:
            return None
        return lookup(command_catalogue(language), context.location, context.data)


def lookup(words: dict[str, Any], where: Where, data: Any) -> str | None:
    """The translation for one string of the tree, or None (Discord then shows the English)."""
    if where in (Where.command_name, Where.group_name, Where.command_description, Where.group_description):
        entry = words.get(data.qualified_name, {})
        return entry.get("name" if where in (Where.command_name, Where.group_name) else "description")
    if where in (Where.parameter_name, Where.parameter_description):
        option = words.get(data.command.qualified_name, {}).get("options", {}).get(data.name)
        if option is None:
            return None
        name, description = option
        if where is Where.parameter_name:
            return str(name)
        return None if description == "…" else str(description)
    if where is Where.choice_name:
        return words.get("choices", {}).get(str(data.value))
    return None


# --- which language --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Languages:
    user: str  # ephemeral answers: the member's preference, else his client's language
    public: str  # posts everyone reads: the server's choice, else its Discord locale


def _discord_default(interaction: discord.Interaction) -> Languages:
    public = language_of(interaction.guild_locale) if interaction.guild_id else language_of(interaction.locale)
    return Languages(language_of(interaction.locale), public)


def _stored(user_id: int, guild_id: int | None) -> tuple[str, str]:
    return stored_languages(user_id, guild_id)


def _chosen(stored: str, fallback: str) -> str:
    return stored if stored in LANGUAGES else fallback


def cached_languages(interaction: discord.Interaction) -> Languages | None:
    found: Languages | None = interaction.extras.get("elfball_languages")
    return found


def _read_languages(interaction: discord.Interaction) -> Languages:
    """The stored preferences, else Discord's locales (blocking: a worker thread's)."""
    found = _discord_default(interaction)
    try:
        coach, server = _stored(interaction.user.id, interaction.guild_id)
        found = Languages(_chosen(coach, found.user), _chosen(server, found.public))
    except Exception:  # noqa: BLE001 - without the database, Discord's locales still give a language
        log.warning("language preferences unavailable; using Discord's locales", exc_info=True)
    return found


async def languages(interaction: discord.Interaction) -> Languages:
    """The interaction's two languages; the stored preferences are read once per interaction."""
    known = cached_languages(interaction)
    if known is not None:
        return known
    found = await asyncio.to_thread(_read_languages, interaction)
    interaction.extras["elfball_languages"] = found
    return found


def read_languages_now(interaction: discord.Interaction) -> None:
    """Read the interaction's languages in the worker thread it already occupies (blocking), so
    ``languages`` finds them without a thread of its own: call it after the interaction's work,
    which may have changed them."""
    if cached_languages(interaction) is None:
        interaction.extras["elfball_languages"] = _read_languages(interaction)


def server_language(guild_id: int, guild: discord.Guild | None = None) -> str:
    """A server's language outside any interaction (reminders): its chosen one, else its
    Discord locale, else English. Blocking: call it in a worker thread."""
    fallback = language_of(guild.preferred_locale) if guild is not None else DEFAULT
    try:
        _, server = _stored(0, guild_id)
    except Exception:  # noqa: BLE001 - a reminder in English beats no reminder
        return fallback
    return _chosen(server, fallback)
