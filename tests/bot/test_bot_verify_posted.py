"""/match verify against what was posted (issue #30): a coach copies the commitment (and the
entropy) from the match's posts and gives them to /match verify; a match whose seed is not the
committed one fails, however well its record holds together, and only a check against the
posted commitment reads "Verified" (bot/trust/cog.py, service/verify.py)."""

from __future__ import annotations

import re

from fakediscord import FakeDiscord
from support.bots import make_bot, world

from service.match_rules import MatchSide

OPERATOR_SECRET = "f" * 64  # a secret of the drawn form, chosen by the operator, with no entropy


async def _played_and_forged(fake):
    """A match challenged and accepted in Discord (its posted commitment and entropy, as a coach
    copies them), abandoned; and the operator's forgery: a match in another channel seeded with
    his own secret and no entropy, whose record holds together with its own commitment."""
    guild, pitch, alice, bob, carol, mod = world(fake)
    back_room = guild.add_text_channel("back-room")
    bot = make_bot(guild)
    await fake.start_bot(bot)
    challenge = await fake.slash(alice, pitch, "match challenge", opponent=bob, team="gnolls")
    posted = re.search(r"Dice commitment: sha256 `([0-9a-f]{64})`", challenge.content).group(1)
    started = await fake.slash(bob, pitch, "match accept", team="sarcos")
    entropy = re.search(r"entropy `([^`]+)`", started.content).group(1)
    genuine = bot.service.status(pitch.id).match.id
    await fake.slash(mod, pitch, "match abandon")
    forged = bot.service.start(guild_id=guild.id, channel_id=back_room.id, west=MatchSide(alice.id, team_list="gnolls"),
                               east=MatchSide(bob.id, team_list="sarcos"), seed=OPERATOR_SECRET).match.id
    await fake.slash(mod, back_room, "match abandon")
    return pitch, carol, posted, entropy, genuine, forged


async def test_a_forged_match_fails_against_the_posted_commitment(database):
    async with FakeDiscord(timeout=10.0) as fake:
        pitch, carol, posted, entropy, genuine, forged = await _played_and_forged(fake)
        # Alone, the forged record holds together: said so, and never "Verified".
        r = await fake.slash(carol, pitch, "match verify", match_id=forged)
        assert not r.ephemeral and r.content.startswith(f"ℹ️ Match #{forged}") and "Verified" not in r.content
        assert "Consistent with itself only" in r.content and "This seed has no entropy" not in r.content
        # Against the commitment posted with the challenge it fails, publicly, with the reason.
        r = await fake.slash(carol, pitch, "match verify", match_id=forged, commitment=f"sha256 `{posted}`")
        assert not r.ephemeral and r.content.startswith(f"❌ Match #{forged}")
        assert "NOT verified: the seed's secret is not the one committed in Discord" in r.content and posted in r.content
        # The genuine match verifies against it, entropy included, and against its first 16 digits.
        r = await fake.slash(carol, pitch, "match verify", match_id=genuine, commitment=posted, entropy=entropy)
        assert r.content.startswith(f"✅ Match #{genuine}") and "Verified against the commitment posted" in r.content
        r = await fake.slash(carol, pitch, "match verify", match_id=genuine, commitment=posted[:16].upper())
        assert r.content.startswith("✅") and "Verified against the first 16 digits" in r.content
        assert f"entropy `{entropy}` was not compared" in r.content
        # Another entropy than the posted one is caught.
        r = await fake.slash(carol, pitch, "match verify", match_id=genuine, commitment=posted, entropy="c1.a2")
        assert r.content.startswith("❌") and f"the seed's entropy is `{entropy}`, but the entropy posted" in r.content


async def test_a_malformed_commitment_or_entropy_is_refused_privately(database):
    async with FakeDiscord(timeout=10.0) as fake:
        pitch, carol, posted, entropy, genuine, _ = await _played_and_forged(fake)
        amelie = pitch.guild.add_member("Amélie", locale="fr")
        before = len(fake.channel_messages(pitch))
        r = await fake.slash(carol, pitch, "match verify", commitment="Dice commitment: sha256 my-guess")
        assert r.ephemeral and "that is not a dice commitment: copy the 64 hex digits" in r.content
        r = await fake.slash(carol, pitch, "match verify", commitment=posted, entropy="c1..a2")
        assert r.ephemeral and "that is not the match's entropy" in r.content
        r = await fake.slash(carol, pitch, "match verify", entropy=entropy)
        assert r.ephemeral and "give commitment too" in r.content
        r = await fake.slash(amelie, pitch, "match verify", commitment="abc", locale="fr")
        assert r.ephemeral and "ce n'est pas un engagement des dés" in r.content
        assert len(fake.channel_messages(pitch)) == before  # nothing posted
