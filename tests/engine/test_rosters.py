"""Team lists (rulebook pp. 15-19) and Basic team validation (Team & Player Descriptions, p. 2)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import AmbiguousInputError, MalformedInputError, RosterError
from engine.rosters import (
    BASIC_TEAM_SIZE,
    AmbiguousNameError,
    Attributes,
    LineupSyntaxError,
    PlayerType,
    RosterOptions,
    TeamList,
    TeamRoster,
    TeamValidationError,
    UnknownNameError,
    all_team_lists,
    default_roster,
    extra_player,
    extra_players,
    giant_frog,
    parse_lineup,
    position_by_id,
    team_list,
    validate_basic_team,
)

EXTRAS_OFF = RosterOptions()
EXTRAS_ON = RosterOptions(allow_extra_players=True)

# The Team Lists tables as printed in the English rulebook (000_fb436042b0a9d235.txt,
# pp. 15-18), whitespace normalised; the Dwarves' "0-6 or 0-12*" row is split by clan as
# its footnote says. Columns: max, position, Jog, Might, Tackle, Dodge, Skill, Grit, Type.
BOOK_TABLES = {
    "black-widows": """
        0-2 Hunters 6 3 4 3 2 3 Hunter
        0-3 Midfielders 6 3 3 3 3 3 Midfielder
        0-4 Strikers 6 3 2 4 4 2 Striker
        0-2 Throwers 6 2 3 3 4 3 Thrower
        0-1 Widowmaker 6 3 5 4 1 2 Cheater""",
    "deadlings": """
        0-2 Deadwood 3 6 5 1 1 5 Monster
        0-2 Ghouls/Vamplings/Werelings/Wights 5 3 3 3 3 4 Undead
        0-2 Mummies/Monsters 4 5 4 2 1 5 Monster
        0-6 Zombies/Skeletons 4 3 4 2 2 6 Undead""",
    "desert-dogs": """
        0-2 Defender 5 4 4 2 2 4 Defender
        0-2 Dervish 7 4 1 3 1 5 Defender
        0-4 Midfielders 6 3 3 3 3 3 Midfielder
        0-2 Strikers 6 3 2 4 4 2 Striker
        0-2 Throwers 6 2 3 3 4 3 Thrower""",
    "divine-wind": """
        0-3 Defenders 5 4 4 2 2 4 Defender
        0-3 Hunters 6 3 4 3 2 3 Hunter
        0-4 Midfielders 6 3 3 3 3 3 Midfielder
        0-2 Strikers 6 3 2 4 4 2 Striker""",
    "dwarves-thunder-hammer": """
        0-12 Dwarves 5 4 4 1 3 4 Defender""",
    "dwarves-black-rock": """
        0-6 Dwarves 5 4 4 1 3 4 Defender
        0-2 Dwarven Centaurs 7 4 4 2 1 3 Hunter
        0-4 Hobimps 6 2 4 4 3 2 Cheater""",
    "gnolls": """
        0-4 Hunters 6 3 4 3 2 3 Hunter
        0-2 Midfielders 6 3 3 3 3 3 Midfielder
        0-4 Safeties 7 3 3 3 2 3 Safety
        0-2 Strikers 6 3 2 4 4 2 Striker""",
    "gnomes": """
        0-9 Gnomes 5 3 3 4 3 3 Little Guy
        0-3 Gnomish Contraptions 5 5 5 3 1 2 Monster""",
    "middle-kingdoms": """
        0-2 Midfielders 6 3 3 3 3 3 Midfielder
        0-2 Ogres/Cyclops/Minotaurs 5 5 4 2 1 4 Monster
        0-3 Safeties 7 3 3 3 2 3 Safety
        0-3 Strikers 6 3 2 4 4 2 Striker
        0-2 Throwers 6 2 3 3 4 3 Thrower""",
    "night-elves": """
        0-2 Hunters 6 3 4 3 2 3 Hunter
        0-8 Imps 7 2 2 5 3 2 Little Guy
        0-2 Strikers 6 3 2 4 4 2 Striker""",
    "pharaohs-of-vihktora": """
        0-2 Defender 5 4 4 2 2 4 Defender
        0-4 Midfielders 6 3 3 3 3 3 Midfielder
        0-1 Safeties 7 3 3 3 2 3 Safety
        0-1 Striker 6 3 2 4 4 2 Striker
        0-4 Throwers 6 2 3 3 4 3 Thrower""",
    "razorbacks": """
        0-5 Hunters 6 3 4 3 2 3 Hunter
        0-5 Midfielders 6 3 3 3 3 3 Midfielder
        0-2 Swinetaurs 6 4 2 4 2 3 Monster""",
    "sarcos": """
        0-4 Hunters 6 3 4 3 2 3 Hunter
        0-3 Midfielders 6 3 3 3 3 3 Midfielder
        0-4 Strikers 6 3 2 4 4 2 Striker
        0-1 Terrorpin/Leviathan 4 5 4 2 1 5 Monster""",
    "samhaino": """
        0-1 Deadwood 3 6 5 1 1 5 Monster
        0-4 Hunters 6 3 4 3 2 3 Hunter
        0-4 Midfielders 6 3 3 3 3 3 Midfielder
        0-2 Safeties 7 3 3 3 2 3 Safety
        0-1 Thrower 6 2 3 3 4 3 Thrower""",
    "siringit": """
        0-2 Defenders 5 4 4 2 2 4 Defender
        0-1 Gorillaur 6 3 3 3 4 2 Striker
        0-1 Hunter 6 3 4 3 2 3 Hunter
        0-2 Mecat 7 2 2 5 3 2 Little Guy
        0-3 Midfielders 6 3 3 3 3 3 Midfielder
        0-1 Safety 7 3 3 3 2 3 Safety
        0-1 Tantor 4 6 4 2 1 4 Monster
        0-1 Thrower 6 2 3 3 4 3 Thrower""",
    "timberline-elves": """
        0-4 Dryads 6 4 1 4 2 4 Defender
        0-2 Hunters 6 3 4 3 2 3 Hunter
        0-2 Midfielders 6 3 3 3 3 3 Midfielder
        0-2 Strikers 6 3 2 4 4 2 Striker
        0-2 Throwers 6 2 3 3 4 3 Thrower""",
    "valkyries": """
        0-4 Hunters/Weremen 6 3 4 3 2 3 Hunter
        0-1 Ice Troll 4 5 4 3 1 4 Monster
        0-4 Midfielders 6 3 3 3 3 3 Midfielder
        0-2 Strikers 6 3 2 4 4 2 Striker
        0-1 Throwers 6 2 3 3 4 3 Thrower""",
    "orcs": """
        0-2 Defenders 5 4 4 2 2 4 Defender
        0-2 Hunters 6 3 4 3 2 3 Hunter
        0-4 Midfielders 6 3 3 3 3 3 Midfielder
        0-2 Hobimps 6 2 4 4 3 2 Cheater
        0-1 Throwers 6 2 3 3 4 3 Thrower
        0-1 Troll 4 5 4 1 1 6 Monster""",
    "ratmen": """
        0-4 Couriers 7 2 2 4 4 2 Striker
        0-2 Midfielders 6 3 3 3 3 3 Midfielder
        0-2 Safeties 7 3 3 3 2 3 Safety
        0-2 Throwers 6 2 3 3 4 3 Thrower
        0-2 Wrat 6 4 4 3 1 3 Defender""",
}
BOOK_ROW = re.compile(r"0-(\d+) (.+?) (\d) (\d) (\d) (\d) (\d) (\d) (.+)")

STANDARD_PROFILES = {  # "Standard profiles", identical wherever they appear
    "Midfielder": ((6, 3, 3, 3, 3, 3), {"Midfielders"}),
    "Hunter": ((6, 3, 4, 3, 2, 3), {"Hunters", "Hunter", "Hunters/Weremen"}),
    "Striker": ((6, 3, 2, 4, 4, 2), {"Strikers", "Striker"}),
    "Thrower": ((6, 2, 3, 3, 4, 3), {"Throwers", "Thrower"}),
    "Safety": ((7, 3, 3, 3, 2, 3), {"Safeties", "Safety"}),
    "Defender": ((5, 4, 4, 2, 2, 4), {"Defenders", "Defender"}),
}


def book_rows(team_id: str) -> list[tuple[int, str, tuple[int, ...], str]]:
    rows = []
    for line in BOOK_TABLES[team_id].strip().splitlines():
        m = BOOK_ROW.fullmatch(line.strip())
        assert m, line
        rows.append((int(m[1]), m[2], tuple(int(m[i]) for i in range(3, 9)), m[9]))
    return rows


# ---------------------------------------------------------------------------- the data


def test_every_team_list_of_the_book_is_present() -> None:
    ids = [t.id for t in all_team_lists()]
    assert ids == list(BOOK_TABLES)  # 16 book lists, Dwarves as two clans, + Orcs, Ratmen
    assert len(ids) == 19
    assert [t.id for t in all_team_lists() if t.optional] == ["orcs", "ratmen"]
    assert [t.id for t in all_team_lists(include_optional=False)] == ids[:17]


@pytest.mark.parametrize("team_id", list(BOOK_TABLES))
def test_team_list_matches_the_rulebook_row_by_row(team_id: str) -> None:
    team = team_list(team_id)
    got = [(p.max, p.name, p.attributes.as_tuple(), p.type.label) for p in team.positions]
    assert got == book_rows(team_id)


@pytest.mark.parametrize(
    ("position_id", "max_", "profile", "type_"),
    [
        ("night-elves/imps", 8, (7, 2, 2, 5, 3, 2), PlayerType.LITTLE_GUY),
        ("deadlings/deadwood", 2, (3, 6, 5, 1, 1, 5), PlayerType.MONSTER),
        ("samhaino/deadwood", 1, (3, 6, 5, 1, 1, 5), PlayerType.MONSTER),
        ("siringit/tantor", 1, (4, 6, 4, 2, 1, 4), PlayerType.MONSTER),
        ("siringit/gorillaur", 1, (6, 3, 3, 3, 4, 2), PlayerType.STRIKER),
        ("black-widows/widowmaker", 1, (6, 3, 5, 4, 1, 2), PlayerType.CHEATER),
        ("deadlings/zombies-skeletons", 6, (4, 3, 4, 2, 2, 6), PlayerType.UNDEAD),
        ("dwarves-thunder-hammer/dwarves", 12, (5, 4, 4, 1, 3, 4), PlayerType.DEFENDER),
        ("dwarves-black-rock/dwarves", 6, (5, 4, 4, 1, 3, 4), PlayerType.DEFENDER),
        ("desert-dogs/dervish", 2, (7, 4, 1, 3, 1, 5), PlayerType.DEFENDER),
        ("timberline-elves/dryads", 4, (6, 4, 1, 4, 2, 4), PlayerType.DEFENDER),
        ("valkyries/ice-troll", 1, (4, 5, 4, 3, 1, 4), PlayerType.MONSTER),
        ("orcs/troll", 1, (4, 5, 4, 1, 1, 6), PlayerType.MONSTER),
        ("ratmen/couriers", 4, (7, 2, 2, 4, 4, 2), PlayerType.STRIKER),
        ("razorbacks/swinetaurs", 2, (6, 4, 2, 4, 2, 3), PlayerType.MONSTER),
    ],
)
def test_spot_checked_profiles(
    position_id: str, max_: int, profile: tuple[int, ...], type_: PlayerType
) -> None:
    p = position_by_id(position_id)
    assert (p.max, p.attributes.as_tuple(), p.type) == (max_, profile, type_)
    assert p.innate_abilities == ()


def test_standard_profiles_are_identical_wherever_they_appear() -> None:
    checked = 0
    for team in all_team_lists():
        for p in team.positions:
            for type_label, (profile, names) in STANDARD_PROFILES.items():
                if p.name in names:
                    assert p.attributes.as_tuple() == profile, p.id
                    assert p.type.label == type_label, p.id
                    checked += 1
    assert checked == 56  # 82 rows, less 26 special players (Imps, Deadwood, Dervish...)


def test_every_list_maxima_add_up_to_twelve() -> None:
    for team in all_team_lists():
        assert team.max_players == 12, team.id


def test_types_are_the_ten_of_the_rulebook() -> None:
    used = {p.type for t in all_team_lists() for p in t.positions}
    assert used == set(PlayerType)
    assert PlayerType.LITTLE_GUY.label == "Little Guy"
    assert str(PlayerType.LITTLE_GUY) == "little-guy"


def test_position_ids_are_language_neutral_slugs_and_unique() -> None:
    ids = [p.id for t in all_team_lists() for p in t.positions]
    assert len(ids) == len(set(ids)) == 82
    for team in all_team_lists():
        assert re.fullmatch(r"[a-z0-9-]+", team.id)
        for p in team.positions:
            assert re.fullmatch(rf"{team.id}/[a-z0-9-]+", p.id)


@pytest.mark.parametrize("team", all_team_lists(), ids=lambda t: t.id)
def test_default_lineup_is_a_valid_basic_team(team: TeamList) -> None:
    assert sum(n for _, n in team.default_lineup) == BASIC_TEAM_SIZE
    roster = default_roster(team)
    assert roster.total == BASIC_TEAM_SIZE
    assert {p.id: n for p, n in roster.entries} == {p.id: n for p, n in team.default_lineup}


def test_colours_are_hex_pairs_and_teams_are_told_apart() -> None:
    primaries = []
    for team in all_team_lists():
        primary, secondary = team.colours
        assert re.fullmatch(r"#[0-9A-F]{6}", primary) and re.fullmatch(r"#[0-9A-F]{6}", secondary)
        assert primary != secondary
        primaries.append(tuple(int(primary[i : i + 2], 16) for i in (1, 3, 5)))
    for i, a in enumerate(primaries):
        for b in primaries[i + 1 :]:
            assert sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5 > 50


def test_samhaino_horror() -> None:
    horror = extra_player("Samhaino Horror")
    assert horror.position.attributes == Attributes(4, 4, 5, 1, 1, 6)
    assert horror.position.type is PlayerType.DEFENDER
    assert horror.replaces == (("samhaino", "samhaino/deadwood"),)
    assert horror.position.max == 1
    assert extra_players("samhaino") == (horror,)


def test_impcrusher() -> None:
    crusher = extra_player("impcrusher")
    p = crusher.position
    assert (str(p.attributes), p.type, p.innate_abilities, p.max) == (
        "5/5/5/4/1/1",
        PlayerType.MONSTER,
        ("cheapshot",),
        1,
    )
    assert dict(crusher.replaces) == {
        "gnomes": "gnomes/gnomish-contraptions",
        "dwarves-thunder-hammer": "dwarves-thunder-hammer/dwarves",
    }
    assert not (crusher.gains_experience or crusher.learns_abilities or crusher.uses_potions)
    assert crusher.referee_ban_check
    assert extra_players("black rock") == ()
    assert extra_players("thunder hammer") == (crusher,)


def test_giant_frog_is_a_temporary_monster_profile() -> None:
    frog = giant_frog()
    assert frog.attributes.as_tuple() == (7, 2, 4, 6, 0, 2)
    assert frog.type is PlayerType.MONSTER  # type unstated in the book: G51
    assert frog.max == 0
    assert position_by_id("spell/giant-frog") == frog


# ---------------------------------------------------------------------------- names


@pytest.mark.parametrize(
    ("query", "team_id"),
    [
        ("night elves", "night-elves"),
        ("night-elves", "night-elves"),
        ("NightElves", "night-elves"),
        ("  NIGHT   elves!", "night-elves"),
        ("night", "night-elves"),
        ("Night Elf", "night-elves"),
        ("thunder hammer", "dwarves-thunder-hammer"),
        ("Thunder Mountain", "dwarves-thunder-hammer"),  # G58: the play-by-play's slip
        ("thunder mountain dwarves", "dwarves-thunder-hammer"),
        ("black rock", "dwarves-black-rock"),
        ("Dwarves (Black Rock)", "dwarves-black-rock"),
        ("pharaohs", "pharaohs-of-vihktora"),
        ("vihktora", "pharaohs-of-vihktora"),
        ("Widows", "black-widows"),
        ("timber", "timberline-elves"),
        ("ratmen", "ratmen"),
        ("ORCS", "orcs"),
    ],
)
def test_team_lookup_is_forgiving(query: str, team_id: str) -> None:
    assert team_list(query).id == team_id


@pytest.mark.parametrize("query", ["dwarves", "Dwarf", "elves", "g"])
def test_ambiguous_team_names_list_the_candidates(query: str) -> None:
    with pytest.raises(AmbiguousNameError) as err:
        team_list(query)
    assert isinstance(err.value, AmbiguousInputError) and isinstance(err.value, RosterError)
    assert len(err.value.candidates) >= 2


def test_dwarves_is_ambiguous_between_the_two_clans() -> None:
    with pytest.raises(AmbiguousNameError) as err:
        team_list("dwarves")
    assert "Thunder Hammer Dwarves" in str(err.value) and "Black Rock Dwarves" in str(err.value)


@pytest.mark.parametrize(
    ("query", "suggestion"), [("Nite Elves", "Night Elves"), ("Orks", "Orcs"), ("Gnoles", "Gnolls")]
)
def test_unknown_team_suggests_close_matches(query: str, suggestion: str) -> None:
    with pytest.raises(UnknownNameError) as err:
        team_list(query)
    assert suggestion in err.value.suggestions
    assert f"'{query}'" in str(err.value) and suggestion in str(err.value)


@pytest.mark.parametrize("query", ["Ogres", "", "!!!"])
def test_unknown_team_is_a_roster_error(query: str) -> None:
    with pytest.raises(RosterError):
        team_list(query)


@pytest.mark.parametrize(
    ("team", "query", "position_id"),
    [
        ("night elves", "Imp", "night-elves/imps"),
        ("night elves", "imps", "night-elves/imps"),
        ("night elves", "night-elves/imps", "night-elves/imps"),
        ("gnomes", "contraption", "gnomes/gnomish-contraptions"),
        ("gnomes", "gnome", "gnomes/gnomes"),
        ("middle kingdoms", "ogre", "middle-kingdoms/ogres-cyclops-minotaurs"),
        ("middle kingdoms", "Minotaur", "middle-kingdoms/ogres-cyclops-minotaurs"),
        ("deadlings", "skeleton", "deadlings/zombies-skeletons"),
        ("valkyries", "weremen", "valkyries/hunters-weremen"),
        ("black rock", "dwarf", "dwarves-black-rock/dwarves"),
        ("black rock", "centaur", "dwarves-black-rock/dwarven-centaurs"),
        ("pharaohs", "strikers", "pharaohs-of-vihktora/striker"),
        ("gnolls", "safety", "gnolls/safeties"),
    ],
)
def test_position_lookup_is_forgiving(team: str, query: str, position_id: str) -> None:
    assert team_list(team).position(query).id == position_id


def test_ambiguous_and_unknown_positions() -> None:
    with pytest.raises(AmbiguousNameError):
        team_list("black rock").position("dwar")
    with pytest.raises(
        UnknownNameError, match="not a position of Night Elves: choose Hunters, Imps, Strikers"
    ):
        team_list("night elves").position("Ogres")


# ---------------------------------------------------------------------------- lineups


@pytest.mark.parametrize(
    "text",
    [
        "6 imps, 2 hunters, 2 strikers",
        "imps x6, hunters 2, strikers 2",
        "6x imps; 2 x hunters\n2 strikers",
        "imps: 6, hunters (2) and strikers 2",
        "imps ×6 & hunters*2 + 2 strikers",
        "3 imps, 2 hunters, 2 strikers, 3 imps",
    ],
)
def test_parse_lineup_formats(text: str) -> None:
    counts = parse_lineup(text)
    assert {k.lower(): v for k, v in counts.items()} == {"imps": 6, "hunters": 2, "strikers": 2}


def test_parse_lineup_bare_name_counts_one() -> None:
    assert parse_lineup("widowmaker, 9 strikers") == {"widowmaker": 1, "strikers": 9}


@pytest.mark.parametrize("text", ["", " , ;", "6", "2 imps 3", "6 imps, 4", "99999999999 imps"])
def test_parse_lineup_errors_are_malformed_roster_errors(text: str) -> None:
    with pytest.raises(LineupSyntaxError) as err:
        parse_lineup(text)
    assert isinstance(err.value, MalformedInputError) and isinstance(err.value, RosterError)


def test_valid_basic_team() -> None:
    roster = validate_basic_team("Night Elves", "6 imps, 2 hunters, 2 strikers")
    assert isinstance(roster, TeamRoster)
    assert roster.team.id == "night-elves"
    assert [(p.id, n) for p, n in roster.entries] == [
        ("night-elves/hunters", 2),
        ("night-elves/imps", 6),
        ("night-elves/strikers", 2),
    ]
    assert roster.total == 10 and roster.count("night-elves/imps") == 6
    assert str(roster) == "Night Elves: 2 Hunters, 6 Imps, 2 Strikers (10 players)"
    assert roster.as_dict()["total"] == 10


def test_mapping_lineup_with_ids_and_names() -> None:
    roster = validate_basic_team(team_list("gnomes"), {"gnomes/gnomes": 7, "Contraptions": 2, "Gnome": 1})
    assert [(p.name, n) for p, n in roster.entries] == [("Gnomes", 8), ("Gnomish Contraptions", 2)]


def problems_of(team: str, lineup: object, options: RosterOptions = EXTRAS_OFF) -> tuple[str, ...]:
    with pytest.raises(TeamValidationError) as err:
        validate_basic_team(team, lineup, options=options)  # type: ignore[arg-type]
    return err.value.problems


def test_over_a_maximum() -> None:
    assert problems_of("night elves", "5 imps, 3 hunters, 2 strikers") == (
        "Night Elves may field at most 2 Hunters (you asked for 3)",
    )


@pytest.mark.parametrize(
    ("lineup", "message"),
    [
        ("5 imps, 2 hunters, 2 strikers", "a Basic team has exactly 10 players: this one has 9 — add 1"),
        ("7 imps, 2 hunters, 2 strikers", "a Basic team has exactly 10 players: this one has 11 — remove 1"),
        ({}, "a Basic team has exactly 10 players: this one has 0 — add 10"),
    ],
)
def test_wrong_size(lineup: object, message: str) -> None:
    assert problems_of("night elves", lineup) == (message,)


def test_unknown_position() -> None:
    assert problems_of("night elves", "6 imps, 2 hunters, 2 wizards") == (
        "'wizards' is not a position of Night Elves: choose Hunters, Imps, Strikers",
    )
    (ogres,) = problems_of("night elves", "6 imps, 2 hunters, 2 Ogres")
    assert ogres.startswith("'Ogres' is not a position of Night Elves")
    assert ogres.endswith(": choose Hunters, Imps, Strikers")


@pytest.mark.parametrize("foreign", ["widowmaker", "black-widows/widowmaker", "Black Widows Widowmaker"])
def test_mixing_team_lists_is_refused(foreign: str) -> None:
    (problem,) = problems_of("night elves", {"imps": 6, "hunters": 2, "strikers": 1, foreign: 1})
    assert "not a position of Night Elves" in problem
    assert "Black Widows position" in problem and "may not mix team lists" in problem


def test_all_problems_are_reported_together() -> None:
    problems = problems_of("night elves", "9 imps, 3 hunters, 1 ogre, 0 strikers")
    assert len(problems) == 4
    assert any("at most 8 Imps (you asked for 9)" in p for p in problems)
    assert any("at most 2 Hunters (you asked for 3)" in p for p in problems)
    assert any(p.startswith("'ogre' is not a position") for p in problems)
    assert any("this one has 13 — remove 3" in p for p in problems)
    with pytest.raises(TeamValidationError) as err:
        validate_basic_team("night elves", "9 imps, 3 hunters, 1 ogre, 0 strikers")
    assert str(err.value).startswith("this Night Elves team has 4 problems:\n- ")


@pytest.mark.parametrize(
    ("count", "fragment"),
    [(-1, "cannot be negative"), (2.5, "whole number"), (True, "whole number"), ("2", "whole number")],
)
def test_bad_counts(count: object, fragment: str) -> None:
    problems = problems_of("night elves", {"imps": 8, "strikers": count})
    assert any(fragment in p for p in problems)


def test_unknown_team_in_validation() -> None:
    with pytest.raises(UnknownNameError):
        validate_basic_team("Elvish Nights", "10 imps")
    with pytest.raises(AmbiguousNameError):
        validate_basic_team("dwarves", "10 dwarves")


def test_optional_teams_can_be_refused() -> None:
    lineup = "2 defenders, 2 hunters, 3 midfielders, 1 hobimp, 1 thrower, 1 troll"
    assert validate_basic_team("orcs", lineup).total == 10
    (problem,) = problems_of("orcs", lineup, RosterOptions(allow_optional_teams=False))
    assert problem.startswith("Orcs is an optional team list (Optional Rules, p. 18)")


def test_extra_players_are_off_by_default() -> None:
    (problem,) = problems_of("samhaino", "1 horror, 3 hunters, 3 midfielders, 2 safeties, 1 thrower")
    assert (
        problem
        == "Samhaino Horror is an extra player (Optional Rules, p. 19): allow extra players to field one"
    )


def test_samhaino_horror_takes_the_deadwood_slot() -> None:
    roster = validate_basic_team(
        "samhaino", "1 horror, 3 hunters, 3 midfielders, 2 safeties, 1 thrower", options=EXTRAS_ON
    )
    assert roster.count("extra/samhaino-horror") == 1 and roster.count("samhaino/deadwood") == 0
    both = "1 horror, 1 deadwood, 3 hunters, 2 midfielders, 2 safeties, 1 thrower"
    (problem,) = problems_of("samhaino", both, EXTRAS_ON)
    assert problem == (
        "Samhaino may field at most 1 Deadwood and Samhaino Horror together "
        "(you asked for 1 Deadwood and 1 Samhaino Horror)"
    )


def test_impcrusher_uses_a_contraption_slot_and_is_unique() -> None:
    roster = validate_basic_team("gnomes", "7 gnomes, 2 contraptions, 1 impcrusher", options=EXTRAS_ON)
    assert [p.name for p, _ in roster.entries] == ["Gnomes", "Gnomish Contraptions", "Impcrusher"]
    (problem,) = problems_of("gnomes", "6 gnomes, 3 contraptions, 1 impcrusher", EXTRAS_ON)
    assert "at most 3 Gnomish Contraptions and Impcrusher together" in problem
    problems = problems_of("gnomes", "7 gnomes, 1 contraption, 2 impcrushers", EXTRAS_ON)
    assert "Gnomes may field at most 1 Impcrusher (you asked for 2)" in problems


def test_impcrusher_replaces_a_thunder_hammer_dwarf_only() -> None:
    roster = validate_basic_team("thunder hammer", "9 dwarves, 1 impcrusher", options=EXTRAS_ON)
    assert roster.count("extra/impcrusher") == 1
    problems = problems_of("black rock", "5 dwarves, 2 centaurs, 2 hobimps, 1 impcrusher", EXTRAS_ON)
    assert problems == (
        "Impcrusher is not available to Black Rock Dwarves: only Gnomes (in a Gnomish Contraptions slot) "
        "and Thunder Hammer Dwarves (in a Dwarves slot) may field one",
    )


# ---------------------------------------------------------------------------- properties

TEAMS = all_team_lists()
VOCABULARY = sorted(
    {p.name for t in TEAMS for p in t.positions}
    | {p.id for t in TEAMS for p in t.positions}
    | {e.name for e in extra_players()}
    | {"imp", "hunter", "dwarf", "d", "x", "", "/", "Ogres", "night-elves/imps", "horror"}
)
options_st = st.builds(RosterOptions, st.booleans(), st.booleans())


@pytest.mark.slow
@settings(max_examples=300)
@given(team=st.sampled_from(TEAMS), text=st.text(max_size=60), options=options_st)
def test_any_lineup_text_validates_or_raises_roster_error(
    team: TeamList, text: str, options: RosterOptions
) -> None:
    try:
        roster = validate_basic_team(team, text, options=options)
    except RosterError:
        return
    assert roster.total == BASIC_TEAM_SIZE


@pytest.mark.slow
@settings(max_examples=300)
@given(
    team=st.sampled_from(TEAMS),
    items=st.lists(st.tuples(st.sampled_from(VOCABULARY), st.integers(-3, 14)), max_size=8),
    as_text=st.booleans(),
    options=options_st,
)
def test_any_lineup_validates_or_raises_roster_error(
    team: TeamList, items: list[tuple[str, int]], as_text: bool, options: RosterOptions
) -> None:
    lineup: str | dict[str, int]
    if as_text:
        lineup = ", ".join(f"{n} {name}" for name, n in items)
    else:
        lineup = {}
        for name, n in items:
            lineup[name] = n
    try:
        roster = validate_basic_team(team, lineup, options=options)
    except RosterError:
        return
    # Whatever got through obeys the rules.
    assert roster.total == BASIC_TEAM_SIZE
    assert roster.team == team
    for p, n in roster.entries:
        assert 0 < n <= p.max


@given(team=st.sampled_from(TEAMS), data=st.data())
def test_every_lineup_within_the_maxima_validates(team: TeamList, data: st.DataObject) -> None:
    counts: dict[str, int] = {}
    left = BASIC_TEAM_SIZE
    for p in data.draw(st.permutations(team.positions)):
        n = data.draw(st.integers(0, min(p.max, left)))
        counts[p.id] = n
        left -= n
    if left:  # the maxima add up to 12, so the remainder always fits somewhere
        for p in team.positions:
            extra = min(left, p.max - counts[p.id])
            counts[p.id] += extra
            left -= extra
    assert validate_basic_team(team, counts).total == BASIC_TEAM_SIZE


@given(name=st.text(max_size=30))
def test_any_team_name_resolves_or_raises_roster_error(name: str) -> None:
    try:
        assert isinstance(team_list(name), TeamList)
    except RosterError:
        pass
