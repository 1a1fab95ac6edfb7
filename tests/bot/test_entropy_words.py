"""Entropy the bot cannot choose (issue 30), through the fake Discord: a coach's words, typed on
the challenge and the accept, are shown in public and enter the seed; the accept is recorded
before the seed is computed; against the AI coach the challenge posts its commitment and the
challenger's Start (or his words) adds the entropy after it."""

from __future__ import annotations

import hashlib
import re
from datetime import datetime, timezone

from fakediscord import FakeDiscord
from support.bots import make_bot, world

from db import challenges as db_challenges
from db.engine import session_scope
from service.matches import AI_COACH_ID


def part(label: str, words: str) -> str:
    """What docs/dice.md tells a coach to compute: printf '%s' 'words' | sha256sum | cut -c1-16."""
    return f"{label}-{hashlib.sha256(words.encode('utf-8')).hexdigest()[:16]}"


def commitment_in(text: str) -> str:
    return re.search(r"sha256 `([0-9a-f]{64})`", text).group(1)


async def test_words_on_challenge_and_accept_are_public_and_make_the_entropy(database):
    async with FakeDiscord(timeout=30.0) as fake:
        guild, pitch, alice, bob, _carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        challenge = await fake.slash(alice, pitch, "match challenge", opponent=bob, team="gnolls",
                                     words="Blood and thunder")
        mine = part("c", "Blood and thunder")
        assert not challenge.ephemeral
        assert "“Blood and thunder”" in challenge.content and f"`{mine}`" in challenge.content
        posted = commitment_in(challenge.content)

        started = await fake.slash(bob, pitch, "match accept", team="sarcos", words="  éclair au chocolat ")
        his = part("a", "éclair au chocolat")
        match = bot.service.status(pitch.id).match
        # The seed's entropy is the two coaches' words, nothing the bot saw first (no Discord id).
        assert match.dice_entropy == f"{mine}.{his}" and match.seed_commitment == posted
        assert f"entropy `{mine}.{his}`" in started.content
        assert "“éclair au chocolat”" in started.content and f"`{his}`" in started.content
        assert str(challenge.interaction_id) not in match.dice_entropy
        assert str(started.interaction_id) not in match.dice_entropy

        # Revealed at the end, the seed is the committed secret joined with those words' parts.
        final = await fake.slash(alice, pitch, "match concede")
        seed = re.search(r"Dice seed revealed: `([^`]+)`", final.text).group(1)
        secret, entropy = seed.split("+")
        assert hashlib.sha256(secret.encode()).hexdigest() == posted and entropy == f"{mine}.{his}"


async def test_an_accept_is_recorded_before_the_seed_and_a_retry_keeps_its_entropy(database, monkeypatch):
    async with FakeDiscord(timeout=30.0) as fake:
        guild, pitch, alice, bob, _carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        await fake.slash(alice, pitch, "match challenge", opponent=bob, team="gnolls")
        stored: list[str] = []
        real = db_challenges.challenge_seed

        def crashes_once(**kw):
            # When the seed is computed, the accept's entropy is already stored and committed:
            # another connection reads it. The first time, the bot stops right there.
            with session_scope() as s:
                ch = db_challenges.pending_challenge(session=s, channel_id=pitch.id, now=datetime.now(timezone.utc))
                stored.append(ch.accept_entropy)
            if len(stored) == 1:
                raise RuntimeError("the bot stopped after seeing the seed")
            return real(**kw)

        monkeypatch.setattr(db_challenges, "challenge_seed", crashes_once)
        dropped = await fake.slash(bob, pitch, "match accept", team="sarcos", words="first words")
        assert dropped.ephemeral and "incident" in dropped.content
        assert bot.service.current_or_none(pitch.id) is None
        # Accepting again with other words cannot draw other dice: the first accept's entropy stands.
        started = await fake.slash(bob, pitch, "match accept", team="sarcos", words="second words")
        assert not started.ephemeral
        assert stored == [part("a", "first words")] * 2
        match = bot.service.status(pitch.id).match
        assert match.dice_entropy.endswith("." + part("a", "first words"))
        assert f"entropy `{match.dice_entropy}`" in started.content and "second words" not in started.content


