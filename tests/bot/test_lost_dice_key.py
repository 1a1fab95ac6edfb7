"""A lost dice key (issue 30, "The key"), through the fake Discord: the live match cannot roll
again, but it can still be abandoned (by a moderator, or by both coaches' votes), without a
reveal and clearly marked "dice unverifiable", so the channel and the teams are freed and a new
challenge works."""

from __future__ import annotations

import json

from fakediscord import FakeDiscord
from sqlalchemy import text
from support.bots import make_bot, start_match, world

from db.seeds import SECRET_ENV, is_sealed, new_secret

UNVERIFIABLE = "Dice unverifiable: the bot's dice key was lost"


def _stored(database, match_id):
    with database.connect() as conn:
        seed = conn.execute(text("SELECT dice_seed FROM matches WHERE id = :id"), {"id": match_id}).scalar_one()
        events = conn.execute(text("SELECT events FROM match_events WHERE match_id = :id AND kind = 'abandon'"),
                              {"id": match_id}).scalar_one()
    return seed, json.loads(events) if isinstance(events, str) else events


async def test_a_moderator_abandons_a_match_whose_key_was_replaced_and_the_channel_is_free(database, monkeypatch):
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, alice, bob, carol, mod = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        await start_match(fake, pitch, alice, bob)
        match = bot.service.status(pitch.id).match
        monkeypatch.setenv(SECRET_ENV, new_secret())  # the key is lost: the bot restarted with another one
        # The match cannot roll again: refused privately, nothing posted.
        before = len(fake.channel_messages(pitch))
        r = await fake.slash(alice, pitch, "match concede")
        assert r.ephemeral and "sealed with another key" in r.content and "abandoned" in r.content
        assert len(fake.channel_messages(pitch)) == before
        # A moderator can still end it: posted in the channel, no seed, marked unverifiable.
        r = await fake.slash(mod, pitch, "match abandon")
        assert not r.ephemeral and f"Match abandoned by <@{mod.id}>." in r.content
        assert UNVERIFIABLE in r.content and f"match #{match.id}" in r.content and "Dice seed revealed" not in r.content
        assert not r.message.mentions_user(alice) and not r.message.mentions_user(bob)
        assert bot.service.current_or_none(pitch.id) is None
        seed, events = _stored(database, match.id)
        assert is_sealed(seed)  # never revealed: nobody could open it
        assert events == [{"kind": "abandoned", "reason": "abandoned by a moderator", "dice_unverifiable": True}]
        # /match verify says so, privately, for the channel's last match and by its number.
        r = await fake.slash(carol, pitch, "match verify")
        assert r.ephemeral and f"match #{match.id} was abandoned after its dice key was lost" in r.content
        assert "dice are unverifiable" in r.content
        r = await fake.slash(carol, pitch, "match verify", match_id=match.id)
        assert r.ephemeral and "dice are unverifiable" in r.content
        # The channel and the teams are free: a new challenge, accepted, plays under the new key.
        await start_match(fake, pitch, alice, bob)
        again = bot.service.status(pitch.id).match
        assert again.id != match.id and again.active


async def test_both_coaches_abandon_a_match_whose_key_file_was_lost(database, monkeypatch, tmp_path):
    monkeypatch.delenv(SECRET_ENV, raising=False)  # the key lives in a file beside the database
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, alice, bob, carol, mod = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        await start_match(fake, pitch, alice, bob)
        match = bot.service.status(pitch.id).match
        key_file = tmp_path / "elfball.db.secret"
        assert key_file.is_file()
        key_file.unlink()  # lost (and not restored from a copy): the bot makes a new key
        r = await fake.slash(alice, pitch, "match abandon")
        assert not r.ephemeral and "wants to abandon this match" in r.content
        r = await fake.slash(bob, pitch, "match abandon")
        assert not r.ephemeral and "Both coaches agreed: the match is abandoned." in r.content
        assert UNVERIFIABLE in r.content and "Dice seed revealed" not in r.content
        assert bot.service.current_or_none(pitch.id) is None
        seed, events = _stored(database, match.id)
        assert is_sealed(seed) and events[0]["dice_unverifiable"] is True
        assert key_file.is_file()  # the new key
        await start_match(fake, pitch, alice, bob)
        assert bot.service.status(pitch.id).match.active


async def test_a_match_whose_key_is_kept_is_abandoned_with_its_reveal_as_before(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, alice, bob, carol, mod = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        await start_match(fake, pitch, alice, bob)
        match = bot.service.status(pitch.id).match
        r = await fake.slash(mod, pitch, "match abandon")
        assert "Dice seed revealed" in r.content and "unverifiable" not in r.content
        seed, events = _stored(database, match.id)
        assert not is_sealed(seed) and "dice_unverifiable" not in events[0]


async def test_the_unverifiable_abandon_is_said_in_french(database, monkeypatch):
    async with FakeDiscord(timeout=10.0) as fake:
        guild = fake.add_guild("Club Elfball", locale="fr")
        pitch = guild.add_text_channel("terrain")
        amelie, bruno = guild.add_member("Amélie", locale="fr"), guild.add_member("Bruno", locale="fr")
        mod = guild.add_member("Modo", manage_guild=True, locale="fr")
        bot = make_bot(guild)
        await fake.start_bot(bot)
        assert (await fake.slash(mod, pitch, "preferences", server_language="fr")).ephemeral
        await fake.slash(amelie, pitch, "match challenge", opponent=bruno, team="gnolls")
        assert not (await fake.slash(bruno, pitch, "match accept", team="sarcos")).ephemeral
        match = bot.service.status(pitch.id).match
        monkeypatch.setenv(SECRET_ENV, new_secret())
        r = await fake.slash(mod, pitch, "match abandon")
        assert not r.ephemeral and f"Partie arrêtée par <@{mod.id}>." in r.content
        assert f"Dés invérifiables : la clé des dés du bot a été perdue, la graine scellée de la partie n°{match.id}" \
            in r.content
        assert bot.service.current_or_none(pitch.id) is None
