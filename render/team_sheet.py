"""A team sheet as a picture: every player's profile, XP, abilities and injuries, and the team's
value, budget and support (``service.leagues.TeamSheet``). Its words come from the engine's
catalogue (``sheet.*``, ``attribute.*``) in the reader's language."""

from __future__ import annotations

from typing import Any

from engine import ABILITIES, Attributes, Catalogue, DEFAULT_LANGUAGE, Member, player_value, position_by_id, team_list

from .table import Column, render_table

__all__ = ["SHEET_COLUMNS", "sheet_columns", "sheet_cells", "support_text", "render_team_sheet"]


def _words(language: str) -> Catalogue:
    return Catalogue("engine", "data/text", language)


def sheet_columns(language: str = DEFAULT_LANGUAGE) -> tuple[Column, ...]:
    """The sheet's columns in ``language``: the attributes by their initial (``J M T D S G``)."""
    w = _words(language)
    return (
        Column("#", 34, "r"), Column(w.t("sheet.column.player"), 170), Column(w.t("sheet.column.position"), 150),
        *(Column(w.t(f"attribute.{a}")[:1], 30, "m") for a in Attributes.FIELDS),
        Column(w.t("sheet.column.xp"), 44, "r"), Column(w.t("sheet.column.abilities"), 230),
        Column(w.t("sheet.column.injuries"), 150), Column(w.t("sheet.column.points"), 44, "r"),
    )


SHEET_COLUMNS = sheet_columns()


def _injuries(p: Any, words: Catalogue) -> str:
    return ", ".join(f"{words.get('attribute.' + str(i.get('attribute')), str(i.get('attribute', '?')).title())[:3]} -1"
                     for i in p.injuries if i.get("kind") == "lasting")


def sheet_cells(sheet: Any, language: str = DEFAULT_LANGUAGE) -> tuple[list[list[str]], list[set[int]]]:
    """One row per active player, and the cells to mark: attributes a lasting injury lowered,
    and XP when an ability is waiting to be learned."""
    words = _words(language)
    rows, marked = [], []
    for p in sorted((p for p in sheet.team.players if p.status == "active"), key=lambda p: p.number):
        pos = position_by_id(p.position_id)
        base = pos.attributes.as_dict()
        hot = {3 + i for i, a in enumerate(Attributes.FIELDS) if p.attributes.get(a, base[a]) != base[a]}
        waiting = sheet.advances.get(p.id, 0)
        if waiting:
            hot.add(9)
        names = [ABILITIES[a].name_in(language) if a in ABILITIES else a for a in p.abilities]
        abilities = ", ".join([*names, *([words.t("sheet.to_learn", count=waiting)] if waiting else [])])
        rows.append([str(p.number), p.name, pos.name, *(str(p.attributes.get(a, base[a])) for a in Attributes.FIELDS),
                     str(p.xp), abilities or "-", _injuries(p, words) or "-",
                     str(player_value(Member(p.position_id, tuple(p.abilities), p.xp)))])
        marked.append(hot)
    return rows, marked


def support_text(support: dict[str, Any], language: str = DEFAULT_LANGUAGE) -> str:
    """The team's support in words: ``2 Cheerleaders, 1 Magic Potion`` (``2 Pom-pom girls``...)."""
    words = _words(language)
    items = [words.t("sheet.support.item", count=int(n),
                     item=words.get(f"sheet.support.{k}.{'one' if int(n) == 1 else 'many'}", k))
             for k, n in sorted(support.items()) if int(n)]
    return ", ".join(items) or words.t("sheet.support.none")


def render_team_sheet(sheet: Any, *, scale: float = 1.0, language: str = DEFAULT_LANGUAGE) -> bytes:
    """PNG bytes of the team sheet, in ``language``."""
    words = _words(language)
    t = sheet.team
    rows, marked = sheet_cells(sheet, language)
    subtitle = words.t("sheet.subtitle", list=team_list(t.team_list).name,
                       league=sheet.league if sheet.league else words.t("sheet.no_league"), value=sheet.value,
                       budget=sheet.budget, players=len(rows), support=support_text(t.support, language))
    return render_table(words.t("sheet.title", team=t.name), subtitle, sheet_columns(language), rows, marked=marked,
                        scale=scale, notes=[words.t("sheet.legend")])
