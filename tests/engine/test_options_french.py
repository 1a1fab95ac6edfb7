"""The French 0.0.6 differences (rules-analysis section 3), each a named variant, each shown
against its text with scripted dice, and each shown leaving the English rule alone when off."""

from __future__ import annotations

import dataclasses

import pytest
from support.builders import P, events, hx, need_of, position, refused, rolls
from support.builders import play as act

from engine import commands as C
from engine.options import parse_rules
from engine.state import Location, Phase, Status

FAR_EAST = P("e9", "gnolls/midfielders", "Q17", "W")
EN, FR = "standard", "fr"


def rules(variant: str | None):
    return parse_rules(variant or "")


def contact(rule: str | None, attacker="gnolls/hunters", target="gnolls/hunters", *extra: P, jog=None, momentum=(0, None),
            abilities=(), target_abilities=(), ball=False, target_facing="W", **flags):
    """West's w1 at G12 facing E, acting; east's e1 at H12 facing W."""
    return position(
        P("w1", attacker, "G12", "E", abilities=abilities),
        P("e1", target, "H12", target_facing, ball=ball, abilities=target_abilities),
        FAR_EAST, *extra, ball=None if ball else "Q7", acting="w1", jog=jog, momentum=momentum, options=rules(rule), **flags,
    )


class TestChallengesCostNoJog:
    """FR 1: "Tenter un défi ne consomme aucun point de mouvement et vous pouvez tenter des
    défis après avoir utilisé le dernier point de mouvement"."""

    def test_a_challenge_costs_nothing(self):
        assert act(contact("fr_challenges_free", jog=2), C.Shove("e1"), faces="- - -").state.action.jog_left == 2
        assert act(contact(None, jog=2), C.Shove("e1"), faces="- - -").state.action.jog_left == 1

    def test_challenges_after_the_last_pace(self):
        st = act(contact("fr_challenges_free", jog=0), C.Shove("e1"), faces="- - -").state
        assert act(st, C.Shove("e1"), faces="- - -").state.phase is Phase.ACTION
        st = act(contact(None, jog=0), C.Shove("e1"), faces="- - -").state
        refused(st, C.Shove("e1"), match="free last challenge")


class TestShoveLimit:
    """FR 2-3: "Le nombre de Pousser est limité à la moitié de votre Mouvement (arrondi
    supérieur)"."""

    def test_half_his_jog_rounded_up(self):
        st = contact("fr_shove_limit", jog=6)  # a Jog 6 Hunter: 3 Shoves
        for _ in range(3):
            st = act(st, C.Shove("e1"), faces="- - -").state
        refused(st, C.Shove("e1"), match="3 Shoves an action")

    def test_no_limit_in_english(self):
        st = contact(None, jog=6)
        for _ in range(4):
            st = act(st, C.Shove("e1"), faces="- - -").state
        assert st.action.shoves == 4


class TestFailedShovePace:
    """FR 4: "La poussée échoue. L'adversaire ne bouge pas. Vous perdez un point de mouvement
    pour continuer à bouger ou tenter un autre défi"."""

    def test_the_next_step_costs_a_pace_more(self):
        st = act(contact("fr_failed_shove_pace", jog=5), C.Shove("e1"), faces="- - -").state
        assert st.action.surcharge
        assert act(st, C.Move((hx("F12"),)), faces="O O O").state.action.jog_left == 2

    def test_english_no_pace(self):
        st = act(contact(None, jog=5), C.Shove("e1"), faces="- - -").state
        assert not st.action.surcharge

    def test_a_successful_shove_costs_nothing_more(self):
        st = act(contact("fr_failed_shove_pace", jog=5), C.Shove("e1"), faces="O O -").state
        assert not st.action.surcharge


