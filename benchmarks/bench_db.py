"""Commit latency per action with 1,000 stored matches, on SQLite and PostgreSQL.

Run: ``.venv/bin/python benchmarks/bench_db.py [--matches 1000] [--actions 500] [--postgres URL]``.

For each backend it makes a fresh database (SQLite: a file in a temporary folder, WAL, the
production settings; PostgreSQL: a schema of its own, dropped afterwards), migrates it, stores
``--matches`` matches (one per channel, each created in its own transaction), then plays
``--actions`` random legal commands on randomly chosen matches. Per action it reports:

* ``submit``: what a coach waits for: load the match, apply the command, write and commit;
* ``write``: only the optimistic write (UPDATE ... WHERE version = ?, INSERT the log row, COMMIT).

PostgreSQL runs when ``--postgres`` or ``ELFBALL_TEST_POSTGRES_URL`` gives a server. Note that
the server's own durability settings (fsync, synchronous_commit) dominate its commit time.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy.engine import Engine
from sqlmodel import Session

from db import matches
from db.engine import make_engine
from service.match_rules import MatchSide
from db.migrate import upgrade
from engine import RandomCoach, all_team_lists, pending, standard_field
from service import match_rules


@contextmanager
def sqlite_db() -> Iterator[tuple[Engine, str]]:
    with tempfile.TemporaryDirectory() as folder:
        engine = make_engine(f"sqlite:///{Path(folder) / 'bench.db'}")
        try:
            yield engine, "SQLite (file, WAL, synchronous=FULL)"
        finally:
            engine.dispose()


@contextmanager
def postgres_db(url: str) -> Iterator[tuple[Engine, str]]:
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    admin = make_engine(url)
    with admin.begin() as conn:
        conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
        settings = {k: conn.exec_driver_sql(f"SHOW {k}").scalar_one() for k in ("fsync", "synchronous_commit")}
        version = conn.exec_driver_sql("SHOW server_version").scalar_one()
    engine = make_engine(url, connect_args={"options": f"-csearch_path={schema}"})
    try:
        label = f"PostgreSQL {version} (fsync={settings['fsync']}, synchronous_commit={settings['synchronous_commit']})"
        yield engine, label
    finally:
        engine.dispose()
        with admin.begin() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
        admin.dispose()


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def bench(engine: Engine, label: str, n_matches: int, n_actions: int, seed: int) -> None:
    rng = random.Random(seed)
    upgrade(engine)
    lists = [t.name for t in all_team_lists()]
    start = time.perf_counter()
    ids = []
    for i in range(n_matches):
        west, east = rng.sample(lists, 2)
        with Session(engine, expire_on_commit=False) as s:
            m = match_rules.create_match(session=s, guild_id=1 + i % 20, channel_id=10_000 + i,
                                     west=MatchSide(1, team_list=west), east=MatchSide(2, team_list=east),
                                     seed=f"bench-{seed}-{i}").match
        ids.append(m.id)
    created = time.perf_counter() - start

    writes: list[float] = []
    real_append = matches.append

    def timed_append(**kwargs):  # type: ignore[no-untyped-def]
        t = time.perf_counter()
        try:
            return real_append(**kwargs)
        finally:
            writes.append(time.perf_counter() - t)

    coach, fld = RandomCoach(random.Random(seed)), standard_field()
    submits: list[float] = []
    matches.append = timed_append  # type: ignore[assignment]
    try:
        while len(submits) < n_actions:
            match_id = rng.choice(ids)
            with Session(engine, expire_on_commit=False) as s:
                m = matches.get_match(session=s, match_id=match_id)
            if not m.active:
                ids.remove(match_id)
                continue
            state = m.engine_state()
            side = pending(state).side
            command = coach.choose(state, side, fld)
            t = time.perf_counter()
            with Session(engine, expire_on_commit=False) as s:
                match_rules.submit(session=s, match_id=match_id, by_side=side, actor_user_id=None, command=command,
                               expected_version=m.version)
            submits.append(time.perf_counter() - t)
    finally:
        matches.append = real_append  # type: ignore[assignment]

    print(f"\n{label}")
    print(f"  {n_matches} matches stored in {created:.1f} s ({created / n_matches * 1000:.1f} ms each)")
    for name, values in (("submit (load + apply + write)", submits), ("write (UPDATE + INSERT + COMMIT)", writes)):
        ms = [v * 1000 for v in values]
        print(f"  {name:34} median {statistics.median(ms):6.2f} ms   p95 {_pct(ms, 0.95):6.2f} ms   "
              f"mean {statistics.fmean(ms):6.2f} ms   ({len(ms)} actions)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres", default=os.environ.get("ELFBALL_TEST_POSTGRES_URL", ""),
                        help="PostgreSQL URL (default: ELFBALL_TEST_POSTGRES_URL)")
    parser.add_argument("--no-sqlite", action="store_true")
    args = parser.parse_args()
    if not args.no_sqlite:
        with sqlite_db() as (engine, label):
            bench(engine, label, args.matches, args.actions, args.seed)
    if args.postgres:
        with postgres_db(args.postgres) as (engine, label):
            bench(engine, label, args.matches, args.actions, args.seed)
    else:
        print("\nPostgreSQL: skipped (give --postgres URL or set ELFBALL_TEST_POSTGRES_URL)")


if __name__ == "__main__":
    main()
