"""Odds before a roll (engine.preview) match the needs the engine then rolls against."""

from __future__ import annotations

import pytest
from support.builders import P, act, hx, position, rolls

from engine import commands as C
from engine.dice.odds import odds
from engine.preview import contact_previews, reroll_chance, step_previews, throw_preview, worst_dice
from service.dice import free_roll


def _need(r):
    n = r["roll"]["need"]
    return max(1, n["base"] + sum(m["value"] for m in n["modifiers"]))


def test_step_preview_is_the_disengage_and_pickup_the_engine_rolls():
    st = position(
        P("w1", "night-elves/strikers", "H12", "E"),
        P("e1", "gnolls/midfielders", "I12", "W"),
        P("e2", "gnolls/strikers", "F12", "E"),  # faces G12, where the ball lies
        ball="G12", acting="w1", jog=6,
    )
    dis, pick = step_previews(st, hx("G12"))
    assert (dis.challenge, pick.challenge) == ("disengage", "pickup")
    res = act(st, C.Move((hx("G12"),)), faces="O O - -  O O - -", answers=[()])  # keep the pick-up roll
    got = {r["challenge"]: _need(r) for r in rolls(res)}
    assert got == {"disengage": dis.need, "pickup": pick.need} == {"disengage": 1, "pickup": 2}
    assert pick.success == pytest.approx(odds(4, 2).success)


def test_contact_and_throw_previews_match_the_rolls():
    st = position(
        P("w1", "gnolls/hunters", "H12", "E", ball=True),
        P("w2", "gnolls/midfielders", "H14", "W"),
        P("e1", "middle-kingdoms/ogres-cyclops-minotaurs", "I12", "W"),
        acting="w1", jog=6,
    )
    impact, tackle = contact_previews(st, st.players["w1"], st.players["e1"], "tackle")
    assert impact.challenge == "impact" and tackle.challenge == "tackle"
    (shove,) = contact_previews(st, st.players["w1"], st.players["e1"], "shove")
    res = act(st, C.Shove("e1"), faces="- - -")
    assert _need(rolls(res, "shove")[0]) == shove.need
    tp = throw_preview(st, hx("H14"))
    res = act(st, C.Throw(hx("H14")), faces="X -", d6="2")
    assert _need(rolls(res, "throw")[0]) == tp.need


def test_reroll_chance_and_the_worst_dice():
    q = {"roll": {"need": {"base": 2, "modifiers": []}, "star2": False,
                  "dice": [{"face": "X"}, {"face": "-"}, {"face": "O"}, {"face": "O"}]},
         "eligible": [0, 1, 2, 3], "max": 2}
    assert worst_dice(q) == [0, 1]
    # Keeping the two hits (net 2), two fresh dice must not net below 0: they do with
    # probability 1/36 (two flops) + 2 x 1/6 x 13/36 (a flop and a die netting 0) = 32/216.
    assert reroll_chance(q, [0, 1]) == pytest.approx(184 / 216)
    assert reroll_chance(q, [0]) == pytest.approx(5 / 6)


def test_free_roll_repeats_from_its_seed():
    a, seed = free_roll(4, 2)
    b, _ = free_roll(4, 2, seed=seed)
    assert a.to_dict() == b.to_dict()
