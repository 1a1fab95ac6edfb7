"""Names members choose, and numbers they type (issues 17 and 18).

A team, league or player name with a NUL, a lone surrogate, a control character, a bidi
override, a zero-width character or a mention is refused with the character named, and nothing
is stored (NUL was a PostgreSQL DataError, a surrogate a UnicodeEncodeError on both backends).
``safe_name`` shows any stored name as written, with no markdown effect and no ping. A fixture,
team or report number beyond what the database stores is "no such fixture", not an incident.
"""

from __future__ import annotations

import re

import pytest
from support.databases import count

from bot.common.reply import reason_text
from db import teams as db_teams
from db.errors import InvalidInputError, NotFoundError, UnknownLeagueError, UnknownTeamError
from service.leagues import LeagueService
from service.names import check_name, ping_only, safe_name

GUILD, ALICE, BOB = 1, 11, 12
UNSEEN = {
    "NUL": "Elf\x00Raiders",
    "bell": "Elf\x07Raiders",
    "lone surrogate": "Elf\ud800Raiders",
    "right-to-left override": "Elf\u202eSredniar",
    "zero-width space": "Elf\u200bRaiders",
    "zero-width joiner between letters": "Elf\u200dRaiders",
    "byte order mark": "\ufeffElf Raiders",
    "Hangul filler": "\u3164",
    "tag character": "Elf\U000e0041",
}
MENTIONS = ["<@123456789012345678>", "<@!1234>", "<@&42>", "<#42>", "@everyone cup", "the @here team"]




def make_team(league: LeagueService, name: str, **kwargs) -> object:
    with league.sessions() as s:
        return db_teams.create_team(session=s, guild_id=GUILD, coach_id=ALICE, name=name, team_list="night elves",
                                    **kwargs)


@pytest.mark.parametrize("what", sorted(UNSEEN))
def test_a_team_or_league_name_with_an_unseen_character_is_refused(league, db_engine, what) -> None:
    name = UNSEEN[what]
    with pytest.raises(InvalidInputError, match=r"U\+[0-9A-F]{4,5}, an invisible or control character") as caught:
        make_team(league, name)
    assert "contient U+" in reason_text(caught.value, "fr")
    with pytest.raises(InvalidInputError, match="invisible or control character"):
        league.create(GUILD, ALICE, name)
    assert count(db_engine, "teams") == 0 and count(db_engine, "leagues") == 0


@pytest.mark.parametrize("name", MENTIONS)
def test_a_name_that_mentions_someone_is_refused(league, db_engine, name) -> None:
    with pytest.raises(InvalidInputError, match="cannot mention anyone") as caught:
        make_team(league, name)
    assert "ne peut mentionner personne" in reason_text(caught.value, "fr")
    with pytest.raises(InvalidInputError, match="cannot mention anyone"):
        league.create(GUILD, ALICE, name)
    assert count(db_engine, "teams") == 0 and count(db_engine, "leagues") == 0


def test_player_names_are_checked_too(league, db_engine) -> None:
    with pytest.raises(InvalidInputError, match="player name contains U\\+202E"):
        make_team(league, "Moonblades", player_names=["Quill\u202e"])
    make_team(league, "Moonblades")
    with pytest.raises(InvalidInputError, match="player name cannot mention"):
        league.hire(GUILD, ALICE, "Moonblades", "Imps", "<@123>")
    assert count(db_engine, "roster_players") == 10


def test_names_as_people_write_them_are_kept(league) -> None:
    for name in ("Elf Raiders", "Les Écureuils d'Ys", "Rocket 👩‍🚀 Crew", "*Stars* & _Moons_", "Ørkenrotter", "东方 Dragons",
                 "Moose \U0001FACE Herd"):  # an emoji newer than some Unicode tables
        check_name(name, "team")
    team = make_team(league, "Rocket 👩‍🚀 Crew")
    assert team.name == "Rocket 👩‍🚀 Crew"


def test_safe_name_escapes_markdown_and_breaks_mentions() -> None:
    assert safe_name("*Stars*") == "\\*Stars\\*"
    assert safe_name("__Moons__ ~~x~~ `y` ||z||") == "\\_\\_Moons\\_\\_ \\~\\~x\\~\\~ \\`y\\` \\|\\|z\\|\\|"
    assert safe_name("[click](https://x.io)") == "\\[click\\](https://x.io)"
    assert safe_name("# Big") == "\\# Big" and safe_name("- item") == "\\- item" and safe_name("Night-Elves") == "Night-Elves"
    pinged = safe_name("<@123> @everyone @here")
    assert not re.search(r"<@[!&]?\d", pinged) and "@everyone" not in pinged and "@here" not in pinged
    assert pinged.replace("\\", "").replace("\u200b", "") == "<@123> @everyone @here"  # reads as written
    assert safe_name("Elf Raiders") == "Elf Raiders"


def test_ping_only_keeps_the_coaches_mentions_and_breaks_the_rest() -> None:
    text = "<@11> to play; <@99> @everyone @here <@&5> <@!11>"
    shown = ping_only(text, [11])
    assert re.findall(r"<@!?&?(\d+)>", shown) == ["11", "11"]
    assert "@everyone" not in shown and "@here" not in shown
    assert shown.replace("\u200b", "") == text


@pytest.mark.parametrize("number", [2**31, 2**63, 10**30, 0, -1])
def test_fixture_and_team_numbers_out_of_range_are_not_found(league, number) -> None:
    league.create(GUILD, ALICE, "Elf Cup")
    with pytest.raises(NotFoundError, match="no fixture"):
        league.fixture(GUILD, number)
    with pytest.raises(NotFoundError, match="no fixture"):
        league.play(GUILD, 500, ALICE, number)
    with pytest.raises(NotFoundError, match="no fixture"):
        league.correct(GUILD, ALICE, number, home_score=1, away_score=0, reason="walkover")
    with pytest.raises(UnknownTeamError):
        league.sheet(GUILD, number, image=False)
    with pytest.raises(UnknownLeagueError):
        league.league(GUILD, number)
    with pytest.raises(NotFoundError):
        league.aftermath(number)


def test_a_long_correction_reason_is_refused_whole(league) -> None:
    league.create(GUILD, ALICE, "Elf Cup")
    for coach, name in ((ALICE, "Moonblades"), (BOB, "Gnashers")):
        with league.sessions() as s:
            db_teams.create_team(session=s, guild_id=GUILD, coach_id=coach, name=name, team_list="night elves")
        league.join(GUILD, coach, "Elf Cup", name)
    (fixture,) = league.schedule(GUILD, ALICE, "Elf Cup")
    with pytest.raises(InvalidInputError, match="at most 200 characters \\(1900 given\\)") as caught:
        league.correct(GUILD, ALICE, fixture.id, home_score=1, away_score=0, reason="x" * 1900)
    assert "au plus 200" in reason_text(caught.value, "fr")
    assert league.fixture(GUILD, fixture.id).fixture.status == "scheduled"
    league.correct(GUILD, ALICE, fixture.id, home_score=1, away_score=0, reason="y" * 200)
    assert league.audit(GUILD, "Elf Cup")[0].reason == "y" * 200


def test_a_player_number_as_typed_is_a_number_or_a_name(league) -> None:
    make_team(league, "Moonblades")
    for text in ("²", "#" + "9" * 40, "id:" + "9" * 40):
        with pytest.raises(NotFoundError, match="has no player"):
            league.fire(GUILD, ALICE, "Moonblades", text)
    _sheet, label = league.fire(GUILD, ALICE, "Moonblades", "#10")
    assert label.startswith("#10 ")
