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
from support.databases import session, statements_on


@pytest.fixture
def statements(db_engine: Engine) -> Iterator[list[str]]:
    with statements_on(db_engine) as seen:
        yield seen


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


def test_both_coaches_preferences_are_read_in_one_statement(db_engine: Engine, statements: list[str]) -> None:
    """What a command's outcome asks of both coaches (``remember_coach_preferences``): those not
    remembered in one statement, a coach without a row as the defaults, then no more reads."""
    with session(db_engine) as s:
        store.update_coach_preferences(session=s, user_id=21, screen_reader=True, language="fr")
    store.forget_remembered(db_engine)
    statements.clear()
    with session(db_engine) as s:
        store.remember_coach_preferences(session=s, user_ids=(21, 22, 0, 21))
        assert _reads(statements, "coach_preferences") == 1
        store.remember_coach_preferences(session=s, user_ids=(22, 21))  # both remembered: nothing read
    with session(db_engine) as s:
        first, second = (store.get_coach_preferences(session=s, user_id=u) for u in (21, 22))
    assert (first.screen_reader, first.language) == (True, "fr")
    assert (second.screen_reader, second.language) == (False, "auto")
    assert _reads(statements, "coach_preferences") == 1
    with session(db_engine) as s:  # a change here forgets what was read, as for one coach
        store.update_coach_preferences(session=s, user_id=22, screen_reader=True)
    with session(db_engine) as s:
        assert store.get_coach_preferences(session=s, user_id=22).screen_reader is True


def test_a_change_made_while_both_were_read_is_not_hidden(db_engine: Engine) -> None:
    """This process changes a coach's preferences while the statement reading them is on its
    way: what that statement read (the old row) is not remembered over the change."""
    with session(db_engine) as s:
        store.update_coach_preferences(session=s, user_id=23, screen_reader=False)
    store.forget_remembered(db_engine)

    changed: list[bool] = []

    def change_meanwhile(_conn, _cursor, statement, *_args) -> None:  # type: ignore[no-untyped-def]
        if not changed and "coach_preferences" in statement and " IN " in statement.upper():
            changed.append(True)
            with session(db_engine) as other:
                store.update_coach_preferences(session=other, user_id=23, screen_reader=True)

    # After the statement ran (its row read, the old one) and before it is remembered.
    event.listen(db_engine, "after_cursor_execute", change_meanwhile)
    try:
        with session(db_engine) as s:
            store.remember_coach_preferences(session=s, user_ids=(23,))
    finally:
        event.remove(db_engine, "after_cursor_execute", change_meanwhile)
    assert changed
    with session(db_engine) as s:
        assert store.get_coach_preferences(session=s, user_id=23).screen_reader is True


def test_a_read_only_read_is_what_is_remembered_not_a_copy(db_engine: Engine, statements: list[str]) -> None:
    """A caller that only reads (the post's language, the board in words, the close-up) gets
    the remembered row itself; one that may change it gets its own copy."""
    with session(db_engine) as s:
        store.update_coach_preferences(session=s, user_id=24, settings={"close_up": True})
    statements.clear()
    with session(db_engine) as s:
        first = store.get_coach_preferences(session=s, user_id=24, read_only=True)
        again = store.get_coach_preferences(session=s, user_id=24, read_only=True)
        mine = store.get_coach_preferences(session=s, user_id=24)
    assert first is again and mine is not first and mine == first
    mine.settings["close_up"] = False
    assert first.settings == {"close_up": True}
    assert _reads(statements, "coach_preferences") == 1
