"""Migration 0008: each match records who owns each side's stored team. A match stored before
gets its teams' owners (so the owner of a team locked by a match he does not coach may end it),
a team list's side stays NULL, and downgrading drops the columns with every match kept."""

from __future__ import annotations

from support.databases import fresh_engine, sessions_on
from sqlalchemy import inspect, text
from sqlmodel import Session

from db import matches as store
from db.migrate import downgrade, upgrade
from db.teams import create_team
from service.match_rules import MatchSide
from service.matches import MatchService

ALICE, BOB, CAROL = 101, 102, 103


def test_0008_fills_in_the_owners_of_matches_stored_before(backend, tmp_path) -> None:
    for engine in fresh_engine(backend, tmp_path):
        scope = sessions_on(engine)
        with scope() as s:
            create_team(session=s, guild_id=1, coach_id=BOB, name="Gnashers", team_list="gnolls")
        svc = MatchService(sessions=scope, render=False)
        m = svc.start(guild_id=1, channel_id=1, west=MatchSide(BOB, team="Gnashers"),
                      east=MatchSide(ALICE, team_list="sarcos")).match
        assert (m.west_owner_id, m.east_owner_id) == (BOB, None)

        downgrade(engine, "0007")
        assert "west_owner_id" not in {c["name"] for c in inspect(engine).get_columns("matches")}
        with engine.begin() as conn:  # as an older bot let Carol play Bob's team
            conn.execute(text("UPDATE matches SET west_coach_id = :carol"), {"carol": CAROL})
        upgrade(engine)
        with Session(engine) as s:
            again = store.get_match(session=s, match_id=m.id)
        assert (again.west_coach_id, again.west_owner_id, again.east_owner_id) == (CAROL, BOB, None)
        assert again.active and again.state == m.state
