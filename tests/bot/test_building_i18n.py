"""Issue #11 for building teams and creating matches: the rules summary (``engine.options.describe``)
in French and English, every team-building limit refused in French through the bot's
``reason_text`` (English unchanged), the roster and rules-string refusals, and a French member
refused a ``/match challenge`` in French through the fake Discord with nothing created."""

from __future__ import annotations

import pytest
from fakediscord import FakeDiscord

from bot.app import ElfballBot
from bot.common.reply import reason_text
from bot.common.rule_options import status_line
from db.engine import session_scope
from db.settings import get_guild_settings
from engine import teambuilding as tb
from engine.dice import SeededDice
from engine.errors import ElfballError
from engine.match import new_match
from engine.options import describe, parse_rules
from engine.rosters import default_roster, team_list, validate_basic_team
from engine.match import TeamEntry
from engine.teambuilding import Member, TeamBuildingError
from service.matches import MatchService

IMP, HUNTER, STRIKER = "night-elves/imps", "night-elves/hunters", "night-elves/strikers"


# --- the rules summary --------------------------------------------------------------------------------
@pytest.mark.parametrize("rules,english,french", [
    ("", "profile standard; first to 1 goal", "profil standard ; premier à 1 but"),
    ("profile=tournament",
     "profile tournament; timed (event deck, a card for every turn); first to 1 goal; 40 turns at most; "
     "star = 2 successes; simplified face-off; tournament scoring; French: fr_timed_any_turn",
     "profil tournoi ; durée chronométrée (paquet d'événements, une carte à chaque tour) ; premier à 1 but ; "
     "40 tours au plus ; étoile = 2 succès ; Mise en jeu simplifiée ; points de tournoi ; "
     "variantes françaises : une carte à chaque tour"),
    ("profile=fr-0.0.6", "profile fr-0.0.6; first to 1 goal; every French 0.0.6 difference",
     "profil français 0.0.6 ; premier à 1 but ; toutes les différences françaises 0.0.6"),
    ("timed double", "profile standard; timed (52-card deck, a card for the face-off loser's turns); "
     "no goal limit; double player movement",
     "profil standard ; durée chronométrée (paquet de 52 cartes, une carte aux tours du perdant de la Mise en jeu) ; "
     "pas de limite de buts ; mouvement de deux joueurs"),
    ("goals=2 fr_dash fr_slippery extras=impcrusher clock=24",
     "profile standard; first to 2 goals; extra players: impcrusher; French: fr_dash, fr_slippery; 24 h a decision",
     "profil standard ; premier à 2 buts ; joueurs supplémentaires : Rouleau compresseur ; "
     "variantes françaises : Se lancer à la française, Insaisissable à la française ; 24 h par décision"),
])
def test_the_rules_summary_reads_in_english_as_before_and_in_french(rules, english, french):
    opts = parse_rules(rules)
    assert describe(opts) == describe(opts, "en") == english
    assert describe(opts, "fr") == french


def test_every_variant_and_profile_has_a_french_name_that_is_not_its_id():
    from engine.i18n import load
    from engine.options import PROFILES, VARIANTS

    fr = load("engine", "data/text", "fr")
    for v in VARIANTS:
        assert fr[f"options.variant.{v}"] != v and "fr_" not in fr[f"options.variant.{v}"]
    assert {fr[f"options.profile.{p}"] for p in PROFILES} == {"standard", "débutant", "français 0.0.6", "tournoi"}


def test_the_status_line_of_a_tournament_match_in_french():
    gnolls, sarcos = (TeamEntry(team_list(t).name, default_roster(t)) for t in ("gnolls", "sarcos"))
    state = new_match(gnolls, sarcos, SeededDice(1), options=parse_rules("profile=tournament")).state
    assert status_line(state, "fr") == (
        f"Règles : {describe(state.options, 'fr')}. Cartes restantes : 54. Tours : 0/40.")
    assert status_line(state).startswith("Rules: profile tournament; timed (event deck") and "Cards left: 54." in status_line(state)


