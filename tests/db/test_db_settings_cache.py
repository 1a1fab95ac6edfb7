"""Settings and preferences are remembered for a few seconds (``db.settings``): read once per
delay, forgotten at once when this process changes them, and another process's change shows
within the delay. On both backends."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from sqlalchemy import event
from sqlalchemy.engine import Engine

from db import settings as store
from support.databases import session


@pytest.fixture
def statements(db_engine: Engine) -> Iterator[list[str]]:
    seen: list[str] = []

    def count(_conn, _cursor, statement, *_args) -> None:  # type: ignore[no-untyped-def]
        seen.append(statement)

    event.listen(db_engine, "before_cursor_execute", count)
    yield seen
    event.remove(db_engine, "before_cursor_execute", count)


def _reads(statements: list[str], table: str) -> int:
    return sum(1 for s in statements if s.lstrip().upper().startswith("SELECT") and table in s)


def test_a_read_is_remembered_and_a_change_forgets_it(db_engine: Engine, statements: list[str]) -> None:
    with session(db_engine) as s:
        assert store.get_coach_preferences(session=s, user_id=7).language == "auto"
        for _ in range(4):  # what one command does: four more reads, no more round trips
            store.get_coach_preferences(session=s, user_id=7)
            store.get_guild_settings(session=s, guild_id=70)
            store.get_guild_settings(session=s, guild_id=70)
    assert _reads(statements, "coach_preferences") == 1
    assert _reads(statements, "guild_settings") == 1
    with session(db_engine) as s:
        store.update_coach_preferences(session=s, user_id=7, language="fr", screen_reader=True)
        store.update_guild_settings(session=s, guild_id=70, settings={"close_up": False})
    with session(db_engine) as s:  # this process's change is seen at once
        mine = store.get_coach_preferences(session=s, user_id=7)
        assert (mine.language, mine.screen_reader) == ("fr", True)
        assert store.get_guild_settings(session=s, guild_id=70).settings == {"close_up": False}


def test_what_a_caller_changes_in_a_read_is_not_remembered(db_engine: Engine) -> None:
    with session(db_engine) as s:
        store.update_guild_settings(session=s, guild_id=71, settings={"close_up": True})
        got = store.get_guild_settings(session=s, guild_id=71)
        got.settings["close_up"] = False
        assert store.get_guild_settings(session=s, guild_id=71).settings == {"close_up": True}


def test_another_process_change_shows_within_the_delay(db_engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process (another shard's bot, the console) changes the row with no way to tell
    this one: here, a plain UPDATE behind the module's back."""
    monkeypatch.setattr(store, "CACHE_SECONDS", 0.3)
    monkeypatch.setattr(store, "_caches", type(store._caches)())  # new caches take the short delay
    with session(db_engine) as s:
        store.update_guild_settings(session=s, guild_id=72, language="en")
        assert store.get_guild_settings(session=s, guild_id=72).language == "en"
    with db_engine.begin() as conn:
        conn.exec_driver_sql("UPDATE guild_settings SET language = 'fr' WHERE guild_id = 72")
    with session(db_engine) as s:
        assert store.get_guild_settings(session=s, guild_id=72).language == "en"  # remembered
    time.sleep(0.4)
    with session(db_engine) as s:
        assert store.get_guild_settings(session=s, guild_id=72).language == "fr"


def test_emptied_tables_are_forgotten_when_told(db_engine: Engine) -> None:
    with session(db_engine) as s:
        store.update_coach_preferences(session=s, user_id=8, language="fr")
        assert store.get_coach_preferences(session=s, user_id=8).language == "fr"
    with db_engine.begin() as conn:
        conn.exec_driver_sql("DELETE FROM coach_preferences")
    store.forget_remembered(db_engine)
    with session(db_engine) as s:
        assert store.get_coach_preferences(session=s, user_id=8).language == "auto"
