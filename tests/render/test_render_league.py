"""League pictures: the standings table and the team sheet."""

from __future__ import annotations

import io
from datetime import UTC, datetime

from PIL import Image

from db.models import RosterPlayerPublic, TeamPublic
from engine.rosters import default_roster
from render.standings import render_standings, standings_cells
from render.table import ACCENT
from render.team_sheet import render_team_sheet, sheet_cells
from service.leagues import StandingRow, TeamSheet


def _png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).convert("RGB")


def _sheet() -> TeamSheet:
    players, n = [], 0
    for pos, count in default_roster("night elves").entries:
        for _ in range(count):
            n += 1
            attrs = pos.attributes.as_dict()
            if n == 4:
                attrs["jog"] -= 1
            players.append(RosterPlayerPublic(
                id=n, team_id=1, number=n, name=f"Player {n}", position_id=pos.id, attributes=attrs, xp=n,
                abilities=["steady"] if n == 3 else [], status="active",
                injuries=[{"kind": "lasting", "attribute": "jog"}] if n == 4 else []))
    team = TeamPublic(id=1, guild_id=1, coach_id=5, team_list="night-elves", name="Moonblades",
                      support={"cheerleaders": 2, "wizard": 1}, players=players, created_at=datetime.now(UTC))
    return TeamSheet(team, 165, 180, "Elf Cup", {5: 1})


def test_standings_table_lists_every_column_and_grows_with_the_teams() -> None:
    rows = [StandingRow(1, "Moonblades", 1, 2, 2, 0, 0, 4, 1, 3, 6), StandingRow(2, "Gnashers", 2, 2, 0, 0, 2, 1, 4, 0, 0)]
    assert standings_cells(rows)[0] == ["1", "Moonblades", "2", "2", "0", "0", "4", "1", "+3", "3", "6"]
    one, two = _png(render_standings("Elf Cup", rows[:1])), _png(render_standings("Elf Cup", rows))
    assert one.width == two.width and two.height > one.height
    assert ACCENT in {c for _, c in two.getcolors(1 << 20)}, "the leader is marked"


def test_team_sheet_shows_attributes_xp_abilities_injuries_and_marks_changes() -> None:
    sheet = _sheet()
    rows, marked = sheet_cells(sheet)
    assert rows[2][10] == "Steady" and rows[2][12] == "20"
    assert rows[3][3] == "6" and rows[3][11] == "Jog -1" and 3 in marked[3]
    assert "+1 to learn" in rows[4][10] and 9 in marked[4]
    image = _png(render_team_sheet(sheet))
    assert image.width > 900 and ACCENT in {c for _, c in image.getcolors(1 << 20)}
