"""The service functions the console calls (``service.console``, ``simulate``, ``fuzzing``,
``reference``, ``backup``, ``exports``), called directly as ``cli`` calls them."""

from __future__ import annotations

import pytest

from service import console
from service.backup import back_up
from service.exports import SiteError, export_league
from service.fuzzing import replay_check
from service.reference import roll_challenge
from service.simulate import Demo, demo_teams


def test_a_table_without_a_match_resumes_nothing_and_then_starts_one(database):
    service = console.match_service(width=300, ai_level="easy")
    assert console.resume(service, 5) is None
    options = console.match_options("standard", "", 2)
    started = console.start(service, 5, west="timberline-elves", east="night-elves", ai="east", options=options)
    assert started.match.west_coach_id == console.LOCAL_USER and started.state.options.goals_to_win == 2
    again = console.resume(service, 5)
    assert again is not None and again.match.id == started.match.id
    assert "Timberline Elves" in console.board_text(again.state, language="en")


def test_the_demo_plays_the_seed_42_match_and_reports_its_progress():
    west, east = demo_teams(42, None, None)
    demo = Demo(west, east, 42, console.match_options("standard", "", None), language="en")
    seen: list[tuple[int, int, int, int]] = []
    demo.play(3000, lambda *progress: seen.append(progress))
    assert (west.name, east.name, demo.commands) == ("Divine Wind", "Black Widows", 182)
    assert demo.state.winner == "west" and len(demo.history) == 183
    assert seen == [(100, 1, 0, 0), (182, 1, 1, 0)]  # every hundredth command, then the goal


def test_a_named_demo_team_is_kept_and_the_other_differs():
    west, east = demo_teams(1, "night-elves", None)
    assert west.id == "night-elves" and east.id != "night-elves"


def test_replay_check_holds_and_says_what_was_played():
    check = replay_check(5, 60)
    assert check.ok and check.commands == 61 and check.dice_results > 0
    assert check.crash is check.replay_failure is check.difference is None


def test_a_seeded_roll_repeats_with_its_record():
    first, second = roll_challenge(4, 2, 7), roll_challenge(4, 2, 7)
    assert first == second and first.record and first.outcome and first.faces


def test_postgresql_gets_guidance_and_nothing_is_written(tmp_path):
    out = tmp_path / "copy.db"
    answer = back_up(out, environ={"DATABASE_URL": "postgresql://elf@db.example/elfball"})
    assert answer.done is None and answer.guidance and "pg_dump" in answer.guidance
    assert not out.exists()


def test_an_unusable_database_is_a_site_error(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("ELFBALL_DB", str(tmp_path / "missing.db"))
    with pytest.raises(SiteError):
        export_league("Premier", tmp_path / "site")
