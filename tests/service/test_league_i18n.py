"""The league in French: post-match lines stored as keys and said in the reader's language (old
plain lines shown as written), store refusals that name things, the audit trail, and the
standings and team sheet pictures' words."""

from __future__ import annotations

import ast
import string
from types import SimpleNamespace

import pytest
from support.leagues import ALICE, BOB, GUILD, finish_with, season, start

from bot.common.reply import reason_text
from db import errors
from db import leagues as db_leagues
from db.engine import session_scope
from db.errors import InvalidInputError, NotAllowedError, refusal_catalogue
from engine import Term
from engine.i18n import placeholders
from engine.state import Location
from service.leagues import LeagueService, applied_lines
from service.matches import MatchService, Said
from support import ROOT



@pytest.fixture
def league(database):
    return LeagueService(MatchService(render=False), render=False)


# --- post-match lines ---------------------------------------------------------------------------------
def _hurt_and_experienced(state) -> None:
    w1, w2, w3, w4 = (state.players[f"w{i}"] for i in (1, 2, 3, 4))
    w1.xp = 5
    w2.injury = {"kind": "career_ending"}
    w2.location = Location.INFIRMARY
    w3.injury = {"kind": "lasting", "attributes": ["jog"]}
    w4.injury = {"kind": "lasting", "attributes": ["jog", "dodge"]}


def test_post_match_lines_are_stored_as_keys_and_said_in_the_readers_language(league) -> None:
    season(league, ALICE, BOB)
    view, _ = finish_with(league, _hurt_and_experienced)
    coach = view.home_coach
    (am,) = league.open_aftermaths(GUILD, coach)
    names = {p.number: p.name for p in league.sheet(GUILD, view.home, image=False).team.players}
    stored = am.aftermath.applied
    assert all(isinstance(e, dict) and e["key"].startswith("league.applied.") for e in stored)
    assert stored[0]["key"] == "league.applied.xp"  # everyone who played gains 1 XP, w1 had 5 more
    assert stored[0]["values"]["gains"][0] == {"id": stored[0]["values"]["gains"][0]["id"], "player": names[1], "xp": 5,
                                               "total": 5}
    assert am.lines[0].startswith(f"Experience: {names[1]} +5 XP (5), {names[2]} +1 XP (1), ")
    assert am.lines[1:] == [f"{names[2]} suffered a career-ending injury: he leaves the team.",
                            f"{names[3]}: lasting injury, Jog -1."]
    fr = league.aftermath(am.aftermath.id, language="fr")
    assert fr.lines[0].startswith(f"Expérience : {names[1]} +5 PX (5), {names[2]} +1 PX (1), ")
    assert fr.lines[1:] == [f"{names[2]} a subi une blessure qui met fin à sa carrière : il quitte l'équipe.",
                            f"{names[3]} : blessure permanente, Mouvement -1."]
    injury, advance = am.offers
    am = league.choose_injury(am.aftermath.id, am.aftermath.version, coach, int(injury.key), "dodge")
    am = league.advance(GUILD, am.aftermath.id, am.aftermath.version, coach, int(advance.key), "steady")
    assert am.aftermath.applied[-1]["values"]["ability"] == "steady"  # the id, never the English name
    assert am.lines[-2:] == [f"{names[4]}: lasting injury, Dodge -1.", f"{names[1]} learns Steady."]
    fr = league.aftermath(am.aftermath.id, language="fr")
    assert fr.lines[-2:] == [f"{names[4]} : blessure permanente, Esquive -1.", f"{names[1]} apprend Équilibre."]


def test_the_lines_said_when_a_league_match_ends_follow_the_reader(league) -> None:
    season(league, ALICE, BOB)
    view, _ = start_and_finish(league)
    said = [x for x in view if isinstance(x, Said)]
    english = [x for x in said if x.startswith("Experience:")]
    assert len(english) == 1
    assert english[0].in_language("fr").startswith("Expérience : ") and "+5 PX (5)" in english[0].in_language("fr")
    assert english[0].in_language("en") == english[0] and "+5 XP (5)" in english[0]


def start_and_finish(league: LeagueService) -> tuple[list[str], object]:
    """Like ``finish_with``, but keeps what the listener said."""
    view, _ = start(league)
    league.matches.on_finish.clear()
    out = league.matches.concede(500, view.away_coach)
    state = out.state.copy()
    state.players["w1"].xp = 5
    return league.match_finished(out.match, state), state


