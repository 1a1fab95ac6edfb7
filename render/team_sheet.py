"""A team sheet as a picture: every player's profile, XP, abilities and injuries, and the team's
value, budget and support (``service.leagues.TeamSheet``)."""

from __future__ import annotations

from typing import Any

from engine.abilities import ABILITIES
from engine.rosters import Attributes, position_by_id, team_list
from engine.teambuilding import SUPPORT_NAMES, Member, player_value

from .table import Column, render_table

__all__ = ["SHEET_COLUMNS", "sheet_cells", "render_team_sheet"]

SHEET_COLUMNS = (
    Column("#", 34, "r"), Column("Player", 170), Column("Position", 150), Column("J", 30, "m"), Column("M", 30, "m"),
    Column("T", 30, "m"), Column("D", 30, "m"), Column("S", 30, "m"), Column("G", 30, "m"), Column("XP", 44, "r"),
    Column("Abilities", 230), Column("Injuries", 150), Column("Pts", 44, "r"),
)


def _injuries(p: Any) -> str:
    return ", ".join(f"{str(i.get('attribute', '?'))[:3].title()} -1" for i in p.injuries if i.get("kind") == "lasting")


def sheet_cells(sheet: Any) -> tuple[list[list[str]], list[set[int]]]:
    """One row per active player, and the cells to mark: attributes a lasting injury lowered,
    and XP when an ability is waiting to be learned."""
    rows, marked = [], []
    for p in sorted((p for p in sheet.team.players if p.status == "active"), key=lambda p: p.number):
        pos = position_by_id(p.position_id)
        base = pos.attributes.as_dict()
        hot = {3 + i for i, a in enumerate(Attributes.FIELDS) if p.attributes.get(a, base[a]) != base[a]}
        waiting = sheet.advances.get(p.id, 0)
        if waiting:
            hot.add(9)
        names = [ABILITIES[a].name if a in ABILITIES else a for a in p.abilities]
        abilities = ", ".join([*names, *([f"+{waiting} to learn"] if waiting else [])])
        rows.append([str(p.number), p.name, pos.name, *(str(p.attributes.get(a, base[a])) for a in Attributes.FIELDS),
                     str(p.xp), abilities or "-", _injuries(p) or "-",
                     str(player_value(Member(p.position_id, tuple(p.abilities), p.xp)))])
        marked.append(hot)
    return rows, marked


def support_text(support: dict[str, Any]) -> str:
    items = [f"{n} {SUPPORT_NAMES.get(k, k)}{'' if int(n) == 1 else 's'}" for k, n in sorted(support.items()) if int(n)]
    return ", ".join(items) or "no team support"


def render_team_sheet(sheet: Any, *, scale: float = 1.0) -> bytes:
    """PNG bytes of the team sheet."""
    t = sheet.team
    rows, marked = sheet_cells(sheet)
    where = f"{sheet.league}" if sheet.league else "no league"
    subtitle = (f"{team_list(t.team_list).name} · {where} · worth {sheet.value} of {sheet.budget} points · "
                f"{len(rows)} players · {support_text(t.support)}")
    return render_table(f"{t.name}: team sheet", subtitle, SHEET_COLUMNS, rows, marked=marked, scale=scale,
                        notes=["Yellow: an attribute a lasting injury lowered, or XP with an ability to learn "
                               "(/team learn). Pts: 15 a rookie + 5 an ability."])
