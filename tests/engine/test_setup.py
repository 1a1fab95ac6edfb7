"""Beginning a Test (rulebook p. 3) and the Referee's Monster rule (p. 8), with scripted dice.

"For the first Test, each player rolls a D6 with both players re-rolling in cases of a tie. The
loser of this dice off must set up his entire team first onto the playing field. After this the
opponent sets up. For all Tests after the first Test, the player who scored the last goal must
set up his entire team first."
"""

from __future__ import annotations

import pytest
from support.builders import F, P, play as act, events, hx, position, refused

from engine import commands as C
from engine.dice import ScriptedDice, SeededDice
from engine.hexes import Direction, is_in_front
from engine.match import TeamEntry, apply, new_match
from engine.rosters import TeamRoster, all_team_lists, default_roster, position_by_id, team_list
from engine.setup import zone_of
from engine.state import Location, Phase, RuleOptions

WEST_FACEOFF, EAST_FACEOFF = hx("J12"), hx("L12")
WEST_GUARDIAN, EAST_GUARDIAN = hx("D12"), hx("R12")


def entry(team: str) -> TeamEntry:
    return TeamEntry(team, default_roster(team))


def setup_position(*specs: P, setter: str = "west", first: str = "west"):
    """A position in the SETUP phase: ``setter`` is placing players; ``first`` set up first."""
    st = position(*specs, phase=Phase.SETUP)
    st.setup_side, st.first_setup_side = setter, first  # type: ignore[assignment]
    return st


def bench(side: str, n: int, pos: str = "gnolls/midfielders", start: int = 1) -> list[P]:
    return [P(f"{side[0]}{i}", pos) for i in range(start, start + n)]


class TestDiceOff:
    """"each player rolls a D6 ... re-rolling in cases of a tie. The loser ... must set up his
    entire team first"."""

    @pytest.mark.parametrize(
        ("d6", "first"),
        [([2, 5], "west"), ([6, 1], "east"), ([3, 3, 5, 2], "east"), ([4, 4, 1, 1, 2, 6], "west")],
    )
    def test_the_loser_sets_up_first_and_ties_are_rolled_again(self, d6, first):
        dice = ScriptedDice(d6=d6)
        res = new_match(entry("gnolls"), entry("orcs"), dice)
        assert dice.exhausted
        st = res.state
        assert st.phase is Phase.SETUP
        assert st.setup_side == first and st.first_setup_side == first
        (off,) = events(res, "dice_off_rolled")
        assert [tuple(r) for r in off["rolls"]] == [tuple(d6[i : i + 2]) for i in range(0, len(d6), 2)]
        assert off["sets_up_first"] == first

    def test_the_match_starts_with_the_ball_on_the_centre_dot_and_nobody_on_the_field(self):
        st = new_match(entry("gnolls"), entry("orcs"), ScriptedDice(d6=[1, 2])).state
        assert st.ball.hex == F.ball_spot == hx("K12") and st.ball.carrier is None
        assert not st.on_field()
        assert st.momentum == 0 and st.last_moved == {"west": None, "east": None}

    def test_the_second_team_waits_for_the_first(self):
        st = new_match(entry("gnolls"), entry("orcs"), ScriptedDice(d6=[1, 2])).state  # west first
        refused(st, C.AutoSetup(), by="east", match="west is setting up")
        refused(st, C.Place("e1", EAST_FACEOFF, Direction.W), by="east")
        refused(st, C.SetupDone(), by="east")


