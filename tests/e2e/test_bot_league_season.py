"""A whole season through the fake Discord, as its members play it (issue 18).

Four coaches, a commissioner, six fixtures in six channels. Each match ends by concession with
hurt players and XP on both sides (set on the final state, as the Advanced rules could have left
it; the potion dice are scripted to cure). Every post-match panel is answered only by presses a
member can make (a potion, "No more potions", an injury's attribute, an ability or "later"),
and the season reaches its end: every fixture played, nothing left to decide, the standings
complete. Along the way: a name with markdown shows as written, an old team named like a
mention pings nobody, a fixture number too large and a reason too long are refused plainly, and
no SQL statement ever runs on the event loop's thread (autocompletes included).
"""

from __future__ import annotations

import asyncio
import re
import threading
import traceback

import pytest
from fakediscord import FakeDiscord
from sqlalchemy import event
from sqlmodel import select

from bot.app import ElfballBot
from db.engine import session_scope
from db.models import Aftermath, Team
from engine.dice import ScriptedDice
from engine.state import Location
from service.matches import MatchService

pytestmark = pytest.mark.slow  # a whole season of matches

TEAMS = (("Moonblades", "night-elves"), ("*Stars*", "gnolls"), ("Tinkers", "gnomes"), ("Widows", "black-widows"))
PING = re.compile(r"<@!?(\d+)>")


def hurt(state, side: str, players: dict[int, list[str]], xp: int | None = None) -> None:
    for number, attributes in players.items():
        p = state.players[f"{side[0]}{number}"]
        p.location, p.injury = Location.INFIRMARY, {"kind": "lasting", "attributes": attributes}
    if xp is not None:
        state.players[f"{side[0]}1"].xp = xp


def live_panels(fake, channel) -> list:
    return [m for m in fake.channel_messages(channel) if any(c.startswith("elfball-lg") for c in m.custom_ids)]


async def panels_posted(fake, channel, count: int) -> list:
    for _ in range(200):
        found = live_panels(fake, channel)
        if len(found) >= count:
            await fake.settle()
            return live_panels(fake, channel)
        await asyncio.sleep(0.05)
    raise AssertionError(f"{count} post-match panels never came in {channel.name}")


async def answer(fake, channel, coach, panel, drunk: set[int]) -> object:
    """One press on ``panel`` as its coach would make it: a potion first (the second time round,
    "No more potions"), then an injury's attribute, then an ability (or "later")."""
    selects = {s["custom_id"].split(":")[1]: s for s in panel.selects}
    report = int(panel.custom_ids[0].split(":")[2])
    if "potion" in selects:
        if report in drunk:
            return await fake.click(coach, panel, "elfball-lg:nopotion:*")
        drunk.add(report)
        return await fake.select(coach, panel, selects["potion"]["custom_id"],
                                 values=[selects["potion"]["options"][0]["value"]])
    if "injury" in selects:
        return await fake.select(coach, panel, selects["injury"]["custom_id"], values=["dodge"])
    options = [o["value"] for o in selects["learn"]["options"]]
    return await fake.select(coach, panel, selects["learn"]["custom_id"],
                             values=["steady" if "steady" in options else "later"])


