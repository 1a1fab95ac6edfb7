"""A league table as a picture: played, won, drawn, lost, goals, casualties caused, points.

Its words (title, column heads, legend) come from the engine's catalogue (``standings.*``) in
the reader's language; the French columns are the text standings' (``J G N P BP BC``...)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine import Catalogue, DEFAULT_LANGUAGE

from .table import Column, render_table

__all__ = ["STANDINGS_COLUMNS", "standings_columns", "standings_cells", "render_standings"]

#: (catalogue key, width, alignment) of each column.
_COLUMNS = (
    ("#", 34, "r"), ("team", 230, "l"), ("played", 40, "r"), ("won", 40, "r"), ("drawn", 40, "r"),
    ("lost", 40, "r"), ("for", 46, "r"), ("against", 46, "r"), ("difference", 50, "r"), ("casualties", 54, "r"),
    ("points", 56, "r"),
)


def standings_columns(language: str = DEFAULT_LANGUAGE) -> tuple[Column, ...]:
    """The table's columns, their heads in ``language``."""
    words = Catalogue("engine", "data/text", language)
    return tuple(Column(key if key == "#" else words.t(f"standings.column.{key}"), width, align)
                 for key, width, align in _COLUMNS)


STANDINGS_COLUMNS = standings_columns()


def standings_cells(rows: Sequence[Any]) -> list[list[str]]:
    """The table's cells, one list per team (rows: ``service.leagues.StandingRow``)."""
    return [[str(i), r.name, str(r.played), str(r.won), str(r.drawn), str(r.lost), str(r.goals_for),
             str(r.goals_against), f"{r.goal_difference:+d}", str(r.casualties), str(r.points)]
            for i, r in enumerate(rows, 1)]


def render_standings(league: str, rows: Sequence[Any], *, subtitle: str = "", scale: float = 1.0,
                     language: str = DEFAULT_LANGUAGE) -> bytes:
    """PNG bytes of the standings, leader first, in ``language``."""
    words = Catalogue("engine", "data/text", language)
    leader = {0} if rows and rows[0].played else set()
    marked = [{1, 10} if i in leader else set() for i in range(len(rows))]
    return render_table(words.t("standings.title", league=league), subtitle, standings_columns(language),
                        standings_cells(rows), marked=marked, notes=[words.t("standings.legend")], scale=scale)