class TestPlacement:
    """Face-off: "One player must be set up on your team's side of the yellow circle in the
    middle ... with a facing that puts the ball in a front facing hex. No more than one player
    ... Players with an attribute Type of Monster may not participate in a face-off ... He cannot
    be placed in a hex with either the white or yellow line running through it." Guardian: "One
    player (and no more)". Rovers: "Up to two players may be placed in each of the large Rover
    circles on your side". "All players must be set-up inside the yellow circles on your side of
    the field and you may not set up more than 6 players total"."""

    def test_a_legal_face_off_player(self):
        st = setup_position(*bench("west", 10))
        for facing in (Direction.NE, Direction.E, Direction.SE):
            res = act(st, C.Place("w1", WEST_FACEOFF, facing), by="west")
            assert res.state.players["w1"].hex == WEST_FACEOFF
            assert is_in_front(WEST_FACEOFF, facing, F.ball_spot)

    @pytest.mark.parametrize("facing", [Direction.SW, Direction.W, Direction.NW])
    def test_the_face_off_player_must_have_the_ball_in_front(self, facing):
        st = setup_position(*bench("west", 10))
        refused(st, C.Place("w1", WEST_FACEOFF, facing), by="west", match="front")

    @pytest.mark.parametrize(
        "label",
        [
            "H12",  # open field: not inside a yellow circle
            "J11",  # inside the centre circle, but the white centre line runs through it
            "K12",  # the ball spot, on the centre line
            "I12",  # the centre circle's yellow line
            "C12",  # the Guardian circle's yellow line
            "F6",  # a Rover circle's yellow line
            "B12",  # the goal circle hex
            "L12",  # the east face-off hex: the other side of the circle
            "R12",  # the east Guardian circle
            "P8",  # an east Rover circle
        ],
    )
    def test_off_zone_and_line_hexes_are_refused(self, label):
        st = setup_position(*bench("west", 10))
        refused(st, C.Place("w2", hx(label), Direction.E), by="west", match="not a set-up hex")

    def test_no_more_than_one_face_off_player(self):
        st = setup_position(P("w1", "gnolls/midfielders", "J12", "E"), *bench("west", 9, start=2))
        refused(st, C.Place("w2", WEST_FACEOFF, Direction.E), by="west")
        # ... and the only face-off hex on west's side of the circle is J12.
        assert F.setup_hexes("west", "faceoff") == [WEST_FACEOFF]

    def test_no_more_than_one_guardian(self):
        st = setup_position(P("w1", "gnolls/midfielders", "D12", "E"), *bench("west", 9, start=2))
        refused(st, C.Place("w2", WEST_GUARDIAN, Direction.E), by="west")
        assert F.setup_hexes("west", "guardian") == [WEST_GUARDIAN]

    def test_no_more_than_two_in_a_rover_circle(self):
        rover = F.setup_hexes("west", "rover-north")
        assert len(rover) >= 3
        st = setup_position(*bench("west", 10))
        st = act(st, C.Place("w1", rover[0], Direction.E), by="west").state
        st = act(st, C.Place("w2", rover[1], Direction.E), by="west").state
        refused(st, C.Place("w3", rover[2], Direction.E), by="west", match="at most 2")
        # The other Rover circle still has room.
        act(st, C.Place("w3", F.setup_hexes("west", "rover-south")[0], Direction.E), by="west")

    def test_no_more_than_six(self):
        st = setup_position(*bench("west", 10))
        north, south = F.setup_hexes("west", "rover-north"), F.setup_hexes("west", "rover-south")
        for pid, h in (("w1", WEST_FACEOFF), ("w2", WEST_GUARDIAN), ("w3", north[0]), ("w4", north[1]),
                       ("w5", south[0]), ("w6", south[1])):
            st = act(st, C.Place(pid, h, Direction.E), by="west").state
        assert len(st.on_field("west")) == 6
        for h in (*north[2:], *south[2:]):
            refused(st, C.Place("w7", h, Direction.E), by="west")

    def test_a_monster_may_not_face_off(self):
        st = setup_position(P("w1", "middle-kingdoms/ogres-cyclops-minotaurs"), *bench("west", 9, start=2))
        refused(st, C.Place("w1", WEST_FACEOFF, Direction.E), by="west", match="Monster")
        # He may set up anywhere else.
        act(st, C.Place("w1", WEST_GUARDIAN, Direction.E), by="west")

    @pytest.mark.parametrize("where", ["recovery", "infirmary", "ejected", "sent_off"])
    def test_only_fit_players_set_up(self, where):
        st = setup_position(P("w1", "gnolls/midfielders", location=where), *bench("west", 9, start=2))
        refused(st, C.Place("w1", WEST_FACEOFF, Direction.E), by="west", match="not available")

    def test_a_placed_player_may_be_moved_or_taken_back(self):
        st = setup_position(*bench("west", 10))
        st = act(st, C.Place("w1", WEST_GUARDIAN, Direction.E), by="west").state
        st = act(st, C.Place("w1", WEST_FACEOFF, Direction.E), by="west").state
        assert st.players["w1"].hex == WEST_FACEOFF and st.player_at(WEST_GUARDIAN) is None
        st = act(st, C.Unplace("w1"), by="west").state
        assert st.players["w1"].location is Location.BENCH
        refused(st, C.Unplace("w1"), by="west")