class TestFrenchDash:
    """FR 5: "1. Vous déplacez d'un hexagone supplémentaire ... (pas d'autre défi que Désengager
    ou Ramasser). Ou 2. Exécutez un seul Défi avec un dé supplémentaire. Si vous avez déjà
    utilisé toutes vos Poussées et/ou Plaquage, vous pouvez en exécuter un autre mais sans dés
    en bonus"."""

    def dashed(self, rule, **kw):
        st = contact(rule, jog=0, momentum=(2, "west"), target_facing="E", **kw)
        return act(st, C.Dash(2), faces="O -").state

    def test_the_hex_then_nothing_more(self):
        st = act(self.dashed("fr_dash"), C.Move((hx("G13"),))).state
        assert st.action.dash == "done"
        refused(st, C.Shove("e1"), match="Dash's challenge")

    def test_english_the_hex_then_a_challenge(self):
        st = act(self.dashed(None), C.Move((hx("G13"),))).state
        assert act(st, C.Shove("e1"), faces="- - -").state.action.dash == "done"

    def test_one_challenge_with_an_extra_die(self):
        res = act(self.dashed("fr_dash"), C.Shove("e1"), faces="- - - -")
        (sh,) = rolls(res, "shove")
        assert len(sh["roll"]["dice"]) == 4  # Might 3 and the Dash's die
        assert len(rolls(act(self.dashed(None), C.Shove("e1"), faces="- - -"), "shove")[0]["roll"]["dice"]) == 3

    def test_another_tackle_but_no_bonus_die(self):
        st = self.dashed("fr_dash", impact_tackle_used=True)
        (tk,) = rolls(act(st, C.Tackle("e1"), faces="- - - -"), "tackle")
        assert len(tk["roll"]["dice"]) == 4  # his Tackle 4, no extra die
        refused(self.dashed(None, impact_tackle_used=True), C.Tackle("e1"), match="once per action")

    def test_the_coach_puts_the_die_on_the_impact_or_the_tackle(self):
        st = self.dashed("fr_dash", target="desert-dogs/defender")  # Might 4 against 3: an Impact first
        res = act(st, C.Tackle("e1"), faces="O O O -  - - - -", answers=["impact", []])
        assert len(rolls(res, "impact")[0]["roll"]["dice"]) == 4 and len(rolls(res, "tackle")[0]["roll"]["dice"]) == 4
        res = act(st, C.Tackle("e1"), faces="O O O  - - - - -", answers=["tackle", []])
        assert len(rolls(res, "impact")[0]["roll"]["dice"]) == 3 and len(rolls(res, "tackle")[0]["roll"]["dice"]) == 5


class TestStandingUp:
    """FR 6: "Vous ne pouvez relever qu'un joueur par tour. Vous ne pouvez pas vous relever
    après un RdS"."""

    def down(self, rule):
        return position(P("w1", "gnolls/hunters", "G12", status="down"), FAR_EAST, acting="w1", jog=6, options=rules(rule))

    def test_one_stand_up_a_turn(self):
        st = self.down("fr_stand_up")
        st.turn_stood = True
        refused(st, C.StandUp(), match="one player may stand up each turn")
        assert act(self.down("fr_stand_up"), C.StandUp()).state.turn_stood

    def test_none_after_a_shift_in_momentum(self):
        st = self.down("fr_stand_up")
        st.turn_after_sim = True
        refused(st, C.StandUp(), match="Shift in Momentum")

    def test_english_no_limit(self):
        st = self.down(None)
        st.turn_stood = st.turn_after_sim = True
        assert act(st, C.StandUp()).state.players["w1"].standing

    def test_a_turn_after_a_shift_is_marked(self):
        st = position(P("w1", "gnolls/hunters", "G12"), P("e1", "gnolls/hunters", "H12", "W"),
                      P("e2", "gnolls/hunters", "Q16", "W"), acting="w1", options=rules("fr_stand_up"))
        res = act(st, C.Shove("e1"), faces="X X X")
        assert res.state.turn_side == "east" and res.state.turn_after_sim


class TestFailedDisengage:
    """FR 7: "Nombre de succès insuffisant: Joueur à terre. RdS"."""

    def test_a_failure_shifts_momentum(self):
        res = act(contact("fr_failed_disengage_sim"), C.Move((hx("F12"),)), faces="O - -")  # needs 2
        assert res.state.players["w1"].status is Status.DOWN
        assert res.state.turn_side == "east" and events(res, "momentum_shifted")

    def test_english_down_and_the_action_goes_on(self):
        res = act(contact(None), C.Move((hx("F12"),)), faces="O - -")
        assert res.state.players["w1"].status is Status.DOWN and res.state.phase is Phase.ACTION


class TestCatchFootnote:
    """FR 12: "RdS si l'échec a lieu pendant votre tour ou si un adversaire récupère la balle à
    la fin de l'action"; the French Momentum list: "Aucune réception de l'un de vos joueurs après
    un lancer"."""

    def throw(self, rule, faces, d6="", edition=None):
        st = position(P("w1", "gnolls/hunters", "G12", ball=True), FAR_EAST, acting="w1", options=rules(rule))
        if edition is not None:
            st.options = dataclasses.replace(st.options, edition=edition)
        return act(st, C.Throw(hx("D12")), faces=faces, d6=d6)

    def test_an_accurate_throw_to_the_ground_shifts_as_the_momentum_list_says(self):
        res = self.throw("fr_catch_sim", "O O")  # a perfect spiral onto an empty hex
        assert events(res, "momentum_shifted") and res.state.turn_side == "east"

    def test_edition_1_matches_replay_the_old_reading(self):
        res = self.throw("fr_catch_sim", "O O", edition=1)
        assert not events(res, "momentum_shifted") and res.state.phase is Phase.ACTION

    def test_english_it_is(self):
        assert events(self.throw(None, "O O"), "momentum_shifted")

    def test_a_miss_still_shifts(self):
        res = self.throw("fr_catch_sim", "- -", d6="1 2")
        assert events(res, "momentum_shifted")