async def test_against_the_ai_coach_the_challengers_words_enter_the_seed_after_the_commitment(database):
    async with FakeDiscord(timeout=30.0) as fake:
        guild, pitch, alice, bob, _carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        challenge = await fake.slash(alice, pitch, "match challenge", opponent=fake.bot_user, team="gnolls")
        # The commitment is posted, and nothing has started: the match waits for Alice's Start.
        assert not challenge.ephemeral and "my AI coach" in challenge.content
        posted = commitment_in(challenge.content)
        assert bot.service.current_or_none(pitch.id) is None
        # Only she can start it; Bob is told why, privately.
        r = await fake.click(bob, challenge, label="Start")
        assert r.ephemeral and f"<@{alice.id}>" in r.content
        assert bot.service.current_or_none(pitch.id) is None

        modal = await fake.click(alice, challenge, label="Start with my words")
        assert modal.modal is not None
        started = await fake.submit_modal(alice, modal, {"words": "Orcs never win"})
        mine = part("s", "Orcs never win")
        match = bot.service.status(pitch.id).match
        assert match.east_coach_id == AI_COACH_ID and match.seed_commitment == posted
        assert match.dice_entropy == f"c{challenge.interaction_id}.{mine}"
        assert f"entropy `c{challenge.interaction_id}.{mine}`" in started.all_text
        assert "“Orcs never win”" in started.all_text
        # The challenge's buttons are gone: it cannot be started twice.
        assert not fake.message(challenge).components


async def test_against_the_ai_coach_one_press_starts_with_the_press_as_entropy(database):
    async with FakeDiscord(timeout=30.0) as fake:
        guild, pitch, alice, _bob, _carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        challenge = await fake.slash(alice, pitch, "match challenge", opponent=fake.bot_user, team="gnolls",
                                     level="hard")
        assert "(hard)" in challenge.content
        started = await fake.click(alice, challenge, label="Start")
        match = bot.service.status(pitch.id).match
        assert match.dice_entropy == f"c{challenge.interaction_id}.s{started.interaction_id}"
        assert f"entropy `{match.dice_entropy}`" in started.all_text and "(my AI coach, hard)" in started.all_text


async def test_a_challenge_to_the_bot_in_a_thread_waits_there_for_its_start(database):
    async with FakeDiscord(timeout=30.0) as fake:
        guild, pitch, alice, _bob, _carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        r = await fake.slash(alice, pitch, "match challenge", opponent=fake.bot_user, team="gnolls", thread=True)
        assert not r.ephemeral and "<#" in r.content
        thread = guild.threads[-1]
        (waiting,) = [m for m in fake.channel_history(thread) if m.custom_ids]
        posted = commitment_in(waiting.content)
        started = await fake.click(alice, waiting, label="Start")
        match = bot.service.status(thread.id).match
        assert match.channel_id == thread.id and match.seed_commitment == posted
        assert match.dice_entropy.endswith(f".s{started.interaction_id}")
        assert bot.service.current_or_none(pitch.id) is None


async def test_a_challenge_to_the_bot_is_withdrawn_with_decline_and_its_start_is_then_refused(database):
    async with FakeDiscord(timeout=30.0) as fake:
        guild, pitch, alice, _bob, _carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        challenge = await fake.slash(alice, pitch, "match challenge", opponent=fake.bot_user, team="gnolls")
        r = await fake.slash(alice, pitch, "match decline")
        assert not r.ephemeral and r.content == f"<@{alice.id}> withdraws the challenge to my AI coach."
        r = await fake.click(alice, challenge, label="Start")
        assert r.ephemeral and "no longer waiting" in r.content
        assert bot.service.current_or_none(pitch.id) is None
