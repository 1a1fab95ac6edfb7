"""The terminal in French (issue #11): ``elfball local``, ``demo`` and ``verify`` with
``--language fr`` or a French locale; the grammar's help from the service catalogue and the
French slash-command names read as verbs; English unchanged by default."""

from __future__ import annotations

import io
import json
from importlib import resources

import pytest

from cli.language import default_language
from cli.local_commands import CONSOLE_WORDS, console_word
from cli.main import main
from service.match_rules import MatchSide
from engine import commands as C
from engine.errors import MalformedInputError
from engine.i18n import load
from service.grammar import VERBS, help_text, parse, usage_error, verb_name
from service.matches import MatchService
from service.refusals import render_refusal as refusal_text
from service.verify import Mismatch, Verdict

ALICE = 101

#: The verbs whose French name is a slash command's (bot/locales/commands/fr.json): one thing, one name.
SLASH = {"place": "setup place", "auto": "setup auto", "done": "setup done", "concede": "match concede",
         **{v: v for v in ("act", "move", "face", "stand", "throw", "tackle", "shove", "dash", "cheer", "quickling",
                           "taunt", "potion", "spell", "end", "undo", "replace")}}
#: The console's words that are slash commands too.
CONSOLE_SLASH = {"board": "match describe", "log": "match log", "abandon": "match abandon"}

#: Set up with the bot, finish, try an illegal move (acting during the set-up), then concede.
SCRIPT_FR = "aide\naide plaquer\nplaquer\nauto\nagir w1\nplacer w1 K12 E\nfini\nabandonner\n"
SCRIPT_EN = "help\nhelp tackle\ntackle\nauto\nact w1\nplace w1 K12 E\ndone\nconcede\n"


def _console(tmp_path, monkeypatch, capsys, script: str, *extra: str) -> str:
    args = ["local", "--db", str(tmp_path / "local.db"), "--out", str(tmp_path / "boards"), "--quiet", "--ai", "east",
            *extra]
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    assert main(args) == 0
    return capsys.readouterr().out


def _squeezed(lines: list[str]) -> list[str]:
    """The lines with the help's column padding taken out."""
    return [" ".join(line.split()) for line in lines]


# --- the console ------------------------------------------------------------------------------
def test_the_console_plays_a_match_in_french(tmp_path, monkeypatch, capsys):
    out = _console(tmp_path, monkeypatch, capsys, SCRIPT_FR, "--language", "fr")
    lines = out.splitlines()
    # The banner and the rules line.
    assert lines[0] == ("Nouvelle partie #1 à la table 1 : Timberline Elves (Ouest) contre Night Elves (Est), "
                        "l'entraîneur IA joue l'Est. Tapez aide pour la liste des commandes.")
    assert lines[1] == "Règles : profil standard ; premier à 1 but."
    # The narration and the prompt.
    assert "  Timberline Elves (Ouest) contre Night Elves (Est) : le premier à 1 but gagne." in lines
    assert any(line.startswith("  Jet de départ : ") for line in lines)
    assert ">> Ouest (Timberline Elves) : placez votre équipe : `place JOUEUR HEXAGONE ORIENTATION`, ou `auto` ; puis `done`." in out
    assert "[terrain : " in out
    # Help: the commands with their French names, then the console's own words.
    assert ("plaquer JOUEUR [cutblock|steal|pummel|cheapshot] plaquer un adversaire adjacent (d'abord un Charger "
            "s'il est plus fort), éventuellement avec une aptitude de Plaquer [tackle]") in _squeezed(lines)
    assert "arreter arrêter cette partie sans résultat" in _squeezed(lines)
    assert ("> plaquer JOUEUR [cutblock|steal|pummel|cheapshot] — plaquer un adversaire adjacent (d'abord un Charger "
            "s'il est plus fort), éventuellement avec une aptitude de Plaquer [tackle]") in lines
    # The parser's usage in French words; the rules' refusals of illegal moves in French, rule cited.
    assert ">   refusé : usage : plaquer JOUEUR [cutblock|steal|pummel|cheapshot]" in lines
    assert ("  refusé : start_action est impossible maintenant : la partie est en phase setup (possible : place, "
            "unplace, auto_setup, setup_done, drink_potion) [Déroulement du tour (p. 4)]") in out
    assert ("  refusé : K12 n'est pas un hexagone de placement pour l'Ouest : les joueurs commencent dans les cercles "
            "jaunes de leur moitié, hors de toute ligne blanche ou jaune [Début d'un Test (p. 3)]") in out
    # French verbs play: the set-up is finished, the match conceded; the result in French.
    assert "Ouest a fini de se placer." in out and "Ouest abandonne." in out
    assert ">> Fin du match : victoire de Night Elves, 0-1 (abandon de l'Ouest)." in out
    assert "refused" not in out and "Match over" not in out


