"""A knockout cup through the fake Discord: ``/league create format:knockout``, then the
commissioner previews the draw privately (nothing posted, nobody pinged), and his *Draw it*
posts exactly that schedule in the channel, with the coaches mentioned."""

from __future__ import annotations

import pytest
from fakediscord import FakeDiscord

from support.leagues import ALICE, BOB, CAROL, DAVE, GUILD, team

from bot.app import ElfballBot
from bot.league.cog import preview_text
from service.leagues import LeagueService
from service.matches import MatchService


@pytest.mark.slow
async def test_a_knockout_is_previewed_privately_then_drawn_in_public(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild = fake.add_guild("Elfball Club")
        office = guild.add_text_channel("office")
        alice, bob, carol, dave = (guild.add_member(n) for n in ("Alice", "Bob", "Carol", "Dave"))
        bot = ElfballBot(service=MatchService(width=600), dev_guild=guild.id)
        await fake.start_bot(bot)
        create = {o["name"]: o for o in fake.commands(guild)["league"]["options"]}["create"]
        assert {"format", "seeding", "draw_rule", "swiss_rounds"} <= {o["name"] for o in create["options"]}

        r = await fake.slash(alice, office, "league create", name="Elf Cup", format="knockout", draw_rule="higher_seed")
        assert not r.ephemeral and "Format: knockout, drawn, a drawn tie sends the higher seed through" in r.content
        commitment = bot.league.league(guild.id, "Elf Cup").draw_commitment
        assert f"`{commitment}`" in r.content
        for coach, team, lst in ((alice, "Moonblades", "night-elves"), (bob, "Gnashers", "gnolls"),
                                 (carol, "Thorns", "night-elves"), (dave, "Howlers", "gnolls")):
            await fake.slash(coach, office, "team create", name=team, list=lst)
            r = await fake.slash(coach, office, "league join", league="Elf Cup", team=team)
            assert not r.ephemeral

        # Only the commissioner previews; his preview is his alone, pings nobody, posts nothing.
        r = await fake.slash(bob, office, "league schedule", preview=True)
        assert r.ephemeral and "commissioner" in r.content
        mark = fake.mark()
        r = await fake.slash(alice, office, "league schedule", preview=True)
        assert r.ephemeral and "Preview of Elf Cup's draw" in r.content
        assert "**Knockout** (knockout, drawn, a drawn tie sends the higher seed through): 4 teams, 2 rounds" in r.content
        assert r.content.count("R1 · ") == 2 and "Seeds: 1. " in r.content and not r.message.mentions
        assert fake.new_message_count(office, mark) == 0
        assert not any(fake.notifications_for(m, since=mark) for m in (alice, bob, carol, dave))
        assert not bot.league.fixtures(guild.id, "Elf Cup"), "a preview draws nothing"
        preview_lines = [ln for ln in r.content.splitlines() if ln.startswith("R1 · ")]

        # Draw it: the schedule is posted in the channel, the same ties, the coaches mentioned.
        drawn = await fake.click(alice, r, label="Draw it")
        posted = fake.new_messages(office, mark)
        assert len(posted) == 1 and drawn.message is not None and posted[0].id == drawn.message.id
        text = posted[0].content
        assert "**The schedule**" in text and "The draw: the teams sorted by the SHA-256" in text
        secret = bot.league.league(guild.id, "Elf Cup").draw["secret"]
        assert f"secret `{secret}`" in text and commitment in text
        fixtures = bot.league.fixtures(guild.id, "Elf Cup")
        assert len(fixtures) == 2
        for line, view in zip(preview_lines, fixtures, strict=True):
            assert line == f"R1 · {view.home} v {view.away}"
        assert all(posted[0].mentions_user(m) for m in (alice, bob, carol, dave))
        assert {n.user_id for n in fake.notifications_for(bob, since=mark)} == {bob.id}

        # A second press draws nothing more: told privately.
        again = await fake.click(alice, r, label="Draw it")
        assert again.ephemeral and "already has its schedule" in again.content
        assert len(bot.league.fixtures(guild.id, "Elf Cup")) == 2

        r = await fake.slash(carol, office, "league standings")
        assert "knockout, drawn, a drawn tie sends the higher seed through: round 1 of 2" in r.content


def test_the_preview_speaks_french_and_shows_the_divisions(database):
    league = LeagueService(MatchService(render=False), render=False)
    league.create(GUILD, ALICE, "Coupe", {"format": "divisions"})
    for coach, name, lst in ((ALICE, "Lamelunes", "night elves"), (BOB, "Crocs", "gnolls"),
                             (CAROL, "Bricoleurs", "gnomes"), (DAVE, "Veuves", "black widows")):
        team(coach, name, lst)
        league.join(GUILD, coach, "Coupe", name)
    text = preview_text(league.preview(GUILD, ALICE, "Coupe"), "fr")
    assert text.startswith("**Aperçu du tirage de Coupe** : vous seul le voyez")
    assert "**Poules** (poules, tirage au sort, 2 poules, un match nul est rejoué) : 4 équipes" in text
    assert text.count("Poule ") == 2 and text.count("J1 · ") == 2 and "<@" not in text
    english = preview_text(league.preview(GUILD, ALICE, "Coupe"), "en")
    assert "Division 1: " in english and "Division 2: " in english


@pytest.mark.slow
async def test_a_knockout_s_next_tie_is_announced_and_its_dice_posted_before_it_starts(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild = fake.add_guild("Elfball Club")
        pitch = guild.add_text_channel("pitch")
        alice, bob, carol = (guild.add_member(n) for n in ("Alice", "Bob", "Carol"))
        bot = ElfballBot(service=MatchService(width=600), dev_guild=guild.id)
        await fake.start_bot(bot)
        await fake.slash(alice, pitch, "league create", name="Elf Cup", format="knockout", seeding="seeded")
        for coach, team_name, lst in ((alice, "Moonblades", "night-elves"), (bob, "Gnashers", "gnolls"),
                                      (carol, "Thorns", "night-elves")):
            await fake.slash(coach, pitch, "team create", name=team_name, list=lst)
            await fake.slash(coach, pitch, "league join", league="Elf Cup", team=team_name)
        r = await fake.slash(alice, pitch, "league schedule")
        assert r.ephemeral and "give the seeds" in r.content and not bot.league.fixtures(guild.id, "Elf Cup")
        r = await fake.slash(alice, pitch, "league schedule", seeds="Moonblades, Gnashers, Thorns")
        assert "Bye in round 1: Moonblades" in r.content and r.content.count("R1 · ") == 1

        # Gnashers v Thorns: Bob starts it, Carol concedes; the final is announced under the result.
        r = await fake.slash(bob, pitch, "league play")
        assert not r.ephemeral and r.attachments
        mark = fake.mark()
        r = await fake.slash(carol, pitch, "match concede")
        assert "League result recorded" in r.all_text
        assert "the next ties are drawn" in r.all_text and "R2 · #2 Moonblades v Gnashers" in r.all_text

        # The final's dice were never shown: Alice's first play posts them, her second starts it.
        r = await fake.slash(alice, pitch, "league play")
        assert not r.ephemeral and "was drawn from the last results" in r.content and not r.attachments
        final = bot.league.fixtures(guild.id, "Elf Cup")[-1].fixture
        assert final.dice_commitment in r.content
        r = await fake.slash(alice, pitch, "league play")
        assert not r.ephemeral and r.attachments and r.message.mentions_user(bob)
        assert bot.league.fixtures(guild.id, "Elf Cup")[-1].fixture.status == "playing"
        assert fake.new_message_count(pitch, mark) >= 3
