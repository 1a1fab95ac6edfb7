"""Team building under the Advanced Rules (pp. 11-12, 19): costs, limits, abilities, lasting injuries."""

from __future__ import annotations

import pytest

from engine import teambuilding as tb
from engine.rosters import UnknownNameError
from engine.teambuilding import Member, TeamBuildingError

IMP, HUNTER, STRIKER = "night-elves/imps", "night-elves/hunters", "night-elves/strikers"


def elves(imps: int = 6, hunters: int = 2, strikers: int = 2) -> list[Member]:
    return [Member(IMP)] * imps + [Member(HUNTER)] * hunters + [Member(STRIKER)] * strikers


def test_a_basic_team_of_rookies_is_worth_150_and_abilities_add_5() -> None:
    assert tb.team_value(elves(), {}) == 150
    veteran = Member(STRIKER, abilities=("steady", "sprinter"), xp=10)
    assert tb.player_value(veteran) == 25
    assert tb.team_value([*elves(6, 2, 1), veteran], {"cheerleaders": 2, "wizard": 1}) == 135 + 25 + 10 + 20


def test_innate_abilities_and_extra_players_cost_like_a_rookie() -> None:
    crusher = Member("extra/impcrusher", abilities=("cheapshot",))
    assert tb.learned(crusher) == () and tb.player_value(crusher) == 15


def test_hiring_checks_size_maxima_and_budget() -> None:
    assert tb.check_hire("night elves", elves(), "imp", {}, budget=180, allow_extra=False).id == IMP
    with pytest.raises(TeamBuildingError, match="at most 2 Strikers"):
        tb.check_hire("night elves", elves(), "strikers", {}, budget=180, allow_extra=False)
    with pytest.raises(TeamBuildingError, match="at most 12 players"):
        tb.check_hire("night elves", elves(8, 2, 2), "imp", {}, budget=400, allow_extra=False)
    with pytest.raises(TeamBuildingError, match="worth 185 points, over the league's 180"):
        tb.check_hire("night elves", elves(), "imp", {"wizard": 1}, budget=180, allow_extra=False)
    with pytest.raises(UnknownNameError, match="not a position of Night Elves"):
        tb.check_hire("night elves", elves(), "dwarf", {}, budget=180, allow_extra=False)


def test_extra_players_take_the_slot_they_replace_and_need_the_league_to_allow_them() -> None:
    gnomes = [Member("gnomes/gnomes")] * 7 + [Member("gnomes/gnomish-contraptions")] * 3
    with pytest.raises(TeamBuildingError, match="does not allow"):
        tb.check_hire("gnomes", gnomes[:9], "impcrusher", {}, budget=180, allow_extra=False)
    with pytest.raises(TeamBuildingError, match="at most 3 Gnomish Contraptions"):
        tb.check_hire("gnomes", gnomes, "impcrusher", {}, budget=180, allow_extra=True)
    two_contraptions = gnomes[:9]
    assert tb.check_hire("gnomes", two_contraptions, "impcrusher", {}, budget=180, allow_extra=True).id == "extra/impcrusher"
    with pytest.raises(TeamBuildingError, match="at most 1 Impcrusher"):
        tb.check_hire("gnomes", gnomes[:8] + [Member("extra/impcrusher")], "impcrusher", {}, budget=180,
                      allow_extra=True)
    with pytest.raises(TeamBuildingError, match="may not field"):
        tb.check_hire("night elves", elves(), "impcrusher", {}, budget=180, allow_extra=True)
    samhaino = [Member("samhaino/hunters")] * 3 + [Member("samhaino/midfielders")] * 3
    horror = tb.check_hire("samhaino", samhaino, "horror", {}, budget=180, allow_extra=True)
    assert horror.id == "extra/samhaino-horror"
    with pytest.raises(TeamBuildingError, match="at most 1 Deadwood"):
        tb.check_hire("samhaino", [*samhaino, Member("samhaino/deadwood")], "horror", {}, budget=180, allow_extra=True)


def test_a_team_is_never_cut_below_six() -> None:
    tb.check_fire(elves(4, 2, 1))
    with pytest.raises(TeamBuildingError, match="below 6"):
        tb.check_fire(elves(2, 2, 2))


