"""The rules' refusals in French (issue #11): every refusal the engine raises carries a key and
values (``engine.refusals``), said from each language's catalogue; measured on refusals met in real
play, and a French member refused in French through the fake Discord."""

from __future__ import annotations

import random

from fakediscord import FakeDiscord

from bot.app import ElfballBot
from engine.dice import SeededDice
from engine.errors import ElfballError, IllegalCommandError
from engine.field import standard_field
from engine.fuzz import RandomCoach, random_entries
from engine.i18n import placeholders
from engine import refusals
from engine.refusals import Refusal, cite, format_refusal, refusal_catalogue, side_term
from engine.legal import candidate_commands
from engine.match import apply, check, new_match, pending
from engine.state import Phase
from service.grammar import parse
from service.matches import MatchService

FIELD = standard_field()
JUNK = ["", "fly K11", "move", "move K11 facing", "dash lots", "reroll x", "act nobody", "throw",
        "cast fireball w1", "tackle", "with beeline with beeline"]


def refusals_met(seeds: range, max_commands: int = 250) -> dict[str, ElfballError]:
    """Every refusal of the candidate commands (legal or not) both coaches could send, every third
    command of a few random matches (Basic and Advanced), and of some mistyped command lines."""
    met: dict[str, ElfballError] = {}
    for seed in seeds:
        rng = random.Random(seed)
        west, east, options = random_entries(rng, advanced=seed % 2 == 1)
        dice = SeededDice(seed)
        state = new_match(west, east, dice, options=options, field=FIELD).state
        coach = RandomCoach(rng)
        for n in range(max_commands):
            if state.phase is Phase.MATCH_OVER:
                break
            side = pending(state).side
            assert side is not None
            if n % 3 == 0:
                for by in ("west", "east"):
                    for cmd in candidate_commands(state, by, FIELD):  # type: ignore[arg-type]
                        try:
                            check(state, cmd, by=by, field=FIELD)  # type: ignore[arg-type]
                        except ElfballError as exc:
                            met[str(exc)] = exc
                    for line in JUNK:
                        try:
                            parse(line, state, by, FIELD)  # type: ignore[arg-type]
                        except ElfballError as exc:
                            met[str(exc)] = exc
            state = apply(state, coach.choose(state, side, FIELD), dice, by=side, field=FIELD).state
    return met


def test_most_refusals_met_in_play_have_a_french_sentence():
    met = refusals_met(range(8))
    assert len(met) > 100
    # Every one is keyed.
    unkeyed = sorted(m for m, exc in met.items() if exc.refusal is None)
    assert unkeyed == []
    keyed = {m: exc.refusal for m, exc in met.items() if exc.refusal is not None}
    untranslated = sorted(m for m, r in keyed.items() if format_refusal(r, "fr") == m)
    share = 1 - len(untranslated) / len(keyed)
    assert share >= 0.9, f"{share:.0%} translated; untranslated:\n" + "\n".join(untranslated)
    for m, r in keyed.items():
        assert format_refusal(r, "en") == m
        assert format_refusal(r, "fr").count("[") == m.count("[")  # the rule stays cited


def test_a_refusal_keeps_names_hexes_numbers_and_translates_sides_and_rules():
    def both(key: str, rule: str, **values: object) -> tuple[str, str]:
        error = IllegalCommandError.of(key, rule=rule, **values)
        assert error.refusal is not None
        return str(error), format_refusal(error.refusal, "fr")

    assert both("target.not_adjacent", "tackle", player="Gnome #3") == (
        "Gnome #3 is not in an adjacent hex [Tackle challenge (p. 7)]",
        "Gnome #3 n'est pas sur un hexagone adjacent [Défi Plaquer (p. 7)]")
    assert both("move.jog_cost", "move", n=3, n2=4, player="Imp #5", n3=2) == (
        "3 hexes cost 4 Jog; Imp #5 has 2 left [Challenge types (p. 4)]",
        "3 hexagone(s) coûtent 4 de Mouvement ; il reste 2 à Imp #5 [Types de défis (p. 4)]")
    assert both("turn.last_action_taken", "turn", player="Imp #5", side=side_term("east")) == (
        "Imp #5 took east's last action; choose another player [Turn sequence (p. 4)]",
        "Imp #5 a pris la dernière action de l'Est ; choisissez un autre joueur [Déroulement du tour (p. 4)]")
    goalie = Refusal("counter_move.cost", n=2, n2=2, side=side_term("west"), n3=1)
    assert both("counter_move.refused", "goalie", ability=refusals.ability_term("goalie"), why=goalie) == (
        "Goalie: 2 hexes cost 2 Momentum counters; west has 1 [Goalie (p. 13)]",
        "Dernier rempart : 2 hexagone(s) coûtent 2 marqueurs de Temps fort ; l'Ouest en a 1 [Dernier rempart (p. 13)]")
    assert cite("momentum", "fr") == "Temps fort (p. 5)" and cite("momentum", "en") == "Momentum (p. 5)"
    # A sentence a language lacks reads English, its rule still in that language.
    assert both("match.over", "momentum")[1] == "la partie est terminée [Temps fort (p. 5)]"


def test_a_sentence_missing_from_a_language_reads_english_with_its_rule_translated(monkeypatch):
    french = {k: v for k, v in refusal_catalogue("fr").items() if k != "match.over"}
    real = refusals.refusal_catalogue
    monkeypatch.setattr(refusals, "refusal_catalogue", lambda language: french if language == "fr" else real(language))
    assert format_refusal(Refusal("match.over", rule="momentum"), "fr") == "the match is over [Temps fort (p. 5)]"


async def test_a_french_member_is_refused_an_illegal_move_in_french(database):
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Elfball Club")  # an English server: only the refusals are French
        pitch = guild.add_text_channel("pitch")
        amelie, bruno = guild.add_member("Amélie", locale="fr"), guild.add_member("Bruno", locale="fr")
        bob = guild.add_member("Bob")
        bot = ElfballBot(service=MatchService(width=400), dev_guild=guild.id)
        await fake.start_bot(bot)
        await fake.slash(amelie, pitch, "match challenge", opponent=bruno, team="gnolls")
        r = await fake.slash(bruno, pitch, "match accept", team="sarcos")
        assert "Dice-off" in r.content or "set up" in r.content
        setter = amelie if bot.service.status(pitch.id).deciding_side == "west" else bruno
        # The rules refuse to finish a set-up without a face-off player: French, rule cited.
        r = await fake.slash(setter, pitch, "setup done")
        assert r.ephemeral and r.content.startswith("⛔ un joueur doit être placé pour la Mise en jeu (")
        assert r.content.endswith("[Début d'un Test (p. 3)]")
        # The command parser's refusal too; an English member still reads English.
        r = await fake.slash(amelie, pitch, "move", path="K11")
        assert r.content == "⛔ personne n'agit : choisissez d'abord un joueur (act JOUEUR)"
        r = await fake.slash(bob, pitch, "move", path="K11")
        assert r.ephemeral and "you are not a coach" in r.content


def test_every_sentence_keeps_its_placeholders():
    english, french = refusal_catalogue("en"), refusal_catalogue("fr")
    assert set(english) == set(french)
    for key, sentence in english.items():
        assert placeholders(sentence) == placeholders(french[key]), key
