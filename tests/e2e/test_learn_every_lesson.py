"""Every lesson of the book, played by a scripted newcomer through the fake Discord (issue 35):
``/learn start``, then for each lesson its wrong try (answered with its hint), **Try again**, its
solution typed as the slash commands a member types (the panel pressed for what has no command:
a catch, a re-roll, an interception), and **Next lesson**; at the end ``/learn progress`` ticks
them all. Then the lessons a panel can play alone, by presses only.

The lessons' ``solution`` and ``wrong`` lines are the console's grammar (``service.grammar``):
``support.learning`` turns each into the gesture a member makes."""

from __future__ import annotations

import pytest
from fakediscord import FakeDiscord
from support.bots import make_bot, world
from support.learning import NoPress, end_the_try, lesson_thread, play_solution

from service import lesson_book

pytestmark = pytest.mark.slow


def book():
    found = lesson_book.lessons()
    if not found:
        pytest.skip("the lesson book is empty")
    return found


def verdict(fake, thread, chosen):
    last = fake.channel_history(thread)[-1]
    assert any(c.startswith("elfball-learn:") for c in last.custom_ids), f"{chosen.id}: no verdict: {last.content}"
    return last


async def test_a_newcomer_completes_every_lesson_with_slash_commands_after_a_wrong_try(database):
    lessons = book()
    async with FakeDiscord(timeout=20) as fake:
        guild, pitch, alice, bob, carol, mod = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        mark = fake.mark()
        await fake.slash(alice, pitch, "learn start")
        thread = lesson_thread(fake, guild, alice)
        for n, chosen in enumerate(lessons):
            board = fake.channel_history(thread)[-1]
            assert chosen.text("title") in board.content and chosen.text("goal") in board.content, chosen.id
            await play_solution(fake, bot, thread, alice, chosen.wrong)
            await end_the_try(fake, bot, thread, alice)
            wrong = verdict(fake, thread, chosen)
            assert "Not this time" in wrong.content and chosen.text("hint") in wrong.content, chosen.id
            await fake.click(alice, wrong, label="Try again")
            await play_solution(fake, bot, thread, alice, chosen.solution)
            done = verdict(fake, thread, chosen)
            assert "Well done" in done.content, (chosen.id, fake.channel_history(thread)[-2].content)
            assert f"p. {chosen.rule['page']}" in done.content, chosen.id
            if n + 1 < len(lessons):
                await fake.click(alice, done, label="Next lesson")
            else:
                assert "Play the AI coach (easy)" in done.labels and "Next lesson" not in done.labels
        progress = await fake.slash(alice, pitch, "learn progress")
        assert f"{len(lessons)}/{len(lessons)} done" in progress.all_text
        assert progress.all_text.count("✅") == len(lessons)
        # In all of it one ping, the thread's welcome; nobody else saw a thing.
        assert len(fake.notifications_for(alice, since=mark)) == 1 and fake.notifications_for(bob, since=mark) == []
        assert fake.visible_history(bob, thread) == []
        # Play the AI coach: a challenge to the bot at the easy level, in his own thread (the
        # channel may have a match going on; nobody else is flooded by his first match).
        before = fake.mark()
        offer = await fake.click(alice, done, label="Play the AI coach (easy)")
        challenge = fake.channel_history(thread)[-1]
        assert offer.ephemeral and "easy" in challenge.content and "Start" in challenge.labels
        assert fake.new_messages(pitch, since=before) == []
        started = await fake.click(alice, challenge, label="Start")
        assert not started.ephemeral and bot.service.current_or_none(thread.id) is not None
        # While it is played there, a lesson is refused, privately, with what to do.
        busy = await fake.slash(alice, thread, "learn start")
        assert busy.ephemeral and "finish it" in busy.content and bot.service.current_or_none(thread.id).active


async def test_lessons_played_by_panel_presses_only(database):
    lessons = book()
    async with FakeDiscord(timeout=20) as fake:
        guild, pitch, alice, bob, carol, mod = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        pressed = []
        for chosen in lessons:
            await fake.slash(alice, pitch, "learn start", lesson=chosen.id)
            thread = lesson_thread(fake, guild, alice)
            try:
                await play_solution(fake, bot, thread, alice, chosen.solution, typed=False)
            except NoPress:
                continue
            assert "Well done" in verdict(fake, thread, chosen).content, chosen.id
            pressed.append(chosen.id)
        assert len(pressed) >= min(3, len(lessons)), pressed
