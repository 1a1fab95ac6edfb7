"""Coach preferences and server settings: the bot's languages, screen reader and close-ups."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session

from db import settings as db_settings
from db.engine import session_scope

from .accessibility import CLOSE_UP_DEFAULT

__all__ = ["AUTO", "stored_languages", "Preferences", "preferences"]

Sessions = Callable[[], AbstractContextManager[Session]]

#: A stored language that means "follow Discord's locale".
AUTO = "auto"


def stored_languages(user_id: int, guild_id: int | None, *, sessions: Sessions = session_scope) -> tuple[str, str]:
    """(the coach's chosen language, the server's), ``AUTO`` where none was chosen."""
    with sessions() as s:
        coach = db_settings.get_coach_preferences(session=s, user_id=user_id, read_only=True).language
        server = db_settings.get_guild_settings(session=s, guild_id=guild_id, read_only=True).language if guild_id else AUTO
    return coach, server


@dataclass(frozen=True)
class Preferences:
    """A coach's preferences as now stored, and his server's where it was asked or changed."""

    screen_reader: bool
    language: str
    server_language: str | None  # the server's language, when this call changed it
    close_up: Any  # the coach's close-up choice (None: the server's)
    server_close_up: Any  # the server's close-up default (None outside a server)


def preferences(user_id: int, guild_id: int | None, *, screen_reader: bool | None = None, language: str | None = None,
                close_up: bool | None = None, server_language: str | None = None,
                server_close_up: bool | None = None, sessions: Sessions = session_scope) -> Preferences:
    """Change what is given (None: unchanged) and read back the coach's and his server's
    preferences, in one transaction. The server's settings are a moderator's: the caller checks."""
    with sessions() as s:
        mine = {"close_up": close_up} if close_up is not None else None
        prefs = db_settings.update_coach_preferences(session=s, user_id=user_id, screen_reader=screen_reader,
                                                     language=language, settings=mine) \
            if screen_reader is not None or language is not None or mine else \
            db_settings.get_coach_preferences(session=s, user_id=user_id)
        server = None
        if server_language is not None:
            server = db_settings.update_guild_settings(session=s, guild_id=guild_id or 0, language=server_language).language
        server_view = None
        if guild_id:
            guild = db_settings.update_guild_settings(session=s, guild_id=guild_id, settings={"close_up": server_close_up}) \
                if server_close_up is not None else db_settings.get_guild_settings(session=s, guild_id=guild_id)
            server_view = guild.settings.get("close_up", CLOSE_UP_DEFAULT)
    return Preferences(prefs.screen_reader, prefs.language, server, prefs.settings.get("close_up"), server_view)