class TestInjuryTable:
    """FR 18: one table, "Échec" career-ending and 0 a lasting injury in every game."""

    @pytest.mark.parametrize("rule", ["fr_injury_table", None])
    def test_a_flop_is_career_ending_even_in_a_basic_game(self, rule):
        st = contact(rule, "gnolls/hunters", "gnolls/strikers", ball=True)  # needs 2
        res = act(st, C.Tackle("e1"), faces="* O O O  O  X X", d6="1")  # 5 successes: Crippling; Grit 2 flops
        assert res.state.players["e1"].location is Location.INFIRMARY
        recorded = events(res, "injury_recorded")
        assert (recorded[0]["outcome"] == "career_ending") if rule else not recorded


class TestScorerXp:
    """FR 28: "donnez deux points au buteur et un point à tous les autres joueurs"."""

    @pytest.mark.parametrize("rule,scorer", [("fr_scorer_xp advanced", 2), ("advanced", 1)])
    def test_the_scorer(self, rule, scorer):
        st = position(P("w1", "gnolls/hunters", "S12", ball=True), P("w2", "gnolls/hunters", "G16"), FAR_EAST,
                      acting="w1", options=rules(rule))
        st = act(act(st, C.Move((hx("T12"),))).state, C.EndAction()).state
        assert (st.players["w1"].xp, st.players["w2"].xp) == (scorer, 1)


class TestSlippery:
    """FR 33: "Ce joueur peut ignorer les modifications provoquées par les joueurs adverse pour
    tous les défis utilisant l'attribut Esquive"."""

    def surrounded(self, rule):
        return position(
            P("w1", "gnolls/strikers", "G12", "E", abilities=("slippery",)), P("e1", "gnolls/strikers", "H12", "W"),
            P("e2", "gnolls/strikers", "G11", "SW"), P("e3", "gnolls/strikers", "G13", "NW"),
            acting="w1", options=rules(rule),
        )

    def test_every_opponent_ignored(self):
        # Tackle 2 - 2 = 0, +2 more opponents: all ignored, 0 or less, he gets away unrolled.
        res = act(self.surrounded("fr_slippery"), C.Move((hx("F12"),)))
        assert not rolls(res) and res.state.players["w1"].hex == hx("F12")

    def test_english_one_opponent(self):
        res = act(self.surrounded(None), C.Move((hx("F12"),)), faces="O - - -")
        assert need_of(rolls(res, "disengage")[0]) == 1


class TestRally:
    """FR 34: "Ce joueur n'est jamais mit au sol sur un résultat à terre"."""

    @pytest.mark.parametrize("rule,standing", [("fr_rally", True), (None, False)])
    def test_a_solid_hit(self, rule, standing):
        st = contact(rule, "gnolls/hunters", "gnolls/midfielders", target_abilities=("rally",))  # needs 2
        res = act(st, C.Tackle("e1"), faces="O O O -")
        assert res.state.players["e1"].standing is standing
        assert bool(events(res, "ability_used")) is standing


class TestPummel:
    """FR 35: "Ce joueur peut choisir de lancer jusqu'à trois dés de moins sur un Défi Plaquer.
    Si le résultat du défi demande un défi de blessure, sur ce défi de blessure il peut
    supprimer un succès pour chaque dé qu'il a enlevé du défi Plaquer"."""

    def test_two_dice_fewer_two_successes_off(self):
        st = contact("fr_pummel", "gnolls/hunters", "deadlings/zombies-skeletons", abilities=("pummel",))
        res = act(st, C.Tackle("e1", "pummel"), faces="* * O O  O O O O - -", answers=[2])
        (tk,) = rolls(res, "tackle")
        assert len([d for d in tk["roll"]["dice"]]) == 4 and tk["attribute"] == "tackle"  # 2 dice and their stars' re-rolls
        (inj,) = rolls(res, "injury")
        assert inj["net"] == 2 and res.state.players["e1"].location is Location.RECOVERY  # 4 successes, 2 taken off

    def test_the_question_offers_up_to_three(self):
        st = contact("fr_pummel", "gnolls/hunters", "deadlings/zombies-skeletons", abilities=("pummel",))
        res = act(st, C.Tackle("e1", "pummel"), pending=True)
        assert res.state.in_progress.question["options"] == [0, 1, 2, 3]


class TestPlough:
    """FR 36: "Ce joueur peut utiliser un Temps fort au lieu du Mouvement"."""

    @pytest.mark.parametrize("rule,asked", [("fr_plough", True), (None, False)])
    def test_no_jog_needed(self, rule, asked):
        st = contact(rule, jog=0, momentum=(1, "west"), abilities=("plough",))
        res = act(st, C.Shove("e1"), faces="O O O", answers=[[]], pending=asked)
        if asked:
            res = act(res.state, C.Answer("plough"))
            assert res.state.players["w1"].hex == hx("H12") and res.state.action.jog_left == 0
