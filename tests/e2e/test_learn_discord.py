"""``/learn`` through the fake Discord (issue 35): a newcomer's private lessons thread, a lesson
played with the slash commands and the panel, its verdict (the explanation quoting the rule, or
the hint and Try again), his progress, who sees what, who is pinged, and French.

These run on a small lesson book of two lessons (``support.lesson_files``); every lesson of the
real book is played through the bot in ``test_learn_every_lesson.py``."""

from __future__ import annotations

import pytest
from fakediscord import FakeDiscord, FakeDiscordError, Perm
from support.bots import make_bot, world
from support.learning import lesson_thread, play_solution
from support.lesson_files import CATCH, WALK


async def learner(fake):
    guild, pitch, alice, bob, carol, mod = world(fake)
    bot = make_bot(guild)
    await fake.start_bot(bot)
    return guild, pitch, alice, bob, bot


def verdicts(fake, thread):
    return [m for m in fake.channel_history(thread) if any(c.startswith("elfball-learn:") for c in m.custom_ids)]


async def test_learn_opens_a_private_thread_and_the_lesson_is_played_to_its_goal(database, small_book):
    async with FakeDiscord() as fake:
        guild, pitch, alice, bob, bot = await learner(fake)
        threads_mod = guild.add_member("Moderator", permissions=Perm.EVERYONE_DEFAULT | Perm.MANAGE_THREADS)
        mark = fake.mark()
        reply = await fake.slash(alice, pitch, "learn start")
        thread = lesson_thread(fake, guild, alice)
        # Answered privately with a link; nothing in the channel itself.
        assert reply.ephemeral and f"<#{thread.id}>" in reply.content and "Walk" in reply.content
        assert fake.new_messages(pitch, since=mark) == []
        assert thread.is_private and not thread.invitable and thread.parent is pitch
        assert thread.name == "Elfball lessons – Alice" and thread.thread_members == [fake.application_id, alice.id]
        welcome, board = fake.channel_history(thread)
        assert welcome.mentions_user(alice) and welcome.notified == [alice.id]
        assert "Lesson 1/2 · Walk" in board.content and "Walk to H12." in board.content
        assert "Rulebook p. 7, *Catching* (docs/rules.md §7.4)" in board.content
        assert board.attachments[0].is_png and board.custom_ids and board.notified == []
        # Bob cannot see the thread nor anything in it.
        assert fake.visible_history(bob, thread) == [] and len(fake.visible_history(alice, thread)) == 2
        await play_solution(fake, bot, thread, alice, WALK["solution"])
        (verdict,) = verdicts(fake, thread)
        # The try's last board keeps no panel: the lesson's match is closed, the verdict below.
        final = fake.channel_history(thread)[-2]
        assert final.custom_ids == [] and "Goal reached" in final.content and final.attachments
        assert "Well done — Walk" in verdict.content and "He caught it (p. 7, Catching)." in verdict.content
        assert "Next: **A throw and its catch**" in verdict.content
        assert set(verdict.labels) >= {"Next lesson", "Try again", "All lessons"}
        # The one ping of it all: the welcome.
        assert [n.message_id for n in fake.notifications_for(alice, since=mark)] == [welcome.id]
        assert fake.notifications_for(bob, since=mark) == []
        # Bob's client shows him nothing there; a moderator who may manage threads sees it but
        # cannot play Alice's lessons.
        with pytest.raises(FakeDiscordError, match="private thread"):
            await fake.click(bob, verdict, label="Try again")
        before = len(fake.channel_history(thread))
        refused = await fake.click(threads_mod, verdict, label="Try again")
        assert refused.ephemeral and "not your lessons thread" in refused.content
        assert len(fake.channel_history(thread)) == before and fake.visible_history(threads_mod, thread)
        choices = await fake.autocomplete(alice, pitch, "learn start", option="lesson", value="")
        assert [c.name for c in choices] == ["✅ 01 · Walk", "02 · A throw and its catch"]
        # Next lesson: its board below, the verdict's buttons gone.
        await fake.click(alice, verdict, label="Next lesson")
        assert fake.message(verdict).custom_ids == []
        assert "Lesson 2/2 · A throw and its catch" in fake.channel_history(thread)[-1].content
        await play_solution(fake, bot, thread, alice, CATCH["solution"], typed=False)
        last = verdicts(fake, thread)[-1]
        assert "Well done — A throw and its catch" in last.content and "Play the AI coach (easy)" in last.labels
        assert "/league list" in last.content
        progress = await fake.slash(alice, pitch, "learn progress")
        assert progress.ephemeral and "2/2 done" in progress.content
        assert "✅ 01. Walk" in progress.content and "✅ 02. A throw and its catch" in progress.content
        assert [n.message_id for n in fake.notifications_for(alice, since=mark)] == [welcome.id]


