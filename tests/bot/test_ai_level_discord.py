"""The AI coach's level through Discord (issue 22): ``/match challenge opponent:@bot level:hard``
plays the hard coach, stored with the match so a restarted bot keeps it; no level is easy."""

from __future__ import annotations

from typing import ClassVar

import pytest
from fakediscord import FakeDiscord

import service.matches as svcmod
from bot.app import ElfballBot
from ai import AICoach
from engine.match import pending
from engine.state import Phase
from service.matches import AI_COACH_ID, MatchService, ai_level


class Recording(AICoach):
    """The real coach of a level, noting the level of every decision it takes."""

    seen: ClassVar[list[str]] = []

    def choose(self, state, side, field=None):  # type: ignore[no-untyped-def]
        Recording.seen.append(self.level)
        return super().choose(state, side, field)


def _recording(monkeypatch) -> list[str]:  # type: ignore[no-untyped-def]
    Recording.seen = []
    monkeypatch.setattr(svcmod, "make_ai", lambda level: Recording(level=level))
    return Recording.seen


def _play_until_the_ai_moved(svc: MatchService, channel: int, human: int, seen: list[str], *, limit: int = 400) -> None:
    """The human side plays the easy heuristic until the AI coach took a few decisions."""
    me = AICoach()
    for _ in range(limit):
        st = svc.status(channel).state
        if len(seen) >= 5 or st.phase is Phase.MATCH_OVER:
            return
        side = pending(st).side
        svc.act(channel, human, me.choose(st, side))  # type: ignore[arg-type]
    raise AssertionError("the AI coach never decided")


@pytest.mark.slow
async def test_a_hard_challenge_to_the_bot_plays_the_hard_coach_even_after_a_restart(database, monkeypatch) -> None:
    seen = _recording(monkeypatch)
    async with FakeDiscord(timeout=60.0) as fake:
        guild = fake.add_guild("Elfball Club")
        pitch = guild.add_text_channel("pitch")
        alice = guild.add_member("Alice")
        bot = ElfballBot(service=MatchService(width=400), dev_guild=guild.id)
        await fake.start_bot(bot)
        r = await fake.slash(alice, pitch, "match challenge", opponent=fake.bot_user, team="gnolls", level="hard")
        r = await fake.click(alice, r, label="Start")  # the commitment is posted; her press starts it
        assert not r.ephemeral and "(my AI coach, hard)" in r.all_text
        match = bot.service.status(pitch.id).match
        assert ai_level(match) == "hard" and match.east_coach_id == AI_COACH_ID
        _play_until_the_ai_moved(bot.service, pitch.id, alice.id, seen)
        assert seen and set(seen) == {"hard"}
    # A new process (a restart): the level comes from the stored match, not from memory.
    seen.clear()
    restarted = MatchService(render=False)
    _play_until_the_ai_moved(restarted, pitch.id, alice.id, seen)
    assert seen and set(seen) == {"hard"}


async def test_a_challenge_to_the_bot_without_a_level_plays_the_easy_coach(database, monkeypatch) -> None:
    seen = _recording(monkeypatch)
    async with FakeDiscord(timeout=60.0) as fake:
        guild = fake.add_guild("Club Elfball", locale="fr")
        pitch = guild.add_text_channel("terrain")
        amelie = guild.add_member("Amélie", locale="fr")
        bot = ElfballBot(service=MatchService(width=400), dev_guild=guild.id)
        await fake.start_bot(bot)
        r = await fake.slash(amelie, pitch, "match challenge", opponent=fake.bot_user, team="gnolls")
        r = await fake.click(amelie, r, label="Commencer")  # the commitment is posted; her press starts it
        assert not r.ephemeral and "(mon entraîneur IA, facile)" in r.all_text
        assert ai_level(bot.service.status(pitch.id).match) == "easy"
        _play_until_the_ai_moved(bot.service, pitch.id, amelie.id, seen)
        assert seen and set(seen) == {"easy"}


async def test_a_level_against_a_member_is_refused_and_nothing_is_proposed(database) -> None:
    async with FakeDiscord(timeout=60.0) as fake:
        guild = fake.add_guild("Elfball Club")
        pitch = guild.add_text_channel("pitch")
        alice, bob = guild.add_member("Alice"), guild.add_member("Bob")
        bot = ElfballBot(service=MatchService(width=400), dev_guild=guild.id)
        await fake.start_bot(bot)
        r = await fake.slash(alice, pitch, "match challenge", opponent=bob, team="gnolls", level="hard")
        assert r.ephemeral and r.content == ("⛔ a level is for a challenge to the bot (its AI coach); "
                                             "a member plays at his own level")
        r = await fake.slash(bob, pitch, "match accept", team="sarcos")
        assert r.ephemeral and r.content == "⛔ nobody has challenged you in this channel"
