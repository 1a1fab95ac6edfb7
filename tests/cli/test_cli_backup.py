"""``elfball backup OUT`` while the bot writes: the copy opens, passes its integrity check,
holds every committed move of a consistent moment, and ``elfball verify`` checks a finished
match in it; the dice key is not in it; refusals are one line and exit code 2."""

from __future__ import annotations

import sqlite3
import threading

import pytest
from support.databases import migrated_sqlite, sessions_on

from cli.main import main
from db.engine import use_engine
from service.match_rules import MatchSide
from ai import AICoach
from service.matches import AI_COACH_ID, MatchService

ALICE, BOB = 101, 102


@pytest.fixture
def live(tmp_path, monkeypatch):
    """A SQLite database like the bot's (ELFBALL_DB, its key file beside it) with one finished
    match, and a service over it."""
    path = tmp_path / "elfball.db"
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("ELFBALL_SECRET", raising=False)
    monkeypatch.setenv("ELFBALL_DB", str(path))
    engine = migrated_sqlite(path)
    old = use_engine(None)

    scope = sessions_on(engine)

    svc = MatchService(sessions=scope, render=False)
    out = svc.start(guild_id=1, channel_id=10, west=MatchSide(ALICE, team_list="gnolls"),
                    east=MatchSide(AI_COACH_ID, team_list="night-elves"), seed="backup-seed")
    alice = AICoach()
    for _ in range(3000):
        if out.finished:
            break
        out = svc.act(10, ALICE, alice.choose(out.state, "west"))
    assert out.finished
    yield path, svc, out.match.id
    use_engine(old)
    engine.dispose()


def test_a_backup_taken_while_the_bot_plays_is_whole_and_verifies(live, tmp_path, capsys, monkeypatch):
    path, svc, finished = live
    # A match in progress whose coaches keep moving while the backups are taken.
    out = svc.start(guild_id=1, channel_id=20, west=MatchSide(ALICE, team_list="gnolls"),
                    east=MatchSide(BOB, team_list="sarcos"))
    coaches = {"west": (ALICE, AICoach()), "east": (BOB, AICoach())}
    stop, moves, errors = threading.Event(), [0], []

    def writer() -> None:
        state = out.state
        try:
            while not stop.is_set():
                side = svc.status(20).deciding_side
                user, ai = coaches[side]
                state = svc.act(20, user, ai.choose(state, side)).state
                moves[0] += 1
        except Exception as exc:  # noqa: BLE001 - the test reports it
            errors.append(exc)

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        copies = []
        for i in range(4):
            while moves[0] < 3 * (i + 1) and thread.is_alive():  # moves committed between the backups
                threading.Event().wait(0.01)
            target = tmp_path / f"copy{i}.db"
            assert main(["backup", str(target)]) == 0
            copies.append((target, moves[0]))
    finally:
        stop.set()
        thread.join(60)
    assert not errors, errors
    printed = capsys.readouterr().out
    assert "NOT in the backup" in printed and "elfball.db.secret" in printed
    assert (path.parent / "elfball.db.secret").exists()
    versions = []
    for target, _ in copies:
        assert not target.with_name(target.name + ".secret").exists()  # the key stays apart
        assert not target.with_name(target.name + "-wal").exists()  # one self-contained file
        conn = sqlite3.connect(target)
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        version, rows = conn.execute(
            "SELECT m.version, (SELECT COUNT(*) FROM match_events e WHERE e.match_id = m.id) FROM matches m "
            "WHERE m.channel_id = 20").fetchone()
        conn.close()
        assert rows == version + 1  # the snapshot and its log agree: no half-written move
        versions.append(version)
    assert versions == sorted(versions) and versions[-1] > versions[0]  # each copy is later than the last
    # A commissioner checks the finished match on the copy (read-only, no key needed).
    monkeypatch.setenv("ELFBALL_DB", str(copies[-1][0]))
    assert main(["verify", "--match", str(finished)]) == 0
    assert "Consistent with itself only" in capsys.readouterr().out


def test_backup_refusals_are_one_line_and_exit_2(live, tmp_path, capsys, monkeypatch):
    path, _, _ = live
    target = tmp_path / "copy.db"
    target.write_bytes(b"keep me")
    assert main(["backup", str(target)]) == 2
    err = capsys.readouterr().err
    assert "already exists" in err and "--force" in err and "Traceback" not in err
    assert target.read_bytes() == b"keep me"
    assert main(["backup", "--force", str(target)]) == 0
    assert sqlite3.connect(target).execute("SELECT COUNT(*) FROM matches").fetchone() == (1,)
    capsys.readouterr()
    assert main(["backup", str(tmp_path / "no-such-folder" / "x.db")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["backup", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err
    assert main(["backup", "--force", str(path)]) == 2
    assert "the database itself" in capsys.readouterr().err
    monkeypatch.setenv("ELFBALL_DB", str(tmp_path / "missing.db"))
    assert main(["backup", str(tmp_path / "y.db")]) == 2
    assert "there is no database" in capsys.readouterr().err
    assert not (tmp_path / "y.db").exists() and not list(tmp_path.glob(".*partial*"))


def test_a_secret_in_the_environment_is_named_and_postgresql_gets_pg_dump_guidance(live, tmp_path, capsys,
                                                                                     monkeypatch):
    monkeypatch.setenv("ELFBALL_SECRET", "a long secret")
    assert main(["backup", str(tmp_path / "copy.db")]) == 0
    assert "ELFBALL_SECRET, which no backup holds" in capsys.readouterr().out
    monkeypatch.setenv("DATABASE_URL", "postgresql://elfball:hunter2@db.example:5432/elfball")
    assert main(["backup", str(tmp_path / "dump.pgc")]) == 2
    err = capsys.readouterr().err
    assert "pg_dump --format=custom --file" in err and "pg_restore" in err
    assert "hunter2" not in err and "db.example" in err
    assert not (tmp_path / "dump.pgc").exists()
