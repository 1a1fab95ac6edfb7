"""Hostile command-line input is a one-line refusal on stderr and exit code 2, never a traceback
(issue 17): scenario files, saved states, match records, match ids and databases in trouble."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from support.databases import fresh_engine, migrated_sqlite, postgres_url, sessions_on
from sqlalchemy import text

from cli.main import INCIDENT, REFUSED, main
from db.engine import use_engine
from db.errors import UnusableDatabaseError
from db.migrate import current_revision, head_revision, open_database, upgrade
from support import ROOT

BASE = json.loads((ROOT / "scenarios/rulebook/play-by-play-1.json").read_text(encoding="utf-8"))


def refusal(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """Run ``elfball argv``: it must refuse in one line on stderr, with exit code 2."""
    code = main(argv)
    err = capsys.readouterr().err.strip()
    assert code == REFUSED, err
    assert err and len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


def _scenario(tmp_path: Path, data: object, name: str = "s.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def _with_player(**changes: object) -> dict:
    players = [dict(p) for p in BASE["players"]]
    players[0].update(changes)
    return {**BASE, "players": players}


# --- scenario files: types and values ----------------------------------------------------------
@pytest.mark.parametrize("data, said", [
    ({**BASE, "players": "w1"}, "players: 'w1' should be a list"),
    (_with_player(status="flying"), "players[0].status: 'flying' is not one of standing, down, dazed"),
    ({**BASE, "acting": {"player": "w9", "jog": 5}}, "acting.player: 'w9' is not one of the scenario's players"),
    ({**BASE, "rules": "double warp-speed"}, "rules: unknown rule 'warp-speed'"),
    ({**BASE, "rules": {"warp": True}}, "rules: unknown key 'warp'"),
    ({**BASE, "commands": [5]}, "commands[0]: 5 should be text"),
    ({**BASE, "commands": [["move", "G14"]]}, "commands[0]: ['move', 'G14'] should be text"),
    ({**BASE, "dice": {"d6": [7]}}, "dice.d6[0]: 7 is out of range"),
    ({**BASE, "dice": {"d6": ["5"]}}, "dice.d6[0]: '5' should be a whole number"),
    ({**BASE, "teams": {"north": {}}}, "teams: unknown key 'north'"),
    (_with_player(position="elves/wizards"), "players[0].position: no position has the id"),
    (_with_player(abilities=["flying"]), "players[0].abilities[0]:"),
    (_with_player(attributes={"might": 99}), "players[0].attributes.might: 99 is out of range"),
    (_with_player(facing="UP"), "players[0].facing: 'UP' is not one of NE, E, SE, SW, W, NW"),
    (_with_player(name="\x00"), "players[0].name: text with a NUL character"),
    ({"phase": "turn"}, "turn: None is not one of west, east"),
    ([BASE], "a scenario is a JSON object"),
])
def test_a_scenario_of_wrong_types_is_refused_naming_the_key(tmp_path, capsys, data, said) -> None:
    assert said in refusal(capsys, ["scenario", _scenario(tmp_path, data)])


# --- scenario files: impossible positions ------------------------------------------------------
def _hunter(pid: str, hex_label: str | None) -> dict:
    return {"id": pid, "position": "timberline-elves/hunters", **({"hex": hex_label, "facing": "E"} if hex_label else {})}


@pytest.mark.parametrize("data, said", [
    ({**BASE, "players": [*BASE["players"], _hunter("w3", "I12")]}, "impossible position: w3 and w2 share I12"),
    ({**BASE, "players": [p for p in BASE["players"] if p["id"][0] == "e"]
      + [_hunter(f"w{i}", h) for i, h in enumerate(["C10", "C12", "C14", "D9", "D11", "D13", "D15"], start=1)]},
     "west has more than 6 players on the field"),
    ({**BASE, "players": [*BASE["players"], _hunter("w13", "J12")]}, "players[4].id: 'w13': use w1..w12"),
    ({**BASE, "ball": "G13", "players": [{**p, "ball": False} for p in BASE["players"]]},
     "the loose ball lies under e2"),
    ({**BASE, "players": [*BASE["players"][:3], {"id": "e2", "position": "night-elves/imps", "ball": True}]},
     "the ball is held by e2, who is not standing on the field"),
    ({**BASE, "momentum": {"counters": 10**400, "side": "west"}}, "momentum.counters: "),
    ({**BASE, "momentum": {"counters": -5, "side": "west"}}, "momentum.counters: -5 is out of range"),
    ({**BASE, "players": [*BASE["players"], {**BASE["players"][1], "hex": "J12"}]}, "players[4].id: w2 is already players[1]"),
    ({**BASE, "teams": {"west": {"support": {"dragons": 1}}}}, "teams.west.support: unknown key 'dragons'"),
    ({**BASE, "rules": {"goals_to_win": 10**9}}, "rules.goals_to_win: 1000000000 is out of range"),
    ({**BASE, "players": [*BASE["players"], _hunter("w5", "A1")]}, "players[4].hex: A1 is off the field"),
    ({**BASE, "players": [*BASE["players"], _hunter("w5", "A12")]}, "players[4].hex: A12 is on the outer white line"),
    ({**BASE, "teams": {"west": {"score": 1}}}, "teams.west.score: 1 is out of range"),
    ({**BASE, "players": [{**BASE["players"][0], "hex": None}, *BASE["players"][1:]]},
     "acting.player: w1 is not on the field"),
])
def test_an_impossible_position_is_refused_before_any_command(tmp_path, capsys, data, said) -> None:
    err = refusal(capsys, ["scenario", _scenario(tmp_path, data)])
    assert said in err
    assert capsys.readouterr().out == ""  # nothing was played


def test_a_valid_scenario_still_plays(tmp_path, capsys) -> None:
    assert main(["scenario", _scenario(tmp_path, {k: v for k, v in BASE.items() if k != "expect"})]) == 0


# --- files that cannot be read -------------------------------------------------------------------
@pytest.mark.parametrize("content, said", [
    (b'{"players": "\xff"}', "is not UTF-8 text"),
    (b"[" * 100_000 + b"]" * 100_000, "nests lists or objects too deeply"),
    (b"[" * 100 + b"]" * 100, "nests lists or objects more than 64 deep"),
    (b'{"momentum": {"counters": ' + b"9" * 5000 + b"}}", "a number of thousands of digits"),
    (b'{"momentum": {"counters": NaN}}', "NaN is not a number JSON allows"),
    (b'{"name": "\\udcff"}', "lone surrogate"),
    (b"", "is not JSON"),
])
@pytest.mark.parametrize("command", ["scenario", "render", "verify"])
def test_an_unreadable_file_is_refused_by_every_command(tmp_path, capsys, content, said, command) -> None:
    path = tmp_path / "in.json"
    path.write_bytes(content)
    argv = {"scenario": ["scenario", str(path)], "render": ["render", str(path), str(tmp_path / "o.png")],
            "verify": ["verify", "--file", str(path)]}[command]
    assert said in refusal(capsys, argv)


@pytest.mark.parametrize("command", ["scenario", "render", "verify"])
def test_a_missing_file_or_a_folder_is_refused(tmp_path, capsys, command) -> None:
    for target, said in ((tmp_path / "nope.json", "No such file"), (tmp_path, "is a folder")):
        argv = {"scenario": ["scenario", str(target)], "render": ["render", str(target), str(tmp_path / "o.png")],
                "verify": ["verify", "--file", str(target)]}[command]
        assert said in refusal(capsys, argv)


# --- render -------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def state_json() -> dict:
    from render import fuzz_history

    return json.loads(json.dumps(fuzz_history(5, max_commands=60)[-1].state.to_dict()))


def test_render_refuses_an_array_a_missing_folder_and_a_broken_state(tmp_path, capsys, state_json) -> None:
    good = _scenario(tmp_path, state_json, "state.json")
    assert "a match state is a JSON object, not list" in refusal(
        capsys, ["render", _scenario(tmp_path, [state_json], "a.json"), str(tmp_path / "o.png")])
    assert "the folder" in refusal(capsys, ["render", good, str(tmp_path / "no" / "o.png")])
    assert "is a folder" in refusal(capsys, ["render", good, str(tmp_path)])
    assert "momentum: 'lots' is not a whole number" in refusal(
        capsys, ["render", _scenario(tmp_path, {**state_json, "momentum": "lots"}, "m.json"), str(tmp_path / "o.png")])
    broken = json.loads(json.dumps(state_json))
    broken["players"][0]["id"] = "w99"
    assert "who is not a" in refusal(capsys, ["render", _scenario(tmp_path, broken, "b.json"), str(tmp_path / "o.png")])
    assert "events are a JSON list" in refusal(
        capsys, ["render", _scenario(tmp_path, {"state": state_json, "events": 5}, "e.json"), str(tmp_path / "o.png")])
    assert not (tmp_path / "o.png").exists()
    assert main(["render", good, str(tmp_path / "o.png")]) == 0


# --- verify: records and ids --------------------------------------------------------------------
@pytest.fixture
def record(tmp_path) -> tuple[dict, Path]:
    """A finished match's record, and the SQLite database it was played in."""


    from service.match_rules import MatchSide
    from service.matches import MatchService
    from service.verify import load_record

    db = tmp_path / "played.db"
    engine = migrated_sqlite(db)

    sessions = sessions_on(engine)

    svc = MatchService(sessions=sessions, render=False)
    svc.start(guild_id=1, channel_id=1, west=MatchSide(5, team_list="gnolls"), east=MatchSide(7, team_list="sarcos"),
              seed="hardening")
    out = svc.act(1, 5, svc.read(1, 5, "auto")) if svc.status(1).deciding_side == "west" else svc.act(1, 7, svc.read(1, 7, "auto"))
    out = svc.concede(1, 7)
    with sessions() as s:
        data = json.loads(json.dumps(load_record(session=s, match_id=out.match.id).to_json()))
    engine.dispose()
    return data, db


