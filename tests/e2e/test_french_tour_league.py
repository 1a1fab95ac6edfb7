"""A French coach on a French server runs a league season and reads no English (and an English
one no French): the tour of ``test_french_tour`` for ``/team`` and ``/league``.

Two members of a server (and a third, who coaches nothing) go through what a league asks of
them: /team create, list, show, hire (and a hire over the league's budget, refused), fire, buy
(and a purchase over its limit, refused), sell, sheet (its picture's words too); /league
create, join (and a team already in a league, refused), settings (shown, then changed),
schedule, fixtures, play (the fixture's header, the dice commitment, an unknown fixture
refused); a match conceded, so that the league's result, the XP lines and each coach's
post-match panel appear — a player of each side is hurt in the match (a test's hand on the
final state), so the panel offers a Magic Potion, then a lasting injury, then an ability for
the players given 5 XP (``give_xp``): the coaches drink, decline the rest, choose the injured
attribute, learn an ability and put one off; /league aftermath, standings (text and picture),
results, replay, audit, correct (the commissioner; another member refused), /team learn, and a
few more refusals (an unknown fixture #99, an unknown team, another coach's team).

Every text a member sees is collected as the match tour does (``Seen``: replies, every message
of the channels at the end, autocomplete choices, the words drawn on the board, standings and
team-sheet pictures) and read by ``leaks``. The players', teams', leagues', team lists' and
positions' names are proper nouns: taken out before reading. A team list is shown by its name
(``Night Elves``), never by its id (``night-elves``) outside what one types. A few texts are
checked word for word in both languages (a team list's name, a purchase of one, the XP of a
concession).
"""

from __future__ import annotations

import re
import secrets
from types import SimpleNamespace

import pytest
from support.leagues import give_xp
from support.bots import wait_for_panels
from support.tours import CODE, Seen, leaks, message_texts, read_tour, report

from bot.app import ElfballBot
from engine.rosters import all_team_lists
from engine.state import Location
from service.matches import MatchService

pytestmark = pytest.mark.slow  # two league tours through the fake Discord

#: (French, English) names: the members', the teams', the leagues'.
NAMES = {
    "fr": {"west": "Amélie", "east": "Bruno", "third": "Chloé", "moon": "Lamelunes", "fangs": "Crocs",
           "league": "Coupe", "other": "Ligue B"},
    "en": {"west": "Alice", "east": "Bob", "third": "Carol", "moon": "Moonblades", "fangs": "Gnashers",
           "league": "Elf Cup", "other": "League B"},
}


#: A stored team's team list shown by its id (``night-elves``) rather than its name, outside code.
TEAM_LIST_ID = re.compile(r"(?<![\w/-])(?:" + "|".join(re.escape(t.id) for t in all_team_lists()) + r")(?![\w-])")