async def test_a_four_team_season_is_played_to_its_end_by_presses_alone(database, monkeypatch) -> None:
    import service.leagues as svc

    monkeypatch.setattr(svc, "HashDice", lambda seed, offset=0: ScriptedDice(faces="- *"))  # a potion cures
    loop_thread, on_loop = threading.get_ident(), []

    def spy(_conn, _cursor, statement, *_args) -> None:
        # The bot's statements only: this test reads and arranges the database itself, on the loop.
        if threading.get_ident() == loop_thread and not any(f.filename == __file__ for f in traceback.extract_stack()[:-1]):
            on_loop.append(statement)

    event.listen(database, "before_cursor_execute", spy)
    async with FakeDiscord(timeout=15.0) as fake:
        guild = fake.add_guild("Elfball Club")
        office = guild.add_text_channel("office")
        pitches = [guild.add_text_channel(f"pitch-{i}") for i in range(6)]
        coaches = [guild.add_member(n) for n in ("Alice", "Bob", "Carol", "Dave")]
        eve = guild.add_member("Eve")  # a spectator nobody means to ping
        bot = ElfballBot(service=MatchService(width=400), dev_guild=guild.id)
        await fake.start_bot(bot)
        by_id = {m.id: m for m in coaches}

        for coach, (name, lst) in zip(coaches, TEAMS):
            r = await fake.slash(coach, office, "team", subcommand="create", name=name, list=lst)
            assert not r.ephemeral, r.content
            r = await fake.slash(coach, office, "team buy", team=name, item="potions", count=2)
            assert "worth 160 of 180" in r.content
        r = await fake.slash(coaches[3], office, "team", subcommand="create", name=f"<@{eve.id}>", list="gnolls")
        assert r.ephemeral and "cannot mention anyone" in r.content
        r = await fake.slash(coaches[3], office, "team", subcommand="create", name="Wid\u202eows", list="gnolls")
        assert r.ephemeral and "U+202E" in r.content
        with session_scope() as s:  # a team named before names were checked
            old = s.exec(select(Team).where(Team.name == "Widows")).one()
            old.name, old.name_key = f"<@{eve.id}> @everyone", f"<@{eve.id}> @everyone"
            s.add(old)
            s.commit()
        names = [t for t, _ in TEAMS[:3]] + [f"<@{eve.id}> @everyone"]

        r = await fake.slash(coaches[0], office, "league create", name="Elf Cup", goals=1)
        assert not r.ephemeral
        for coach, name in zip(coaches, names):
            r = await fake.slash(coach, office, "league join", league="Elf Cup", team=name)
            assert not r.ephemeral and "worth 160 of 180" in r.content, r.content
            assert not r.message.mentions_user(eve) and ("\\*Stars\\*" in r.content) == (name == "*Stars*")
        r = await fake.slash(coaches[0], office, "league schedule")
        assert r.content.count(" v ") == 6 and "\\*Stars\\*" in r.content and not r.message.mentions_user(eve)
        assert "@everyone" not in r.content and "@\u200beveryone" in r.content

        # Plain mistakes: refused, nothing changed.
        for number in ("99999999999999999999999", "9223372036854775808", "2147483648", "²"):
            r = await fake.slash(coaches[0], pitches[0], "league play", fixture=number)
            assert r.ephemeral and ("not a fixture number" in r.content or "no fixture" in r.content), r.content
        r = await fake.slash(coaches[0], office, "league replay", fixture="9223372036854775808")
        assert r.ephemeral
        r = await fake.slash(coaches[0], office, "league correct", fixture="2147483648", home_score=1, away_score=0,
                             reason="walkover")
        assert r.ephemeral and "no fixture" in r.content

        # The loop answers autocompletes at once: it never waits for the database itself.
        before = len(on_loop)
        for coach in coaches:
            choices = await fake.autocomplete(coach, office, "league play", option="fixture", value="")
            assert len(choices) == 3
        assert on_loop[before:] == [], f"/league play autocompletes ran SQL on the event loop: {on_loop[before:][:3]}"

        # Every match: hurt players and XP on both sides.
        real = bot.league.match_finished
        played = 0

        def finished(match, state):
            state = state.copy()
            hurt(state, "west", {2: ["jog"]}, xp=5)  # one hurt, cured by the first potion
            hurt(state, "east", {2: ["jog"], 3: ["jog", "dodge"]} if played % 2 else {2: ["jog"], 3: ["jog"]})
            return real(match, state)

        listeners = bot.league.matches.on_finish
        listeners[listeners.index(real)] = finished

        fixtures = sorted(bot.league.fixtures(guild.id, "Elf Cup"), key=lambda v: v.id)
        assert len(fixtures) == 6
        drunk: set[int] = set()
        for pitch, fixture in zip(pitches, fixtures):
            home, away = by_id[fixture.home_coach], by_id[fixture.away_coach]
            r = await fake.slash(home, pitch, "league play", fixture=str(fixture.id))
            assert not r.ephemeral, r.content
            assert not r.message.mentions_user(eve), r.message.text
            r = await fake.slash(away, pitch, "match concede")
            assert "League result recorded" in r.all_text
            await panels_posted(fake, pitch, 2)
            for _ in range(12):  # presses until no panel has a control left
                panels = live_panels(fake, pitch)
                if not panels:
                    break
                panel = panels[0]
                coach = next(c for c in (home, away) if panel.mentions_user(c))
                r = await answer(fake, pitch, coach, panel, drunk)
                assert not r.ephemeral, r.content
                assert not any(int(m) == eve.id for m in PING.findall(r.all_text))
            assert live_panels(fake, pitch) == [], "a panel kept asking"
            played += 1
            with session_scope() as s:  # what the panels said is what the database holds
                rows = s.exec(select(Aftermath).where(Aftermath.fixture_id == fixture.id)).all()
                assert len(rows) == 2 and all(a.potions_done and a.done and not a.pending for a in rows)
            assert "Everything is settled" in fake.channel_messages(pitch)[-1].content

        # The season is over: nothing to play, nothing to decide, a complete table.
        for coach in coaches:
            r = await fake.slash(coach, office, "league aftermath")
            assert r.ephemeral and "Nothing to decide" in r.content
            r = await fake.slash(coach, office, "league play")
            assert r.ephemeral and "no league fixture left" in r.content
        r = await fake.slash(eve, office, "league standings")
        assert r.attachments and "\\*Stars\\*" in r.content and not r.message.mentions_user(eve)
        assert len(re.findall(r"^\d\. .*: 3 ", r.content, re.M)) == 4
        r = await fake.slash(eve, office, "league results")
        assert r.content.count(" v ") == 6 and not r.message.mentions_user(eve)
        r = await fake.slash(eve, office, "team sheet", team=names[3])
        assert not r.ephemeral and not r.message.mentions_user(eve) and "@everyone" not in r.content

        # A correction with a reason too long for the audit trail is refused whole.
        r = await fake.slash(coaches[0], office, "league correct", fixture=str(fixtures[0].id), home_score=0,
                             away_score=0, reason="x" * 1900)
        assert r.ephemeral and "at most 200 characters" in r.content and len(r.content) < 2000
        r = await fake.slash(coaches[0], office, "league correct", fixture=str(fixtures[0].id), home_score=0,
                             away_score=0, reason="*ruled* a draw by <@" + str(eve.id) + "> " + "y" * 150)
        assert not r.ephemeral and "\\*ruled\\*" in r.content and not r.message.mentions_user(eve)
    assert on_loop == [], f"SQL ran on the event loop's thread: {on_loop[:3]}"


def test_the_longest_correction_reply_fits_discord() -> None:
    """The longest reason, the longest names (every character escaped) and the largest numbers
    still fit in one message of 2,000 characters, in both languages."""
    from datetime import UTC, datetime

    from bot.common.i18n import tr
    from db.models import FixturePublic
    from service.leagues import FixtureView
    from service.names import safe_name

    now = datetime.now(UTC)
    f = FixturePublic(id=2**31 - 1, league_id=1, round=99, home_team_id=1, away_team_id=2, status="played",
                      home_score=99, away_score=99, home_casualties=99, away_casualties=99, conceded_by="home",
                      created_at=now, updated_at=now)
    view = FixtureView(f, "*" * 64, "_" * 64, 2**63 - 1, 2**63 - 1)
    for lang in ("en", "fr"):
        text = tr(lang, "league.corrected", user=2**63 - 1, reason=safe_name("<" * 200),
                  line=view.line(mention=False, language=lang, name=safe_name), old="99-99")
        assert "\\*" * 64 in text and len(text) < 2000