def test_an_older_report_keeps_its_plain_english_lines(league) -> None:
    season(league, ALICE, BOB)
    view, _ = finish_with(league, _hurt_and_experienced)
    (am,) = league.open_aftermaths(GUILD, view.home_coach)
    old = ["Experience: Quill +1 XP (6).", "Quill learns Steady."]  # as reports were stored before
    with session_scope() as s:
        db_leagues.save_aftermath(session=s, aftermath=am.aftermath,
                                  changes={"applied": [*old, {"key": "league.applied.later", "values": {"player": "Quill"}}]})
    fr = league.aftermath(am.aftermath.id, language="fr")
    assert fr.lines == [*old, "Quill garde ses PX pour plus tard."]
    assert league.aftermath(am.aftermath.id).lines == [*old, "Quill keeps his XP for later."]


def test_a_potion_after_the_match_is_narrated_in_the_readers_language(league, monkeypatch) -> None:
    import service.leagues as svc
    from engine.dice import ScriptedDice

    season(league, ALICE, BOB)
    home = league.next_fixtures(GUILD, ALICE)[0]
    league.support(GUILD, home.home_coach, home.home, "potion", 1)

    def change(state):
        state.teams["west"].support = {"potions": 1}
        w2 = state.players["w2"]
        w2.location = Location.INFIRMARY
        w2.injury = {"kind": "lasting", "attributes": ["jog"]}

    finish_with(league, change)
    (am,) = league.open_aftermaths(GUILD, home.home_coach, language="fr")
    assert am.offers[0].options[0][2] == "l'infirmerie, blessure permanente"  # where the hurt player is
    monkeypatch.setattr(svc, "HashDice", lambda seed, offset=0: ScriptedDice(faces="- *"))
    am = league.drink(am.aftermath.id, am.aftermath.version, home.home_coach, "w2")
    assert isinstance(am.aftermath.applied[-1], dict) and "events" in am.aftermath.applied[-1]  # no English stored
    assert any("drinks" in line or "potion" in line for line in am.lines)
    fr = league.aftermath(am.aftermath.id, language="fr").lines
    assert any("boit une potion" in line for line in fr) and not any("drinks" in line for line in fr)


def test_applied_lines_of_each_kind_in_both_languages() -> None:
    def entry(key, **values):
        return {"key": key, "values": values}

    cases = [
        (entry("league.applied.dead", player="Ann"), "Ann is dead: he leaves the team.", "Ann est mort : il quitte l'équipe."),
        (entry("league.applied.later.unknown"), "He keeps his XP for later.", "Il garde ses PX pour plus tard."),
        (entry("league.applied.lasting", player="Bo", attribute="might"), "Bo: lasting injury, Might -1.",
         "Bo : blessure permanente, Force -1."),
        ("An old line.", "An old line.", "An old line."),
    ]
    for stored, en, fr in cases:
        assert applied_lines(stored) == [en] and applied_lines(stored, "fr") == [fr]


def test_a_potions_question_names_its_options_in_the_readers_language() -> None:
    from engine.i18n import Catalogue
    from service.leagues import _option_label

    fr, en = Catalogue("engine", "data/text", "fr"), Catalogue("engine", "data/text", "en")
    assert [_option_label(o, fr) for o in ("steady", "steady+agile", "jog")] == ["Équilibre", "Équilibre + Agile",
                                                                                   "Mouvement"]
    assert [_option_label(o, en) for o in ("steady", "steady+agile", "jog")] == ["Steady", "Steady + Agile", "Jog"]


# --- refusals -----------------------------------------------------------------------------------------
#: Values for the placeholders of the store's refusals (the others get a name); a word the
#: catalogue names (``status.played``) is passed as a ``Term``.
WORDS = {"status": "played", "side": "west", "setting": "budget", "what": "team", "result": "home score"}
SAMPLE = {**{f: Term(f, w) for f, w in WORDS.items()},
          "reason": InvalidInputError("team_cannot_play_itself"), "channel": 500, "coach": 42, "commissioner": 42,
          "fixture": 7, "match": 7, "report": 7, "low": 1, "high": 3, "most": 64, "given": 70, "total": 12,
          "before": 3, "after": 5, "row": 4, "version": 2}


#: The service's modules that raise the store's refusals: the league service, and the rules and
#: rights that moved out of the store (``service.match_rules``, ``service.authority``, ``service.roster``).
SERVICE_REFUSING = ("leagues.py", "match_rules.py", "authority.py", "roster.py")


