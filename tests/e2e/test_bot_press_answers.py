"""Every press on a panel is answered, as a member sees it in Discord: an impossible press
privately with an incident id and nothing changed; during an outage, a press on the last board
shown says the next board is on its way (not "use the newest board below", which is not there
yet); a refusal that comes after Discord closed the interaction is one log line, no traceback.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

import pytest
from fakediscord import FakeDiscord

from ai import AICoach
from engine.match import pending
from support.bots import make_bot, panel, press, start_match, world


async def _until_turn(fake, pitch, bot, coaches):
    """Play (as the AI would choose) until the panel offers the "who acts" select."""
    ais = {"west": AICoach(), "east": AICoach()}
    for _ in range(200):
        board = panel(fake, pitch)
        if any(c.startswith("elfball-select:act:") for c in board.custom_ids):
            return board
        out = bot.service.status(pitch.id)
        side = pending(out.state).side
        await press(fake, pitch, coaches[side], ais[side].choose(out.state, side), out.state)
    raise AssertionError("no turn panel in 200 commands")


async def test_an_impossible_press_is_answered_privately_with_an_incident_id_and_changes_nothing(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        await start_match(fake, pitch, alice, bob)
        coaches = {"west": alice, "east": bob}
        board = await _until_turn(fake, pitch, bot, coaches)
        out = bot.service.status(pitch.id)
        coach = coaches[pending(out.state).side]
        act_id = next(c for c in board.custom_ids if c.startswith("elfball-select:act:"))
        before, mark = out.match.version, fake.mark()
        errors = len(fake.log_records)
        # A select sent with no value: the value the panel's code reads is not there.
        reply = await fake.forge_press(coach, board, act_id, [], timeout=5.0)
        assert reply.ephemeral
        assert "incident" in reply.content and "nothing was changed" in reply.content, reply.content
        assert bot.service.status(pitch.id).match.version == before  # nothing changed
        assert fake.new_message_count(pitch, since=mark) == 0 and fake.edit_count(pitch, since=mark) == 0
        assert fake.bot_errors(errors) == []


async def test_an_empty_select_press_has_its_incident_id_in_the_log(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        await start_match(fake, pitch, alice, bob)
        coaches = {"west": alice, "east": bob}
        board = await _until_turn(fake, pitch, bot, coaches)
        coach = coaches[pending(bot.service.status(pitch.id).state).side]
        act_id = next(c for c in board.custom_ids if c.startswith("elfball-select:act:"))
        start = len(fake.log_records)
        reply = await fake.forge_press(coach, board, act_id, [], timeout=5.0)
        code = reply.content.split("incident ")[1].split(")")[0]
        logged = [r for r in fake.log_records[start:] if code in r.getMessage()]
        assert logged and logged[0].levelno == logging.WARNING and logged[0].exc_info is None


async def test_a_press_after_an_outage_is_told_the_board_is_coming_and_the_board_follows(database):
    async with FakeDiscord(timeout=30.0) as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild, owed_sweep=600)  # the periodic sweep is far away: only the press brings the board
        bot.poster.timeout = 0.5
        bot.poster.claim = timedelta(seconds=0.3)
        await fake.start_bot(bot)
        await start_match(fake, pitch, alice, bob)
        side = bot.service.status(pitch.id).deciding_side
        setter = alice if side == "west" else bob
        board = panel(fake, pitch)
        before = bot.service.status(pitch.id).match.version
        outage = [fake.fail_for(p, 30) for p in ("POST /interactions/*/callback", "POST /webhooks/*",
                                                  "PATCH /webhooks/*", "POST /channels/*/messages",
                                                  "PATCH /channels/*/messages/*")]
        try:
            await fake.click(setter, board, label="Auto set-up", timeout=1.0)
        except AssertionError:
            pass  # the interaction fails for the member, as Discord shows it
        for _ in range(300):  # the move is saved in a worker thread: wait for it (a bound, not a timing)
            if bot.service.status(pitch.id).match.version > before:
                break
            await asyncio.sleep(0.1)
        assert bot.service.status(pitch.id).match.version == before + 1  # the move counted; its board is owed
        fake.advance(31)  # Discord answers again
        assert all(f.hits for f in outage[:1])
        mark = fake.mark()
        reply = await fake.click(setter, board, label="Auto set-up", timeout=20.0)
        assert reply.ephemeral
        assert "being posted" in reply.content and "newest board below" not in reply.content, reply.content
        assert bot.service.status(pitch.id).match.version == before + 1  # nothing changed
        for _ in range(300):  # and the board does come, without waiting for the next sweep (600 s away)
            if any(m.custom_ids for m in fake.new_messages(pitch, since=mark)):
                break
            await asyncio.sleep(0.1)
        await fake.settle()
        new = [m for m in fake.new_messages(pitch, since=mark) if not m.ephemeral]
        assert len(new) == 1 and new[0].attachments and new[0].custom_ids
        assert not fake.message(board).custom_ids  # the old board lost its controls to the new one


async def test_a_refusal_after_discords_window_closed_is_one_log_line_without_traceback(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        await start_match(fake, pitch, alice, bob)
        board = panel(fake, pitch)
        start = len(fake.log_records)
        # Carol may not press; Discord has already closed the interaction when the refusal comes.
        fake.fail_next("POST /interactions/*/callback", 404, body={"message": "Unknown interaction", "code": 10062})
        with pytest.raises(AssertionError):
            await fake.click(carol, board, label="Auto set-up", timeout=1.5)
        await fake.settle()
        assert fake.bot_errors(start) == []
        late = [r for r in fake.log_records[start:] if "came too late" in r.getMessage()]
        assert len(late) == 1 and late[0].levelno == logging.WARNING and late[0].exc_info is None
        assert "10062" in late[0].getMessage() and str(carol.id) in late[0].getMessage()


async def test_a_command_answered_after_discords_window_closed_is_one_log_line_without_traceback(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        start = len(fake.log_records)
        fake.fail_next("POST /interactions/*/callback", 404, body={"message": "Unknown interaction", "code": 10062})
        with pytest.raises(AssertionError):
            await fake.slash(carol, pitch, "help", timeout=1.5)
        await fake.settle()
        assert fake.bot_errors(start) == []
        late = [r for r in fake.log_records[start:] if "came too late" in r.getMessage()]
        assert len(late) == 1 and late[0].exc_info is None and "help" in late[0].getMessage()