def test_the_console_is_unchanged_in_english_by_default(tmp_path, monkeypatch, capsys):
    out = _console(tmp_path, monkeypatch, capsys, SCRIPT_EN)
    lines = out.splitlines()
    assert lines[0] == ("New match #1 at table 1: Timberline Elves (west) v Night Elves (east), the AI coach plays east. "
                        "Type help for the commands.")
    assert lines[1] == "Rules: profile standard; first to 1 goal."
    assert "  Timberline Elves (West) v Night Elves (East): first to 1 goal wins." in lines
    assert ">> West (Timberline Elves): set up your team: place PLAYER HEX FACING, or auto; then done." in out
    assert ("tackle PLAYER [cutblock|steal|pummel|cheapshot] tackle an adjacent opponent (Impact "
            "first if he is stronger), optionally with a Tackle ability") in _squeezed(lines)
    assert "abandon end this match without a result" in _squeezed(lines)
    assert ">   refused: usage: tackle PLAYER [cutblock|steal|pummel|cheapshot]" in lines
    assert "  refused: start_action is not possible now: the match is in the setup phase" in out
    assert ">> Match over: Night Elves win, 0-1 (west conceded)." in out
    assert "[board: " in out and "refusé" not in out


def test_the_console_resumes_and_says_bye_in_french(tmp_path, monkeypatch, capsys):
    _console(tmp_path, monkeypatch, capsys, "quitter\n", "--language", "fr")
    out = _console(tmp_path, monkeypatch, capsys, "journal\ndecrire\nannuler\n", "--language", "fr")
    assert out.startswith("Reprise de la partie #1 à la table 1.\n")
    assert "Jet de départ : " in out  # the log
    assert "Ouest sur le terrain (Timberline Elves, pions ronds)" in out  # the board in words
    assert "  refusé : seul l'entraîneur qui agit peut annuler, pendant son action et sans question en attente" in out
    assert out.endswith("\nAu revoir : relancez elfball local pour reprendre.\n")


