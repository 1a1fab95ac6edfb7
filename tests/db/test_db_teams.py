"""Leagues, Basic teams and their rosters per server; server settings and coach preferences."""

from __future__ import annotations

import pytest
from support.databases import count, session

from db import matches, settings, teams
from db.errors import (
    DuplicateNameError,
    InvalidInputError,
    UnknownLeagueError,
    UnknownTeamError,
)
from service.match_rules import MatchSide
from db.models import PlayerStatus, RosterPlayer, Team
from service import match_rules
from engine.errors import RosterError
from engine.rosters import AmbiguousNameError, TeamValidationError, UnknownNameError

GUILD = 77


def test_create_and_show_a_team_with_its_roster(db_engine) -> None:
    with session(db_engine) as s:
        t = teams.create_team(session=s, guild_id=GUILD, coach_id=5, name="  Moon   Runners ",
                              team_list="night elves", lineup="6 imps, 2 hunters, 2 strikers",
                              player_names=["Ilyra"])
        assert (t.name, t.team_list, t.coach_id, t.points, t.league_id) == ("Moon Runners", "night-elves", 5, 0, None)
        assert t.primary_colour and t.secondary_colour, "the list's colours by default"
        assert [p.number for p in t.players] == list(range(1, 11))
        assert t.players[0].name == "Ilyra"
        assert all(p.status == PlayerStatus.ACTIVE and p.xp == 0 for p in t.players)
        by_position = {}
        for p in t.players:
            by_position[p.position_id] = by_position.get(p.position_id, 0) + 1
        assert sorted(by_position.values()) == [2, 2, 6]
        imp = next(p for p in t.players if p.position_id.endswith("imps"))
        assert set(imp.attributes) == {"jog", "might", "tackle", "dodge", "skill", "grit"}
        shown = teams.get_team(session=s, guild_id=GUILD, team="moon runners")
        assert shown.id == t.id and shown.players == t.players
        assert teams.get_team(session=s, guild_id=GUILD, team=t.id).name == "Moon Runners"
    assert count(db_engine, "roster_players") == 10


def test_team_entry_matches_the_roster(db_engine) -> None:
    with session(db_engine) as s:
        t = teams.create_team(session=s, guild_id=GUILD, coach_id=5, name="Grunts", team_list="orcs",
                              player_names=["", "Gorbag"])
        entry = teams.team_entry(t)
        assert entry.name == "Grunts" and entry.roster.total == 10
        assert entry.player_names[1] == "Gorbag"
        assert entry.roster.team.id == "orcs"


def _advance(s, team_id: int) -> None:
    """What a league season leaves on a roster: learned abilities, a lowered attribute, support."""
    team = s.get(Team, team_id)
    team.support = {"cheerleaders": 2, "potions": 1, "kegs": 0}
    for p in team.players:
        if p.number == 1:
            p.abilities = [*p.abilities, "agile", "bankshot"]
        if p.number == 2:
            p.attributes = {**p.attributes, "might": p.attributes["might"] - 1}
    s.add(team)
    s.commit()


def test_team_entry_carries_learned_abilities_changed_attributes_and_support(db_engine) -> None:
    with session(db_engine) as s:
        t = teams.create_team(session=s, guild_id=GUILD, coach_id=5, name="Veterans", team_list="orcs")
        plain = teams.team_entry(t)
        assert plain.players == () and plain.support == ()  # a new team changes nothing in the match
        _advance(s, t.id)
        entry = teams.team_entry(teams.get_team(session=s, guild_id=GUILD, team="Veterans"))
        assert entry.support == (("cheerleaders", 2), ("potions", 1))
        assert entry.players[0].abilities == ("agile", "bankshot") and entry.players[0].attributes is None
        assert entry.players[1].abilities == () and entry.players[1].attributes is not None
        assert all(c is None for c in entry.players[2:])
        assert matches.entry_from_json(matches.entry_to_json(entry)) == entry


def test_a_stored_teams_abilities_and_support_arrive_in_a_new_match(db_engine) -> None:
    with session(db_engine) as s:
        t = teams.create_team(session=s, guild_id=GUILD, coach_id=5, name="Veterans", team_list="orcs")
        teams.create_team(session=s, guild_id=GUILD, coach_id=6, name="Rookies", team_list="gnolls")
        _advance(s, t.id)
        stored = teams.get_team(session=s, guild_id=GUILD, team="Veterans")
        m = match_rules.create_match(session=s, guild_id=GUILD, channel_id=1, west=MatchSide(5, team="Veterans"),
                                 east=MatchSide(6, team="Rookies")).match
        state = m.engine_state()
        assert {"agile", "bankshot"} <= set(state.players["w1"].abilities)
        assert state.players["w2"].might == stored.players[1].attributes["might"]
        assert state.teams["west"].support == {"cheerleaders": 2, "potions": 1}
        assert state.teams["east"].support == {}
        # The log rebuilds the same match: the creation row carries the careers and the support.
        assert match_rules.rebuild(session=s, match_id=m.id).to_dict() == m.state
        row = s.get(RosterPlayer, stored.players[0].id)
        assert row is not None and "agile" in row.abilities


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"team_list": "no such list"}, UnknownNameError),
        ({"team_list": "dwarves"}, AmbiguousNameError),
        ({"team_list": "orcs", "lineup": "10 orcs"}, TeamValidationError),
        ({"team_list": "orcs", "name": "   "}, InvalidInputError),
        ({"team_list": "orcs", "name": "x" * 65}, InvalidInputError),
        ({"team_list": "orcs", "player_names": ["Ug", "ug"]}, InvalidInputError),
        ({"team_list": "orcs", "player_names": ["A"] * 11}, InvalidInputError),
        ({"team_list": "orcs", "league": "No League"}, UnknownLeagueError),
    ],
)
def test_bad_team_input_is_refused_and_writes_nothing(db_engine, kwargs, error) -> None:
    args = {"guild_id": GUILD, "coach_id": 5, "name": "Anything", **kwargs}
    with session(db_engine) as s, pytest.raises(error):
        teams.create_team(session=s, **args)
    assert count(db_engine, "teams") == 0
    assert count(db_engine, "roster_players") == 0
    assert issubclass(error, (RosterError, InvalidInputError, UnknownLeagueError))


