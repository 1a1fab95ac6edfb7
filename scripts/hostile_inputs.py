"""Hostile inputs to the command line, by class, and what became of each (issue 17).

Run: ``.venv/bin/python scripts/hostile_inputs.py [--postgres URL] [--show crashed|refused|accepted]``.

Every input goes through ``cli.main.main`` in this process, as ``elfball`` would run it. An
input is *refused* when the command exits 2 with a message on stderr (and no traceback),
*accepted* when it exits 0 or 1 (a scenario played, a record verified or found wrong), and
*crashed* otherwise: an exception out of ``main``, the last-resort incident (exit 70) or a
traceback. The table printed is the one in docs/reliability.md; ``tests/cli/test_hostile_inputs.py``
runs the same corpus and requires no crash.

The classes: scenario files with wrong types or values at every key (each key of a valid
scenario replaced by each of a set of hostile values), impossible positions, unreadable files
(not UTF-8, nested 100,000 deep, a number of 5,000 digits, NaN, missing, a folder), saved states
for ``render`` with a hostile value at a random place (seeded), ``verify`` records likewise,
``--match`` ids, ``--table``, ``--width`` and ``--out`` of the console and the renderer, and databases in trouble (not SQLite, missing folder, tables without Alembic,
a newer revision, an older one opened read-only, a bad URL, a closed port, a wrong password).
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import io
import json
import os
import random
import sqlite3
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

#: Values put where a scenario, a state or a record expects something else.
HOSTILE: list[Any] = [None, True, 0, -5, 10**400, 1e308, "", "flying", "w1", "\x00", "\udcff", "²",
                      "x" * 20_000, [], ["w1"], {}, {"a": 1}, [[[[[]]]]]]


#: The class of the valid inputs each hostile one is made from: they must be accepted.
CONTROLS = "valid inputs (controls)"


@dataclass
class Case:
    kind: str  # the class, a row of the table
    name: str
    argv: list[str]
    env: dict[str, str | None] | None = None


@dataclass
class Result:
    case: Case
    outcome: str  # "refused", "accepted" or "crashed"
    code: int | None
    message: str


def run(case: Case) -> Result:
    """Run one case through ``cli.main.main``; never raises."""
    from cli.main import INCIDENT, main
    from db.engine import use_engine

    # As a terminal's: stdout refuses what UTF-8 cannot encode (a lone surrogate), stderr escapes it.
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace")
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
    saved = {k: os.environ.get(k) for k in (case.env or {})}
    for k, v in (case.env or {}).items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
    old_engine = use_engine(None)
    code: int | None
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            try:
                code = main(case.argv)
            except SystemExit as exc:  # argparse's refusal of an argument
                code = exc.code if isinstance(exc.code, int) else 2
    except BaseException as exc:  # noqa: BLE001 - what we are counting
        return Result(case, "crashed", None, f"{type(exc).__name__}: {str(exc)[:200]}")
    finally:
        use_engine(old_engine)
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    err.flush()
    message = err.buffer.getvalue().decode("utf-8").strip()  # type: ignore[attr-defined]
    if code == INCIDENT or "Traceback" in message:
        return Result(case, "crashed", code, message)
    if code == 2 and message:
        return Result(case, "refused", code, message.splitlines()[-1])
    if code in (0, 1):
        return Result(case, "accepted", code, message)
    return Result(case, "crashed", code, f"exit {code}: {message}")


# --- the corpus ------------------------------------------------------------------------------------
def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every key path into ``value`` (objects and lists), the containers themselves included."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*prefix, i))


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    out = copy.deepcopy(value)
    if not path:
        return new
    target = out
    for k in path[:-1]:
        target = target[k]
    target[path[-1]] = new
    return out


def _write(folder: Path, name: str, data: Any) -> Path:
    path = folder / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def scenario_cases(folder: Path) -> list[Case]:
    base = json.loads((ROOT / "scenarios/rulebook/play-by-play-1.json").read_text(encoding="utf-8"))
    base.pop("expect")
    cases = [Case(CONTROLS, "play-by-play-1", ["scenario", str(_write(folder, "ok.json", base))])]
    n = 0
    for path in _paths(base):
        if path[:1] == ("description",):
            continue
        for value in HOSTILE:
            n += 1
            where = "/".join(map(str, path)) or "(the file)"
            cases.append(Case("scenario: a wrong type or value at a key", f"{where} = {str(value)[:20]!r}",
                              ["scenario", str(_write(folder, f"s{n}.json", _set(base, path, value)))]))
    named = {
        '"players": "w1"': {**base, "players": "w1"},
        '"status": "flying"': _set(base, ("players", 0, "status"), "flying"),
        "unknown acting player": {**base, "acting": {"player": "w9", "jog": 5}},
        "unknown rule": {**base, "rules": "profile=standard warp-speed"},
        "unknown rule field": {**base, "rules": {"warp": True}},
        "a number as a command": {**base, "commands": [5]},
        "a list as a command": {**base, "commands": [["move", "G14"]]},
        "d6 of 7": {**base, "dice": {"faces": "", "d6": [7]}},
    }
    for name, data in named.items():
        n += 1
        cases.append(Case("scenario: a wrong type or value at a key", name,
                          ["scenario", str(_write(folder, f"s{n}.json", data))]))
    return cases


def impossible_positions(folder: Path) -> list[Case]:
    base = json.loads((ROOT / "scenarios/rulebook/play-by-play-1.json").read_text(encoding="utf-8"))
    base.pop("expect")
    players = base["players"]
    west13 = [{"id": f"w{i}", "position": "timberline-elves/hunters", "hex": h, "facing": "E"}
              for i, h in enumerate(["C10", "C12", "C14", "D9", "D11", "D13", "D15", "E10", "E12", "E16",
                                     "H10", "H14", "H16"], start=1)]
    cases = {
        "two players on one hex": [*players, {"id": "w3", "position": "timberline-elves/hunters", "hex": "I12",
                                              "facing": "E"}],
        "13 players of a side": [p for p in players if p["id"][0] == "e"] + west13,
        "7 players of a side on the field": [p for p in players if p["id"][0] == "e"] + west13[:7],
        "a loose ball under a player": [{**p, "ball": False} for p in players],
        "the ball held by a Bench player": [*players[:3], {"id": "e2", "position": "night-elves/imps", "ball": True}],
        "a player at an off-field hex": [*players, {"id": "w5", "position": "timberline-elves/hunters", "hex": "A1",
                                                    "facing": "E"}],
        "a player on the outer white line": [*players, {"id": "w5", "position": "timberline-elves/hunters",
                                                        "hex": "A12", "facing": "E"}],
        "a duplicate player id": [*players, {**players[1], "hex": "J12"}],
        "a player w13": [*players, {"id": "w13", "position": "timberline-elves/hunters", "hex": "J12", "facing": "E"}],
    }
    out = []
    for i, (name, plist) in enumerate(cases.items()):
        data = {**base, "players": plist}
        if name == "a loose ball under a player":
            data["ball"] = "G13"
        out.append(Case("scenario: an impossible position", name, ["scenario", str(_write(folder, f"p{i}.json", data))]))
    others = {
        "Momentum 10^400": {**base, "momentum": {"counters": 10**400, "side": "west"}},
        "Momentum -5": {**base, "momentum": {"counters": -5, "side": "west"}},
        "Momentum 7": {**base, "momentum": {"counters": 7, "side": "west"}},
        "unknown team support": {**base, "teams": {**base["teams"], "west": {"list": "timberline-elves",
                                                                             "support": {"dragons": 1}}}},
        "too much team support": {**base, "teams": {**base["teams"], "west": {"list": "timberline-elves",
                                                                              "support": {"wizard": 5}}}},
        "goals_to_win 10^9": {**base, "rules": {"goals_to_win": 10**9}},
        "a score that has already won": {**base, "teams": {**base["teams"], "west": {"list": "timberline-elves",
                                                                                     "score": 1}}},
        "the acting player on the Bench": {**base, "players": [*players[1:], {**players[0], "hex": None}]},
    }
    for i, (name, data) in enumerate(others.items()):
        out.append(Case("scenario: an impossible position", name, ["scenario", str(_write(folder, f"q{i}.json", data))]))
    return out


def file_cases(folder: Path) -> list[Case]:
    files: dict[str, bytes | None] = {
        "not UTF-8": b'{"players": "\xff\xfe"}',
        "nested 100,000 deep": b"[" * 100_000 + b"]" * 100_000,
        "nested 1,000 deep": b"[" * 1000 + b"]" * 1000,
        "an integer of 5,000 digits": b'{"momentum": {"counters": ' + b"9" * 5000 + b"}}",
        "an integer of 4,000 digits": b'{"momentum": {"counters": ' + b"9" * 4000 + b"}}",
        "NaN": b'{"momentum": {"counters": NaN}}',
        "empty": b"",
        "not JSON": b"players: w1",
        "a JSON array": b"[1, 2]",
        "a JSON string": b'"scenario"',
    }
    out = []
    for cmd in ("scenario", "render", "verify"):
        for i, (name, data) in enumerate(files.items()):
            path = folder / f"f{cmd}{i}.json"
            path.write_bytes(data or b"")
            argv = {"scenario": ["scenario", str(path)], "render": ["render", str(path), str(folder / "out.png")],
                    "verify": ["verify", "--file", str(path)]}[cmd]
            out.append(Case("unreadable files (scenario, render, verify)", f"{cmd}: {name}", argv))
        missing = str(folder / "missing.json")
        for name, target in (("a missing file", missing), ("a folder", str(folder))):
            argv = {"scenario": ["scenario", target], "render": ["render", target, str(folder / "out.png")],
                    "verify": ["verify", "--file", target]}[cmd]
            out.append(Case("unreadable files (scenario, render, verify)", f"{cmd}: {name}", argv))
    return out


def _state_json() -> dict[str, Any]:
    from render import fuzz_history

    history = fuzz_history(5, max_commands=120)
    return json.loads(json.dumps(history[-1].state.to_dict()))


def render_cases(folder: Path, count: int, seed: int) -> list[Case]:
    state = _state_json()
    ok = _write(folder, "state.json", state)
    out = [
        Case(CONTROLS, "valid state", ["render", str(ok), str(folder / "ok.png")]),
        Case("render: a saved state", "a JSON array", ["render", str(_write(folder, "arr.json", [state])),
                                                       str(folder / "x.png")]),
        Case("render: a saved state", "into a missing folder", ["render", str(ok), str(folder / "nope" / "x.png")]),
        Case("render: a saved state", "into a folder", ["render", str(ok), str(folder)]),
        Case("render: a saved state", "--width 10**9", ["render", str(ok), str(folder / "w.png"), "--width",
                                                         str(10**9)]),
        Case("render: a saved state", "events not a list", ["render", str(_write(folder, "ev.json",
                                                                                  {"state": state, "events": 5})),
                                                             str(folder / "x.png")]),
        Case("render: a saved state", "an event of an unknown kind",
             ["render", str(_write(folder, "ev2.json", {"state": state, "events": [{"kind": "teleport"}]})),
              str(folder / "x.png")]),
    ]
    rng = random.Random(seed)
    paths = list(_paths(state))
    for i in range(count):
        path = rng.choice(paths)
        value = rng.choice(HOSTILE)
        out.append(Case("render: a saved state", f"{'/'.join(map(str, path))} = {str(value)[:20]!r}",
                        ["render", str(_write(folder, f"r{i}.json", _set(state, path, value))),
                         str(folder / f"r{i}.png")]))
    return out


def _record(folder: Path) -> tuple[dict[str, Any], Path]:
    """A finished match's exported record (a short AI v AI match)."""
    from sqlmodel import Session

    from db.engine import make_engine
    from service.match_rules import MatchSide
    from db.migrate import upgrade
    from service.matches import AI_COACH_ID, MatchService
    from service.verify import load_record

    path = folder / "played.db"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)

    @contextlib.contextmanager
    def sessions() -> Iterator[Session]:
        with Session(engine, expire_on_commit=False) as s:
            yield s

    svc = MatchService(sessions=sessions, render=False)
    out = svc.start(guild_id=1, channel_id=1, west=MatchSide(AI_COACH_ID, team_list="gnolls"),
                    east=MatchSide(7, team_list="sarcos"), seed="hostile")
    if out.deciding_side == "east":
        out = svc.act(1, 7, svc.read(1, 7, "auto"))
    out = svc.concede(1, 7)
    with sessions() as s:
        record = load_record(session=s, match_id=out.match.id).to_json()
    engine.dispose()
    return json.loads(json.dumps(record)), path