class TestSetupDone:
    """The face-off player is compulsory, and so is the Guardian "if you have a 2nd eligible
    player"; fielding fewer than 6 is allowed (G54)."""

    def test_a_face_off_player_is_required(self):
        st = setup_position(P("w2", "gnolls/midfielders", "D12", "E"), *bench("west", 9, start=3))
        refused(st, C.SetupDone(), by="west", match="face-off")

    def test_a_guardian_is_required_with_a_second_player(self):
        st = setup_position(P("w1", "gnolls/midfielders", "J12", "E"), *bench("west", 9, start=2))
        refused(st, C.SetupDone(), by="west", match="guardian")

    def test_two_players_are_enough(self):
        st = setup_position(
            P("w1", "gnolls/midfielders", "J12", "E"), P("w2", "gnolls/midfielders", "D12", "E"),
            *bench("west", 8, start=3),
        )
        res = act(st, C.SetupDone(), by="west")
        assert res.state.setup_side == "east" and len(res.state.on_field("west")) == 2

    def test_a_lone_player_needs_no_guardian(self):
        others = [P(f"w{i}", "gnolls/midfielders", location="infirmary") for i in range(2, 11)]
        st = setup_position(P("w1", "gnolls/midfielders", "J12", "E"), *others)
        assert act(st, C.SetupDone(), by="west").state.setup_side == "east"

    def test_the_second_team_to_finish_starts_the_face_off(self):
        st = setup_position(
            P("w1", "gnolls/midfielders", "J12", "E"), P("w2", "gnolls/midfielders", "D12", "E"),
            P("e1", "gnolls/midfielders", "L12", "W"), P("e2", "gnolls/midfielders", "R12", "W"),
            setter="east", first="west",
        )
        res = act(st, C.SetupDone(), faces="O - -  - - -", by="east")
        assert res.state.phase is Phase.FACEOFF and res.state.faceoff_winner == "west"


class TestAutoSetup:
    @pytest.mark.parametrize("team", [t.id for t in all_team_lists()])
    def test_a_legal_set_up_for_every_team_list(self, team):
        res = new_match(entry(team), entry(team), ScriptedDice(d6=[1, 2]))
        st = res.state
        src = SeededDice(7)
        for side in ("west", "east"):
            st = apply(st, C.AutoSetup(), src, by=side).state
            placed = st.on_field(side)
            assert len(placed) == 6
            zones = [zone_of(F, side, p.hex) for p in placed]
            assert zones.count("faceoff") == 1 and zones.count("guardian") == 1
            assert zones.count("rover-north") == 2 and zones.count("rover-south") == 2
            (fo,) = [p for p, z in zip(placed, zones) if z == "faceoff"]
            assert fo.type != "monster"
            assert is_in_front(fo.hex, fo.facing, F.ball_spot)
            assert all(not F.info(p.hex).any_line for p in placed)
            st = apply(st, C.SetupDone(), src, by=side).state
        assert st.phase is Phase.FACEOFF  # both set up: the face-off was rolled

    def test_auto_setup_with_few_players_left(self):
        others = [P(f"w{i}", "gnolls/midfielders", location="infirmary") for i in range(3, 11)]
        st = setup_position(P("w1", "gnolls/midfielders"), P("w2", "gnolls/strikers"), *others)
        st = act(st, C.AutoSetup(), by="west").state
        assert {zone_of(F, "west", p.hex) for p in st.on_field("west")} == {"faceoff", "guardian"}
        act(st, C.SetupDone(), by="west")


def over_position(*specs: P, scorer: str = "west", test: int = 1):
    st = position(*specs, phase=Phase.TEST_OVER)
    st.last_scorer = scorer  # type: ignore[assignment]
    st.test = test
    return st


