"""A stored team is played only by its owner, through the fake Discord (issue #30: "Anyone can
lock another coach's team"). Before ``service.authority.require_team_owner``, a member's
``/match challenge opponent:@bot team:<Bob's team>`` started a match with Bob's team, which then
counted as busy: Bob's league play and hires were refused until a moderator stepped in."""

from __future__ import annotations

from fakediscord import FakeDiscord

from bot.app import ElfballBot
from service.matches import MatchService


async def test_a_member_cannot_start_a_match_against_the_bot_with_another_coachs_team(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild = fake.add_guild("Elfball Club")
        pitch, office = guild.add_text_channel("pitch"), guild.add_text_channel("office")
        alice, bob = guild.add_member("Alice"), guild.add_member("Bob")
        bot = ElfballBot(service=MatchService(width=600), dev_guild=guild.id)
        await fake.start_bot(bot)
        await fake.slash(bob, office, "team", subcommand="create", name="Moonblades", list="night-elves")

        r = await fake.slash(alice, pitch, "match challenge", opponent=fake.bot_user, team="Moonblades")
        assert r.ephemeral and "Moonblades is coached by" in r.content and "only he can play it" in r.content
        assert bot.service.current_or_none(pitch.id) is None, "no match, so nothing locks Bob's team"

        # Bob's team is free: he changes it and plays it himself.
        r = await fake.slash(bob, office, "team hire", team="Moonblades", position="Imps")
        assert "playing in" not in r.content and "worth" in r.content
        r = await fake.slash(bob, pitch, "match challenge", opponent=fake.bot_user, team="Moonblades")
        assert not r.ephemeral
        r = await fake.click(bob, r, label="Start")  # the commitment is posted; his press starts it
        match = bot.service.current(pitch.id)
        assert match.west_coach_id == bob.id and match.west_team_name == "Moonblades"