def verify_cases(folder: Path, count: int, seed: int) -> list[Case]:
    record, db = _record(folder)
    ok = _write(folder, "record.json", record)
    rows = [i for i, r in enumerate(record["log"]) if r.get("dice")]
    die_row, cmd_row = (rows[0] if rows else 0), next(i for i, r in enumerate(record["log"]) if i and r.get("command"))
    die = copy.deepcopy(record)
    die["log"][die_row]["dice"] = [5] if not die["log"][die_row]["dice"] else [5, *die["log"][die_row]["dice"][1:]]
    cmd = copy.deepcopy(record)
    cmd["log"][cmd_row]["command"] = ["auto"]
    env = {"ELFBALL_DB": str(db), "DATABASE_URL": None}
    out = [
        Case(CONTROLS, "valid file", ["verify", "--file", str(ok)]),
        Case("verify: a record or a match id", "a die written as a number",
             ["verify", "--file", str(_write(folder, "die.json", die))]),
        Case("verify: a record or a match id", "a command as a list",
             ["verify", "--file", str(_write(folder, "cmd.json", cmd))]),
        Case("verify: a record or a match id", "a JSON array", ["verify", "--file", str(_write(folder, "ra.json",
                                                                                                [record]))]),
        Case(CONTROLS, "valid --match", ["verify", "--match", "1"], env),
    ]
    for text in ("0", "-1", str(10**30), str(2**31), "abc", "1.5", "²", "١", "9" * 5000):
        out.append(Case("verify: a record or a match id", f"--match {text[:12]}", ["verify", "--match", text], env))
    rng = random.Random(seed)
    paths = [p for p in _paths(record) if p[:1] != ("final_state",) or len(p) < 3]
    for i in range(count):
        path = rng.choice(paths)
        value = rng.choice(HOSTILE)
        out.append(Case("verify: a record or a match id", f"{'/'.join(map(str, path))} = {str(value)[:20]!r}",
                        ["verify", "--file", str(_write(folder, f"v{i}.json", _set(record, path, value)))]))
    return out


