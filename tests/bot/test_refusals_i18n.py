"""The rules' refusals in French (issue #11): ``engine.refusals.translate_refusal`` over the
English messages the engine raises, measured on refusals met in real play, and a French member
refused in French through the fake Discord."""

from __future__ import annotations

import json
import random
from importlib import resources

from fakediscord import FakeDiscord

from bot.app import ElfballBot
from engine.dice import SeededDice
from engine.errors import ElfballError
from engine.field import standard_field
from engine.fuzz import RandomCoach, random_entries
from engine.i18n import placeholders
from engine.legal import candidate_commands
from engine.match import apply, check, new_match, pending
from engine.refusals import is_translated, translate_refusal, translate_rule
from engine.state import Phase
from service.grammar import parse
from service.matches import MatchService

FIELD = standard_field()
JUNK = ["", "fly K11", "move", "move K11 facing", "dash lots", "reroll x", "act nobody", "throw",
        "cast fireball w1", "tackle", "with beeline with beeline"]


def refusals_met(seeds: range, max_commands: int = 250) -> set[str]:
    """Every refusal of the candidate commands (legal or not) both coaches could send, every third
    command of a few random matches (Basic and Advanced), and of some mistyped command lines."""
    met: set[str] = set()
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
                            met.add(str(exc))
                    for line in JUNK:
                        try:
                            parse(line, state, by, FIELD)  # type: ignore[arg-type]
                        except ElfballError as exc:
                            met.add(str(exc))
            state = apply(state, coach.choose(state, side, FIELD), dice, by=side, field=FIELD).state
    return met


def test_most_refusals_met_in_play_have_a_french_sentence():
    met = refusals_met(range(8))
    assert len(met) > 100
    untranslated = sorted(m for m in met if not is_translated(m, "fr"))
    share = 1 - len(untranslated) / len(met)
    assert share >= 0.9, f"{share:.0%} translated; untranslated:\n" + "\n".join(untranslated)
    for m in met:
        assert translate_refusal(m, "en") == m
        assert translate_refusal(m, "fr").count("[") == m.count("[")  # the rule stays cited


def test_a_refusal_keeps_names_hexes_numbers_and_translates_sides_and_rules():
    assert translate_refusal("Gnome #3 is not in an adjacent hex [Tackle challenge (p. 7)]", "fr") == \
        "Gnome #3 n'est pas sur un hexagone adjacent [Défi Plaquer (p. 7)]"
    assert translate_refusal("3 hexes cost 4 Jog; Imp #5 has 2 left [Challenge types (p. 4)]", "fr") == \
        "3 hexagone(s) coûtent 4 de Mouvement ; il reste 2 à Imp #5 [Types de défis (p. 4)]"
    assert translate_refusal("Imp #5 took east's last action; choose another player [Turn sequence (p. 4)]", "fr") == \
        "Imp #5 a pris la dernière action de l'Est ; choisissez un autre joueur [Déroulement du tour (p. 4)]"
    assert translate_refusal("Goalie: 2 hexes cost 2 Momentum counters; west has 1 [Goalie (p. 13)]", "fr") == \
        "Dernier rempart : 2 hexagone(s) coûtent 2 marqueurs de Temps fort ; l'Ouest en a 1 [Dernier rempart (p. 13)]"
    assert translate_rule("Momentum (p. 5)", "fr") == "Temps fort (p. 5)"
    # Unknown sentences stay English, their rule translated; English is never touched.
    assert translate_refusal("something new [Momentum (p. 5)]", "fr") == "something new [Temps fort (p. 5)]"
    assert translate_refusal("Gnome #3 is not in an adjacent hex", "en") == "Gnome #3 is not in an adjacent hex"


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


def test_every_pattern_keeps_its_placeholders():
    data = json.loads(resources.files("engine").joinpath("data/text/refusals.fr.json").read_text(encoding="utf-8"))
    for en, fr in data["patterns"].items():
        assert placeholders(en) == placeholders(fr), en
        assert placeholders(en) <= {f"{kind}{i}" for kind in ("player", "hex", "n", "side", "text") for i in ("", 2, 3, 4)}, en