# --- team-building refusals ---------------------------------------------------------------------------
def elves(imps: int = 6, hunters: int = 2, strikers: int = 2) -> list[Member]:
    return [Member(IMP)] * imps + [Member(HUNTER)] * hunters + [Member(STRIKER)] * strikers


GNOMES = [Member("gnomes/gnomes")] * 7 + [Member("gnomes/gnomish-contraptions")] * 3
STRIKER_5XP = Member(STRIKER, xp=5)
TIED = {"jog": 7, "might": 2, "tackle": 2, "dodge": 7, "skill": 3, "grit": 2}

#: Every limit the team-building rules refuse, each triggered once.
LIMITS = {
    "position maximum": lambda: tb.check_hire("night elves", elves(), "strikers", {}, budget=180, allow_extra=False),
    "12 players": lambda: tb.check_hire("night elves", elves(8, 2, 2), "imp", {}, budget=400, allow_extra=False),
    "hire over budget": lambda: tb.check_hire("night elves", elves(), "imp", {"wizard": 1}, budget=180, allow_extra=False),
    "extra players not allowed": lambda: tb.check_hire("gnomes", GNOMES[:9], "impcrusher", {}, budget=180, allow_extra=False),
    "extra player maximum": lambda: tb.check_hire("gnomes", GNOMES[:8] + [Member("extra/impcrusher")], "impcrusher", {},
                                                  budget=180, allow_extra=True),
    "extra player of another list": lambda: tb.check_hire("night elves", elves(), "impcrusher", {}, budget=180, allow_extra=True),
    "6 players": lambda: tb.check_fire(elves(2, 2, 2)),
    "support maximum": lambda: tb.check_support("cheerleaders", 4, 5, 150, budget=180),
    "support over budget": lambda: tb.check_support("wizard", 0, 1, 170, budget=180),
    "nothing to sell": lambda: tb.check_support("kegs", 1, -1, 150, budget=180),
    "unknown support": lambda: tb.support_item("dragon"),
    "joining: several problems": lambda: tb.check_team("night elves", elves(2, 2, 1), {"wizard": 1, "kegs": 3}, budget=90,
                                                       allow_extra=False),
    "joining: over budget": lambda: tb.check_team("night elves", elves(), {}, budget=140, allow_extra=False),
    "basic ability first": lambda: tb.check_learn("night elves", STRIKER_5XP, "sprinter", 150, budget=180),
    "another type's ability": lambda: tb.check_learn("night elves", STRIKER_5XP, "swarm", 150, budget=180),
    "not enough XP": lambda: tb.check_learn("night elves", Member(STRIKER, xp=4), "steady", 150, budget=180),
    "learning over budget": lambda: tb.check_learn("night elves", STRIKER_5XP, "steady", 180, budget=180),
    "learned already": lambda: tb.check_learn("night elves", Member(STRIKER, ("steady",), 10), "steady", 150, budget=180),
    "learns nothing": lambda: tb.check_learn("gnomes", Member("extra/impcrusher", ("cheapshot",), 5), "steady", 100, budget=180),
    "lasting injury": lambda: tb.apply_lasting(TIED, "might"),
}


def _refusal(limit: str) -> TeamBuildingError:
    with pytest.raises(TeamBuildingError) as err:
        LIMITS[limit]()
    return err.value


@pytest.mark.parametrize("limit", sorted(LIMITS))
def test_every_team_building_limit_is_refused_in_french_and_still_in_english(limit):
    err = _refusal(limit)
    english, french = reason_text(err, "en"), reason_text(err, "fr")
    assert english == str(err) == err.text() and english.isascii()
    assert french != english
    for word in ("team", "players", "ability", "only", "choose", "league", " may "):
        assert word not in french, (word, french)


