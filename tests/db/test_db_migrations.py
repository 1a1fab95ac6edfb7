"""Alembic owns the schema: head equals the models, and an old database upgrades in place."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from support.databases import fresh_engine
from sqlalchemy import inspect, text
from sqlmodel import Session, SQLModel, select

from db import matches
from db.migrate import (
    MIGRATIONS,
    alembic_config,
    current_revision,
    downgrade,
    head_revision,
    upgrade,
)
from db.models import CoachPreference, Match, MatchEvent, RosterPlayer, Team
from service import match_rules
from engine.dice import HashDice
from engine.match import TeamEntry, new_match
from engine.rosters import default_roster
from support import ROOT



@pytest.fixture
def empty_db(backend, tmp_path):
    yield from fresh_engine(backend, tmp_path, migrate=False)


def test_revisions_are_one_line_starting_at_0001() -> None:
    script = ScriptDirectory.from_config(alembic_config())
    revisions = [r.revision for r in reversed(list(script.walk_revisions()))]
    assert revisions[:2] == ["0001", "0002"]
    assert script.get_heads() == [head_revision()]


def test_head_matches_the_models(empty_db) -> None:
    upgrade(empty_db)
    assert current_revision(empty_db) == head_revision()
    with empty_db.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), SQLModel.metadata)
    assert diff == []
    upgrade(empty_db)  # a second run changes nothing
    assert current_revision(empty_db) == head_revision()


def test_a_database_at_0001_upgrades_in_place(empty_db) -> None:
    upgrade(empty_db, "0001")
    columns = {c["name"] for c in inspect(empty_db).get_columns("matches")}
    assert "deadline" not in columns
    # Data written by the old version, with plain SQL: a coach, a team, a match and its log.
    seed = "old-seed"
    created = new_match(TeamEntry("Old Orcs", default_roster("orcs")),
                        TeamEntry("Old Gnomes", default_roster("gnomes")), HashDice(seed))
    state = created.state
    entries = {side: matches.entry_to_json(TeamEntry(name, default_roster(tl)))
               for side, name, tl in (("west", "Old Orcs", "orcs"), ("east", "Old Gnomes", "gnomes"))}
    now = "2026-01-02 03:04:05+00:00"
    with empty_db.begin() as conn:
        conn.execute(text("INSERT INTO coach_preferences (user_id, language, settings, updated_at)"
                          " VALUES (:u, 'fr', '{\"dice\": \"symbols\"}', :now)"), {"u": 2**60, "now": now})
        conn.execute(text("INSERT INTO teams (id, guild_id, coach_id, team_list, name, name_key, primary_colour,"
                          " secondary_colour, points, support, created_at, updated_at) VALUES (7, 1, 2, 'orcs',"
                          " 'Old Orcs', 'old orcs', 'green', 'black', 3, '{}', :now, :now)"), {"now": now})
        conn.execute(text("INSERT INTO roster_players (team_id, number, name, position_id, attributes, xp, abilities,"
                          " injuries, status) VALUES (7, 1, 'Gorbag', 'orcs/orcs', '{}', 4, '[]', '[]', 'injured')"))
        conn.execute(text("INSERT INTO matches (id, guild_id, channel_id, west_coach_id, east_coach_id, west_team_id,"
                          " west_team_name, east_team_name, options, state, version, status, deciding_side,"
                          " deciding_user_id, dice_seed, seed_commitment, created_at, updated_at) VALUES (5, 1, 99,"
                          " 2, 3, 7, 'Old Orcs', 'Old Gnomes', :opts, :state, 0, 'active', :side, 2, :seed,"
                          " :commit, :now, :now)"),
                     {"opts": json.dumps(state.options.to_dict()), "state": json.dumps(state.to_dict()),
                      "side": state.setup_side, "seed": seed, "commit": matches.seed_commitment(seed), "now": now})
        conn.execute(text("INSERT INTO match_events (match_id, seq, kind, command, dice, events, created_at)"
                          " VALUES (5, 0, 'create', :cmd, :dice, '[]', :now)"),
                     {"cmd": json.dumps({**entries, "options": state.options.to_dict()}),
                      "dice": json.dumps(created.dice), "now": now})

    upgrade(empty_db)
    assert current_revision(empty_db) == head_revision()
    with Session(empty_db) as s:
        coach = s.get(CoachPreference, 2**60)
        assert (coach.language, coach.screen_reader, coach.settings) == ("fr", False, {"dice": "symbols"})
        team = s.exec(select(Team)).one()
        assert (team.name, team.points, [p.name for p in team.players]) == ("Old Orcs", 3, ["Gorbag"])
        assert s.exec(select(RosterPlayer)).one().status == "injured"
        m = s.get(Match, 5)
        assert (m.deadline, m.version, m.status) == (None, 0, "active")
        assert m.state == state.to_dict()
        assert s.exec(select(MatchEvent)).one().kind == "create"
        # The old match plays on under the new schema, and its log still rebuilds it.
        assert matches.active_match(session=s, channel_id=99).id == 5
        done = match_rules.submit(session=s, match_id=5, by_side=state.setup_side, actor_user_id=2,
                              command={"name": "auto_setup"})
        assert done.match.version == 1
        assert match_rules.rebuild(session=s, match_id=5).to_dict() == done.match.state


def test_downgrade_to_nothing_and_back(empty_db) -> None:
    upgrade(empty_db)
    downgrade(empty_db, "0001")
    assert "deadline" not in {c["name"] for c in inspect(empty_db).get_columns("matches")}
    downgrade(empty_db, "base")
    assert current_revision(empty_db) is None
    assert set(inspect(empty_db).get_table_names()) <= {"alembic_version"}
    upgrade(empty_db)
    assert current_revision(empty_db) == head_revision()


def test_the_command_line_upgrades_the_environments_database(tmp_path: Path) -> None:
    env = {**os.environ, "ELFBALL_DB": str(tmp_path / "cli.db")}
    env.pop("DATABASE_URL", None)
    run = subprocess.run([sys.executable, "-m", "db.migrate", "upgrade"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert current_revision(f"sqlite:///{tmp_path / 'cli.db'}") == head_revision()


def test_the_migrations_ship_with_the_package() -> None:
    assert MIGRATIONS.is_dir() and (MIGRATIONS / "env.py").is_file() and (MIGRATIONS / "script.py.mako").is_file()
    assert (MIGRATIONS / "__init__.py").is_file() and (MIGRATIONS / "versions" / "__init__.py").is_file()
    pyproject = (ROOT / "pyproject.toml").read_text()
    import tomllib

    assert "migrations/script.py.mako" in tomllib.loads(pyproject)["tool"]["setuptools"]["package-data"]["db"], \
        "the template is package data"
    assert '"alembic' in pyproject
