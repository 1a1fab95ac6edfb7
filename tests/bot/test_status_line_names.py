"""A tournament game's status line names both teams: it shows them through ``safe_name`` (no
markdown, no ping, no bidi override), and the board post's ``literal_names`` pass, which escapes
names in the narration, leaves an already-safe name as it is (escaping it twice would show stray
backslashes)."""

from __future__ import annotations

import dataclasses

import pytest

from bot.common.rule_options import status_line
from bot.play.panels import literal_names
from engine.dice import SeededDice
from engine.match import TeamEntry, new_match
from engine.options import parse_rules
from engine.rosters import default_roster
from service.names import safe_name

HOSTILE = ["Tin_Can *Rattlers*", "[Free Nitro](https://x.y)", "# Heading", "@everyone", "Evil\u202eSnoitan"]


def finished_tournament(west: str, east: str):
    entries = (TeamEntry(west, default_roster("gnolls")), TeamEntry(east, default_roster("sarcos")))
    state = new_match(*entries, SeededDice(1), options=parse_rules("profile=tournament")).state
    return dataclasses.replace(state, winner="west")


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("west,east", list(zip(HOSTILE, HOSTILE[1:] + HOSTILE[:1])))
def test_the_tournament_points_show_member_chosen_team_names_escaped(west, east, language):
    state = finished_tournament(west, east)
    line = status_line(state, language)
    assert safe_name(west) in line and safe_name(east) in line
    assert "@everyone" not in line and "\u202e" not in line and "[Free Nitro](" not in line
    # The board post passes the line through literal_names: nothing is escaped a second time.
    assert literal_names(line, state) == line


def test_literal_names_still_escapes_a_name_written_raw_in_the_narration():
    state = finished_tournament("Tin_Can *Rattlers*", "# Heading")
    raw = "Tin_Can *Rattlers* scores. # Heading kicks off."
    assert literal_names(raw, state) == "Tin\\_Can \\*Rattlers\\* scores. \\# Heading kicks off."
