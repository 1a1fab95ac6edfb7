"""The bot's panels: which controls the deciding coach gets, and what each press means."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest
from builders import P, act, hx, position

from bot.items import PanelButton, PanelSelect, build_view, command_for
from bot.panels import build_post, reroll_odds
from engine import commands as C
from engine.hexes import Direction
from engine.narrate import narrate
from service.matches import Outcome, prompt_for


def outcome(state, *, west=11, east=22, mid=7, version=3, png=None):
    match = SimpleNamespace(id=mid, version=version, west_coach_id=west, east_coach_id=east, seed_commitment="ab" * 32)
    return Outcome(match, state, [], narrate([], state), prompt_for(state), png)  # type: ignore[arg-type]


def items(view):
    """The buttons and selects inside the view's persistent (dynamic) items."""
    return [getattr(i, "item", i) for i in view.children]


def ids(view):
    return [item.custom_id for item in items(view)]


def test_action_panel_offers_legal_steps_and_targets():
    st = position(
        P("w1", "gnolls/hunters", "H12", "E", ball=True),
        P("w2", "gnolls/midfielders", "H14", "W"),
        P("e1", "sarcos/midfielders", "I12", "W"),
        acting="w1", jog=4,
    )
    view = build_view(outcome(st))
    steps = {i.custom_id.split(":")[-1]: i.disabled for i in items(view) if i.custom_id.startswith("elfball:step:")}
    assert set(steps) == {d.name for d in Direction}
    assert steps["E"] is True  # I12 is taken by the opponent
    assert steps["W"] is False
    selects = {i.custom_id.split(":")[1]: i for i in items(view) if isinstance(i, discord.ui.Select)}
    assert {o.value for o in selects["hit"].options} == {"tackle:e1", "shove:e1"}
    assert "flop" in selects["hit"].options[0].description
    assert [o.value for o in selects["throw"].options] == ["H14"]
    assert all(len(cid) <= 100 and ":7:3" in cid for cid in ids(view))


def test_presses_become_the_same_commands_as_the_slash_commands():
    st = position(P("w1", "gnolls/hunters", "H12", "E"), P("e1", "sarcos/midfielders", "I12", "W"), acting="w1", jog=4)
    assert command_for(st, "step", "W", []) == C.Move((hx("G12"),))
    assert command_for(st, "hit", None, ["tackle:e1"]) == C.Tackle("e1")
    assert command_for(st, "hit", None, ["shove:e1"]) == C.Shove("e1")
    assert command_for(st, "throw", None, ["H14"]) == C.Throw(hx("H14"))
    assert command_for(st, "dash", "2", []) == C.Dash(2)
    assert command_for(st, "end", None, []) == C.EndAction()
    assert command_for(st, "reroll", None, ["2", "0"]) == C.Answer((0, 2))
    assert command_for(st, "icpt", None, ["none"]) == C.Answer(None)
    assert command_for(st, "catch", "decline", []) == C.Answer("decline")
    with pytest.raises(ValueError):
        command_for(st, "teleport", None, [])


def test_reroll_question_gets_a_dice_select_with_odds_and_a_keep_button():
    st = position(
        P("w1", "night-elves/strikers", "H12", "E"),
        P("e1", "gnolls/midfielders", "I12", "W"),
        P("e2", "gnolls/strikers", "H11", "SE"),
        acting="w1", jog=6, momentum=(2, "west"),
    )
    res = act(st, C.Move((hx("G13"),)), faces="X - O O")  # Disengage needs 2: net 1, a question
    q = res.state.in_progress.question
    assert q["kind"] == "reroll"
    # Re-rolling the flop alone: kept net 2 already reaches 2 unless the new die flops.
    assert reroll_odds(q, [0]) == pytest.approx(5 / 6)
    view = build_view(outcome(res.state))
    (sel,) = [i for i in items(view) if isinstance(i, discord.ui.Select)]
    assert sel.max_values == 2 and [o.value for o in sel.options] == ["0", "1", "2", "3"]
    assert any(i.custom_id.startswith("elfball:keep:") for i in items(view))
    post = build_post(outcome(res.state))
    assert "<@11>" in post.content and "chance of success" in post.content


def test_the_panel_goes_to_the_deciding_coach_only_and_mentions_him():
    st = position(P("w1", "gnolls/hunters", "H12", "E"), P("e1", "sarcos/midfielders", "N12", "W"), turn="east")
    post = build_post(outcome(st), previous_side="west")
    assert post.mention == 22 and "<@22>" in post.content
    assert post.view is not None and any(isinstance(i, discord.ui.Select) for i in items(post.view))
    ai = build_post(outcome(st, east=0), previous_side="west")
    assert ai.view is None and ai.mention is None  # the AI coach needs no buttons


def test_dynamic_items_rebuild_from_their_custom_ids():
    b = PanelButton("step", 12, 40, "NE", label="NE")
    assert b.item.custom_id == "elfball:step:12:40:NE"
    m = PanelButton.__discord_ui_compiled_template__.fullmatch(b.item.custom_id)
    assert m and m["verb"] == "step" and m["match"] == "12" and m["arg"] == "NE"
    s = PanelSelect("hit", 12, 40, [discord.SelectOption(label="x", value="tackle:e1")])
    assert PanelSelect.__discord_ui_compiled_template__.fullmatch(s.item.custom_id)
    assert not PanelButton.__discord_ui_compiled_template__.fullmatch(s.item.custom_id)


def test_shard_settings_and_which_guilds_a_process_serves():
    from bot.app import ElfballBot, shard_settings

    assert shard_settings("") == {}
    assert shard_settings("0-3/8") == {"shard_ids": [0, 1, 2, 3], "shard_count": 8}
    assert shard_settings("5/8") == {"shard_ids": [5], "shard_count": 8}
    with pytest.raises(SystemExit):
        shard_settings("9-10/8")
    with pytest.raises(SystemExit):
        shard_settings("lots")
    bot = ElfballBot(service=object(), shard_ids=[1], shard_count=2)  # type: ignore[arg-type]
    guild_on_1 = (1 << 22) * 3  # (id >> 22) % 2 == 1
    assert bot.serves(guild_on_1) and not bot.serves(guild_on_1 + (1 << 22))


def test_every_roll_a_press_triggers_shows_its_odds():
    st = position(
        P("w1", "night-elves/strikers", "H12", "E"),
        P("w2", "night-elves/strikers", "H14", "W"),
        P("e1", "gnolls/midfielders", "I12", "W"),  # faces w1: leaving needs a Disengage
        ball="G13",
        acting="w1", jog=6,
    )
    view = build_view(outcome(st))
    labels = {i.custom_id.split(":")[-1]: i.label for i in items(view) if i.custom_id.startswith("elfball:step:")}
    assert "disengage" in labels["W"] and "%" in labels["W"]
    assert "pick-up" in labels["SW"]  # G13 holds the ball
    st.players["w1"].hex, st.ball.hex, st.ball.carrier = hx("H12"), None, "w1"
    view = build_view(outcome(st))
    (throw,) = [i for i in items(view) if isinstance(i, discord.ui.Select) and ":throw:" in i.custom_id]
    assert "on target" in throw.options[0].description and "flop" in throw.options[0].description
