"""A league table as a picture: played, won, drawn, lost, goals, casualties caused, points."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .table import Column, render_table

__all__ = ["STANDINGS_COLUMNS", "standings_cells", "render_standings"]

STANDINGS_COLUMNS = (
    Column("#", 34, "r"), Column("Team", 230), Column("P", 40, "r"), Column("W", 40, "r"), Column("D", 40, "r"),
    Column("L", 40, "r"), Column("GF", 46, "r"), Column("GA", 46, "r"), Column("GD", 50, "r"), Column("Cas", 54, "r"),
    Column("Pts", 56, "r"),
)


def standings_cells(rows: Sequence[Any]) -> list[list[str]]:
    """The table's cells, one list per team (rows: ``service.leagues.StandingRow``)."""
    return [[str(i), r.name, str(r.played), str(r.won), str(r.drawn), str(r.lost), str(r.goals_for),
             str(r.goals_against), f"{r.goal_difference:+d}", str(r.casualties), str(r.points)]
            for i, r in enumerate(rows, 1)]


def render_standings(league: str, rows: Sequence[Any], *, subtitle: str = "", scale: float = 1.0) -> bytes:
    """PNG bytes of the standings, leader first."""
    leader = {0} if rows and rows[0].played else set()
    marked = [{1, 10} if i in leader else set() for i in range(len(rows))]
    return render_table(f"{league}: standings", subtitle, STANDINGS_COLUMNS, standings_cells(rows), marked=marked,
                        notes=["P played · W won · D drawn · L lost · GF/GA goals for/against · Cas casualties caused"],
                        scale=scale)