def test_verify_refuses_a_die_as_a_number_and_a_command_as_a_list(tmp_path, capsys, record) -> None:
    data, _ = record
    die = json.loads(json.dumps(data))
    die["log"][0]["dice"][0] = 5
    assert "log[0].dice[0] should be" in refusal(capsys, ["verify", "--file", _scenario(tmp_path, die, "d.json")])
    cmd = json.loads(json.dumps(data))
    cmd["log"][1]["command"] = ["auto"]
    assert "log[1].command should be an object" in refusal(capsys, ["verify", "--file", _scenario(tmp_path, cmd)])
    huge = json.loads(json.dumps(data))
    huge["log"][0]["command"]["west"]["roster"]["players"][0]["count"] = 10**20
    assert main(["verify", "--file", _scenario(tmp_path, huge, "h.json")]) == 1  # not verified, in no time
    assert "a team of 12 players at most" in capsys.readouterr().out
    assert main(["verify", "--file", _scenario(tmp_path, data, "ok.json")]) == 0


@pytest.mark.parametrize("given", ["0", "-1", str(10**30), str(2**31), "abc", "²", "9" * 5000])
def test_verify_refuses_a_match_id_the_database_cannot_hold(capsys, given) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["verify", "--match", given])
    assert exc.value.code == 2
    assert "is not a match number (1 to 2147483647)" in capsys.readouterr().err


