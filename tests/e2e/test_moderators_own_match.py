"""Moderators through the fake Discord (issue #30, "Moderators"): a Manage Server member who plays
a match or fixture cannot end, forfeit or correct it *as a moderator* (before, his ``/match
abandon`` ended his own league match at once and the fixture went back to the schedule with fresh
secrets: a re-roll, with nothing in the league's audit); every act of a moderator standing in
for the commissioner, ``/league export`` included, is in ``/league audit`` with who and why; a
moderator's abandon of a league match is in that league's audit; and ``/league audit`` pages
through the whole history, each page within Discord's 2,000 characters."""

from __future__ import annotations

from fakediscord import FakeDiscord

from bot.app import ElfballBot
from db.engine import session_scope
from db.models import Match
from service.matches import MatchService


async def _league(fake, *, moderator_plays: bool = True):
    """The Elf Cup: Alice commissioner (no Manage Server), Mod's Moonblades (Mod may manage the
    server) and Bob's Gnashers, scheduled by Alice; a second moderator, Sam, plays no part."""
    guild = fake.add_guild("Elfball Club")
    pitch, office = guild.add_text_channel("pitch"), guild.add_text_channel("office")
    alice, bob = guild.add_member("Alice"), guild.add_member("Bob")
    mod, sam = guild.add_member("Mod", manage_guild=True), guild.add_member("Sam", manage_guild=True)
    bot = ElfballBot(service=MatchService(width=400), dev_guild=guild.id)
    await fake.start_bot(bot)
    await fake.slash(alice, office, "league create", name="Elf Cup", goals=1)
    first = mod if moderator_plays else alice
    for coach, team, lst in ((first, "Moonblades", "night-elves"), (bob, "Gnashers", "gnolls")):
        await fake.slash(coach, office, "team create", name=team, list=lst)
        r = await fake.slash(coach, office, "league join", league="Elf Cup", team=team)
        assert not r.ephemeral, r.content
    r = await fake.slash(alice, office, "league schedule", league="Elf Cup")
    assert not r.ephemeral, r.content
    return guild, pitch, office, alice, bob, mod, sam, bot