def test_the_console_language_comes_from_the_environment(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    out = _console(tmp_path, monkeypatch, capsys, "quitter\n")
    assert out.startswith("Nouvelle partie #1 à la table 1 : ")
    monkeypatch.setenv("ELFBALL_LANGUAGE", "en")  # overrides the locale
    out = _console(tmp_path, monkeypatch, capsys, "quit\n")
    assert out.startswith("Resuming match #1 at table 1.")
    out = _console(tmp_path, monkeypatch, capsys, "quit\n", "--language", "fr")  # the option overrides both
    assert out.startswith("Reprise de la partie #1")


def test_default_language_reads_elfball_language_then_the_messages_locale():
    assert default_language({}) == "en"
    assert default_language({"LANG": "fr_FR.UTF-8"}) == "fr"
    assert default_language({"LANG": "fr_CA"}) == default_language({"LC_MESSAGES": "fr_BE.UTF-8"}) == "fr"
    assert default_language({"LANG": "en_GB.UTF-8"}) == default_language({"LANG": "C.UTF-8"}) == "en"
    # LC_ALL, then LC_MESSAGES, then LANG: the first one set decides.
    assert default_language({"LC_ALL": "C", "LANG": "fr_FR.UTF-8"}) == "en"
    assert default_language({"LC_MESSAGES": "fr_FR.UTF-8", "LANG": "en_US.UTF-8"}) == "fr"
    assert default_language({"LC_ALL": "", "LANG": "fr_FR"}) == "fr"
    # ELFBALL_LANGUAGE overrides the locale.
    assert default_language({"ELFBALL_LANGUAGE": "fr", "LANG": "en_US.UTF-8"}) == "fr"
    assert default_language({"ELFBALL_LANGUAGE": "en", "LC_ALL": "fr_FR.UTF-8"}) == "en"


def test_the_console_words_in_both_languages():
    assert [console_word(w) for w in ("help", "aide", "board", "decrire", "log", "journal", "quit", "quitter", "exit",
                                      "abandon", "arreter", "QUIT")] == \
        ["help", "help", "board", "board", "log", "log", "quit", "quit", "quit", "abandon", "abandon", "quit"]
    assert console_word("plaquer") is None and console_word("abandonner") is None  # commands, not console words
    fr, slash = load("service", "text", "fr"), json.loads(
        resources.files("bot").joinpath("locales/commands/fr.json").read_text(encoding="utf-8"))
    for word, command in CONSOLE_SLASH.items():
        assert fr[f"console.word.{word}"] == slash[command]["name"], word
    assert set(CONSOLE_WORDS) == {"help", "quit", *CONSOLE_SLASH}


# --- the demo and verify ---------------------------------------------------------------------
def test_the_demo_in_french(tmp_path, capsys):
    out_dir = tmp_path / "demo"
    args = ["demo", "--seed", "3", "--out", str(out_dir), "--width", "300", "--max-commands", "40", "--language", "fr"]
    assert main(args) == 0
    out, err = capsys.readouterr()
    assert out.startswith("Gnomes 0 - 0 Thunder Hammer Dwarves : partie inachevée après 40 commandes (")
    assert " images dans " in out and " lignes)" in out
    assert err.startswith("Démo (graine 3) : Gnomes contre Thunder Hammer Dwarves ; ")
    log = (out_dir / "match-log.txt").read_text(encoding="utf-8").splitlines()
    assert log[0].startswith("Démo Elfball, graine 3 : Gnomes (Ouest) contre Thunder Hammer Dwarves (Est) ; ")
    assert log[2].startswith("Jet de départ : ")
    assert main(args[:-2]) == 0  # English by default
    assert capsys.readouterr().out.startswith("Gnomes 0 - 0 Thunder Hammer Dwarves: unfinished after 40 commands (")


def test_a_verdict_and_its_mismatch_in_french():
    ok = Verdict(True, 12, 40)
    assert ok.summary().startswith("Consistent with itself only: the seed matches the commitment written in this "
                                   "record, all 40 dice of 12 log rows are the ones the seed gives")
    assert ok.summary("fr").startswith("Cohérent avec lui-même seulement : la graine correspond à l'engagement écrit "
                                       "dans ce relevé, les 40 dés des 12 lignes")
    die = Mismatch(0, "create: the dice-off", "dice", [["d6", 3]], [["d6", 4]], "verify.mismatch.die",
                   {"row": 0, "command": "create: the dice-off", "n": 1, "expected": ["d6", 3], "recorded": ["d6", 4]})
    assert die.message == "row 0 (create: the dice-off): die #1 from the seed is D6 3, the record has D6 4"
    assert Verdict(False, 0, 0, die).summary("fr") == \
        "NON vérifié : ligne 0 (create : le jet de départ) : le dé n°1 tiré de la graine est D6 3, l'enregistrement a D6 4"
    refused = Mismatch(7, "act player=\"w9\" (west)", "refused", None, {}, "verify.mismatch.refused",
                       {"row": 7, "command": "act player=\"w9\" (west)", "reason": MalformedInputError.of("player.unknown_id", text="w9")})
    assert refused.message == "row 7 (act player=\"w9\" (west)) is refused on replay: no player w9 in this match"
    assert refused.message_in("fr") == \
        "la ligne 7 (act player=\"w9\" (west)) est refusée à la relecture : aucun joueur w9 dans cette partie"


# --- the grammar ---------------------------------------------------------------------------------
def test_french_verbs_are_the_slash_commands_names():
    fr = load("service", "text", "fr")
    slash = json.loads(resources.files("bot").joinpath("locales/commands/fr.json").read_text(encoding="utf-8"))
    for verb, command in SLASH.items():
        assert fr[f"verb.{verb}.word"] == slash[command]["name"], verb
    # Every verb has a French name, which starts its French usage and calls no other verb.
    english = {v.name for v in VERBS} | {a for v in VERBS for a in v.aliases}
    words = [fr[f"verb.{v.name}.word"] for v in VERBS]
    assert len(set(words)) == len(words)
    for v in VERBS:
        word = v.word_in("fr")
        assert v.usage_in("fr").startswith(word), v.name
        assert word == v.name or word not in english, word
        assert verb_name(word) == v.name


def _acting():
    from support.builders import acting_dryad as st  # the same acting Dryad as the English grammar tests

    return st()


def test_french_verbs_and_ability_names_parse_as_the_english_ones():
    from engine.state import InProgress

    s = _acting()
    for fr, en in (("Déplacer G14 G13", "move G14 G13"), ("deplacer NE NE with traque", "move NE NE with beeline"),
                   ("deplacer G14 facing W with Lancer précis", "move G14 facing W with lead pass"),
                   ("lancer-precis w2 NE NE", "lead w2 NE NE"), ("plaquer e2", "tackle e2"),
                   ("plaquer e2 steal", "tackle e2 steal"), ("pousser e2", "shove e2"), ("lancer K12", "throw K12"),
                   ("orienter NE", "face NE"), ("fin W", "end W"), ("SE-LANCER 2", "dash 2"), ("agir w2", "act w2"),
                   ("placer w3 J12 E", "place w3 J12 E"), ("relancer 0 2", "reroll 0 2"), ("abandonner", "concede"),
                   ("sort inferno K12", "spell inferno K12"), ("mise-en-jeu pickup", "faceoff pickup")):
        assert parse(fr, s, "west") == parse(en, s, "west"), fr
    assert parse("abandonner", s, "west") == C.Concede()
    with pytest.raises(MalformedInputError, match="no command 'plaquez'"):
        parse("plaquez e2", s, "west")
    # A question is answered with ``repondre``, and an ability option by its French name.
    s.in_progress = InProgress({"name": "end_action"}, "west",
                               question={"kind": "potion_ability", "side": "west", "options": ["agile", "steady"]})
    assert parse("repondre Équilibre", s, "west") == parse("answer steady", s, "west") == C.Answer("steady")
    assert parse("equilibre", s, "west") == C.Answer("steady")


def test_help_in_french_and_english():
    en, fr = help_text(), help_text(language="fr")
    assert en.splitlines()[0].startswith("place PLAYER HEX FACING") and "[place]" not in en
    assert fr.splitlines()[0].startswith("placer JOUEUR HEX ORIENTATION")
    assert fr.splitlines()[0].endswith("placer un joueur (ex. placer w3 J12 E) [place]")
    assert len(fr.splitlines()) == len(en.splitlines()) == len(VERBS)
    assert help_text("tackle") == help_text("plaquer") == (
        "tackle PLAYER [cutblock|steal|pummel|cheapshot] — tackle an adjacent opponent (Impact first if he is "
        "stronger), optionally with a Tackle ability")
    assert help_text("tackle", "fr") == help_text("plaquer", "fr")
    assert help_text("auto", "fr") == "auto — laisser le bot placer votre équipe"  # the same name: no English added
    with pytest.raises(MalformedInputError):
        help_text("voler", "fr")


def test_refusals_in_french_with_the_usage_in_french_words(sessions):
    tackle = usage_error("tackle")
    assert str(tackle) == "usage: tackle PLAYER [cutblock|steal|pummel|cheapshot]"
    assert refusal_text(tackle, "fr") == "usage : plaquer JOUEUR [cutblock|steal|pummel|cheapshot]"
    assert refusal_text(usage_error("act"), "fr") == "usage : agir JOUEUR"
    assert refusal_text(usage_error("act"), "en") == "usage: act PLAYER"
    assert refusal_text("there is no step or turn of this action to take back", "fr") == \
        "il n'y a ni pas ni rotation de cette action à reprendre"
    assert refusal_text(MalformedInputError.of("command.unknown", text="'x'"), "fr") == \
        "pas de commande 'x' ; tapez help pour la liste"
    # ``annuler`` is the service's undo, like ``undo``.
    from db.errors import InvalidInputError

    svc = MatchService(sessions=sessions, render=False)
    svc.start(guild_id=1, channel_id=20, west=MatchSide(ALICE, team_list="gnolls"),
              east=MatchSide(ALICE, team_list="sarcos"), seed="annuler")
    with pytest.raises(InvalidInputError, match="only the acting coach can undo"):
        svc.act(20, ALICE, svc.read(20, ALICE, "annuler"))