def test_verify_reads_a_read_only_copy_without_migrating_it(tmp_path, capsys, record, monkeypatch) -> None:
    data, db = record
    copy = tmp_path / "copy.db"
    shutil.copy(db, copy)
    before = copy.read_bytes()
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("ELFBALL_DB", str(copy))
    old = use_engine(None)
    try:
        assert main(["verify", "--match", str(data["match_id"])]) == 0
        assert "Consistent with itself only" in capsys.readouterr().out
    finally:
        use_engine(old)
    assert copy.read_bytes() == before
    # The engine it used cannot write, whoever owns the file.
    engine = open_database(f"sqlite:///{copy}", write=False)
    with pytest.raises(Exception, match="readonly"):
        with engine.begin() as conn:
            conn.execute(text("UPDATE matches SET version = version + 1"))
    engine.dispose()


def test_verify_reads_a_copy_in_a_folder_nobody_may_write(tmp_path, capsys, record, monkeypatch) -> None:
    """Without write access to the folder SQLite cannot make a WAL database's -shm file: the
    copy is opened immutable. (The tests may run as root, who may write anywhere: the access
    check is what is replaced here.)"""
    data, played = record
    folder = tmp_path / "backup"
    folder.mkdir()
    copy = folder / "elfball.db"
    shutil.copy(played, copy)
    real = os.access
    monkeypatch.setattr("db.engine.os.access",
                        lambda path, mode, **kw: False if str(path).startswith(str(folder)) else real(path, mode, **kw))
    engine = open_database(f"sqlite:///{copy}", write=False)
    assert "immutable=1" in str(engine.url)
    engine.dispose()
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("ELFBALL_DB", str(copy))
    old = use_engine(None)
    try:
        assert main(["verify", "--match", str(data["match_id"])]) == 0
    finally:
        use_engine(old)
    assert "Consistent with itself only" in capsys.readouterr().out
    assert sorted(p.name for p in folder.iterdir()) == ["elfball.db"]  # no -wal, no -shm


