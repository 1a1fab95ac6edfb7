"""``elfball intro``: a one-screen tour for newcomers (the field, the dice, the teams).

Everything shown comes from the engine (through ``service.reference``): the field map and its
legend (as ``elfball field`` prints them), the exact odds and the team lists. Nothing is
copied, so the tour cannot drift from the rules it shows.
"""

from __future__ import annotations

import argparse
import textwrap
from fractions import Fraction

from cli.field_commands import LEGEND
from service.reference import all_team_lists, odds, standard_field

__all__ = ["ODDS_DICE", "ODDS_NEEDS", "TRY_LINE", "intro_text", "odds_cell", "register"]

#: Rows and columns of the odds table: dice rolled, successes needed.
ODDS_DICE = range(1, 7)
ODDS_NEEDS = range(1, 5)
TRY_LINE = (
    "Try: elfball field --hex K12 · elfball odds 4 2 · elfball roll 4 2 · "
    "elfball teams · elfball team night-elves"
)
_WIDTH = 96  # the legend's width; team names wrap to it

#: The four faces of a Challenge die, on one line (rulebook, Game Components: Dice).
DICE_LINE = "X flop (cancels a success) · blank nothing · star 1 success + roll again · bull's-eye 1 success"


def odds_cell(p: Fraction) -> str:
    """One probability as the table prints it: ``47.2%``."""
    return f"{float(100 * p):.1f}%"


def _odds_table() -> list[str]:
    header = "        " + "".join(f"{f'need {n}':>8}" for n in ODDS_NEEDS)
    rows = [header]
    for d in ODDS_DICE:
        label = f"{d} die" if d == 1 else f"{d} dice"
        cells = "".join(f"{odds_cell(odds(d, n).exact.success):>8}" for n in ODDS_NEEDS)
        rows.append(f"{label:<8}{cells}")
    return rows


def _teams_lines() -> list[str]:
    teams = all_team_lists()
    optional = [t.name for t in teams if t.optional]
    head = f"{len(teams)} team lists"
    if optional:
        head += f" ({' and '.join(optional)} optional)"
    text = f"{head}: {', '.join(t.name for t in teams)}."
    return textwrap.wrap(text, _WIDTH)


def intro_text() -> str:
    """The whole tour as one string."""
    field = standard_field()
    lines = [
        "Elfball 2nd edition (Impact! Miniatures), a quick tour. Play: elfball local; watch: elfball demo",
        f"THE FIELD (elfball field): a disc of {len(field)} hexes, goal to goal along row 12",
        field.ascii_map(),
        LEGEND,
        "",
        "THE DICE (elfball odds, elfball roll): roll as many Challenge dice as the attribute",
        DICE_LINE,
        "Chance of success, exact, no Momentum (rows: dice rolled; columns: successes needed):",
        *_odds_table(),
        "",
        "THE TEAMS (elfball teams, elfball team NAME)",
        *_teams_lines(),
        "",
        TRY_LINE,
    ]
    return "\n".join(lines)


def _run(args: argparse.Namespace) -> int:
    print(intro_text())
    return 0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "intro",
        help="a one-screen tour: the field, the dice odds, the team lists",
        description="A newcomer's tour of Elfball: the field map, exact dice odds and the team lists.",
    )
    p.set_defaults(func=_run)
