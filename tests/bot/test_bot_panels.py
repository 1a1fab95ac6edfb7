"""The bot's panels: which controls the deciding coach gets, and what each press means."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest
from support.builders import P, act, hx, position

from bot.play.items import PanelButton, PanelSelect, build_view, command_for
from bot.play.panels import build_post, reroll_odds
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


# --- Advanced rules: generic questions, and the controls the engine's candidates light up -------
from engine.state import InProgress, Phase  # noqa: E402


def asking(state, kind, side="west", **fields):
    state.in_progress = InProgress({"name": "end_action"}, side, question={"kind": kind, "side": side, **fields})
    return state


class Offering:
    """The engine's legal commands plus ``extra`` ones: the candidates the Advanced rules add
    after the merge, so the panel can be checked against their shape now."""

    def __init__(self, real, extra):
        self.real, self.extra = real, list(extra)

    def of(self, kind):
        return self.real.of(kind) + [c for c in self.extra if isinstance(c, kind)]

    def __contains__(self, c):
        return c in self.real or c in self.extra

    def __iter__(self):
        return iter([*self.real, *self.extra])

    def __bool__(self):
        return True


def offering(monkeypatch, *extra):
    import bot.play.items as items_module

    real = items_module.legal_commands
    monkeypatch.setattr(items_module, "legal_commands", lambda st, side, *a: Offering(real(st, side, *a), extra))


def by_prefix(view, prefix):
    return [i for i in items(view) if i.custom_id.startswith(prefix)]


def test_a_question_with_few_options_gets_a_readable_button_each():
    st = position(P("w1", "gnolls/hunters", "H12", "E"), P("e1", "sarcos/midfielders", "I12", "W"), acting="w1", jog=4)
    asking(st, "bankshot_distance", player="w1", ability="bankshot", rolled=3, options=[-1, 0, 1], default=0)
    view = build_view(outcome(st))
    buttons = by_prefix(view, "elfball:opt:")
    assert [b.label for b in buttons] == ["-1", "0", "+1"]
    assert buttons[1].style is discord.ButtonStyle.secondary  # the "do nothing" default
    assert command_for(st, "opt", "0", []) == C.Answer(-1)
    asking(st, "bankshot_direction", options=["NE", "E", None], default=None)  # None: roll it as usual
    labels = [b.label for b in by_prefix(build_view(outcome(st)), "elfball:opt:")]
    assert labels == ["↗ NE", "→ E", "Roll"]
    assert command_for(st, "opt", "2", []) == C.Answer(None)
    asking(st, "potion_veteran", options=["agile+focused", "agile+bankshot"], default="agile+focused")
    assert [b.label for b in by_prefix(build_view(outcome(st)), "elfball:opt:")] == ["Agile + Focused", "Agile + Bankshot"]
    asking(st, "clipping_retry", options=["retry", "stay"], default="stay", player="w1")
    assert command_for(st, "opt", "0", []) == C.Answer("retry")
    with pytest.raises(ValueError):
        command_for(st, "opt", "7", [])


def test_a_question_with_many_options_gets_a_select_with_names():
    st = position(P("w1", "gnolls/hunters", "H12", "E"), P("e1", "sarcos/midfielders", "I12", "W"), acting="w1", jog=4)
    basics = ["steady", "buff", "grapple", "nimble", "agile", "resilient"]
    asking(st, "potion_ability", options=basics, default="steady", player="w1")
    (sel,) = [i for i in items(build_view(outcome(st))) if isinstance(i, discord.ui.Select)]
    assert [o.label for o in sel.options] == ["Steady", "Buff", "Grapple", "Nimble", "Agile", "Resilient"]
    assert command_for(st, "opt", None, ["4"]) == C.Answer("agile")
    asking(st, "pick", options=["w1", "e1", None, "w1", "e1", None], default=None)
    (sel,) = [i for i in items(build_view(outcome(st))) if isinstance(i, discord.ui.Select)]
    assert sel.options[0].label.startswith("Hunter") and "H12" in sel.options[0].label
    assert sel.options[2].label == "None"


def test_an_ability_reroll_is_a_dice_select_like_momentums():
    st = position(
        P("w1", "night-elves/strikers", "H12", "E"),
        P("e1", "gnolls/midfielders", "I12", "W"),
        P("e2", "gnolls/strikers", "H11", "SE"),
        acting="w1", jog=6, momentum=(2, "west"),
    )
    res = act(st, C.Move((hx("G13"),)), faces="X - O O")
    q = dict(res.state.in_progress.question, kind="ability_reroll", ability="nimble", max=1)
    res.state.in_progress.question = q
    view = build_view(outcome(res.state))
    (sel,) = [i for i in items(view) if isinstance(i, discord.ui.Select)]
    assert sel.max_values == 1 and sel.options[0].label == "Die 0: flop" and "Nimble" in sel.placeholder
    assert any(i.custom_id.startswith("elfball:keep:") for i in items(view))
    assert command_for(res.state, "reroll", None, ["0"]) == C.Answer((0,))


def test_the_action_panel_offers_cheer_sprint_tackle_abilities_and_paid_steps(monkeypatch):
    st = position(
        P("w1", "gnolls/hunters", "H12", "E", ball=True),
        P("w2", "gnolls/midfielders", "H14", "W"),
        P("w3", "gnolls/midfielders", "F12", "W"),
        P("e1", "sarcos/midfielders", "I12", "W"),
        acting="w1", jog=4, momentum=(2, "west"),
    )
    offering(monkeypatch, C.Cheer(), C.Dash(sprint=True), C.Tackle("e1", "cutblock"), C.Tackle("e1", "steal"),
             C.Move((hx("H11"),), None, "beeline"), C.Move((hx("F11"),), None, "swarm", "w3"))
    view = build_view(outcome(st))  # Discord refuses a sixth item in a row: building it checks the layout
    assert len(items(view)) <= 25
    labels = {i.label for i in items(view) if isinstance(i, discord.ui.Button)}
    assert {"Cheer (+1 Momentum)", "Sprint", "Dash (1)", "Dash (2)"} <= labels
    selects = {i.custom_id.split(":")[1]: i for i in items(view) if isinstance(i, discord.ui.Select)}
    hit = {o.value: o.label for o in selects["hit"].options}
    assert hit["tackle:e1:cutblock"].startswith("Cutblock") and hit["tackle:e1:steal"].startswith("Steal")
    assert {"tackle:e1", "shove:e1"} <= set(hit) and "throw" in selects
    # Hits and throws hold rows 3 and 4: the paid steps wait for /move.
    assert "abil" not in selects
    assert command_for(st, "hit", None, ["tackle:e1:steal"]) == C.Tackle("e1", "steal")
    assert command_for(st, "sprint", None, []) == C.Dash(sprint=True)
    assert command_for(st, "cheer", None, []) == C.Cheer()
    # Without a ball to throw the paid steps get the free row.
    st.ball.carrier, st.ball.hex = None, hx("K12")
    view = build_view(outcome(st))
    selects = {i.custom_id.split(":")[1]: i for i in items(view) if isinstance(i, discord.ui.Select)}
    paid = {o.value: o.label for o in selects["abil"].options}
    assert paid == {"beeline::H11": "Beeline: ↗ NE to H11", "swarm:w3:F11": "Swarm: Midfielder w3 ↗ NE to F11"}
    assert command_for(st, "abil", None, ["swarm:w3:F11"]) == C.Move((hx("F11"),), None, "swarm", "w3")
    assert command_for(st, "abil", None, ["beeline::H11"]) == C.Move((hx("H11"),), None, "beeline")
    # An ability step is not a Jog step: the step button stays as Jog allows.
    steps = {i.custom_id.split(":")[-1]: i.disabled for i in by_prefix(view, "elfball:step:")}
    assert steps["NE"] is False


def test_after_a_sim_the_turn_panel_offers_quickling_taunt_react_potions_and_the_wizard(monkeypatch):
    st = position(
        P("w1", "gnolls/hunters", "H12", "E"),
        P("w2", "gnolls/hunters", "H14", "E"),
        P("w9", "gnolls/hunters", None),
        P("e1", "sarcos/midfielders", "K12", "W"),
        turn="west", momentum=(3, "west"),
    )
    offering(monkeypatch, C.Quickling("w1"), C.Taunt("w2", "e1", 2), C.Move((hx("I13"),), None, "react", "w2"),
             C.DrinkPotion("w9"), C.CastSpell("system_shock", "e1"), C.CastSpell("inferno", None, hx("K12")), C.Cheer())
    view = build_view(outcome(st))
    selects = {i.custom_id.split(":")[1]: i for i in items(view) if isinstance(i, discord.ui.Select)}
    assert set(selects) == {"act", "ooc", "potion", "spell"}
    ooc = {o.value: o.label for o in selects["ooc"].options}
    assert ooc["quickling:w1"].startswith("Quickling: Hunter w1")
    assert ooc["taunt:w2:e1:2"].startswith("Taunt: Hunter w2 → Midfielder e1 (2 counters)")
    assert "react:w2:I13" in ooc
    assert [o.label for o in selects["spell"].options] == ["System Shock on Midfielder e1", "Inferno at K12"]
    assert any(i.label == "Cheer (+1 Momentum)" for i in items(view) if isinstance(i, discord.ui.Button))
    assert command_for(st, "ooc", None, ["quickling:w1"]) == C.Quickling("w1")
    assert command_for(st, "ooc", None, ["taunt:w2:e1:2"]) == C.Taunt("w2", "e1", 2)
    assert command_for(st, "ooc", None, ["react:w2:I13"]) == C.Move((hx("I13"),), None, "react", "w2")
    assert command_for(st, "potion", None, ["w9"]) == C.DrinkPotion("w9")
    assert command_for(st, "spell", None, ["system_shock:e1:"]) == C.CastSpell("system_shock", "e1")
    assert command_for(st, "spell", None, ["inferno::K12"]) == C.CastSpell("inferno", None, hx("K12"))


def test_a_potion_before_the_set_up(monkeypatch):
    st = position(P("w1", "gnolls/hunters", None), P("e1", "sarcos/midfielders", None), phase=Phase.SETUP)
    st.setup_side = "west"
    offering(monkeypatch, C.DrinkPotion("w1"))
    view = build_view(outcome(st))
    (sel,) = [i for i in items(view) if isinstance(i, discord.ui.Select)]
    assert sel.custom_id.startswith("elfball-select:potion:") and "Hunter w1" in sel.options[0].label
    assert {b.label for b in items(view) if isinstance(b, discord.ui.Button)} == {"Auto set-up", "Done"}


# --- Advanced rules from real positions: the engine offers it, the panel shows it, a press works --
from engine.dice import ScriptedDice  # noqa: E402
from engine.match import apply, check, pending  # noqa: E402


def press(state, verb, arg=None, values=(), faces="", d6=(), keep=False):
    """The command a press gives, checked and applied like any other (with scripted dice);
    ``keep`` then presses "Keep the roll" on every re-roll offer that follows."""
    cmd = command_for(state, verb, arg, list(values))
    side = pending(state).side
    check(state, cmd, by=side)
    res = apply(state, cmd, ScriptedDice(faces=faces, d6=list(d6)), by=side)
    while keep and res.state.in_progress is not None and "eligible" in res.state.in_progress.question:
        res = press(res.state, "keep")
    return res


def selects(view):
    return {i.custom_id.split(":")[1]: i for i in items(view) if isinstance(i, discord.ui.Select)}


def labels(view):
    return [i.label for i in items(view) if isinstance(i, discord.ui.Button)]


def test_a_real_action_offers_cheer_sprint_paid_steps_then_cutblock():
    """A Hunter with Sprinter, Cutblock and Beeline at the start of his action: Cheer, Sprint,
    the Dash and a Beeline step toward the opposing carrier; after a step, a Cutblock on the
    stronger Defender beside him."""
    st = position(
        P("w1", "gnolls/hunters", "F12", "E", abilities=("steady", "sprinter", "cutblock", "beeline")),
        P("e1", "desert-dogs/defender", "H12", "W"),
        P("e2", "gnolls/strikers", "J9", "W", ball=True),
        acting="w1", momentum=(1, "west"), support={"west": {"cheerleaders": 2}},
    )
    view = build_view(outcome(st))
    assert {"Cheer (+1 Momentum)", "Sprint", "Dash (1)"} <= set(labels(view))
    paid = {o.value: o.label for o in selects(view)["abil"].options}
    assert paid["beeline::F11"] == "Beeline: ↗ NE to F11"
    assert press(st, "abil", None, ["beeline::F11"]).state.players["w1"].hex == hx("F11")
    st = press(st, "cheer").state
    assert st.momentum == 2 and st.teams["west"].used["cheerleaders"] == 1
    assert "Cheer (+1 Momentum)" in labels(build_view(outcome(st)))  # the second Cheerleader
    st = press(st, "step", "E").state  # G12, beside the Defender: no more Cheers
    view = build_view(outcome(st))
    assert "Cheer (+1 Momentum)" not in labels(view)
    hit = {o.value: o.label for o in selects(view)["hit"].options}
    assert hit["tackle:e1:cutblock"] == "Cutblock Defender e1"  # Might 4 against 3, after moving
    res = press(st, "hit", None, ["tackle:e1:cutblock"], faces="O O - -", keep=True)
    assert res.state.players["e1"].status.value == "down" and res.state.players["w1"].status.value == "down"


def test_a_real_sprint_button_dashes_with_jog_dice():
    st = position(P("w1", "gnolls/hunters", "F12", "E", abilities=("steady", "sprinter")),
                  P("e9", "gnolls/midfielders", "Q17", "W"), ball="Q7", acting="w1", jog=0, moved=True)
    assert "Sprint" in labels(build_view(outcome(st)))
    res = press(st, "sprint", faces="O O - - - -", keep=True)  # Jog 6 dice, need 2 (G46)
    assert res.state.action.dash == "granted" and res.state.action.sprints == 1


def test_a_real_steal_entry_takes_the_ball():
    st = position(P("w1", "gnolls/strikers", "G12", "E", abilities=("steal",)),
                  P("e1", "desert-dogs/defender", "H12", "W", ball=True), P("e9", "gnolls/midfielders", "Q17", "W"),
                  acting="w1")
    hit = {o.value: o.label for o in selects(build_view(outcome(st)))["hit"].options}
    assert hit["tackle:e1:steal"] == "Steal Defender e1" and "tackle:e1" in hit
    assert press(st, "hit", None, ["tackle:e1:steal"], faces="O O").state.ball.carrier == "w1"


def after_a_real_sim():
    """East's Striker fails a Pick-up and keeps the roll: west's turn after the Shift, with an
    Imp with Quickling and Taunt, a Safety with React, a Hunter on the Bench, a potion and a wizard."""
    st = position(
        P("w3", "night-elves/imps", "G14", "E", abilities=("taunt", "quickling")),
        P("w5", "gnolls/safeties", "G12", "E", abilities=("react",)),
        P("w9", "gnolls/hunters"),
        P("e1", "gnolls/strikers", "K12", "E"),
        ball="J12", acting="e1", momentum=(3, "east"), support={"west": {"potions": 1, "wizard": 1}},
    )
    src = ScriptedDice(faces="- - - -", d6=[5])
    res = apply(st, C.Move((hx("J12"),)), src, by="east")
    res = apply(res.state, C.Answer(()), src, by="east")
    assert res.state.after_sim and res.state.turn_side == "west" and res.state.momentum == 3
    return res.state


def test_after_a_real_sim_the_turn_panel_offers_quickling_taunt_react_potion_and_spells():
    st = after_a_real_sim()
    view = build_view(outcome(st))
    sel = selects(view)
    assert {"act", "ooc", "potion", "spell"} <= set(sel)
    ooc = {o.value: o.label for o in sel["ooc"].options}
    assert ooc["quickling:w3"] == "Quickling: Imp w3 acts with double Momentum"
    assert ooc["taunt:w3:e1:2"] == "Taunt: Imp w3 → Striker e1 (2 counters)"
    assert ooc["react:w5:G11"] == "React: Safety w5 ↗ NE to G11"
    assert [o.value for o in sel["potion"].options] == ["w9"]
    spells = {o.label for o in sel["spell"].options}
    assert "System Shock on Striker e1" in spells and "Transformation of Imp w3" in spells
    assert press(st, "ooc", None, ["react:w5:G11"]).state.players["w5"].hex == hx("G11")
    doubled = press(st, "ooc", None, ["quickling:w3"]).state
    assert doubled.momentum == 6
    assert [o.value for o in selects(build_view(outcome(doubled)))["act"].options] == ["w3"]  # he must act
    res = press(press(st, "ooc", None, ["taunt:w3:e1:2"], faces="O -").state, "keep")  # the third counter stays
    assert res.state.in_progress.question["kind"] == "taunt_facing"  # exactly between two sides
    assert labels(build_view(outcome(res.state))) == ["↙ SW", "← W"]
    assert press(res.state, "opt", "1").state.players["e1"].facing is Direction.W
    res = press(st, "potion", None, ["w9"], faces="- O")  # a bit of a boost: a General Basic ability
    (sel,) = [i for i in items(build_view(outcome(res.state))) if isinstance(i, discord.ui.Select)]
    agile = next(o.value for o in sel.options if o.label == "Agile")
    assert press(res.state, "opt", None, [agile]).state.players["w9"].potion_abilities == ("agile",)
    res = press(st, "spell", None, ["system_shock:e1:"], faces="O O - - -", keep=True)  # Skill 5, need Might 3 - 1
    assert res.state.players["e1"].status.value == "down" and res.state.teams["west"].used["wizard"] == 1


def test_a_real_ability_reroll_is_a_dice_select():
    st = position(P("w1", "gnolls/strikers", "G12", "E", abilities=("agile",)), P("e9", "gnolls/midfielders", "Q17", "W"),
                  ball="H12", acting="w1")
    res = apply(st, C.Move((hx("H12"),)), ScriptedDice(faces="X - - -"), by="west")
    assert res.state.in_progress.question["kind"] == "ability_reroll"
    view = build_view(outcome(res.state))
    (sel,) = [i for i in items(view) if isinstance(i, discord.ui.Select)]
    assert sel.placeholder == "Use Agile: re-roll up to 1 dice" and sel.options[0].label == "Die 0: flop"
    assert "Keep the roll" in labels(view)
    assert press(res.state, "reroll", None, ["0"], faces="O").state.ball.carrier == "w1"


def test_real_bankshot_clipping_plough_and_keg_questions_get_buttons():
    # Bankshot: the direction (None rolls it, as "Roll"), then the distance.
    st = position(P("w1", "gnolls/strikers", "P7", "W", ball=True, abilities=("bankshot",)),
                  P("w2", "gnolls/midfielders", "L5", "W"), P("e9", "gnolls/midfielders", "Q17", "W"), acting="w1")
    res = apply(st, C.Throw(hx("G7")), ScriptedDice(faces="O O O O"), by="west")
    assert labels(build_view(outcome(res.state))) == ["↗ NE", "→ E", "↘ SE", "Roll"]
    res = press(res.state, "opt", "0", d6=[3])
    assert labels(build_view(outcome(res.state))) == ["-1", "0", "+1"]
    assert press(res.state, "opt", "0").state.ball.carrier == "w2"
    # Clipping: retry for a pace, or stay.
    st = position(P("w1", "gnolls/strikers", "G12", "E"), P("e1", "desert-dogs/defender", "H12", "W", abilities=("clipping",)),
                  P("e9", "gnolls/midfielders", "Q17", "W"), ball="Q7", acting="w1")
    res = apply(st, C.Move((hx("F12"),)), ScriptedDice(faces="O - - -"), by="west")
    assert labels(build_view(outcome(res.state))) == ["Retry", "Stay"]
    assert press(res.state, "opt", "0", faces="O O - -  O O - -").state.players["w1"].hex == hx("F12")
    # Plough: follow the shoved opponent for a counter and a pace.
    st = position(P("w1", "middle-kingdoms/ogres-cyclops-minotaurs", "G12", "E", abilities=("plough",)),
                  P("e1", "gnolls/strikers", "H12", "W"), P("e9", "gnolls/midfielders", "Q17", "W"),
                  ball="Q7", acting="w1", momentum=(1, "west"))
    res = apply(st, C.Shove("e1"), ScriptedDice(faces="O - - - -"), by="west")
    res = press(res.state, "keep")
    assert labels(build_view(outcome(res.state))) == ["Plough", "Stay"]
    assert press(res.state, "opt", "0").state.players["w1"].hex == hx("H12")
    # A Keg: the injured player's coach (east) gets the buttons.
    st = position(P("w1", "gnolls/hunters", "G12", "E"), P("e1", "gnolls/midfielders", "H12", "W"),
                  P("e9", "gnolls/midfielders", "Q17", "W"), ball="Q7", acting="w1", support={"east": {"kegs": 2}})
    res = apply(st, C.Tackle("e1"), ScriptedDice(faces="O O O O  O O - - - -"), by="west")
    post = build_post(outcome(res.state))
    assert post.mention == 22 and labels(post.view)[:2] == ["Use", "Keep"]
    res = press(res.state, "opt", "0")  # use one: 3 successes, the Bench; the second is offered too
    assert labels(build_view(outcome(res.state)))[:2] == ["Use", "Keep"]
    res = press(res.state, "opt", "1")
    assert res.state.teams["east"].used["kegs"] == 1 and res.state.players["e1"].location.value == "sent_off"