def database_cases(folder: Path, postgres: str | None) -> list[Case]:
    from db.migrate import upgrade

    notdb = folder / "notdb.db"
    notdb.write_bytes(b"SQLite format 2? no: just text, long enough to be read as a header" * 4)
    plain = folder / "plain.db"
    con = sqlite3.connect(plain)
    con.execute("CREATE TABLE matches (id INTEGER)")
    con.commit()
    con.close()
    newer = folder / "newer.db"
    upgrade(f"sqlite:///{newer}")
    con = sqlite3.connect(newer)
    con.execute("UPDATE alembic_version SET version_num = '9999_from_the_future'")
    con.commit()
    con.close()
    older = folder / "older.db"
    upgrade(f"sqlite:///{older}", "0002")
    empty = folder / "empty.db"
    sqlite3.connect(empty).close()
    sqlite_files = {
        "a file that is not SQLite": str(notdb),
        "a missing folder": str(folder / "no-such-folder" / "elfball.db"),
        "tables but no alembic_version": str(plain),
        "an unknown newer revision": str(newer),
        "an older revision, read-only check": str(older),
        "an empty database, read-only check": str(empty),
        "no file at all, read-only check": str(folder / "absent.db"),
        "a folder as the database": str(folder),
    }
    out = []
    for name, path in sqlite_files.items():
        out.append(Case("database trouble", f"verify: {name}", ["verify", "--match", "1"],
                        {"ELFBALL_DB": path, "DATABASE_URL": None}))
        if "read-only" not in name:
            out.append(Case("database trouble", f"local: {name}",
                            ["local", "--db", path, "--out", str(folder / "boards"), "--quiet"]))
    urls = {"DATABASE_URL=nonsense://": "nonsense://", "DATABASE_URL=::::": "::::",
            "DATABASE_URL=mysql:// (no driver)": "mysql://u:p@127.0.0.1/x",
            "a closed PostgreSQL port": "postgresql://elfball:elfball@127.0.0.1:9/elfball"}
    if postgres:
        from sqlalchemy.engine import make_url

        url = make_url(postgres)
        urls["a wrong PostgreSQL password"] = url.set(password="wrong-password").render_as_string(hide_password=False)
        urls["a PostgreSQL database that does not exist"] = url.set(database="no_such_db_h5").render_as_string(
            hide_password=False)
    for name, url in urls.items():
        for argv in (["verify", "--match", "1"], ["local", "--out", str(folder / "boards"), "--quiet"]):
            out.append(Case("database trouble", f"{argv[0]}: {name}", argv, {"DATABASE_URL": url}))
    return out