def _hurt_in_the_match(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A conceded match hurts nobody: one player of each side leaves it for the Infirmary with a
    lasting injury (two attributes to choose from), as a Tackle would have left him."""
    from service.leagues import LeagueService

    finished = LeagueService.match_finished

    def hurt(self, match, state):  # type: ignore[no-untyped-def]
        for side in ("west", "east"):
            p = state.team_players(side)[1]
            p.location, p.injury = Location.INFIRMARY, {"kind": "lasting", "attributes": ["jog", "dodge"]}
        return finished(self, match, state)

    monkeypatch.setattr(LeagueService, "match_finished", hurt)


def _roster_names() -> set[str]:
    """Every roster player's name (the store's): proper nouns, like the teams' and positions'."""
    from sqlmodel import select

    from db.engine import session_scope
    from db.models import RosterPlayer

    with session_scope() as s:
        return {p.name for p in s.exec(select(RosterPlayer)).all()}


async def league_tour(fake, language: str) -> Seen:  # type: ignore[no-untyped-def]
    n = NAMES[language]
    locale = "fr" if language == "fr" else "en-US"
    guild = fake.add_guild("Club Elfball", locale=locale)
    office, pitch = guild.add_text_channel("bureau"), guild.add_text_channel("terrain")
    west, east = guild.add_member(n["west"], locale=locale), guild.add_member(n["east"], locale=locale)
    third = guild.add_member(n["third"], locale=locale)
    bot = ElfballBot(service=MatchService(width=300), dev_guild=guild.id, warm=False)  # only the posts' words drawn
    await fake.start_bot(bot)
    seen = Seen()
    seen.names |= {n["moon"], n["fangs"], n["league"], n["other"], "Nobody"}

    async def say(member, command, channel=office, **options):  # type: ignore[no-untyped-def]
        return seen.add(await fake.slash(member, channel, command, **options))

    async def public(member, command, channel=office, **options):  # type: ignore[no-untyped-def]
        r = await say(member, command, channel, **options)
        assert not r.ephemeral, (command, options, r.content)
        return r

    async def refused(member, command, channel=office, **options):  # type: ignore[no-untyped-def]
        r = await say(member, command, channel, **options)
        assert r.ephemeral and r.content.startswith("⛔"), (command, options, r.content)
        return r

    async def suggest(member, command, option, value="", **options):  # type: ignore[no-untyped-def]
        choices = await fake.autocomplete(member, office, command, option=option, value=value, options=options or None)
        seen.texts += [c.name for c in choices]
        return choices

    # Teams.
    await suggest(west, "team create", "list", "")
    r = await public(west, "team create", name=n["moon"], list="night-elves")
    assert f"**{n['moon']}** (Night Elves)" in r.content  # the team list by its name, not its id
    await public(east, "team create", name=n["fangs"], list="gnolls")
    await refused(east, "team create", name=n["fangs"], list="gnolls")  # the name is taken
    await public(third, "team list")
    await public(third, "team show", name=n["moon"])
    await refused(third, "team show", name="Nobody")  # unknown team
    # The league, its settings, the teams joining.
    await refused(west, "league standings")  # no league yet
    await public(west, "league create", name=n["league"], goals=1)
    await public(third, "league list")
    await suggest(east, "league join", "league")
    await suggest(east, "league join", "team")
    for coach, team in ((west, n["moon"]), (east, n["fangs"])):
        await public(coach, "league join", league=n["league"], team=team)
    await refused(third, "league join", league=n["league"], team=n["moon"])  # not his team
    await public(west, "league create", name=n["other"])
    await refused(west, "league join", league=n["other"], team=n["moon"])  # already in a league
    await refused(west, "league join", league=n["league"], team="Nobody")  # unknown team
    assert (await say(east, "league settings", league=n["league"])).ephemeral  # shown privately
    await refused(east, "league settings", league=n["league"], points_win=2)  # not the commissioner
    await public(west, "league settings", league=n["league"], points_draw=2, clock_hours=48, star2=True)
    await refused(third, "league standings")  # which league? the server has two
    # Building within the budget: hire, buy, fire, sell.
    await suggest(west, "team hire", "team")
    await suggest(west, "team hire", "position", "", team=n["moon"])
    await public(west, "team hire", team=n["moon"], position="Imps", name="Quill")
    await public(west, "team buy", team=n["moon"], item="cheerleaders", count=2)
    await refused(west, "team hire", team=n["moon"], position="Imps")  # over the budget
    await refused(west, "team hire", team=n["moon"], position="Goblins")  # not of the team list
    await refused(east, "team hire", team=n["moon"], position="Imps")  # another coach's team
    await refused(west, "team hire", team="Nobody", position="Imps")  # unknown team
    await refused(west, "team buy", team=n["moon"], item="cheerleaders", count=3)  # at most 4
    await refused(west, "team buy", team=n["moon"], item="wizard")  # over the budget
    await suggest(west, "team fire", "player", "", team=n["moon"])
    await public(west, "team fire", team=n["moon"], player="Quill")
    await refused(west, "team fire", team=n["moon"], player="Nobody")
    for team, coach in ((n["moon"], west), (n["fangs"], east)):
        r = await public(coach, "team buy", team=team, item="potions", count=1)
        assert r.content.startswith({"fr": "Acheté : l'équipe a maintenant 1 Potion magique.",
                                     "en": "Bought: the team has 1 Magic Potion."}[language]), r.content
    await public(west, "team sell", team=n["moon"], item="cheerleaders", count=1)
    await refused(west, "team sell", team=n["moon"], item="kegs", count=1)  # none to sell
    r = await public(third, "team sheet", team=n["moon"])
    assert r.attachments, r.content
    # The schedule, the fixtures.
    await refused(east, "league schedule", league=n["league"])  # not the commissioner
    await public(west, "league schedule", league=n["league"])
    await refused(west, "league schedule", league=n["league"])  # made already
    await public(third, "league fixtures", league=n["league"])
    await public(third, "league results", league=n["league"])  # none yet
    # Both number 1s have 5 XP: an ability to learn after the match.
    give_xp(n["moon"], 1, 5)
    give_xp(n["fangs"], 1, 5)
    await suggest(west, "league play", "fixture")
    await refused(west, "league play", pitch, fixture="99")  # unknown fixture
    await refused(third, "league play", pitch)  # no fixture to play
    r = await public(east, "league play", pitch)
    assert r.attachments, r.content
    fixture = bot.league.fixtures(guild.id, n["league"])[0]
    seen.names_of(bot.service.status(pitch.id).state)
    await refused(west, "league play", pitch, fixture=str(fixture.id))  # being played
    await refused(west, "team hire", team=n["moon"], position="Imps")  # playing
    await public(third, "league fixtures", league=n["league"])
    coaches = {west.id: west, east.id: east}
    home, away = coaches[fixture.home_coach], coaches[fixture.away_coach]
    # The away coach concedes: the result, the XP, each coach's panel.
    r = await public(away, "match concede", pitch)
    assert {"fr": "+1 PX (l'autre équipe a abandonné).", "en": "gain 1 XP (the other team conceded)."}[language] in r.all_text
    await wait_for_panels(fake, pitch, "elfball-lgs:potion:", 2)
    assert (await say(third, "league aftermath")).ephemeral  # nothing to decide
    for coach in (home, away):
        await public(coach, "league aftermath")
    # Each coach: a potion (home drinks, away declines), the lasting injury, the ability; each
    # press posts the panel anew (the pressed one loses its controls).
    def newest(coach, prefix):  # type: ignore[no-untyped-def]
        return next(m for m in reversed(fake.channel_messages(pitch) + fake.channel_messages(office))
                    if m.mentions_user(coach) and any(c.startswith(prefix) for c in m.custom_ids))

    async def choose(coach, prefix, value=None):  # type: ignore[no-untyped-def]
        panel = newest(coach, prefix)
        menu = next(s for s in panel.selects if s["custom_id"].startswith(prefix))
        r = seen.add(await fake.select(coach, panel, menu["custom_id"], values=[value or menu["options"][0]["value"]]))
        assert not r.ephemeral, r.content
        return r

    pressed: list[str] = []
    for coach, drinks in ((home, True), (away, False)):
        if drinks:
            await choose(coach, "elfball-lgs:potion:")
            while any(c.startswith("elfball-lgs:answer:") for c in newest(coach, "elfball-lg").custom_ids):
                await choose(coach, "elfball-lgs:answer:")  # the potion asks which abilities
                pressed.append("answer")
        panel = newest(coach, "elfball-lg")
        if any(c.startswith("elfball-lg:nopotion:") for c in panel.custom_ids):
            other = home if coach is away else away
            assert seen.add(await fake.click(other, panel, "elfball-lg:nopotion:*")).ephemeral  # not his panel
            seen.add(await fake.click(coach, panel, "elfball-lg:nopotion:*"))
            pressed.append("no potion")
        if any(c.startswith("elfball-lgs:injury:") for c in newest(coach, "elfball-lg").custom_ids):
            await choose(coach, "elfball-lgs:injury:")
            pressed.append("injury")
        learn = next(s for s in newest(coach, "elfball-lgs:learn:").selects if s["custom_id"].startswith("elfball-lgs:learn:"))
        await choose(coach, "elfball-lgs:learn:", "later" if coach is away else
                     next(o["value"] for o in learn["options"] if o["value"] != "later"))
    assert pressed == ["answer", "no potion", "injury"], pressed  # the fixed dice: a potion that asks
    # The banked ability, learned later.
    away_team = fixture.away
    await suggest(away, "team learn", "player", "", team=away_team)
    offered = await suggest(away, "team learn", "ability", "", team=away_team, player="1")
    assert not (await say(away, "team learn", team=away_team, player="1", ability=offered[0].value)).ephemeral
    await refused(away, "team learn", team=away_team, player="1", ability=offered[1].value)  # 10 XP for a second
    # Standings, results, the replay, the audit trail, a correction.
    await public(third, "league standings", league=n["league"])
    await public(third, "league results", league=n["league"])
    await suggest(third, "league replay", "fixture")
    r = await public(third, "league replay", fixture=str(fixture.id))
    assert r.attachments, r.content
    await refused(third, "league replay", fixture="99")
    await refused(east, "league correct", fixture=str(fixture.id), home_score=1, away_score=1, reason="x")  # not the commissioner
    await refused(west, "league correct", fixture="99", home_score=1, away_score=1, reason="x")
    await refused(west, "league correct", fixture="abc", home_score=1, away_score=1, reason="x")
    await public(west, "league correct", fixture=str(fixture.id), home_score=1, away_score=1,
                 reason={"fr": "match nul", "en": "ruled a draw"}[language])
    assert (await say(east, "league audit", league=n["league"])).ephemeral
    await public(third, "league standings", league=n["league"])
    await public(west, "team sheet", team=away_team)
    await public(west, "team show", name=n["moon"])
    await public(west, "team list")
    # Every message of the channels, as they finally read (panels edited, posted by a worker thread).
    await fake.settle()
    for channel in (office, pitch):
        for m in fake.channel_messages(channel, include_ephemeral=True):
            seen.texts += message_texts(m)
    seen.names |= _roster_names()
    shown = [t for t in seen.texts if TEAM_LIST_ID.search(CODE.sub(" ", t))]
    assert shown == [], f"team lists by their ids: {shown}"
    return seen


async def _run(monkeypatch, language: str) -> Seen:  # type: ignore[no-untyped-def]
    import db.leagues
    import db.seeds
    import render.panels
    import render.table

    # The dice: the match's seed without the starting coach's entropy (an interaction id, which
    # changes every run); the potion's secret, committed with the schedule ("elix...+west" rolls
    # O and *: the potion asks which ability); the draw's secret is made by the same token_hex
    # (service.formats orders the teams from it), so the schedule is the same every run.
    monkeypatch.setattr(db.leagues, "fixture_seed", lambda **_: ("tour" * 32)[:64])
    monkeypatch.setattr(db.seeds, "secrets", SimpleNamespace(token_hex=lambda n: ("elix" * n)[: 2 * n],
                                                             token_bytes=secrets.token_bytes))
    _hurt_in_the_match(monkeypatch)
    return await read_tour(monkeypatch, league_tour, language, (render.panels, render.table), "league.")


async def test_a_french_league_reads_no_english(database, monkeypatch):
    seen = await _run(monkeypatch, "fr")
    found = leaks(seen.texts, sorted(seen.names), "fr")
    assert found == [], f"{len(found)} English texts in French:" + report(found)


async def test_an_english_league_reads_no_french(database, monkeypatch):
    seen = await _run(monkeypatch, "en")
    found = leaks(seen.texts, sorted(seen.names), "en")
    assert found == [], f"{len(found)} French texts in English:" + report(found)
