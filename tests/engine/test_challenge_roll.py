"""Challenge rolls: the rulebook's examples with scripted faces, needs, replacements, storage."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.dice import (
    Band,
    ChallengeRoll,
    DiceSource,
    Face,
    Modifier,
    Need,
    Origin,
    Reason,
    ReplayDice,
    ScriptedDice,
)
from engine.dice.challenge import MAX_DICE_PER_CHALLENGE
from engine.dice.stringify import MarkdownStringifier, PlainStringifier, outcome_text
from engine.errors import DiceScriptError, ElfballError, IllegalCommandError, MalformedInputError

X, B, S, O = Face.FLOP, Face.BLANK, Face.STAR, Face.BULLSEYE  # noqa: E741 - the faces as the rulebook prints them


def roll(count: int, need: Need | int, faces: str, *, star2: bool = False) -> tuple[ChallengeRoll, ScriptedDice]:
    dice = ScriptedDice(faces)
    return ChallengeRoll.roll(count, need, dice, star2=star2), dice


# -- the rulebook's own examples (rules analysis 1.20) -------------------------------------

# (id, dice, need, script, successes, flops, net, band, extra)
EXAMPLES = [
    # TC1 Pick-up, Skill 4, one opponent facing: X - * * -> re-roll 2: - * -> re-roll 1: O
    ("TC1", 4, Need(1, (Modifier("opponent facing", 1),)), "X - * * - * O", 4, 1, 3, Band.EXTRA, 1),
    # TC2 Pick-up, Skill 3, nobody adjacent: X - * -> re-roll: X
    ("TC2", 3, Need(1), "X - * X", 1, 2, -1, Band.FLOP, 0),
    # TC3 Disengage, Dodge 4, opponents with Tackle 3 and 2: N = 3 - 2 + 1
    ("TC3", 4, Need(3, (Modifier("Disengage", -2), Modifier("second opponent facing", 1))), "X O O O",
     3, 1, 2, Band.EXACT, 0),
    # TC4 Catch, Skill 3, one opponent facing, before Momentum
    ("TC4", 3, Need(2, (Modifier("opponent facing", 1),)), "X - O", 1, 1, 0, Band.FAILURE, 0),
]


@pytest.mark.parametrize(
    ("name", "count", "need", "script", "successes", "flops", "net", "band", "extra"),
    EXAMPLES,
    ids=[e[0] for e in EXAMPLES],
)
def test_rulebook_examples(
    name: str, count: int, need: Need, script: str, successes: int, flops: int, net: int, band: Band, extra: int
) -> None:
    result, dice = roll(count, need, script)
    assert dice.exhausted, "every scripted face, star re-rolls included, is used"
    assert (result.successes, result.flops, result.net) == (successes, flops, net)
    assert result.band is band
    assert result.extra == extra
    assert result.flopped is (band is Band.FLOP)
    assert result.succeeded is (band in (Band.EXACT, Band.EXTRA))


def test_tc1_keeps_star_history() -> None:
    result, _ = roll(4, 2, "X - * * - * O")
    assert result.count == 4
    assert [d.face for d in result.dice] == [X, B, S, S, B, S, O]
    # Star re-rolls are rolled breadth first: both stars, then the star among their re-rolls.
    assert [(d.origin, d.parent) for d in result.dice[4:]] == [(Origin.STAR, 2), (Origin.STAR, 3), (Origin.STAR, 5)]
    assert result.star_dice(2) == (4,)
    assert result.star_dice(3) == (5,)
    assert result.star_dice(5) == (6,)
    assert PlainStringifier().dice(result) == "X - *>- *>*>O"
    assert outcome_text(result) == "success, 1 extra → Momentum +1"


def test_tc3_need_is_built_from_base_and_modifiers() -> None:
    need = EXAMPLES[2][2]
    assert isinstance(need, Need)
    assert (need.base, need.unclamped, need.value) == (3, 2, 2)
    assert str(need) == "2 (base 3 -2 Disengage +1 second opponent facing)"


def test_tc4_catch_with_momentum() -> None:
    need = Need(2, (Modifier("opponent facing", 1),))
    dice = ScriptedDice("X - O - -")
    result = ChallengeRoll.roll(3, need, dice)
    assert not result.flopped, "F = S = 1 is not a flop, so Momentum may be used"
    counters = 3
    for index in (0, 1):  # replace the X and the blank
        assert result.can_replace(index)
        result = result.replace(index, dice)
        counters -= 1
    assert counters == 1
    assert dice.exhausted
    assert (result.successes, result.flops, result.net) == (1, 0, 1)
    assert result.band is Band.FAILURE
    assert result.faces == (O, B, B)
    # Each die may be replaced only once: not the struck ones, not their replacements.
    assert result.replaceable() == (2,)
    for index in (0, 1, 3, 4):
        assert not result.can_replace(index)
    with pytest.raises(IllegalCommandError, match="already replaced"):
        result.replace(0, ScriptedDice("O"))
    with pytest.raises(IllegalCommandError, match="itself a replacement"):
        result.replace(3, ScriptedDice("O"))
    assert result.replacement_of(0) == 3
    assert result.replacement_of(1) == 4
    assert result.replacement_of(2) is None
    assert PlainStringifier().dice(result) == "(X)=>- (-)=>- O"


# -- successes needed -----------------------------------------------------------------------


class TestNeed:
    def test_clamped_to_one_but_unclamped_kept(self) -> None:
        need = Need(2, (Modifier("mate facing", -1), Modifier("mate facing", -1), Modifier("mate facing", -1)))
        assert need.unclamped == -1
        assert need.value == 1
        assert "at least 1" in str(need)

    def test_plain_int_and_plus(self) -> None:
        assert Need(0).value == 1
        assert Need(3).value == 3
        need = Need(2).plus("opponent facing", 1)
        assert need.value == 3
        assert need.modifiers == (Modifier("opponent facing", 1),)

    def test_roll_uses_clamped_value(self) -> None:
        result, _ = roll(2, Need(1, (Modifier("mates", -3),)), "O -")
        assert result.need.unclamped == -2
        assert result.band is Band.EXACT

    def test_modifiers_list_becomes_tuple(self) -> None:
        need = Need(1, [Modifier("a", 1)])  # type: ignore[arg-type]
        assert need.modifiers == (Modifier("a", 1),)
        assert hash(need) == hash(Need(1, (Modifier("a", 1),)))

    @pytest.mark.parametrize("bad", [1.5, "2", True])
    def test_non_integer(self, bad: object) -> None:
        with pytest.raises(MalformedInputError):
            Need(bad)  # type: ignore[arg-type]
        with pytest.raises(MalformedInputError):
            Modifier("x", bad)  # type: ignore[arg-type]

    def test_round_trip(self) -> None:
        need = Need(3, (Modifier("Disengage", -2), Modifier("second opponent facing", 1)))
        assert Need.from_dict(json.loads(json.dumps(need.to_dict()))) == need
        with pytest.raises(MalformedInputError):
            Need.from_dict({"modifiers": []})


# -- special rolls ------------------------------------------------------------------------------


def test_zero_dice_is_a_failure_not_a_flop() -> None:
    result, dice = roll(0, 1, "")
    assert (result.successes, result.flops, result.net) == (0, 0, 0)
    assert result.band is Band.FAILURE
    assert not result.flopped
    assert result.replaceable() == ()
    assert PlainStringifier().dice(result) == "no dice"


def test_negative_dice_count_refused() -> None:
    with pytest.raises(ElfballError):
        ChallengeRoll.roll(-1, 1, ScriptedDice())


class TestStar2:
    def test_star_counts_two_and_is_not_rerolled(self) -> None:
        result, dice = roll(3, 3, "* X O", star2=True)
        assert dice.exhausted
        assert (result.successes, result.flops, result.net) == (3, 1, 2)
        assert result.band is Band.FAILURE
        assert len(result.dice) == 3

    def test_exactly(self) -> None:
        result, _ = roll(2, 4, "* *", star2=True)
        assert result.band is Band.EXACT

    def test_replacement_star_not_rerolled(self) -> None:
        result, _ = roll(2, 2, "X O", star2=True)
        dice = ScriptedDice("*")
        result = result.replace(0, dice)
        assert dice.exhausted
        assert (result.successes, result.flops, result.band) == (3, 0, Band.EXTRA)


class TestReplacements:
    def test_momentum_refused_after_a_flop(self) -> None:
        result, _ = roll(3, 1, "X X O")
        assert result.flopped
        assert not result.can_replace(0)
        assert result.replaceable() == ()
        with pytest.raises(IllegalCommandError, match="flopped") as info:
            result.replace(0, ScriptedDice("O"))
        assert info.value.rule == "Momentum (p. 5)"

    def test_ability_may_rescue_a_flop_then_momentum_may_follow(self) -> None:
        result, _ = roll(3, 2, "X X O")
        assert result.can_replace(0, Reason.ABILITY)
        result = result.replace(0, ScriptedDice("O"), reason="ability")
        assert not result.flopped
        assert result.dice[-1].reason is Reason.ABILITY
        result = result.replace(1, ScriptedDice("O"))  # now Momentum is allowed
        assert (result.net, result.band) == (3, Band.EXTRA)

    def test_replacement_creating_a_flop_is_evaluated_on_the_final_pool(self) -> None:
        # G27: replacing a blank can bring in an X; the final pool is flopped.
        result, _ = roll(3, 2, "X O -")
        assert not result.flopped
        result = result.replace(2, ScriptedDice("X"))
        assert (result.successes, result.flops) == (1, 2)
        assert result.band is Band.FLOP
        assert result.replaceable() == (), "no more own Momentum once flopped"

    def test_forced_replacement_can_flop_the_opponent(self) -> None:
        # Play-by-play #2: the interceptor's O, O, X; the Dwarf forces a re-roll of one O -> X.
        result, _ = roll(3, 1, "O O X")
        assert result.succeeded
        result = result.replace(0, ScriptedDice("X"), reason=Reason.FORCED)
        assert (result.successes, result.flops, result.band) == (1, 2, Band.FLOP)

    def test_replacement_star_rolls_again_but_its_dice_are_not_replaceable(self) -> None:
        # G25: the replacement's star counts and is re-rolled.
        result, _ = roll(3, 2, "X O -")
        dice = ScriptedDice("* * O")
        result = result.replace(0, dice)
        assert dice.exhausted
        assert (result.successes, result.flops, result.net) == (4, 0, 4)
        assert [d.origin for d in result.dice[3:]] == [Origin.REPLACEMENT, Origin.STAR, Origin.STAR]
        assert result.star_dice(3) == (4,)
        assert result.extra == 2
        assert result.replaceable() == (1, 2)
        with pytest.raises(IllegalCommandError, match="rolled for a star"):
            result.replace(4, ScriptedDice("O"))
        assert PlainStringifier().dice(result) == "(X)=>*>*>O O -"

    def test_star_chain_dice_cannot_be_replaced(self) -> None:
        result, _ = roll(4, 2, "X - * * - * O")
        for index in (4, 5, 6):
            assert not result.can_replace(index)
        assert result.replaceable() == (0, 1, 2, 3)

    def test_replacing_a_star_keeps_the_dice_it_already_rolled(self) -> None:
        # The star's re-roll was added to the list of rolls; replacing the star changes only it.
        result, _ = roll(2, 1, "* - O")
        result = result.replace(0, ScriptedDice("X"), reason="forced")
        assert result.faces == (B, O, X)
        assert (result.successes, result.flops) == (1, 1)
        assert PlainStringifier().dice(result) == "(*)>O=>X -"

    @pytest.mark.parametrize("index", [-1, 3, 99, True])
    def test_index_out_of_range(self, index: int) -> None:
        result, _ = roll(3, 1, "X - O")
        assert not result.can_replace(index)
        with pytest.raises(MalformedInputError, match="no die at index"):
            result.replace(index, ScriptedDice("O"))

    def test_unknown_reason(self) -> None:
        result, _ = roll(1, 1, "-")
        with pytest.raises(MalformedInputError, match="unknown replacement reason"):
            result.replace(0, ScriptedDice("O"), reason="luck")

    def test_replace_returns_a_new_roll(self) -> None:
        before, _ = roll(2, 1, "O -")
        after = before.replace(1, ScriptedDice("O"))
        assert before.faces == (O, B)
        assert after.faces == (O, O)
        with pytest.raises(dataclasses.FrozenInstanceError):
            before.star2 = True  # type: ignore[misc]

    def test_with_need_changes_only_the_target(self) -> None:
        result, _ = roll(3, 3, "O O -")
        assert result.band is Band.FAILURE
        easier = result.with_need(result.need.plus("Pummel", -1))
        assert easier.band is Band.EXACT
        assert easier.dice == result.dice


def test_runaway_star_source_is_stopped() -> None:
    class AlwaysStar(DiceSource):
        def _next_face(self) -> Face:
            return Face.STAR

        def _next_d6(self) -> int:
            return 4

    with pytest.raises(DiceScriptError, match=str(MAX_DICE_PER_CHALLENGE)):
        ChallengeRoll.roll(1, 1, AlwaysStar())


def test_running_out_of_script_names_the_kind() -> None:
    with pytest.raises(DiceScriptError, match="Challenge dice faces"):
        roll(3, 1, "X *")


# -- storage and text -------------------------------------------------------------------------


def test_json_round_trip_with_history() -> None:
    result, _ = roll(4, Need(1, (Modifier("opponent facing", 1),)), "X - * * - * O")
    result = result.replace(0, ScriptedDice("* O"))
    data = json.loads(json.dumps(result.to_dict()))
    again = ChallengeRoll.from_dict(data)
    assert again == result
    assert (again.successes, again.flops, again.band) == (result.successes, result.flops, result.band)
    assert data["dice"][0] == {"face": "X", "origin": "rolled", "struck": True}
    assert data["dice"][7] == {"face": "*", "origin": "replacement", "parent": 0, "reason": "momentum"}


@pytest.mark.parametrize(
    "bad",
    [
        {},
        {"need": {"base": 1}, "dice": [{"face": "Q"}]},
        {"need": {"base": 1}, "dice": [{"face": "X", "origin": "magic"}]},
        {"need": {"base": 1}, "dice": [{"face": "X", "origin": "star"}]},
        {"need": {"base": 1}, "dice": [{"face": "X", "origin": "star", "parent": 3}]},
        {"need": {"base": 1}, "dice": "X"},
    ],
)
def test_from_dict_rejects_malformed(bad: dict[str, object]) -> None:
    with pytest.raises(MalformedInputError):
        ChallengeRoll.from_dict(bad)


def test_stringifiers() -> None:
    result, _ = roll(3, 1, "X * - O")
    result = result.replace(0, ScriptedDice("O"))
    assert str(result) == "(X)=>O *>O -: 3 successes, 0 flops, net 3 vs 1 needed: success, 2 extra → Momentum +2"
    markdown = MarkdownStringifier().roll(result)
    assert markdown.startswith("~~❌~~ ⇒ 🎯  ⭐→🎯  ⬜")
    assert "**success, 2 extra → Momentum +2**" in markdown


def test_outcome_texts() -> None:
    assert outcome_text(roll(3, 1, "X X O")[0]) == "flop"
    assert outcome_text(roll(3, 2, "X O O")[0]) == "failure"
    assert outcome_text(roll(2, 2, "O O")[0]) == "success, exactly"
    many = roll(9, 1, "O O O O O O O O O")[0]
    assert outcome_text(many) == "success, 8 extra → Momentum +6"


# -- properties ---------------------------------------------------------------------------------

faces_strategy = st.lists(st.sampled_from(list(Face)), max_size=40)


@given(count=st.integers(0, 8), need=st.integers(-3, 8), script=faces_strategy, star2=st.booleans())
def test_any_script_rolls_consistently_or_runs_out(count: int, need: int, script: list[Face], star2: bool) -> None:
    dice = ScriptedDice(script)
    try:
        result = ChallengeRoll.roll(count, need, dice, star2=star2)
    except DiceScriptError:
        return
    counted = result.faces
    per_star = 2 if star2 else 1
    assert result.successes == per_star * counted.count(S) + counted.count(O)
    assert result.flops == counted.count(X)
    assert result.net == result.successes - result.flops
    assert result.flopped == (result.flops > result.successes)
    if not star2:
        # Every star has exactly one die rolled for it.
        for i, d in enumerate(result.dice):
            assert len(result.star_dice(i)) == (1 if d.face is S else 0)
    bands = {Band.FLOP: result.flopped, Band.EXTRA: result.extra > 0}
    assert all(result.band is not band or holds for band, holds in bands.items())
    # Replaying the record rebuilds the same roll.
    assert ChallengeRoll.roll(count, need, ReplayDice(dice.record), star2=star2) == result
    assert ChallengeRoll.from_dict(json.loads(json.dumps(result.to_dict()))) == result
