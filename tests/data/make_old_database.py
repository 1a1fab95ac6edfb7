"""Writes ``old_0004.db``: a database as Elfball wrote it at commit 79a6489 (schema 0004, before
rules editions and sealed seeds), for ``tests/db/test_upgrade_old_database.py``.

Run it with that commit's code on the path, not this one's::

    git archive 79a6489 | tar -x -C /tmp/elfball-79a6489
    PYTHONPATH=/tmp/elfball-79a6489 python tests/data/make_old_database.py tests/data/old_0004.db

It holds one finished match (Alice against the AI coach) and one in progress (Alice against
Bob, some actions in), both with fixed seeds, so the test knows what to expect.
"""

from __future__ import annotations

import sqlite3
import sys
from contextlib import contextmanager
from pathlib import Path

from sqlmodel import Session

from db.engine import make_engine
from service.match_rules import MatchSide
from db.migrate import current_revision, upgrade
from ai import AICoach
from service.matches import AI_COACH_ID, MatchService

ALICE, BOB = 101, 102
LIVE_ACTIONS = 40


def main(path: str) -> None:
    target = Path(path)
    target.unlink(missing_ok=True)
    engine = make_engine(f"sqlite:///{target}")
    upgrade(engine)
    assert current_revision(engine) == "0004", current_revision(engine)

    @contextmanager
    def scope():
        with Session(engine, expire_on_commit=False) as s:
            yield s

    svc = MatchService(sessions=scope, render=False)
    out = svc.start(guild_id=1, channel_id=10, west=MatchSide(ALICE, team_list="gnolls"),
                    east=MatchSide(AI_COACH_ID, team_list="night-elves"), seed="old-finished")
    alice = AICoach()
    while not out.finished:
        out = svc.act(10, ALICE, alice.choose(out.state, "west"))
    out = svc.start(guild_id=1, channel_id=20, west=MatchSide(ALICE, team_list="gnolls"),
                    east=MatchSide(BOB, team_list="sarcos"), seed="old-live")
    coaches = {"west": (ALICE, AICoach()), "east": (BOB, AICoach())}
    for _ in range(LIVE_ACTIONS):
        side = svc.status(20).deciding_side
        user, ai = coaches[side]
        out = svc.act(20, user, ai.choose(out.state, side))
    engine.dispose()
    conn = sqlite3.connect(target)
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.execute("VACUUM")
    conn.close()


if __name__ == "__main__":
    main(sys.argv[1])