async def test_a_moderator_who_coaches_a_league_fixture_cannot_abandon_it_as_a_moderator(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, office, alice, bob, mod, sam, bot = await _league(fake)
        r = await fake.slash(mod, pitch, "league play")
        assert not r.ephemeral, r.content
        (fixture,) = bot.league.fixtures(guild.id, "Elf Cup")
        match = bot.service.current(pitch.id)
        audit_before = len(bot.league.audit(guild.id, "Elf Cup", limit=None))

        mark = fake.mark()
        r = await fake.slash(mod, pitch, "match abandon")
        assert r.ephemeral and f"you coach match #{match.id}" in r.content, r.content
        assert "as_coach:True" in r.content and "/match concede" in r.content  # says why, and what he may do
        assert fake.new_message_count(pitch, mark) == 0 and fake.edit_count(pitch, mark) == 0
        assert not fake.notifications_for(bob, since=mark)
        assert bot.service.current(pitch.id).id == match.id, "the match goes on"
        (still,) = bot.league.fixtures(guild.id, "Elf Cup")
        assert still.fixture.status == "playing" and still.fixture.dice_commitment == fixture.fixture.dice_commitment, \
            "not re-drawn: the same secrets"
        assert len(bot.league.audit(guild.id, "Elf Cup", limit=None)) == audit_before

        # Nor may he declare his opponent's forfeit, in French too.
        r = await fake.slash(mod, pitch, "match forfeit")
        assert r.ephemeral and "a moderator cannot end, forfeit or correct his own match" in r.content
        r = await fake.slash(mod, pitch, "match abandon", locale="fr")
        assert r.ephemeral and "vous ne pouvez pas arrêter aussitôt votre propre partie" in r.content
        assert bot.service.current(pitch.id).id == match.id

        # As a coach he votes like any coach: Bob must agree.
        r = await fake.slash(mod, pitch, "match abandon", as_coach=True)
        assert not r.ephemeral and f"<@{bob.id}> must agree" in r.content
        assert bot.service.current(pitch.id).id == match.id
        r = await fake.slash(bob, pitch, "match abandon")
        assert "Both coaches agreed" in r.content
        assert bot.service.current_or_none(pitch.id) is None


async def test_a_moderators_abandon_of_a_league_match_is_in_its_audit_with_who_and_why(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, office, alice, bob, mod, sam, bot = await _league(fake)
        await fake.slash(bob, pitch, "league play")
        match = bot.service.current(pitch.id)
        r = await fake.slash(sam, pitch, "match abandon", reason="left unplayed for a month")
        assert not r.ephemeral and f"Match abandoned by <@{sam.id}>" in r.content
        assert bot.service.current_or_none(pitch.id) is None

        r = await fake.slash(alice, office, "league audit")
        assert r.ephemeral
        line = next(ln for ln in r.content.splitlines() if "match_abandoned" in ln)
        assert "match_abandoned (moderator)" in line and f"by <@{sam.id}> (left unplayed for a month)" in line
        assert f"match {match.id}" in line and "fixture #" in line


async def test_a_moderator_standing_in_is_in_the_audit_with_who_and_why(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, office, alice, bob, mod, sam, bot = await _league(fake)
        r = await fake.slash(sam, office, "league settings", budget=200, reason="Alice is on holiday")
        assert not r.ephemeral and "budget 200" in r.content
        mark = fake.mark()
        r = await fake.slash(sam, office, "league settings", budget=210)  # no reason: refused, nothing changed
        assert r.ephemeral and "say why with `reason:`" in r.content and fake.new_message_count(office, mark) == 0
        r = await fake.slash(sam, office, "league settings", budget=210, reason="still away", locale="fr")
        assert not r.ephemeral
        r = await fake.slash(alice, office, "league audit")
        lines = r.content.splitlines()
        assert f"by <@{sam.id}> (standing in for <@{alice.id}>) (Alice is on holiday)" in lines[1]
        assert f"by <@{sam.id}> (standing in for <@{alice.id}>) (still away)" in lines[0]
        r = await fake.slash(alice, office, "league audit", locale="fr")
        assert f"par <@{sam.id}> (à la place de <@{alice.id}>) (still away)" in r.content

        # A fixture his own team plays: a moderator does not correct it; another moderator may.
        (fixture,) = bot.league.fixtures(guild.id, "Elf Cup")
        r = await fake.slash(mod, office, "league correct", fixture=str(fixture.id), home_score=3, away_score=0,
                             reason="walkover")
        assert r.ephemeral and f"your team plays fixture #{fixture.id}" in r.content
        assert not bot.league.fixtures(guild.id, "Elf Cup")[0].fixture.played
        r = await fake.slash(sam, office, "league correct", fixture=str(fixture.id), home_score=3, away_score=0,
                             reason="walkover")
        assert not r.ephemeral
        r = await fake.slash(alice, office, "league audit")
        assert f"by <@{sam.id}> (standing in for <@{alice.id}>) (walkover)" in r.content.splitlines()[0]


async def test_a_stand_ins_league_export_is_audited(database):
    async with FakeDiscord(timeout=20.0) as fake:
        guild, pitch, office, alice, bob, mod, sam, bot = await _league(fake)
        r = await fake.slash(sam, office, "league export", reason="archive for the newsletter")
        assert not r.ephemeral and r.attachments
        r = await fake.slash(alice, office, "league export")  # the commissioner's own: nothing to audit
        assert r.attachments
        r = await fake.slash(alice, office, "league audit")
        exports = [ln for ln in r.content.splitlines() if "site_exported" in ln]
        assert len(exports) == 1
        assert f"by <@{sam.id}> (standing in for <@{alice.id}>) (archive for the newsletter)" in exports[0]


async def test_audit_pages_reach_the_first_entry_of_a_long_history(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, office, alice, bob, mod, sam, bot = await _league(fake, moderator_plays=False)
        for budget in range(100, 180):  # a long season of changes (80 rows, well over 2,000 characters)
            bot.league.change_settings(guild.id, alice.id, "Elf Cup", {"budget": budget})
        first = bot.league.audit(guild.id, "Elf Cup", limit=None)[-1]
        assert first.action == "team_joined" and first.detail["team"] == "Moonblades"

        r = await fake.slash(bob, office, "league audit")
        assert r.ephemeral and len(r.content) <= 2000 and "Page 1 of" in r.content
        pages = int(r.content.rsplit("Page 1 of ", 1)[1].split()[0])
        assert pages >= 3
        assert "budget 178 → 179" in r.content  # the newest first
        message = r.message
        seen = [r.content]
        mark = fake.mark()
        for page in range(2, pages + 1):
            r = await fake.click(bob, message, label="Next")
            text = fake.message(message).content
            assert len(text) <= 2000 and f"Page {page} of {pages}" in text
            seen.append(text)
        assert fake.new_message_count(office, mark) == 0, "the same private message turns its pages"
        last = fake.message(message)
        assert "team_joined" in last.content and "team Moonblades" in last.content.splitlines()[-2]
        assert next(b for b in last.buttons if b["label"] == "Next").get("disabled")
        joined = "\n".join(seen)
        for budget in range(101, 180):  # every entry on some page
            assert f"budget {budget - 1} → {budget}" in joined

        r = await fake.click(bob, message, label="Previous")
        assert f"Page {pages - 1} of {pages}" in fake.message(message).content
        r = await fake.slash(bob, office, "league audit", page=999)  # past the end: the last page
        assert f"Page {pages} of {pages}" in r.content and "team_joined" in r.content
        r = await fake.slash(bob, office, "league audit", page=2, locale="fr")
        assert f"Page 2 sur {pages}" in r.content and "Précédente" in r.message.labels


async def test_a_busy_team_names_its_channel_and_its_owner_may_end_that_match(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild = fake.add_guild("Elfball Club")
        pitch, office = guild.add_text_channel("pitch"), guild.add_text_channel("office")
        bob, carol = guild.add_member("Bob"), guild.add_member("Carol")
        bot = ElfballBot(service=MatchService(width=400), dev_guild=guild.id)
        await fake.start_bot(bot)
        await fake.slash(bob, office, "team create", name="Gnashers", list="gnolls")
        challenge = await fake.slash(bob, pitch, "match challenge", opponent=fake.bot_user, team="Gnashers")
        await fake.click(bob, challenge, label="Start")  # the AI coach's match starts on its challenger's Start
        # As a match someone else started with Bob's team before the owner check existed:
        # Carol coaches it, Bob owns its team (migration 0008 records owners of old rows too).
        with session_scope() as s:
            row = s.get(Match, bot.service.current(pitch.id).id)
            assert row.west_owner_id == bob.id
            row.west_coach_id = carol.id
            s.add(row)
            s.commit()

        r = await fake.slash(bob, office, "team hire", team="Gnashers", position="Hunters")
        assert r.ephemeral and f"playing in <#{pitch.id}>" in r.content
        assert "its owner may end that match at once with `/match abandon` there" in r.content

        mark = fake.mark()
        r = await fake.slash(bob, pitch, "match abandon")
        assert not r.ephemeral and f"Match abandoned by <@{bob.id}>, who owns one of its teams." in r.content
        assert bot.service.current_or_none(pitch.id) is None and fake.new_message_count(pitch, mark) == 1
        r = await fake.slash(bob, office, "team hire", team="Gnashers", position="Hunters")
        assert not r.ephemeral and "worth" in r.content