# --- databases in trouble --------------------------------------------------------------------------
def _sqlite_trouble(tmp_path: Path) -> dict[str, tuple[str, str]]:
    notdb = tmp_path / "notdb.db"
    notdb.write_bytes(b"this is not a database, but long enough to have a header" * 4)
    plain = tmp_path / "plain.db"
    con = sqlite3.connect(plain)
    con.execute("CREATE TABLE matches (id INTEGER)")
    con.commit()
    con.close()
    return {
        "not SQLite": (str(notdb), "is not an Elfball database: it is not a SQLite file"),
        "missing folder": (str(tmp_path / "no" / "x.db"), "the folder"),
        "no alembic_version": (str(plain), "has tables (matches) but no Alembic version"),
        "a folder": (str(tmp_path), "is a folder, not a file"),
    }


@pytest.mark.parametrize("command", [["verify", "--match", "1"], ["local", "--quiet"]])
def test_sqlite_trouble_is_a_one_line_refusal(tmp_path, capsys, monkeypatch, command) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    old = use_engine(None)
    try:
        for name, (path, said) in _sqlite_trouble(tmp_path).items():
            monkeypatch.setenv("ELFBALL_DB", path)
            argv = [*command, "--out", str(tmp_path / "boards")] if command[0] == "local" else command
            assert said in refusal(capsys, argv), name
    finally:
        use_engine(old)
    plain = tmp_path / "plain.db"
    assert sqlite3.connect(plain).execute("SELECT name FROM sqlite_master").fetchall() == [("matches",)]


@pytest.mark.parametrize("url, said", [
    ("nonsense://", "is not a database URL Elfball can use"),
    ("::::", ":::: is not a database URL"),
    ("postgresql://elfball:secret@127.0.0.1:9/elfball", "cannot connect to the database at"),
])
def test_a_bad_url_or_a_closed_port_is_a_refusal_without_the_password(capsys, monkeypatch, url, said) -> None:
    monkeypatch.setenv("DATABASE_URL", url)
    old = use_engine(None)
    try:
        for argv in (["verify", "--match", "1"], ["local", "--quiet"]):
            err = refusal(capsys, argv)
            assert said in err and "secret" not in err
    finally:
        use_engine(old)