async def test_a_wrong_try_gets_its_hint_and_try_again_starts_it_over(database, small_book):
    async with FakeDiscord() as fake:
        guild, pitch, alice, bob, bot = await learner(fake)
        await fake.slash(alice, pitch, "learn start", lesson="throw-and-catch")
        thread = lesson_thread(fake, guild, alice)
        await play_solution(fake, bot, thread, alice, CATCH["wrong"])
        (verdict,) = verdicts(fake, thread)
        assert "Not this time — A throw and its catch" in verdict.content
        assert "Hint:** Throw to the hex your team-mate stands on." in verdict.content
        assert "Try again" in verdict.labels and "Next lesson" not in verdict.labels
        boards = [m for m in fake.channel_history(thread) if m.attachments]
        assert "This try is over without the goal" in boards[-1].content and not boards[-1].custom_ids
        await fake.click(alice, verdict, label="Try again")
        assert "Try 2." in fake.channel_history(thread)[-1].content
        await play_solution(fake, bot, thread, alice, CATCH["solution"])
        assert "Well done" in verdicts(fake, thread)[-1].content
        progress = await fake.slash(alice, thread, "learn progress")
        assert "✅ 02. A throw and its catch (2 tries)" in progress.content and "▶️ 01. Walk" in progress.content


async def test_learn_again_reuses_the_thread_and_a_deleted_one_is_made_anew(database, small_book):
    async with FakeDiscord() as fake:
        guild, pitch, alice, bob, bot = await learner(fake)
        await fake.slash(alice, pitch, "learn start")
        thread = lesson_thread(fake, guild, alice)
        fake.archive(thread)
        again = await fake.slash(alice, pitch, "learn start", lesson="throw-and-catch")
        assert lesson_thread(fake, guild, alice) is thread and not thread.archived
        assert f"<#{thread.id}>" in again.content
        # From inside the thread too: the same thread, the lesson restarted there.
        restart = await fake.slash(alice, thread, "learn restart")
        assert restart.ephemeral and len(guild.threads) == 1
        assert "A throw and its catch" in fake.channel_history(thread)[-1].content
        # Bob's /learn is his own thread; he cannot press Alice's lesson nor see it.
        await fake.slash(bob, pitch, "learn start")
        bobs = lesson_thread(fake, guild, bob)
        assert bobs is not thread and not thread.can_see(bob) and not bobs.can_see(alice)
        fake.delete_thread(thread)
        await fake.settle()
        fresh = await fake.slash(alice, pitch, "learn start")
        made = lesson_thread(fake, guild, alice)
        assert made is not thread and f"<#{made.id}>" in fresh.content
        assert fake.channel_history(made)[0].notified == [alice.id]


async def test_without_create_private_threads_learn_is_refused_and_nothing_is_made(database, small_book):
    async with FakeDiscord() as fake:
        guild, pitch, alice, bob, carol, mod = world(fake)
        pitch.set_permissions(guild.bot_member, deny=Perm.CREATE_PRIVATE_THREADS)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        reply = await fake.slash(alice, pitch, "learn start")
        assert reply.ephemeral and "Create Private Threads" in reply.content and "Nothing was created" in reply.content
        assert guild.threads == [] and fake.channel_history(pitch) == []
        pitch.set_permissions(guild.bot_member)
        unknown = await fake.slash(alice, pitch, "learn start", lesson="juggling")
        assert unknown.ephemeral and "there is no lesson juggling" in unknown.content and guild.threads == []