def _store_refusals() -> list[tuple[str, int, type, str, bool]]:
    """(file, line, error class, key, has values) of every store refusal raised with a literal
    key in the store and the services."""
    classes = {n: c for n, c in vars(errors).items() if isinstance(c, type) and issubclass(c, errors.StoreError)}
    found = []
    for path in sorted((ROOT / "db").glob("*.py")) + sorted((ROOT / "service").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in classes and node.args \
                    and isinstance(node.args[0], ast.Constant):
                found.append((path.name, node.lineno, classes[node.func.id], node.args[0].value, bool(node.keywords)))
    return found


def test_a_store_refusal_with_a_value_is_written_as_a_template() -> None:
    """Names, numbers and statuses go in as values, never baked into an f-string."""
    for path in sorted((ROOT / "db").glob("*.py")) + [ROOT / "service" / n for n in SERVICE_REFUSING]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "").endswith("Error") and node.args:
                if getattr(node.func, "id", "") == "MalformedInputError":
                    continue  # the engine's error, keyed in the engine's catalogue
                assert not isinstance(node.args[0], ast.JoinedStr), f"{path.name}:{node.lineno}"


def test_every_store_refusal_reads_in_french_and_in_english_as_written() -> None:
    english_catalogue, refusals = refusal_catalogue("en"), refusal_catalogue("fr")
    raised = _store_refusals()
    assert len(raised) > 60
    for name, line, cls, key, keyed in raised:
        assert key in english_catalogue and key in refusals, f"{name}:{line}: {key}"
        template = english_catalogue[key]
        assert placeholders(refusals[key]) == placeholders(template), key
        fields = {f for _, f, _, _ in string.Formatter().parse(template) if f}
        values = {f: SAMPLE.get(f, "Lamelunes") for f in fields}
        error = cls(key, **values) if keyed else cls(key)
        english = str(error)
        assert english == template.format(**{f: WORDS.get(f, str(v) if f == "reason" else v) for f, v in values.items()})
        assert reason_text(error, "en") == english, f"{name}:{line}"
        french = reason_text(error, "fr")
        assert french != english and french.strip(), f"{name}:{line}: {english!r} has no French"
        for f in fields & set(WORDS):
            assert refusals[f"{f}.{WORDS[f]}"] in french, (key, f)
    words = {k for k in refusals if k.split(".")[0] in WORDS}
    stale = set(refusals) - {k for *_, k, _ in raised} - words - {"match_changed"}  # MatchChangedError's own
    assert stale == set(), "translations of refusals nobody raises"


def test_the_refusals_translations_ship_with_the_package() -> None:
    import tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["db"]
    assert "text/*.json" in data and (ROOT / "db" / "text" / "refusals.fr.json").is_file()


def test_store_refusals_that_name_things_in_french() -> None:
    busy = db_leagues.InvalidInputError("team_playing_change_after_match", channel=9)
    cases = [
        (InvalidInputError("team_already_in_league", team="Lamelunes", league="Coupe"),
         "Lamelunes already plays in Coupe", "Lamelunes joue déjà dans Coupe"),
        (InvalidInputError("fixture_status_in_channel", fixture=3, status=Term("status", "played"), channel=9),
         "fixture #3 is played in <#9>", "la rencontre #3 est jouée dans <#9>"),
        (InvalidInputError("team_refused", team="Crocs", reason=busy),
         "Crocs: the team is playing in <#9>: change it after the match, or its owner may end that match at once"
         " with `/match abandon` there",
         "Crocs : l'équipe joue dans <#9> : modifiez-la après le match, ou son propriétaire peut arrêter aussitôt"
         " cette partie avec `/partie arreter` dans ce salon"),
        (NotAllowedError("only_coach_decides", coach=42),
         "only <@42> decides for this team", "seul <@42> décide pour cette équipe"),
        (InvalidInputError("setting_range", setting=Term("setting", "goals_to_win"), low=1, high=3),
         "goals_to_win must be from 1 to 3", "buts pour gagner : une valeur de 1 à 3"),
    ]
    for error, en, fr in cases:
        assert str(error) == en and reason_text(error, "en") == en and reason_text(error, "fr") == fr


def test_a_refusal_from_the_league_service_keeps_its_values(league) -> None:
    season(league, ALICE, BOB)
    league.create(GUILD, BOB, "Autre")
    with pytest.raises(InvalidInputError) as info:
        league.join(GUILD, ALICE, "Autre", "Moonblades")
    assert str(info.value) == "Moonblades already plays in Elf Cup"
    assert reason_text(info.value, "fr") == "Moonblades joue déjà dans Elf Cup"