def argument_cases(folder: Path) -> list[Case]:
    """Numbers and folders on the command line of the console and the renderer."""
    db = str(folder / "args.db")
    kind = "command-line numbers and folders"
    out = []
    for name, extra in (("--table 10**30", ["--table", str(10**30)]), ("--table -1", ["--table", "-1"]),
                        ("--table ²", ["--table", "²"]), ("--width 10**7", ["--width", str(10**7)]),
                        ("--width 0", ["--width", "0"]), ("--out under a file", ["--out", str(folder / "args.db" / "x")])):
        out.append(Case(kind, f"local {name}", ["local", "--db", db, "--quiet", *extra]))
    for name, extra in (("--width 5", ["--width", "5"]), ("--width 10**9", ["--width", str(10**9)])):
        out.append(Case(kind, f"render {name}", ["render", str(folder / "state.json"), str(folder / "x.png"), *extra]))
        out.append(Case(kind, f"replay-gif {name}", ["replay-gif", str(folder / "x.gif"), *extra]))
    out.append(Case(kind, "replay-gif into a missing folder", ["replay-gif", str(folder / "no" / "x.gif")]))
    return out


def corpus(folder: Path, *, postgres: str | None = None, mutations: int = 150, seed: int = 17) -> list[Case]:
    return (scenario_cases(folder) + impossible_positions(folder) + file_cases(folder)
            + render_cases(folder, mutations, seed) + verify_cases(folder, mutations, seed)
            + database_cases(folder, postgres) + argument_cases(folder))


