"""Reach and trust through the fake Discord: the dice commitment and its reveal, /match verify,
screen-reader mode, /match describe and the Describe button (bot/trust.py)."""

from __future__ import annotations

import hashlib
import json
import re

from fakediscord import FakeDiscord
from support.bots import make_bot, panel, start_match, world

from service.verify import record_from_json, verify


async def _set_up_both(fake, pitch, bot, alice, bob):
    """Both coaches press Auto set-up and Done, as a person would."""
    coaches = {"west": alice, "east": bob}
    for _ in range(2):
        coach = coaches[bot.service.status(pitch.id).deciding_side]
        await fake.click(coach, panel(fake, pitch), label="Auto set-up")
        await fake.click(coach, panel(fake, pitch), label="Done")


async def test_the_commitment_is_posted_the_seed_revealed_and_verify_checks_the_match(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        # The secret's commitment is posted with the challenge, before the accept exists.
        challenge = await fake.slash(alice, pitch, "match challenge", opponent=bob, team="gnolls")
        posted = re.search(r"Dice commitment: sha256 `([0-9a-f]{64})`", challenge.content).group(1)
        started = await fake.slash(bob, pitch, "match accept", team="sarcos")
        match = bot.service.status(pitch.id).match
        commitment, entropy = match.seed_commitment, match.dice_entropy
        # Both coaches' interactions are the entropy, shown at the start with the same commitment.
        assert posted == commitment and entropy == f"c{challenge.interaction_id}.a{started.interaction_id}"
        assert f"sha256 `{commitment}`" in started.content and f"entropy `{entropy}`" in started.content
        # While the match is played the seed is secret: refused privately, nothing posted.
        before = len(fake.channel_messages(pitch))
        r = await fake.slash(carol, pitch, "match verify")
        assert r.ephemeral and "still being played" in r.content and "secret" in r.content
        match_id = bot.service.status(pitch.id).match.id
        r = await fake.slash(alice, pitch, "match verify", match_id=match_id)
        assert r.ephemeral and "still being played" in r.content
        assert len(fake.channel_messages(pitch)) == before
        await _set_up_both(fake, pitch, bot, alice, bob)
        final = await fake.slash(alice, pitch, "match concede")
        assert "Match over" in final.content
        seed = re.search(r"Dice seed revealed: `([0-9a-f]+\+[0-9a-z.]+)`", final.text).group(1)
        secret, joined = seed.split("+")
        assert hashlib.sha256(secret.encode()).hexdigest() == commitment and joined == entropy
        assert f"/match verify match_id:{match_id}" in final.text
        # Anyone may now check it: the verdict and the record, which verifies offline too. Without the
        # posted commitment it is only said to hold together; with it, it is verified.
        r = await fake.slash(carol, pitch, "match verify")
        assert not r.ephemeral and r.content.startswith(f"ℹ️ Match #{match_id}") and "Verified" not in r.content
        assert "Consistent with itself only" in r.content and "commitment:" in r.content
        r = await fake.slash(carol, pitch, "match verify", commitment=posted, entropy=entropy)
        assert not r.ephemeral and r.content.startswith(f"✅ Match #{match_id}")
        assert "Verified against the commitment posted in Discord" in r.content and f"is the one posted, `{entropy}`" in r.content
        (att,) = r.attachments
        assert att.filename == f"match-{match_id}-record.json"
        record = record_from_json(json.loads(att.data))
        assert record.seed == seed and record.commitment == commitment and verify(record).ok
        assert any((row["command"] or {}).get("name") == "auto_setup" for row in record.log)
        r = await fake.slash(carol, pitch, "match verify", match_id=match_id + 100)
        assert r.ephemeral and f"no match #{match_id + 100}" in r.content


async def test_an_abandoned_match_reveals_its_seed(database):
    async with FakeDiscord() as fake:
        guild, pitch, alice, bob, carol, mod = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        await start_match(fake, pitch, alice, bob)
        commitment = bot.service.status(pitch.id).match.seed_commitment
        r = await fake.slash(mod, pitch, "match abandon")
        seed = re.search(r"Dice seed revealed: `([0-9a-f]+)\+[0-9a-z.]+`", r.content).group(1)
        assert hashlib.sha256(seed.encode()).hexdigest() == commitment
        r = await fake.slash(alice, pitch, "match verify", commitment=commitment)
        assert not r.ephemeral and "✅" in r.content


async def test_screen_reader_mode_puts_the_board_in_words_in_every_post(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        r = await fake.slash(alice, pitch, "preferences")
        assert r.ephemeral and "is **off**" in r.content
        r = await fake.slash(alice, pitch, "preferences", screen_reader=True)
        assert r.ephemeral and "is now **on**" in r.content
        assert "is **on**" in (await fake.slash(alice, pitch, "preferences")).content
        started = await start_match(fake, pitch, alice, bob)
        (words,) = [e for e in started.embeds if e.get("title") == "The board in words"]
        assert "Now: " in words["description"] and "Momentum: 0, held by nobody." in words["description"]
        assert "Bench:" in words["description"]
        assert started.attachments[0].description.startswith("Elfball board: ")
        await _set_up_both(fake, pitch, bot, alice, bob)
        board = panel(fake, pitch)
        text = " ".join(e.get("description", "") for e in board.embeds)
        assert "West on the field" in text and "facing" in text  # every player's hex and facing
        assert "Describe the board" not in board.labels  # the words are already there
        # Turned off: the picture again, with the button for anyone who wants the words.
        r = await fake.slash(alice, pitch, "preferences", screen_reader=False)
        assert r.ephemeral and "is now **off**" in r.content
        status = await fake.slash(bob, pitch, "match status")
        assert not any(e.get("title") == "The board in words" for e in status.embeds)
        assert "Describe the board" in status.message.labels


async def test_describe_is_for_anyone_privately(database):
    async with FakeDiscord() as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        r = await fake.slash(carol, pitch, "match describe")
        assert r.ephemeral and "no active match" in r.content
        await start_match(fake, pitch, alice, bob)
        r = await fake.slash(carol, pitch, "match describe")
        assert r.ephemeral and r.embeds[0]["title"] == "The board in words"
        assert "Gnolls (West) 0 – 0 Sarcos (East)" in r.embeds[0]["description"]
        before = bot.service.status(pitch.id).match.version
        r = await fake.click(carol, panel(fake, pitch), label="Describe the board")
        assert r.ephemeral or any(m.ephemeral for m in r.followups)
        assert "to set up" in r.all_text
        assert bot.service.status(pitch.id).match.version == before  # describing changes nothing