async def test_a_french_member_learns_in_french(database, small_book):
    async with FakeDiscord() as fake:
        guild, pitch, alice, bob, carol, mod = world(fake)
        remy = guild.add_member("Rémy", locale="fr")
        bot = make_bot(guild)
        await fake.start_bot(bot)
        reply = await fake.slash(remy, pitch, "learn start")
        thread = lesson_thread(fake, guild, remy)
        assert "Votre leçon **Marcher**" in reply.content and thread.name == "Leçons d'Elfball – Rémy"
        welcome, board = fake.channel_history(thread)
        assert "bienvenue" in welcome.content and "Leçon 1/2 · Marcher" in board.content
        assert "Objectif :** Marchez jusqu'en H12." in board.content
        await play_solution(fake, bot, thread, remy, WALK["wrong"])
        verdict = fake.channel_history(thread)[-1]
        assert "Pas cette fois — Marcher" in verdict.content and "Réessayer" in verdict.labels
        choices = await fake.autocomplete(remy, pitch, "learn start", option="lesson", value="")
        assert [c.name for c in choices] == ["01 · Marcher", "02 · Une passe et sa réception"]


async def test_a_lesson_goes_on_after_the_bot_restarts(database, small_book):
    async with FakeDiscord() as fake:
        guild, pitch, alice, bob, bot = await learner(fake)
        await fake.slash(alice, pitch, "learn start", lesson="throw-and-catch")
        thread = lesson_thread(fake, guild, alice)
        await fake.stop_bot(bot)
        again = make_bot(guild)
        await fake.start_bot(again)
        # The panel drawn before the restart still plays, and the new process judges the try.
        await play_solution(fake, again, thread, alice, CATCH["solution"], typed=False)
        assert "Well done — A throw and its catch" in verdicts(fake, thread)[-1].content
        await fake.click(alice, verdicts(fake, thread)[-1], label="Try again")
        assert "Try 2." in fake.channel_history(thread)[-1].content


async def test_a_lesson_board_owed_through_an_outage_is_posted_later_and_pings_nobody(database, small_book):
    async with FakeDiscord(timeout=15.0) as fake:
        guild, pitch, alice, bob, carol, mod = world(fake)
        bot = make_bot(guild)
        bot.poster.timeout = 0.5
        await fake.start_bot(bot)
        await fake.slash(alice, pitch, "learn start", lesson="walk")
        thread = lesson_thread(fake, guild, alice)
        mark = fake.mark()
        outage = [fake.fail_for(p, 30) for p in ("POST /interactions/*/callback", "POST /webhooks/*",
                                                  "PATCH /webhooks/*", "POST /channels/*/messages",
                                                  "PATCH /channels/*/messages/*")]
        try:
            await fake.slash(alice, thread, "face", direction="NE", timeout=1.0)
        except AssertionError:
            pass  # the interaction fails for the member, as Discord shows it
        fake.advance(31)  # Discord answers again
        assert outage[0].hits or outage[3].hits or outage[4].hits
        assert await bot.poster.sweep() == 1
        await fake.settle()
        (owed,) = fake.new_messages(thread, since=mark)
        assert owed.attachments and owed.custom_ids and owed.notified == []
        assert fake.notifications_for(alice, since=mark) == []


async def test_a_lesson_reads_as_a_match_does_close_up_describe_and_screen_reader(database, small_book):
    """The issue asks for the close-up and the screen-reader text as in matches: the lesson's board
    post carries both buttons, each answers the member privately, and in screen-reader mode the
    lesson's posts carry the position in words themselves."""
    async with FakeDiscord() as fake:
        guild, pitch, alice, bob, bot = await learner(fake)
        await fake.slash(alice, pitch, "learn start", lesson="throw-and-catch")
        thread = lesson_thread(fake, guild, alice)
        board = [m for m in fake.channel_history(thread) if m.attachments][-1]
        assert {"Describe the board", "Close-up"} <= set(board.labels) and not board.embeds
        words = await fake.click(alice, board, label="Describe the board")
        assert words.ephemeral and "F12" in words.all_text and "I12" in words.all_text
        close = await fake.click(alice, board, label="Close-up")
        assert close.ephemeral and close.attachments and close.attachments[0].is_png
        # Screen-reader mode: the next lesson post has the board in words, no button needed.
        await fake.slash(alice, thread, "preferences", screen_reader=True)
        await fake.slash(alice, thread, "learn restart")
        board = [m for m in fake.channel_history(thread) if m.attachments][-1]
        assert board.embeds and "F12" in board.text and "Describe the board" not in board.labels
        # None of it pinged anyone after the thread's first post.
        assert all(not m.notified for m in fake.channel_history(thread)[1:])