def table(results: list[Result]) -> str:
    rows: dict[str, Counter[str]] = {}
    for r in results:
        rows.setdefault(r.case.kind, Counter())[r.outcome] += 1
    lines = ["| Inputs | Tried | Refused cleanly | Accepted | Crashed |", "|---|---:|---:|---:|---:|"]
    total: Counter[str] = Counter()
    for kind, c in rows.items():
        total.update(c)
        lines.append(f"| {kind} | {sum(c.values())} | {c['refused']} | {c['accepted']} | {c['crashed']} |")
    lines.append(f"| **all** | **{sum(total.values())}** | **{total['refused']}** | **{total['accepted']}** | "
                 f"**{total['crashed']}** |")
    return "\n".join(lines)


def run_all(postgres: str | None = None, *, mutations: int = 150, seed: int = 17,
            progress: Callable[[Result], None] | None = None) -> list[Result]:
    with tempfile.TemporaryDirectory() as tmp:
        cases = corpus(Path(tmp), postgres=postgres, mutations=mutations, seed=seed)
        results = []
        for case in cases:
            results.append(run(case))
            if progress:
                progress(results[-1])
        return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", default=os.environ.get("ELFBALL_TEST_POSTGRES_URL"),
                        help="a PostgreSQL URL for the wrong-password case (default ELFBALL_TEST_POSTGRES_URL)")
    parser.add_argument("--mutations", type=int, default=150, help="random hostile values per state and record")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--show", choices=("crashed", "refused", "accepted"), help="list the inputs of one outcome")
    args = parser.parse_args(argv)
    import logging

    logging.disable(logging.CRITICAL)  # the AI's and the store's logs are not the table
    results = run_all(args.postgres, mutations=args.mutations, seed=args.seed)
    print(table(results))
    if args.show:
        for r in results:
            if r.outcome == args.show:
                print(f"- [{r.case.kind}] {r.case.name[:70]}: {r.message[:160]}")
    return 1 if any(r.outcome == "crashed" for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
