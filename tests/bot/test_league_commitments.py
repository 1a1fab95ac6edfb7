"""Every league secret committed in public before any entropy exists (issue 30), through the fake
Discord: the potion dice's commitment is listed with each fixture before anyone plays, and a
fixture drawn again after an abandon has its new commitments posted before it can be played."""

from __future__ import annotations

import re

from fakediscord import FakeDiscord

from bot.app import ElfballBot
from service.matches import MatchService


def _world(fake):
    guild = fake.add_guild("Elfball Club")
    pitch, office = guild.add_text_channel("pitch"), guild.add_text_channel("office")
    alice, bob, carol = guild.add_member("Alice"), guild.add_member("Bob"), guild.add_member("Carol")
    return guild, pitch, office, alice, bob, carol


async def _season(fake, office, alice, bob):
    await fake.slash(alice, office, "team", subcommand="create", name="Moonblades", list="night-elves")
    await fake.slash(bob, office, "team", subcommand="create", name="Gnashers", list="gnolls")
    await fake.slash(alice, office, "league create", name="Elf Cup", goals=1)
    for coach, team in ((alice, "Moonblades"), (bob, "Gnashers")):
        await fake.slash(coach, office, "league join", league="Elf Cup", team=team)
    return await fake.slash(alice, office, "league schedule", league="Elf Cup")


async def test_the_potion_commitments_are_listed_with_each_fixture_before_any_play(database):
    async with FakeDiscord(timeout=30.0) as fake:
        guild, pitch, office, alice, bob, carol = _world(fake)
        bot = ElfballBot(service=MatchService(width=400), dev_guild=guild.id)
        await fake.start_bot(bot)
        schedule = await _season(fake, office, alice, bob)
        (view,) = bot.league.fixtures(guild.id, "Elf Cup")
        f = view.fixture
        line = f"dice sha256 `{f.dice_commitment[:16]}…`, potions sha256 `{f.potion_commitment[:16]}…`"
        assert not schedule.ephemeral and line in schedule.content
        listed = await fake.slash(carol, office, "league fixtures")
        assert not listed.ephemeral and line in listed.content

        # The match and, after it, the potion reports use exactly those commitments.
        started = await fake.slash(bob, pitch, "league play")
        assert not started.ephemeral and f"sha256 `{f.dice_commitment}`" in started.content
        assert bot.service.status(pitch.id).match.seed_commitment == f.dice_commitment


async def test_a_fixture_drawn_again_is_posted_before_it_can_be_played_again(database):
    async with FakeDiscord(timeout=30.0) as fake:
        guild, pitch, office, alice, bob, carol = _world(fake)
        bot = ElfballBot(service=MatchService(width=400), dev_guild=guild.id)
        await fake.start_bot(bot)
        await _season(fake, office, alice, bob)
        (first,) = bot.league.fixtures(guild.id, "Elf Cup")
        await fake.slash(bob, pitch, "league play")
        await fake.slash(alice, pitch, "match abandon")
        r = await fake.slash(bob, pitch, "match abandon")
        assert "Dice seed revealed" in r.all_text  # the old secret is public: the fixture needs new dice

        # The first play after the abandon starts nothing: it posts the new commitments, in public.
        posted = await fake.slash(bob, pitch, "league play")
        assert not posted.ephemeral and bot.service.current_or_none(pitch.id) is None
        (again,) = bot.league.fixtures(guild.id, "Elf Cup")
        f = again.fixture
        assert f.dice_commitment != first.fixture.dice_commitment
        assert f"sha256 `{f.dice_commitment}`" in posted.content and f"sha256 `{f.potion_commitment}`" in posted.content
        # Only now can it be played: the entropy comes after the post, with that commitment.
        started = await fake.slash(bob, pitch, "league play", words="second time lucky")
        assert not started.ephemeral and started.attachments
        match = bot.service.status(pitch.id).match
        assert match.seed_commitment == f.dice_commitment
        assert "“second time lucky”" in started.content and re.search(r"entropy `s-[0-9a-f]{16}`", started.content)
        history = [m.id for m in fake.channel_messages(pitch)]
        assert history.index(posted.message.id) < history.index(started.message.id)


async def test_the_fixtures_list_posts_a_redrawn_commitment_too(database):
    async with FakeDiscord(timeout=30.0) as fake:
        guild, pitch, office, alice, bob, carol = _world(fake)
        bot = ElfballBot(service=MatchService(width=400), dev_guild=guild.id)
        await fake.start_bot(bot)
        await _season(fake, office, alice, bob)
        await fake.slash(alice, pitch, "league play")
        await fake.slash(alice, pitch, "match abandon")
        await fake.slash(bob, pitch, "match abandon")
        listed = await fake.slash(carol, office, "league fixtures")
        (again,) = bot.league.fixtures(guild.id, "Elf Cup")
        f = again.fixture
        assert f"dice sha256 `{f.dice_commitment[:16]}…`, potions sha256 `{f.potion_commitment[:16]}…`" in listed.content
        started = await fake.slash(alice, pitch, "league play")
        assert started.attachments and bot.service.status(pitch.id).match.seed_commitment == again.fixture.dice_commitment


async def test_a_play_that_could_not_start_keeps_the_fixtures_dice(database, monkeypatch):
    async with FakeDiscord(timeout=30.0) as fake:
        guild, pitch, office, alice, bob, carol = _world(fake)
        bot = ElfballBot(service=MatchService(width=400), dev_guild=guild.id)
        await fake.start_bot(bot)
        await _season(fake, office, alice, bob)
        (view,) = bot.league.fixtures(guild.id, "Elf Cup")
        real, calls = bot.service.start, []

        def stops_once(**kw):
            calls.append(kw["seed"])
            if len(calls) == 1:
                raise RuntimeError("the bot stopped after seeing the seed")
            return real(**kw)

        monkeypatch.setattr(bot.service, "start", stops_once)
        dropped = await fake.slash(alice, pitch, "league play", words="same words")
        assert dropped.ephemeral and "incident" in dropped.content
        # No match was made with its secret: the fixture is back on the schedule with the same
        # dice, and the same words give the same seed. Nothing new to post first.
        (back,) = bot.league.fixtures(guild.id, "Elf Cup")
        assert back.fixture.status == "scheduled" and back.fixture.dice_commitment == view.fixture.dice_commitment
        started = await fake.slash(alice, pitch, "league play", words="same words")
        assert started.attachments and calls[0] == calls[1]
        assert bot.service.status(pitch.id).match.seed_commitment == view.fixture.dice_commitment
