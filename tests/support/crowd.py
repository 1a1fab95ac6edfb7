"""A crowded server for the lookups' bounds: ``leagues`` leagues of two teams each and
``fixtures`` fixtures in all, written straight into the tables (no players, no matches: an
autocomplete reads none of them). Used by tests/bot's autocomplete test and
``benchmarks/bench_lookups.py``."""

from __future__ import annotations

from db.engine import session_scope
from db.models import Fixture, League, Team

__all__ = ["crowded_server"]


def crowded_server(guild_id: int, *, leagues: int = 300, fixtures: int = 5000, coach_base: int = 1000) -> None:
    """``leagues`` leagues named ``Cup 1``… on ``guild_id``, each with two teams (``Team 1a``,
    ``Team 1b``; coaches ``coach_base + 2i`` and ``+ 2i + 1``), ``fixtures`` fixtures shared out
    round by round; every third round played."""
    with session_scope() as s:
        rows = []
        for i in range(1, leagues + 1):
            lg = League(guild_id=guild_id, name=f"Cup {i}", name_key=f"cup {i}", commissioner_id=coach_base + 2 * i)
            s.add(lg)
            rows.append(lg)
        s.flush()
        pairs = []
        for i, lg in enumerate(rows, start=1):
            a = Team(guild_id=guild_id, league_id=lg.id, coach_id=coach_base + 2 * i, team_list="gnolls",
                     name=f"Team {i}a", name_key=f"team {i}a")
            b = Team(guild_id=guild_id, league_id=lg.id, coach_id=coach_base + 2 * i + 1, team_list="sarcos",
                     name=f"Team {i}b", name_key=f"team {i}b")
            s.add_all([a, b])
            pairs.append((lg, a, b))
        s.flush()
        for n in range(fixtures):
            lg, a, b = pairs[n % leagues]
            rnd = n // leagues + 1
            home, away = (a, b) if rnd % 2 else (b, a)
            played = rnd % 3 == 1  # every third round played
            s.add(Fixture(league_id=lg.id, round=rnd, home_team_id=home.id, away_team_id=away.id,
                          status="played" if played else "scheduled", home_score=1 if played else None,
                          away_score=0 if played else None))
        s.commit()