def test_team_building_refusals_exactly():
    assert reason_text(_refusal("hire over budget"), "fr") == (
        "un débutant Imps (15 points) : l'équipe vaudrait 185 points, au-delà des 180 de la ligue ; "
        "renvoyez d'abord un joueur ou vendez du soutien")
    assert reason_text(_refusal("hire over budget"), "en") == (
        "a Imps rookie (15 points) would make the team worth 185 points, over the league's 180: "
        "fire a player or sell support first")
    # Ability, type and support names in French; several problems keep their list.
    assert reason_text(_refusal("another type's ability"), "fr") == \
        "Essaim est une aptitude de Petites Gens : un joueur Buteur ne peut pas l'apprendre"
    assert reason_text(_refusal("joining: several problems"), "fr") == (
        "cette équipe enfreint les règles de la ligue :\n"
        "- une équipe a de 6 à 12 joueurs : celle-ci en a 5\n"
        "- au plus 2 Tonnelets de Zlurpee : cette équipe en a 3\n"
        "- l'équipe vaut 110 points, au-delà des 90 de la ligue : renvoyez des joueurs ou vendez du soutien")
    assert str(_refusal("joining: several problems")) == (
        "this team breaks the league's rules:\n"
        "- a team has 6 to 12 players: this one has 5\n"
        "- at most 2 Zlurpee Kegs: this team has 3\n"
        "- the team is worth 110 points, over the league's 90: cut players or support")
    assert reason_text(_refusal("support over budget"), "fr").startswith("1 Sorcier mercenaire de plus (20 points pièce) :")


def test_lineup_problems_are_still_english_strings():
    problems = tb.lineup_problems(team_list("night elves"), elves(2, 2, 1), allow_extra=False)
    assert problems == ["a team has 6 to 12 players: this one has 5"]
    assert problems[0].text("fr") == "une équipe a de 6 à 12 joueurs : celle-ci en a 5"


# --- roster, rules-string and store refusals: keyed, said from each language's catalogue ---------------
def _message(work) -> ElfballError:
    with pytest.raises(ElfballError) as err:
        work()
    return err.value


def test_basic_team_and_rules_string_refusals_read_in_french():
    many = _message(lambda: validate_basic_team("gnomes", "12 gnomes, 3 orcs"))
    assert reason_text(many, "fr") == (
        "cette équipe Gnomes a 3 problèmes :\n"
        "- 'orcs' n'est pas un poste de Gnomes : choisissez Gnomes, Gnomish Contraptions\n"
        "- Gnomes peut aligner au plus 9 Gnomes (vous en demandez 12)\n"
        "- une équipe de base a exactement 10 joueurs : celle-ci en a 15 — retirez-en 5")
    assert reason_text(many, "en") == str(many)
    assert reason_text(_message(lambda: team_list("gnom elves")), "fr") == \
        "liste d'équipe inconnue 'gnom elves' : vouliez-vous dire Gnomes, Night Elves ou Gnolls ?"
    assert reason_text(_message(lambda: parse_rules("goals=9")), "fr") == "goals est un nombre entier de 0 à 3, reçu '9'"
    assert reason_text(_message(lambda: parse_rules("tournament no-timed")), "fr") == \
        "une partie de tournoi est chronométrée par son paquet d'événements : ajoutez timed"
    assert reason_text(_message(lambda: parse_rules("banana")), "fr").startswith("règle inconnue 'banana' (connues : ")
    # the store's refusals carry their template and values (db/errors.py), the names kept
    from db.errors import NotAllowedError, UnknownTeamError

    from engine import Term

    unknown = UnknownTeamError("side_refused", side=Term("side", "west"),
                               reason=UnknownTeamError("server_no_team", team="Nowhere"))
    assert reason_text(unknown, "en") == "west: this server has no team 'Nowhere'"
    assert reason_text(unknown, "fr") == "Ouest : ce serveur n'a pas d'équipe « Nowhere »"
    coached = NotAllowedError("team_coached_change", team="Lamelunes", coach=42)
    assert reason_text(coached, "fr") == "Lamelunes est entraînée par <@42> : lui seul peut la modifier"


