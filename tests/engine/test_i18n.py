"""Languages: every catalogue has every key in English and French with the same placeholders,
the engine's free-text phrases all have a French version, and a match reads in both languages."""

from __future__ import annotations

import json
import random
import re
from importlib import resources

import pytest
from support.builders import P, act, hx, position

from engine import commands as C
from engine import events as E
from engine.abilities import ABILITIES
from engine.dice import ScriptedDice, SeededDice
from engine.fuzz import RandomCoach
from engine.field import standard_field
from engine.hexes import Hex
from engine.i18n import LANGUAGES, language_of, load, phrase, placeholders
from engine.match import TeamEntry, apply, new_match, pending
from engine.narrate import Narrator, describe_question
from engine.rosters import all_team_lists, default_roster
from engine.state import Phase, RuleOptions

#: Every catalogue: (package, folder).
CATALOGUES = [("engine", "data/text"), ("service", "text"), ("bot", "locales")]


def _pairs() -> list[tuple[str, str, str]]:
    return [(pkg, folder, lang) for pkg, folder in CATALOGUES for lang in LANGUAGES if lang != "en"]


@pytest.mark.parametrize("pkg,folder,lang", _pairs())
def test_every_key_is_in_every_language_with_the_same_placeholders(pkg, folder, lang):
    en, other = load(pkg, folder, "en"), load(pkg, folder, lang)
    # phrase.* keys translate English phrases the engine writes: the key is the English.
    en_keys = {k for k in en if not k.startswith("phrase.")}
    other_keys = {k for k in other if not k.startswith("phrase.")}
    assert sorted(en_keys - other_keys) == [], f"missing in {lang}"
    assert sorted(other_keys - en_keys) == [], f"missing in en (or stale in {lang})"
    for key in en_keys:
        assert placeholders(en[key]) == placeholders(other[key]), key
        assert other[key].strip(), key


@pytest.mark.parametrize("pkg,folder", CATALOGUES)
def test_catalogue_files_are_utf8_json_objects_of_strings(pkg, folder):
    for lang in LANGUAGES:
        raw = resources.files(pkg).joinpath(f"{folder}/{lang}.json").read_text(encoding="utf-8")
        data = json.loads(raw)
        assert data and all(isinstance(k, str) and isinstance(v, str) for k, v in data.items())


def test_phrases_keep_their_numbers():
    fr = load("engine", "data/text", "fr")
    for key, value in fr.items():
        if key.startswith("phrase."):
            assert key.count("#") == value.count("#"), key
    assert phrase(fr, "2 opponents facing") == "2 adversaires de face"
    assert phrase(fr, "gets away") == "se dégage"
    missing: set[str] = set()
    assert phrase(fr, "something new", missing=missing) == "something new" and missing == {"something new"}


def test_language_of_discord_locales_and_preferences():
    import discord

    assert language_of(discord.Locale.french) == "fr" and language_of("fr-CA") == "fr"
    assert language_of("en-US") == language_of("de") == language_of(None) == language_of("auto") == "en"


# --- abilities: the French rulebook's names, without the collisions of the translation -------
def test_every_ability_has_a_french_name_and_summary():
    for a in ABILITIES.values():
        assert a.name_in("fr") and a.summary_in("fr") != a.summary, a.id
    assert ABILITIES["steady"].name_in("fr") == "Équilibre" and ABILITIES["steady"].name_in("de") == "Steady"


def test_french_ability_names_collide_with_no_challenge_attribute_or_other_ability():
    """The translation calls Cutblock "Charge" (Impact is "Charger"), Hotdog "Esquive" (the
    Dodge attribute), Cover "Interception" and Goalie "Garde" (the Safety type): renamed."""
    fr = load("engine", "data/text", "fr")
    names = [a.name_in("fr").lower() for a in ABILITIES.values()]
    assert len(set(names)) == len(names)
    words = {v.lower() for k, v in fr.items() if k.startswith(("challenge.", "attribute."))}
    clashes = {n for n in names if n in words} - {"provocation", "sprinter"}  # Taunt is both, as in English
    assert clashes == set()
    assert not any(n.startswith(("charge ", "garde", "esquive", "interception")) for n in names)


# --- narration in both languages ---------------------------------------------------------------
def _tackle_position():
    st = position(
        P("w1", "black-widows/hunters", "F14", "E"),
        P("e1", "black-widows/strikers", "G14", "W", ball=True),
        acting="w1",
    )
    st.players["w1"].name, st.players["e1"].name = "Hunter w1", "Striker e1"
    return st


FIXED_EVENTS = [
    E.MatchStarted("Elves", "Dwarves", 2),
    E.PlayerPlaced("w1", Hex(0, 0), "NE"),
    E.ActionStarted("w1", 5),
    E.PlayerMoved("w1", Hex(0, 0), Hex(1, 0), 4),
    E.MomentumGained("west", 2, 3, "shove"),
    E.MomentumShifted("east", 2, "flopped disengage"),
    E.GoalScored("west", "w1", (1, 0)),
    E.MatchEnded("west", "goal"),
]