def test_team_names_are_unique_per_server_ignoring_case(db_engine) -> None:
    with session(db_engine) as s:
        teams.create_team(session=s, guild_id=GUILD, coach_id=5, name="Elf Raiders", team_list="night elves")
        with pytest.raises(DuplicateNameError, match="already has a team called 'ELF raiders'"):
            teams.create_team(session=s, guild_id=GUILD, coach_id=6, name="ELF  raiders", team_list="orcs")
        # Another server may use the name.
        teams.create_team(session=s, guild_id=GUILD + 1, coach_id=6, name="Elf Raiders", team_list="orcs")
        assert [t.name for t in teams.list_teams(session=s, guild_id=GUILD)] == ["Elf Raiders"]
        with pytest.raises(UnknownTeamError):
            teams.get_team(session=s, guild_id=GUILD, team="Nobody")
    assert count(db_engine, "teams") == 2
    assert count(db_engine, "roster_players") == 20


def test_the_database_refuses_a_duplicate_team_name(db_engine, monkeypatch) -> None:
    """Two requests racing past the check: the unique constraint still says no, cleanly."""
    with session(db_engine) as s:
        teams.create_team(session=s, guild_id=GUILD, coach_id=5, name="Twins", team_list="orcs")
    original = teams.select

    def blind_select(*args):  # type: ignore[no-untyped-def]
        # The name pre-check sees nothing, as when a concurrent insert has not committed yet.
        query = original(*args)
        return query.where(teams.Team.id == -1) if args and args[0] is teams.Team.id else query

    monkeypatch.setattr(teams, "select", blind_select)
    with session(db_engine) as s, pytest.raises(DuplicateNameError, match="already has a team called 'twins'"):
        teams.create_team(session=s, guild_id=GUILD, coach_id=6, name="twins", team_list="orcs")
    assert count(db_engine, "teams") == 1
    assert count(db_engine, "roster_players") == 10


def test_leagues_group_teams(db_engine) -> None:
    with session(db_engine) as s:
        cup = teams.create_league(session=s, guild_id=GUILD, name="Elf Cup", commissioner_id=9,
                                  settings={"goals_to_win": 2})
        with pytest.raises(DuplicateNameError):
            teams.create_league(session=s, guild_id=GUILD, name="elf cup", commissioner_id=8)
        teams.create_team(session=s, guild_id=GUILD, coach_id=5, name="B Team", team_list="orcs", league="Elf Cup")
        teams.create_team(session=s, guild_id=GUILD, coach_id=6, name="A Team", team_list="gnomes", league=cup.id)
        teams.create_team(session=s, guild_id=GUILD, coach_id=5, name="Loners", team_list="ratmen")
        assert [t.name for t in teams.list_teams(session=s, guild_id=GUILD, league="elf cup")] == ["A Team", "B Team"]
        assert [t.name for t in teams.list_teams(session=s, guild_id=GUILD, coach_id=5)] == ["B Team", "Loners"]
        assert teams.get_league(session=s, guild_id=GUILD, league="ELF CUP").settings == {"goals_to_win": 2}
        assert [lg.name for lg in teams.list_leagues(session=s, guild_id=GUILD)] == ["Elf Cup"]
        with pytest.raises(UnknownLeagueError):
            teams.get_league(session=s, guild_id=GUILD + 1, league=cup.id)


def test_server_settings_and_coach_preferences(db_engine) -> None:
    with session(db_engine) as s:
        assert settings.get_guild_settings(session=s, guild_id=GUILD).language == "auto"
        assert count(db_engine, "guild_settings") == 0, "reading the defaults writes nothing"
        settings.update_guild_settings(session=s, guild_id=GUILD, language="fr", settings={"deadline_hours": 48})
        g = settings.update_guild_settings(session=s, guild_id=GUILD, settings={"goals": 2})
        assert (g.language, g.settings) == ("fr", {"deadline_hours": 48, "goals": 2})
        p = settings.get_coach_preferences(session=s, user_id=2**62)
        assert (p.language, p.screen_reader) == ("auto", False)
        p = settings.update_coach_preferences(session=s, user_id=2**62, screen_reader=True)
        assert settings.get_coach_preferences(session=s, user_id=2**62).screen_reader is True
        assert p.updated_at.tzinfo is not None