# --- pictures ------------------------------------------------------------------------------------------
def _capture(monkeypatch, module) -> list:
    calls: list = []
    real = module.render_table

    def spy(*args, **kwargs):
        calls.append((args, kwargs))
        return real(*args, **kwargs)

    monkeypatch.setattr(module, "render_table", spy)
    return calls


def test_the_standings_picture_in_french_and_english(monkeypatch) -> None:
    import render.standings as rs
    from service.leagues import StandingRow

    assert [c.title for c in rs.standings_columns("fr")] == ["#", "Équipe", "J", "G", "N", "P", "BP", "BC", "Diff", "Bl",
                                                             "Pts"]
    assert [c.title for c in rs.STANDINGS_COLUMNS] == ["#", "Team", "P", "W", "D", "L", "GF", "GA", "GD", "Cas", "Pts"]
    calls = _capture(monkeypatch, rs)
    rows = [StandingRow(1, "Lamelunes", 11, played=1, won=1, goals_for=1, points=3)]
    assert rs.render_standings("Coupe", rows, language="fr").startswith(b"\x89PNG")
    rs.render_standings("Cup", rows)
    (fr_args, fr_kw), (en_args, en_kw) = calls
    assert fr_args[0] == "Coupe : classement" and fr_kw["notes"][0].startswith("J joués · G gagnés")
    assert en_args[0] == "Cup: standings" and en_kw["notes"] == [
        "P played · W won · D drawn · L lost · GF/GA goals for/against · Cas casualties caused"]


def _sheet():
    from engine.rosters import team_list

    tl = team_list("night elves")
    pos = tl.positions[0]
    player = SimpleNamespace(id=1, number=1, name="Quill", position_id=pos.id, attributes=pos.attributes.as_dict(),
                             abilities=["steady"], xp=5, status="active",
                             injuries=[{"kind": "lasting", "attribute": "jog"}])
    team = SimpleNamespace(name="Lamelunes", team_list=tl.id, players=[player], support={"cheerleaders": 2, "potions": 1})
    return SimpleNamespace(team=team, value=160, budget=180, league="Coupe", advances={1: 1})


def test_the_team_sheet_picture_and_support_in_french_and_english(monkeypatch) -> None:
    import render.team_sheet as ts

    assert [c.title for c in ts.sheet_columns("fr")] == ["#", "Joueur", "Poste", "M", "F", "T", "E", "H", "C", "PX",
                                                         "Aptitudes", "Blessures", "Pts"]
    assert [c.title for c in ts.SHEET_COLUMNS] == ["#", "Player", "Position", "J", "M", "T", "D", "S", "G", "XP",
                                                   "Abilities", "Injuries", "Pts"]
    assert ts.support_text({"cheerleaders": 2, "potions": 1}, "fr") == "2 Pom-pom girls, 1 Potion magique"
    assert ts.support_text({"cheerleaders": 2, "potions": 1}) == "2 Cheerleaders, 1 Magic Potion"
    assert ts.support_text({}, "fr") == "aucun soutien d'équipe" and ts.support_text({}) == "no team support"
    rows, _ = ts.sheet_cells(_sheet(), "fr")
    assert rows[0][10:12] == ["Équilibre, +1 à apprendre", "Mou -1"]
    rows, _ = ts.sheet_cells(_sheet())
    assert rows[0][10:12] == ["Steady, +1 to learn", "Jog -1"]
    calls = _capture(monkeypatch, ts)
    ts.render_team_sheet(_sheet(), language="fr")
    args, kwargs = calls[0]
    assert args[0] == "Lamelunes : feuille d'équipe"
    assert "valeur 160 sur 180 points · 1 joueurs · 2 Pom-pom girls, 1 Potion magique" in args[1]
    assert kwargs["notes"][0].startswith("En jaune : ")


def test_a_table_draws_accented_words_and_wraps_long_notes() -> None:
    import render.table as table

    columns = [table.Column("Équipe", 200)]
    short = _png_size(table.render_table("Coupe : classement", "", columns, [["Lamelunes"]], notes=["J joués"]))
    long = _png_size(table.render_table("Coupe : classement", "", columns, [["Lamelunes"]], notes=["J joués " * 20]))
    assert long[0] == short[0] and long[1] > short[1], "a long note wraps instead of being cut"
    accented = table.render_table("Coupe", "", columns, [["Amélie"]])
    assert accented.startswith(b"\x89PNG") and accented != table.render_table("Coupe", "", columns, [["Amelie"]])


def _png_size(data: bytes) -> tuple[int, int]:
    import io

    from PIL import Image

    return Image.open(io.BytesIO(data)).size