def test_a_fixed_event_list_reads_in_english_and_in_french():
    st = position(P("w1", "timberline-elves/dryads", "F14"))
    assert Narrator().narrate(FIXED_EVENTS, st) == [
        "Elves (West) v Dwarves (East): first to 2 goals wins.",
        "Dryad w1 sets up on K12, facing north-east.",
        "Dryad w1 starts an action with Jog 5.",
        "Dryad w1 moves from K12 to L12 (Jog 4 left).",
        "West gains 2 Momentum from the Shove (now 3).",
        "Shift in Momentum (flopped disengage): East takes over 2 counters.",
        "GOAL! Dryad w1 scores for West: West 1 – 0 East.",
        "Match over: West wins (goal).",
    ]
    fr = Narrator(language="fr")
    assert fr.narrate(FIXED_EVENTS, st) == [
        "Elves (Ouest) contre Dwarves (Est) : le premier à 2 buts gagne.",
        "Dryad w1 se place en K12, face au nord-est.",
        "Dryad w1 commence une action avec 5 de Mouvement.",
        "Dryad w1 va de K12 à L12 (4 de Mouvement restant).",
        "Ouest gagne 2 Temps fort (Pousser) : 3 en tout.",
        "Revirement de Situation (fiasco : Se dégager) : Est récupère 2 marqueurs.",
        "BUT ! Dryad w1 marque pour l'Ouest : Ouest 1 – 0 Est.",
        "Fin du match : victoire de l'Ouest (but).",
    ]
    assert fr.missing == set()


def test_a_tackle_in_french_uses_the_rulebook_words():
    res = act(_tackle_position(), C.Tackle("e1"), faces="O O O -", d6="2")
    fr = Narrator(language="fr").narrate(res.events, res.state)
    assert fr[0] == ("Plaquer — Hunter w1 sur Striker e1, Tacle 4 dés, 2 nécessaire (Esquive 4 − 2) : "
                     "succès, succès, succès, vide → 3 : réussite, 1 de plus (Bon coup)")
    assert fr[1:3] == ["Striker e1 est à terre (Bon coup).", "Striker e1 lâche la balle en G14."]


def test_a_question_in_french():
    st = position(P("w1", "timberline-elves/dryads", "F14", "E"), P("e1", "black-widows/midfielders", "G14", "W"),
                  P("e2", "black-widows/strikers", "E14", "E"), acting="w1", jog=5, momentum=(2, "west"))
    st.players["w1"].name = "Dryad w1"
    res = apply(st, C.Move((hx("F13"),)), ScriptedDice("X - O O"),
                by="west")
    q = res.state.in_progress.question
    assert describe_question(q, res.state, language="fr") == (
        "Ouest : dépenser du Temps fort pour relancer des dés de Se dégager de Dryad w1 ? dés possibles 0 (fiasco), "
        "1 (vide), 2 (succès), 3 (succès) ; jusqu'à 2 marqueurs — obtenu fiasco, vide, succès, succès → 1, "
        "2 nécessaire (Tacle 3 − 2, +1 adversaire de plus de face)"
    )


def _random_events(seed: int, advanced: bool) -> tuple[list[E.Event], list[dict], object]:
    rng = random.Random(seed)
    w, e = rng.sample(all_team_lists(), 2)
    dice = SeededDice(seed)
    res = new_match(TeamEntry(w.name, default_roster(w)), TeamEntry(e.name, default_roster(e)), dice,
                    options=RuleOptions(goals_to_win=2, advanced=advanced))
    state, events, questions = res.state, list(res.events), []
    coach = RandomCoach(rng)
    for _ in range(700):
        if state.phase is Phase.MATCH_OVER:
            break
        side = pending(state).side
        q = pending(state).question
        if q is not None:
            questions.append(q)
        res = apply(state, coach.choose(state, side, standard_field()), dice, by=side)
        state = res.state
        events.extend(res.events)
    return events, questions, state


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_random_matches_read_in_french_with_no_phrase_left_in_english(seed):
    events, questions, state = _random_events(seed, advanced=seed % 2 == 0)
    fr = Narrator(language="fr")
    lines = fr.narrate(events, state) + [fr.describe_question(q, state) for q in questions]
    assert fr.missing == set()
    assert all(line and "{" not in line for line in lines)
    english = re.compile(r"\b(the|and|with|from|moves|scores|spends)\b")
    leftovers = [line for line in lines if english.search(line)]
    assert leftovers == []


# --- the service: the same outcome in either language ---------------------------------------------
def test_an_outcome_reads_in_french(sessions):
    from service.match_rules import MatchSide
    from service.matches import MatchService

    svc = MatchService(sessions=sessions, render=False)
    out = svc.start(guild_id=1, channel_id=10, west=MatchSide(101, team_list="gnolls"),
                    east=MatchSide(202, team_list="night-elves"), seed="fixed-seed")
    assert "set up your team" in out.prompt and out.lines_in("en") == out.lines
    assert "placez votre équipe" in out.prompt_in("fr")
    assert out.prompt_in("fr").startswith(("Ouest (Gnolls) :", "Est (Night Elves) :"))
    assert any("Jet de départ" in line for line in out.lines_in("fr"))
    coach = {"west": 101, "east": 202}
    first = out.deciding_side
    out = svc.act(10, coach[first], svc.read(10, coach[first], "auto"))
    assert any(" se place en " in line and ", face " in line for line in out.lines_in("fr"))
    assert out.lines_in("fr") != out.lines and len(out.lines_in("fr")) == len(out.lines)
