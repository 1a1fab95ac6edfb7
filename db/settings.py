"""Server settings and coach preferences: read with defaults, update by upsert.

Reads are remembered for ``CACHE_SECONDS`` (cachetools' ``TTLCache``, one per database engine):
one command reads them four or five times (the member's language, the server's, the close-up,
the board in words) and a server's twenty channels share its settings, so without it they were a
fifth of the bot's work per action. An update through this module forgets its row at once; a
change made by another process (another shard's bot, the console) shows within the delay.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar
from weakref import WeakKeyDictionary

from cachetools import TTLCache
from sqlalchemy import bindparam, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from .models import (
    CoachPreference,
    CoachPreferencePublic,
    GuildSettings,
    GuildSettingsPublic,
)
from .models._common import utcnow

__all__ = [
    "CACHE_SECONDS",
    "forget_remembered",
    "get_guild_settings",
    "update_guild_settings",
    "get_coach_preferences",
    "remember_coach_preferences",
    "update_coach_preferences",
]

#: How long a read is remembered: another process's change is seen within this many seconds.
CACHE_SECONDS = 10.0
_CACHE_SIZE = 20_000  # rows per database: a few MB at most
_caches: WeakKeyDictionary[Engine, TTLCache] = WeakKeyDictionary()
#: Bumped when this process changes a row: a read that started before it is not remembered.
_generations: WeakKeyDictionary[Engine, dict[tuple[str, int], int]] = WeakKeyDictionary()
_lock = threading.Lock()
P = TypeVar("P", GuildSettingsPublic, CoachPreferencePublic)


def _engine(session: Session) -> Engine:
    bind = session.get_bind()
    return bind if isinstance(bind, Engine) else bind.engine


def _cache_for(engine: Engine) -> TTLCache:
    """The engine's memory of reads (under ``_lock``)."""
    cache = _caches.get(engine)
    if cache is None:
        cache = _caches[engine] = TTLCache(maxsize=_CACHE_SIZE, ttl=CACHE_SECONDS)
    return cache


def _remembered(session: Session, kind: str, key: int, load: Callable[[], P], read_only: bool = False) -> P:
    engine = _engine(session)
    with _lock:
        cache = _cache_for(engine)
        hit = cache.get((kind, key))
        generation = _generations.setdefault(engine, {}).get((kind, key), 0)
    if hit is None:
        hit = load()
        with _lock:
            if _generations[engine].get((kind, key), 0) == generation:
                cache[(kind, key)] = hit
    if read_only:  # the caller only reads it (a command reads them some eight times)
        return hit
    # The caller may change what it is given: only ``settings`` is mutable (the other fields are
    # strings, numbers and datetimes), and copying it alone is a tenth of ``model_copy(deep=True)``.
    return hit.model_copy(update={"settings": copy.deepcopy(hit.settings)})


def _forget(session: Session, kind: str, key: int) -> None:
    engine = _engine(session)
    with _lock:
        generations = _generations.setdefault(engine, {})
        generations[(kind, key)] = generations.get((kind, key), 0) + 1
        cache = _caches.get(engine)
        if cache is not None:
            cache.pop((kind, key), None)


# Reads by primary key as Core statements built once: a miss costs a quarter of the ORM's
# ``session.get`` and of building a default table row (each coach acts about once a minute, so
# with a 10 s memory most of a command's preference reads are misses).
_GUILD_TABLE = GuildSettings.__table__  # type: ignore[attr-defined]  # SQLModel sets __table__ on table models
_COACH_TABLE = CoachPreference.__table__  # type: ignore[attr-defined]  # as above
_GUILD_ROW = select(_GUILD_TABLE).where(_GUILD_TABLE.c.guild_id == bindparam("key"))
_COACH_ROW = select(_COACH_TABLE).where(_COACH_TABLE.c.user_id == bindparam("key"))


def get_guild_settings(*, session: Session, guild_id: int, read_only: bool = False) -> GuildSettingsPublic:
    """The server's settings (the defaults if it never saved any; nothing is written).
    ``read_only``: the caller will not change what it is given (it is what is remembered)."""
    def load() -> GuildSettingsPublic:
        row = session.connection().execute(_GUILD_ROW, {"key": guild_id}).mappings().first()
        if row is None:
            now = utcnow()
            return GuildSettingsPublic(guild_id=guild_id, created_at=now, updated_at=now)
        return GuildSettingsPublic.model_validate(dict(row))

    return _remembered(session, "guild", guild_id, load, read_only)


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

    _forget(session, "guild", guild_id)
    try:
        row = _upsert(session, GuildSettings, guild_id, lambda: GuildSettings(guild_id=guild_id), change)
    finally:
        _forget(session, "guild", guild_id)
    return GuildSettingsPublic.model_validate(row)


def get_coach_preferences(*, session: Session, user_id: int, read_only: bool = False) -> CoachPreferencePublic:
    """The coach's preferences (the defaults if he never saved any; nothing is written).
    ``read_only`` as for ``get_guild_settings``."""
    def load() -> CoachPreferencePublic:
        row = session.connection().execute(_COACH_ROW, {"key": user_id}).mappings().first()
        if row is None:
            return CoachPreferencePublic(user_id=user_id, updated_at=utcnow())
        return CoachPreferencePublic.model_validate(dict(row))

    return _remembered(session, "coach", user_id, load, read_only)


_COACH_ROWS = select(_COACH_TABLE).where(_COACH_TABLE.c.user_id.in_(bindparam("keys", expanding=True)))


def remember_coach_preferences(*, session: Session, user_ids: Iterable[int]) -> None:
    """Read the preferences of those ``user_ids`` not remembered, in one statement, and remember
    them: a command reads both coaches' (the board in words) and the deciding one's (his language,
    the close-up), one primary-key read each, and a coach acts about once a minute, so each
    was a miss; the match service calls this in the command's own transaction instead."""
    engine = _engine(session)
    with _lock:
        cache = _cache_for(engine)
        generations = _generations.setdefault(engine, {})
        wanted = {u: generations.get(("coach", u), 0) for u in set(user_ids) if u and ("coach", u) not in cache}
    if not wanted:
        return
    rows = session.connection().execute(_COACH_ROWS, {"keys": sorted(wanted)}).mappings().all()
    found = {row["user_id"]: CoachPreferencePublic.model_validate(dict(row)) for row in rows}
    now = utcnow()
    with _lock:
        for user_id, generation in wanted.items():
            if generations.get(("coach", user_id), 0) == generation:  # not changed here meanwhile
                cache[("coach", user_id)] = found.get(user_id) or CoachPreferencePublic(user_id=user_id, updated_at=now)


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

    _forget(session, "coach", user_id)
    try:
        row = _upsert(session, CoachPreference, user_id, lambda: CoachPreference(user_id=user_id), change)
    finally:
        _forget(session, "coach", user_id)
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


def forget_remembered(engine: Engine) -> None:
    """Forget every read remembered for ``engine``: for whoever empties or replaces its tables
    behind this module's back (the tests between two tests)."""
    with _lock:
        cache = _caches.get(engine)
        if cache is not None:
            cache.clear()
        generations = _generations.setdefault(engine, {})
        for key in list(generations):
            generations[key] += 1