def test_support_limits_and_costs() -> None:
    assert {i: tb.support_item(n) for i, n in [(1, "cheerleader"), (2, "Zlurpee keg"), (3, "wizard"),
                                               (4, "Bribed Referee"), (5, "potion")]} == {
        1: "cheerleaders", 2: "kegs", 3: "wizard", 4: "bribed_referee", 5: "potions"}
    assert tb.check_support("cheerleaders", 0, 4, 150, budget=180) == 170
    with pytest.raises(TeamBuildingError, match="at most 4 Cheerleaders"):
        tb.check_support("cheerleaders", 4, 5, 150, budget=180)
    with pytest.raises(TeamBuildingError, match="at most 1 Bribed Referee "):
        tb.check_support("bribed_referee", 1, 2, 150, budget=180)
    with pytest.raises(TeamBuildingError, match="at most 2 Zlurpee Kegs"):
        tb.check_support("kegs", 0, 3, 150, budget=180)
    with pytest.raises(TeamBuildingError, match="at most 3 Magic Potions"):
        tb.check_support("potions", 0, 4, 150, budget=180)
    with pytest.raises(TeamBuildingError, match="worth 190 points"):
        tb.check_support("wizard", 0, 1, 170, budget=180)
    assert tb.check_support("wizard", 1, 0, 150, budget=140) == 150  # selling is always allowed
    with pytest.raises(TeamBuildingError, match="only 0"):
        tb.check_support("kegs", 0, -1, 150, budget=180)
    with pytest.raises(TeamBuildingError, match="unknown team support"):
        tb.support_item("dragon")


def test_joining_checks_the_whole_team_at_once() -> None:
    assert tb.check_team("night elves", elves(), {"potions": 3}, budget=180, allow_extra=False) == 165
    with pytest.raises(TeamBuildingError) as err:
        tb.check_team("night elves", elves(2, 2, 1), {"wizard": 1, "kegs": 3}, budget=90, allow_extra=False)
    text = str(err.value)
    assert "6 to 12 players" in text and "at most 2 Zlurpee Kegs" in text and "over the league's 90" in text


def test_every_full_5_xp_is_one_ability_and_the_next_needs_5_more() -> None:
    assert tb.advances(Member(STRIKER, xp=4)) == 0
    assert tb.advances(Member(STRIKER, xp=5)) == 1
    assert tb.advances(Member(STRIKER, abilities=("steady",), xp=9)) == 0
    assert tb.advances(Member(STRIKER, abilities=("steady",), xp=10)) == 1
    assert tb.advances(Member("extra/impcrusher", abilities=("cheapshot",), xp=20)) == 0


def test_who_may_learn_what() -> None:
    striker = Member(STRIKER, xp=5)
    ids = [a.id for a in tb.eligible_abilities("night elves", striker)]
    assert "steal" in ids and "steady" in ids and "sprinter" not in ids and "fear" not in ids
    assert tb.check_learn("night elves", striker, "steady", 150, budget=180).name == "Steady"
    with pytest.raises(TeamBuildingError, match="needs the Basic"):
        tb.check_learn("night elves", striker, "sprinter", 150, budget=180)
    with pytest.raises(TeamBuildingError, match="a Striker may not learn it"):
        tb.check_learn("night elves", striker, "swarm", 150, budget=180)
    with pytest.raises(TeamBuildingError, match="next ability needs 5"):
        tb.check_learn("night elves", Member(STRIKER, xp=4), "steady", 150, budget=180)
    with pytest.raises(TeamBuildingError, match="worth 185"):
        tb.check_learn("night elves", striker, "steady", 180, budget=180)
    with pytest.raises(TeamBuildingError, match="already has"):
        tb.check_learn("night elves", Member(STRIKER, ("steady",), 10), "steady", 150, budget=180)
    # Any Samhaino player may take Fear (G45); an Impcrusher learns nothing (p. 19).
    assert "fear" in [a.id for a in tb.eligible_abilities("samhaino", Member("samhaino/hunters", xp=5))]
    assert tb.eligible_abilities("gnomes", Member("extra/impcrusher", ("cheapshot",), 5)) == []
    with pytest.raises(TeamBuildingError, match="may not learn"):
        tb.check_learn("gnomes", Member("extra/impcrusher", ("cheapshot",), 5), "steady", 100, budget=180)


def test_a_lasting_injury_lowers_the_highest_attribute_and_ties_are_chosen() -> None:
    profile = {"jog": 7, "might": 2, "tackle": 2, "dodge": 5, "skill": 3, "grit": 2}
    assert tb.lasting_choices(profile) == ["jog"]
    assert tb.apply_lasting(profile, "jog")["jog"] == 6
    tied = {**profile, "dodge": 7}
    assert tb.lasting_choices(tied) == ["jog", "dodge"]
    assert tb.apply_lasting(tied, "dodge", ["jog", "dodge"])["dodge"] == 6
    with pytest.raises(TeamBuildingError, match="choose jog, dodge"):
        tb.apply_lasting(tied, "might")
    assert tb.gains_experience(IMP) and not tb.gains_experience("extra/impcrusher")
    assert not tb.uses_potions("extra/impcrusher")