def test_a_wrong_postgresql_password_is_a_refusal(capsys, monkeypatch) -> None:
    from sqlalchemy.engine import make_url

    url = make_url(postgres_url()).set(password="not-the-password").render_as_string(hide_password=False)
    monkeypatch.setenv("DATABASE_URL", url)
    old = use_engine(None)
    try:
        err = refusal(capsys, ["verify", "--match", "1"])
    finally:
        use_engine(old)
    assert "password authentication failed" in err and "not-the-password" not in err


def _url(engine) -> str:  # type: ignore[no-untyped-def]
    """The URL of a test database, with its PostgreSQL schema (``fresh_engine`` gives a schema
    of its own through the connection's options)."""
    url = engine.url
    if url.get_backend_name() == "postgresql":
        with engine.connect() as conn:
            schema = conn.execute(text("SELECT current_schema()")).scalar()
        url = url.update_query_dict({"options": f"-csearch_path={schema}"})
    return url.render_as_string(hide_password=False)


def test_a_newer_revision_is_refused_and_left_untouched(backend, tmp_path) -> None:
    for engine in fresh_engine(backend, tmp_path):
        with engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = '9999_future'"))
        url = _url(engine)
        for attempt in (lambda e=engine: upgrade(e), lambda u=url: open_database(u, write=False)):
            with pytest.raises(UnusableDatabaseError, match="revision 9999_future, which this version of Elfball does not know"):
                attempt()
        assert current_revision(engine) == "9999_future"


def test_tables_without_alembic_are_refused_and_left_untouched(backend, tmp_path) -> None:
    for engine in fresh_engine(backend, tmp_path, migrate=False):
        with engine.begin() as conn:
            conn.execute(text("CREATE TABLE guestbook (id INTEGER)"))
        with pytest.raises(UnusableDatabaseError, match=r"has tables \(guestbook\) but no Alembic version"):
            upgrade(engine)
        assert current_revision(engine) is None


def test_a_read_only_open_never_migrates_and_cannot_write(backend, tmp_path) -> None:
    for engine in fresh_engine(backend, tmp_path, migrate=False):
        upgrade(engine, "0002")
        with pytest.raises(UnusableDatabaseError, match="is at revision 0002, older than this code's"):
            open_database(_url(engine), write=False)
        assert current_revision(engine) == "0002"
        upgrade(engine)
        reader = open_database(_url(engine), write=False)
        try:
            with reader.connect() as conn:
                assert conn.execute(text("SELECT count(*) FROM matches")).scalar() == 0
            with pytest.raises(Exception, match="(?i)read-only|readonly"):
                with reader.begin() as conn:
                    conn.execute(text("DELETE FROM matches"))
        finally:
            reader.dispose()
        assert current_revision(engine) == head_revision()


def test_the_last_resort_is_one_line_and_its_own_exit_code(capsys, monkeypatch) -> None:
    import argparse

    def bug(_args: argparse.Namespace) -> int:
        raise RuntimeError("a bug")

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args",
                        lambda self, argv=None, namespace=None: argparse.Namespace(command="odds", func=bug))
    assert main(["odds"]) == INCIDENT
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "internal error RuntimeError (incident " in err[0]


def test_a_read_only_database_for_a_writer_is_a_refusal(tmp_path) -> None:
    """As a file nobody may write looks to SQLite (``mode=ro``; the tests may run as root)."""
    db = tmp_path / "ro.db"
    upgrade(f"sqlite:///{db}", "0002")
    with pytest.raises(UnusableDatabaseError, match=r"the database .*ro.db is read-only, and this needs to write to it"):
        upgrade(f"sqlite:///file:{db}?mode=ro&uri=true")
    assert current_revision(f"sqlite:///{db}") == "0002"
