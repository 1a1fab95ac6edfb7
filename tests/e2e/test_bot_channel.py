"""The bot in a real server's channel: what the channel and each member end up seeing.

One message per action, a ping only when the decision passes to a coach, typed options kept
typed, challenges and abandon votes that never vanish, no board lost in an outage, threads,
direct messages and command sync. Everything goes through the fake Discord, which counts new
messages and edits apart and notifies members as Discord does (mentions in a created message,
filtered by its allowed mentions; never on an edit).
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from types import SimpleNamespace

import pytest
from fakediscord import FakeDiscord, FakeDiscordError
from sqlmodel import select

import db.challenges
import service.match_rules
from db import posts as db_posts
from db.engine import session_scope
from db import matches as store
from db.models.challenge import Challenge
from bot.app import ElfballBot
from ai import AICoach
from service.matches import MatchService
from engine.events import event_from_dict
from engine.match import pending
from engine.narrate import narrate
from support.bots import make_bot, panel, play_until, press, slow_work, start_match, world


def _history_text(fake, channel) -> str:
    return "\n".join(m.text for m in fake.channel_history(channel))


@pytest.mark.slow
async def test_a_whole_match_posts_one_message_per_action_and_pings_only_on_hand_over(database, monkeypatch):
    # Fixed dice (as test_bot_e2e's): the match's secret, with no entropy from the accept (an
    # interaction id changes every run). Random dice made a 15-action match now and then.
    monkeypatch.setattr(service.match_rules, "secrets", SimpleNamespace(token_hex=lambda n: ("a1" * n)[: 2 * n]))
    monkeypatch.setattr(db.challenges, "challenge_seed", lambda **_: None)
    async with FakeDiscord(timeout=15.0) as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        await start_match(fake, pitch, alice, bob)
        start = fake.mark()
        coaches = {"west": alice, "east": bob}
        ais = {"west": AICoach(), "east": AICoach()}
        own_pings, handovers, handover_pings, other_pings = 0, 0, 0, 0

        def record(actor, side, mark):
            nonlocal own_pings, handovers, handover_pings, other_pings
            notes = fake.notifications[mark.notifications:]
            own_pings += sum(1 for n in notes if n.user_id == actor.id)
            now = bot.service.current_or_none(pitch.id)
            decider = None
            if now is not None:
                after = pending(now.engine_state()).side
                decider = coaches[after] if after else None
            if decider is not None and decider.id != actor.id:
                handovers += 1
                handover_pings += sum(1 for n in notes if n.user_id == decider.id)
                other_pings += sum(1 for n in notes if n.user_id not in (decider.id, actor.id))
            else:
                other_pings += sum(1 for n in notes if n.user_id != actor.id)

        await play_until(fake, pitch, bot.service, coaches, ais, lambda out: False, limit=1500, record=record)
        new = fake.new_message_count(pitch, since=start)
        with session_scope() as s:
            match = store.latest_match(session=s, channel_id=pitch.id)
            rows = store.match_events(session=s, match_id=match.id)
        kinds = [e["kind"] for r in rows for e in r.events]
        actions = kinds.count("action_started") + kinds.count("setup_completed")
        assert actions > 10
        # The decisions outside an action open a message of their own too: each Test's face-off,
        # each replacement, and the result. Counted apart, they do not weigh on a short match
        # (15 actions + 1 face-off + 2 replacements + the result: 19 messages, 1.27 per action).
        others = kinds.count("faceoff_won") + kinds.count("replacement_made") + kinds.count("match_ended")
        # One message per action, hand-overs included (the edits carry the rest).
        print(f"channel: {new} new messages for {actions} actions and {others} other decisions ({new / (actions + others):.2f} each), {fake.edit_count(pitch, since=start)} edits, {handovers} hand-overs, {handover_pings} hand-over pings, {own_pings} own pings")
        assert new / (actions + others) <= 1.3, (new, actions, others)
        assert fake.edit_count(pitch, since=start) > new  # steps, turns and re-rolls were edits
        # A ping exactly when the decision passes to a coach, never in reply to his own command.
        assert handovers > 5
        assert handover_pings == handovers, (handover_pings, handovers)
        assert own_pings == 0 and other_pings == 0
        assert carol.id not in {n.user_id for n in fake.notifications}
        # Every die of the match can be read in the channel's history.
        history = _history_text(fake, pitch)
        state = match.engine_state()
        rolls = [line for r in rows for e in r.events if e["kind"] == "challenge_rolled"
                 for line in narrate([event_from_dict(e)], state)]
        assert rolls and all(line in history for line in rolls), [x for x in rolls if x not in history][:3]
        # Nothing is left to press: the final message has the result, the board, no panel.
        final = fake.channel_history(pitch)[-1]
        assert "Match over" in final.content and final.attachments and not final.custom_ids


async def test_steps_edit_the_actions_message_and_a_slash_command_is_acknowledged_privately(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        await start_match(fake, pitch, alice, bob)
        coaches = {"west": alice, "east": bob}
        ais = {"west": AICoach(), "east": AICoach()}
        # Play on (set-up, face-off, ...) until an action offers a plain step: no odds on its
        # button, so no die decides it (the match's dice are random: the moment varies).
        service = bot.service
        for _ in range(300):
            out = service.status(pitch.id)
            side = pending(out.state).side
            board = panel(fake, pitch)
            plain = [c["custom_id"] for c in board.buttons if c["custom_id"].startswith("elfball:step:")
                     and "%" not in (c.get("label") or "") and not c.get("disabled")]
            if out.state.action is not None and out.state.in_progress is None and plain:
                break
            await press(fake, pitch, coaches[side], ais[side].choose(out.state, side), out.state)
        else:
            raise AssertionError("no plain step in 300 commands")
        coach = coaches[side]
        mark = fake.mark()
        p = out.state.acting_player
        step = plain[0]
        reply = await fake.click(coach, board, custom_id=step)
        now = service.status(pitch.id).state
        assert now.action is not None and now.in_progress is None and pending(now).side == side
        assert reply.callback_type == 7  # the press updated its own message
        assert fake.new_message_count(pitch, since=mark) == 0
        assert fake.message(board).edit_count >= 1 and fake.message(board).custom_ids  # new panel, same message
        assert p.name in fake.message(board).content or "moves" in fake.message(board).content
        mark = fake.mark()
        r = await fake.slash(coach, pitch, "face", direction="NE")
        assert r.ephemeral and r.content.startswith("✓")
        assert fake.new_message_count(pitch, since=mark) == 0
        assert fake.edit_count(pitch, since=mark) >= 1
        assert not fake.notifications[mark.notifications:]


async def test_typed_options_stay_typed(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        await start_match(fake, pitch, alice, bob)
        side = bot.service.status(pitch.id).deciding_side
        setter = alice if side == "west" else bob
        state = bot.service.status(pitch.id).state
        bench = [p for p in state.team_players(side) if p.location.value == "bench"]
        before = bot.service.status(pitch.id).match.version
        # An option cannot carry another: the hex and facing typed are the ones used (Z99 refused).
        mover = bench[1]
        r = await fake.slash(setter, pitch, "setup", subcommand="place", player=f"{mover.id} F7 E", hex="Z99", facing="W")
        assert r.ephemeral
        r = await fake.slash(setter, pitch, "setup", subcommand="place", player=mover.id, hex="Z99", facing="W")
        assert r.ephemeral and "Z99" in r.content
        # A player with no letter or digit matches nobody.
        r = await fake.slash(setter, pitch, "act", player="🏈")
        assert r.ephemeral
        assert bot.service.status(pitch.id).match.version == before


async def test_a_board_that_could_not_be_posted_is_owed_and_posted_once_when_discord_answers(database):
    async with FakeDiscord(timeout=15.0) as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild, owed_sweep=0.2)
        bot.poster.timeout = 0.5
        bot.poster.claim = timedelta(seconds=0.3)  # a sweep's failed post is retried soon
        await fake.start_bot(bot)
        await start_match(fake, pitch, alice, bob)
        side = bot.service.status(pitch.id).deciding_side
        setter = alice if side == "west" else bob
        board = panel(fake, pitch)
        log_before = bot.service.status(pitch.id).match.version
        # Discord answers 500 to every post and edit of a message for 30 s (of the fake's clock).
        outage = [fake.fail_for(p, 30) for p in ("POST /interactions/*/callback", "POST /webhooks/*",
                                                  "PATCH /webhooks/*", "POST /channels/*/messages",
                                                  "PATCH /channels/*/messages/*")]
        mark = fake.mark()
        try:
            await fake.click(setter, board, label="Auto set-up", timeout=1.0)
        except AssertionError:
            pass  # the interaction fails for the member, as Discord shows it
        await asyncio.sleep(1.0)
        after = bot.service.status(pitch.id).match
        assert after.version == log_before + 1  # the move counted
        with session_scope() as s:
            post = db_posts.get_post(session=s, match_id=after.id)
        assert post is not None and post.owed
        assert fake.new_message_count(pitch, since=mark) == 0
        fake.advance(31)  # Discord answers again
        assert all(f.hits for f in outage[:1])
        for _ in range(50):
            await asyncio.sleep(0.1)
            if fake.new_message_count(pitch, since=mark):
                break
        await fake.settle()
        await asyncio.sleep(0.5)
        new = fake.new_messages(pitch, since=mark)
        assert len(new) == 1, new  # once
        shown = new[0]
        assert shown.attachments and shown.custom_ids  # the board and the panel
        assert "every move counted" in shown.content
        assert bot.service.status(pitch.id).match.version == after.version  # the log is unchanged
        with session_scope() as s:
            assert not db_posts.get_post(session=s, match_id=after.id).owed


async def test_game_commands_are_refused_in_direct_messages_and_lookups_answer(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = ElfballBot(service=MatchService(width=600))  # global commands, as in production
        await fake.start_bot(bot)
        dm = fake.dm_channel_for(alice)
        r = await fake.slash(alice, dm, "odds", dice=4, need=2)
        assert r.ephemeral and "success" in r.content
        r = await fake.slash(alice, dm, "roll", dice=2, need=1)
        assert "seed" in r.content
        # The game's commands are not offered in a DM (the client hides server-only commands).
        with pytest.raises(FakeDiscordError):
            await fake.slash(alice, dm, "match challenge", opponent=bob, team="gnolls")
        with pytest.raises(FakeDiscordError):
            await fake.slash(alice, dm, "act", player="w1")
        synced = fake.commands()
        assert synced["match"].get("dm_permission") is False or 1 not in (synced["match"].get("contexts") or [1])
        assert synced["odds"].get("dm_permission", True) is not False
        # In the server, the same global commands work.
        r = await fake.slash(alice, pitch, "match challenge", opponent=bob, team="gnolls")
        assert not r.ephemeral


async def test_a_thread_hosts_a_match_and_reminders_reach_it_archived(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        r = await fake.slash(alice, pitch, "match challenge", opponent=bob, team="gnolls", thread=True)
        assert not r.ephemeral and "<#" in r.content
        thread = guild.threads[-1]
        assert any(m.notified and bob.id in m.notified for m in fake.channel_history(thread))
        r = await fake.slash(bob, thread, "match accept", team="sarcos")
        assert not r.ephemeral and r.attachments
        assert bot.service.current_or_none(thread.id) is not None
        assert bot.service.current_or_none(pitch.id) is None  # the channel stays free for others
        fake.archive(thread)
        side = bot.service.status(thread.id).deciding_side
        setter = alice if side == "west" else bob
        # The match goes on in the archived thread (the bot unarchives it to post).
        r = await fake.slash(setter, thread, "setup", subcommand="auto")
        assert not r.ephemeral or r.content.startswith("✓")
        assert not thread.archived


async def test_commands_are_synced_once_and_not_again_when_unchanged(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        assert bot.synced and fake.sync_count >= 1
        count = fake.sync_count
        await fake.stop_bot(bot)
        again = make_bot(guild)
        await fake.start_bot(again, synced=False)
        assert not again.synced and fake.sync_count == count
        assert "match" in fake.command_names(guild)


# --- races, on SQLite and PostgreSQL --------------------------------------------------------------
@pytest.mark.usefixtures("store")
async def test_challenges_in_twenty_channels_at_once_are_all_kept():
    async with FakeDiscord(timeout=15.0) as fake:
        guild = fake.add_guild("Elfball Club")
        channels = [guild.add_text_channel(f"pitch-{i}") for i in range(20)]
        members = [guild.add_member(f"M{i}") for i in range(21)]
        bot = make_bot(guild)
        await fake.start_bot(bot)
        replies = await asyncio.gather(*(fake.slash(members[i], channels[i], "match challenge", opponent=members[i + 1],
                                                    team="gnolls") for i in range(20)))
        assert not any(r.ephemeral for r in replies)
        with session_scope() as s:
            kept = s.exec(select(Challenge)).all()
        assert sorted(c.channel_id for c in kept) == sorted(c.id for c in channels)


@pytest.mark.usefixtures("store")
async def test_five_challenges_in_one_channel_keep_one_and_refuse_four_by_name():
    async with FakeDiscord(timeout=15.0) as fake:
        guild = fake.add_guild("Elfball Club")
        pitch = guild.add_text_channel("pitch")
        members = [guild.add_member(f"M{i}") for i in range(10)]
        bot = make_bot(guild)
        await fake.start_bot(bot)
        replies = await asyncio.gather(*(fake.slash(members[i], pitch, "match challenge", opponent=members[i + 5],
                                                    team="gnolls") for i in range(5)))
        kept = [r for r in replies if not r.ephemeral]
        refused = [r for r in replies if r.ephemeral]
        assert len(kept) == 1 and len(refused) == 4
        with session_scope() as s:
            rows = s.exec(select(Challenge)).all()
        assert len(rows) == 1
        winner = rows[0].challenger_id
        assert all(f"<@{winner}>" in r.content and "lapses" in r.content for r in refused)
        # The opponent of the kept challenge can accept it.
        opponent = next(m for m in members if m.id == rows[0].opponent_id)
        r = await fake.slash(opponent, pitch, "match accept", team="sarcos")
        assert not r.ephemeral and r.attachments


@pytest.mark.usefixtures("store")
async def test_accept_racing_decline_and_abandon_votes_racing():
    async with FakeDiscord(timeout=15.0) as fake:
        guild = fake.add_guild("Elfball Club")
        pitch = guild.add_text_channel("pitch")
        alice, bob = guild.add_member("Alice"), guild.add_member("Bob")
        bot = make_bot(guild)
        await fake.start_bot(bot)
        for _ in range(3):
            await fake.slash(alice, pitch, "match challenge", opponent=bob, team="gnolls")
            acc, dec = await asyncio.gather(fake.slash(bob, pitch, "match accept", team="sarcos"),
                                            fake.slash(bob, pitch, "match decline"))
            assert acc.ephemeral != dec.ephemeral  # exactly one of them happened
            started = bot.service.current_or_none(pitch.id)
            assert (started is not None) == (not acc.ephemeral)
            if started is not None:
                a, b = await asyncio.gather(fake.slash(alice, pitch, "match abandon"),
                                            fake.slash(bob, pitch, "match abandon"))
                texts = [a.content, b.content]
                assert sum("Both coaches agreed" in t for t in texts) == 1, texts
                assert bot.service.current_or_none(pitch.id) is None


async def test_a_slow_hand_over_still_pings_and_a_name_that_looks_like_a_mention_pings_nobody(database, monkeypatch):
    from sqlalchemy import text

    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        await fake.slash(alice, pitch, "team", subcommand="create", name="Sneaky", list="gnolls")
        with database.begin() as conn:  # names stored before names were checked
            conn.execute(text("UPDATE roster_players SET name = :n"), {"n": f"<@{carol.id}>"})
        await fake.slash(alice, pitch, "match challenge", opponent=bob, team="Sneaky")
        await fake.slash(bob, pitch, "match accept", team="sarcos")
        slow_work(monkeypatch)  # every answer is deferred first
        coaches = {"west": alice, "east": bob}
        ais = {"west": AICoach(), "east": AICoach()}
        handed = 0
        for _ in range(6):
            out = bot.service.status(pitch.id)
            side = pending(out.state).side
            mark = fake.mark()
            reply = await press(fake, pitch, coaches[side], ais[side].choose(out.state, side), out.state)
            assert not reply.ephemeral or reply.content.startswith("✓"), reply.content
            after = pending(bot.service.status(pitch.id).state).side
            if after != side:
                handed += 1
                assert [n.user_id for n in fake.notifications[mark.notifications:]] == [coaches[after].id]
        assert handed >= 1
        assert str(carol.id) in _history_text(fake, pitch)  # his name is shown, as text...
        assert not any(m.mentions_user(carol) for m in fake.channel_history(pitch))
        assert carol.id not in {n.user_id for n in fake.notifications}  # ...but never a ping


async def test_reminders_and_owed_boards_reach_a_match_in_an_archived_thread(database):
    from datetime import timedelta

    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild, reminder_sweep=0.05, owed_sweep=0.1, service_kw={"reminder_after": timedelta(seconds=0.5)})
        await fake.start_bot(bot)
        await fake.slash(alice, pitch, "match challenge", opponent=bob, team="gnolls", thread=True)
        thread = guild.threads[-1]
        await fake.slash(bob, thread, "match accept", team="sarcos")
        fake.archive(thread)
        msg = await fake.wait_for_message(thread, check=lambda m: "a decision is waiting" in m.content, timeout=5)
        decider = bot.service.status(thread.id).match.deciding_user_id
        assert msg.notified == [decider] and not thread.archived
        # An owed board of a match in an archived thread is posted there too.
        fake.archive(thread)
        from datetime import datetime, timezone

        from engine import commands as C
        from service import posts as service_posts

        moved = bot.service.act(thread.id, decider, C.AutoSetup())  # saved, but its post failed
        service_posts.record_owed(bot.service.sessions, moved.match, thread.id, datetime.now(timezone.utc))
        shown = await fake.wait_for_message(thread, check=lambda m: "every move counted" in m.content, timeout=5)
        assert shown.attachments and shown.custom_ids


async def test_sync_commands_for_operators(database, tmp_path, monkeypatch):
    from bot.app import sync_commands

    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        monkeypatch.setenv("DISCORD_TOKEN", fake.token)
        monkeypatch.setenv("ELFBALL_DB", str(tmp_path / "ops.db"))
        monkeypatch.delenv("DATABASE_URL", raising=False)
        before = fake.sync_count
        assert await asyncio.to_thread(sync_commands, guild.id) == 0
        assert fake.sync_count == before + 1 and "match" in fake.command_names(guild)
        assert await asyncio.to_thread(sync_commands, guild.id) == 0  # forced: synced again
        assert fake.sync_count == before + 2
        monkeypatch.delenv("DISCORD_TOKEN")
        assert sync_commands(None) == 2  # no token: explained, exit code 2


async def test_a_slow_accept_fills_its_deferred_answer_with_the_board(database, monkeypatch):
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        await fake.start_bot(make_bot(guild))
        await fake.slash(alice, pitch, "match challenge", opponent=bob, team="gnolls")
        slow_work(monkeypatch)  # a busy bot (e.g. under load): the accept is deferred first
        reply = await fake.slash(bob, pitch, "match accept", team="sarcos")
        assert reply.deferred and not reply.ephemeral
        assert reply.attachments and reply.attachments[0].is_png  # the board fills the deferred answer
        assert panel(fake, pitch).custom_ids and not fake.bot_errors()