class TestNextTest:
    def test_the_scorer_sets_up_first(self):
        # West carries the ball into east's goal and ends the action there.
        st = position(
            P("w1", "gnolls/strikers", "S13", "E", ball=True), P("w2", "gnolls/midfielders", "H12"),
            P("e1", "gnolls/midfielders", "L12", "W"), P("e2", "gnolls/midfielders", "M12", "W"),
            acting="w1", jog=2, options=RuleOptions(goals_to_win=2),
        )
        st = act(st, C.Move((hx("T12"),))).state
        st = act(st, C.EndAction()).state
        assert st.phase is Phase.TEST_OVER and st.last_scorer == "west"
        assert (st.teams["west"].score, st.teams["east"].score) == (1, 0)
        res = act(st, C.StartTest(), by="east")  # either coach may start it
        st = res.state
        assert st.phase is Phase.SETUP and st.setup_side == "west" and st.first_setup_side == "west"
        assert st.test == 2
        assert not st.on_field() and st.ball.hex == F.ball_spot and st.ball.carrier is None
        assert st.momentum == 0 and st.last_moved == {"west": None, "east": None}

    def test_benched_for_the_test_players_come_back_but_not_the_infirmary_or_ejected(self):
        st = over_position(
            P("w1", "gnolls/midfielders", location="sent_off"), P("w2", "gnolls/midfielders", location="infirmary"),
            P("w3", "gnolls/midfielders", location="ejected"), P("w4", "gnolls/midfielders", "H12"),
            P("e1", "gnolls/midfielders", "M12"),
        )
        st = act(st, C.StartTest(), by="west").state
        locations = {pid: st.players[pid].location for pid in ("w1", "w2", "w3", "w4")}
        assert locations == {
            "w1": Location.BENCH, "w2": Location.INFIRMARY, "w3": Location.EJECTED, "w4": Location.BENCH,
        }

    def test_recovery_players_join_the_bench_only_after_the_face_off(self):
        """"Player may be moved from the Recovery box to the Bench area after the next Test has
        started" (Injury, p. 8): not in time for the set-up, available as a Replacement once the
        face-off is resolved (G53)."""
        st = over_position(
            P("w1", "gnolls/midfielders", location="recovery"), P("w2", "gnolls/midfielders"),
            P("w3", "gnolls/midfielders"), P("e1", "gnolls/midfielders"), P("e2", "gnolls/midfielders"),
            scorer="west",
        )
        st = act(st, C.StartTest(), by="west").state
        assert st.players["w1"].location is Location.RECOVERY
        refused(st, C.Place("w1", WEST_FACEOFF, Direction.E), by="west", match="not available")
        st = act(st, C.Place("w2", WEST_FACEOFF, Direction.E), by="west").state
        st = act(st, C.Place("w3", WEST_GUARDIAN, Direction.E), by="west").state
        st = act(st, C.SetupDone(), by="west").state
        assert st.players["w1"].location is Location.RECOVERY
        st = act(st, C.Place("e1", EAST_FACEOFF, Direction.W), by="east").state
        st = act(st, C.Place("e2", EAST_GUARDIAN, Direction.W), by="east").state
        assert st.players["w1"].location is Location.RECOVERY
        res = act(st, C.SetupDone(), faces="O - -  - - -", by="east")  # the face-off: west wins
        assert res.state.players["w1"].location is Location.BENCH
        assert [e["player"] for e in events(res, "recovered")] == ["w1"]


class TestNoFaceOffPlayer:
    """"If you cannot set up a player for the face-off, your team loses the game. If neither
    team can place a player in the centre circle of the face-off the game ends in a tie.\""""

    def monsters(self, n: int = 10) -> TeamRoster:
        # Not a valid Basic team: built directly to reach the rule.
        return TeamRoster(team_list("middle-kingdoms"), ((position_by_id("middle-kingdoms/ogres-cyclops-minotaurs"), n),))

    def test_a_team_of_monsters_loses_at_once(self):
        res = new_match(TeamEntry("Ogres", self.monsters()), entry("gnolls"), ScriptedDice(d6=[1, 2]))
        assert res.state.phase is Phase.MATCH_OVER and res.state.winner == "east"

    def test_neither_team_can_face_off_a_tie(self):
        res = new_match(TeamEntry("A", self.monsters()), TeamEntry("B", self.monsters()), ScriptedDice(d6=[1, 2]))
        assert res.state.phase is Phase.MATCH_OVER and res.state.winner == "draw"

    def test_losing_the_last_non_monster_loses_the_next_test(self):
        st = over_position(
            P("w1", "middle-kingdoms/ogres-cyclops-minotaurs"), P("w2", "middle-kingdoms/strikers", location="infirmary"),
            P("w3", "middle-kingdoms/strikers", location="recovery"),
            P("e1", "gnolls/midfielders"), P("e2", "gnolls/midfielders"),
            scorer="east",
        )
        res = act(st, C.StartTest(), by="east")
        assert res.state.phase is Phase.MATCH_OVER and res.state.winner == "east"
        refused(res.state, C.StartTest(), by="west", match="over")

    def test_both_without_one_is_a_tie(self):
        st = over_position(
            P("w1", "middle-kingdoms/ogres-cyclops-minotaurs"), P("e1", "gnolls/midfielders", location="ejected"),
            P("e2", "razorbacks/swinetaurs"),
        )
        res = act(st, C.StartTest(), by="west")
        assert res.state.phase is Phase.MATCH_OVER and res.state.winner == "draw"