# --- through Discord ------------------------------------------------------------------------------------
async def test_a_french_member_is_refused_a_challenge_in_french_and_nothing_is_created(database):
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Elfball Club")  # an English server: the refusals are private, in French
        pitch = guild.add_text_channel("pitch")
        amelie, bruno, bob = guild.add_member("Amélie", locale="fr"), guild.add_member("Bruno", locale="fr"), guild.add_member("Bob")
        bot = ElfballBot(service=MatchService(width=400), dev_guild=guild.id)
        await fake.start_bot(bot)
        r = await fake.slash(amelie, pitch, "match challenge", opponent=bruno, team="gnolls", rules="goals=9")
        assert r.ephemeral and r.content == "⛔ goals est un nombre entier de 0 à 3, reçu '9'"
        r = await fake.slash(bob, pitch, "match challenge", opponent=bruno, team="gnolls", rules="goals=9")
        assert r.ephemeral and r.content == "⛔ goals is a whole number from 0 to 3, got '9'"
        r = await fake.slash(amelie, pitch, "match challenge", opponent=fake.bot_user, team="Nowhere")
        assert r.ephemeral and r.content == "⛔ Ouest : ce serveur n'a pas d'équipe « Nowhere »"
        # Nothing was created: no challenge stands and no match is being played.
        with session_scope() as s:
            assert not get_guild_settings(session=s, guild_id=guild.id).settings.get("challenges")
        r = await fake.slash(bruno, pitch, "match accept", team="sarcos")
        assert r.ephemeral and r.content == "⛔ personne ne vous a défié dans ce salon"
        r = await fake.slash(amelie, pitch, "match status")
        assert r.ephemeral and r.content == "⛔ il n'y a pas de partie en cours dans ce salon"


async def test_a_french_server_reads_the_rules_of_its_challenges_and_its_team_refusals_in_french(database):
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Club Elfball", locale="fr")
        pitch = guild.add_text_channel("terrain")
        amelie, bruno = guild.add_member("Amélie", locale="fr"), guild.add_member("Bruno", locale="fr")
        bot = ElfballBot(service=MatchService(width=400), dev_guild=guild.id)
        await fake.start_bot(bot)
        await fake.slash(amelie, pitch, "team", subcommand="create", name="Lamelunes", list="night-elves")
        r = await fake.slash(amelie, pitch, "team hire", team="Lamelunes", position="strikers")
        assert r.ephemeral and r.content == ("⛔ Night Elves peut aligner au plus 2 Strikers (joueurs supplémentaires "
                                             "de ce poste compris) : cette équipe en a 3")
        r = await fake.slash(bruno, pitch, "team hire", team="Lamelunes", position="imps")
        assert r.ephemeral and r.content == "⛔ Lamelunes est entraînée par <@%d> : lui seul peut la modifier" % amelie.id
        r = await fake.slash(amelie, pitch, "team buy", team="Lamelunes", item="cheerleaders", count=2)
        assert "vaut maintenant 160 sur 180" in r.content
        r = await fake.slash(amelie, pitch, "match challenge", opponent=bruno, team="Lamelunes", profile="tournament")
        assert not r.ephemeral and (" Règles : " + describe(parse_rules("profile=tournament"), "fr") + ".\n") in r.content
        r = await fake.slash(bruno, pitch, "match accept", team="gnolls")
        assert r.ephemeral and r.content == "⛔ Lamelunes : une équipe de tournoi vaut de 120 à 150 points d'équipe, celle-ci 160"


# --- the board's status header: a question names its challenge and ability in the reader's language ----
def test_an_ability_reroll_status_names_the_ability_and_the_challenge_in_french():
    from support.builders import P, hx, position
    from support.builders import play as act

    from engine import commands as C
    from render.describe import status_line as board_status

    st = position(P("w1", "gnolls/strikers", "G12", "E", abilities=("agile",)), P("e9", "gnolls/midfielders", "Q17", "W"),
                  ball="H12", acting="w1")
    res = act(st, C.Move((hx("H12"),)), faces="X - - -", pending=True)
    side, text = board_status(res.state, "fr")
    assert (side, text) == ("west", "West : utiliser Agile pour relancer un dé du jet de Ramasser de Striker w1 ?")
    assert board_status(res.state) == ("west", "West: use Agile to re-roll a die of Striker w1's Pick-up?")
