"""Server settings and coach preferences: read with defaults, update by upsert."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from .models import (
    CoachPreference,
    CoachPreferencePublic,
    GuildSettings,
    GuildSettingsPublic,
)
from .models._common import utcnow

__all__ = ["get_guild_settings", "update_guild_settings", "get_coach_preferences", "update_coach_preferences"]


def get_guild_settings(*, session: Session, guild_id: int) -> GuildSettingsPublic:
    """The server's settings (the defaults if it never saved any; nothing is written)."""
    row = session.get(GuildSettings, guild_id) or GuildSettings(guild_id=guild_id)
    return GuildSettingsPublic.model_validate(row)


def update_guild_settings(
    *, session: Session, guild_id: int, language: str | None = None, settings: Mapping[str, Any] | None = None
) -> GuildSettingsPublic:
    """Change the given fields (``settings`` keys are merged); creates the row if needed."""

    def change(row: GuildSettings) -> None:
        if language is not None:
            row.language = language
        if settings is not None:
            row.settings = {**row.settings, **settings}
        row.updated_at = utcnow()

    row = _upsert(session, GuildSettings, guild_id, lambda: GuildSettings(guild_id=guild_id), change)
    return GuildSettingsPublic.model_validate(row)


def get_coach_preferences(*, session: Session, user_id: int) -> CoachPreferencePublic:
    row = session.get(CoachPreference, user_id) or CoachPreference(user_id=user_id)
    return CoachPreferencePublic.model_validate(row)


def update_coach_preferences(
    *,
    session: Session,
    user_id: int,
    language: str | None = None,
    screen_reader: bool | None = None,
    settings: Mapping[str, Any] | None = None,
) -> CoachPreferencePublic:
    def change(row: CoachPreference) -> None:
        if language is not None:
            row.language = language
        if screen_reader is not None:
            row.screen_reader = screen_reader
        if settings is not None:
            row.settings = {**row.settings, **settings}
        row.updated_at = utcnow()

    row = _upsert(session, CoachPreference, user_id, lambda: CoachPreference(user_id=user_id), change)
    return CoachPreferencePublic.model_validate(row)


def _upsert(session: Session, model: Any, key: int, new: Any, change: Any) -> Any:
    for attempt in (1, 2):
        row = session.get(model, key)
        if row is None:
            row = new()
            session.add(row)
        change(row)
        try:
            session.commit()
            return row
        except IntegrityError:
            session.rollback()  # another writer created the row first: update it instead
            if attempt == 2:
                raise
    raise AssertionError("unreachable")
