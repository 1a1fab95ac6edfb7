"""What Discord receives over a whole match: the bytes of the pictures the bot uploads.

A seeded match is played to its end through the fake Discord with the production pictures
(the board ``service.drawing.BOARD_WIDTH`` px wide; the close-up on demand, the Close-up button,
unless a coach or his server asks for it in the post). Every upload is counted where Discord
would count it (``fake.uploaded_bytes``); an edit that leaves a picture unchanged must keep it
by its attachment id, and after every command the channel's newest board shows exactly the
pictures of the position the command left (nothing stale kept). ``benchmarks/bench_bytes.py`` prints the
same figures; docs/benchmarks.md keeps them.
"""

from __future__ import annotations

import hashlib
from types import SimpleNamespace

import pytest
from fakediscord import FakeDiscord

import db.challenges
import service.match_rules
from ai import AICoach
from bot.app import ElfballBot
from service.matches import MatchService
from support.bots import play_until, start_match, world

#: Issue 33's budget for the bytes uploaded per action (one board message; every command of the
#: action edits it), on average over the match.
BYTES_PER_ACTION = 150 * 1024


def _digest(data: bytes) -> str:
    return hashlib.sha1(data).hexdigest()


def _newest_board(fake, channel):
    return next(m for m in reversed(fake.channel_messages(channel)) if m.attachments)


@pytest.mark.slow
async def test_a_whole_match_uploads_only_changed_pictures_within_the_budget(database, monkeypatch):
    monkeypatch.setattr(service.match_rules, "secrets", SimpleNamespace(token_hex=lambda n: ("a1" * n)[: 2 * n]))
    monkeypatch.setattr(db.challenges, "challenge_seed", lambda **_: None)
    async with FakeDiscord(timeout=15.0) as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = ElfballBot(service=MatchService(), dev_guild=guild.id)  # production widths
        await fake.start_bot(bot)
        shown: list = []

        async def listener(interaction, outcome):
            shown.append(outcome)

        bot.poster.listeners.append(listener)
        await start_match(fake, pitch, alice, bob)
        start = fake.mark()
        seen: list[tuple[int, dict[str, tuple[int, str]]]] = []  # after each command: the newest board

        def record(actor, side, mark):
            message = _newest_board(fake, pitch)
            seen.append((message.id, {a.filename: (a.id, _digest(a.data)) for a in message.attachments}))

        ais = {"west": AICoach(), "east": AICoach()}
        await play_until(fake, pitch, bot.service, {"west": alice, "east": bob}, ais, lambda o: False, limit=1500,
                         record=record)
        await fake.settle()
        commands = len(seen)
        assert len(shown) == commands + 1  # the accept's board, then one post per command
        kept = unchanged = 0
        for n, (message_id, now) in enumerate(seen):
            # The newest board shows the position the command left: the board (and the close-up,
            # had a coach asked for it in his posts; the listener sees each outcome shown).
            outcome = shown[n + 1]
            expected = [("board.png", _digest(outcome.png_in("en")))]
            close_up = outcome.close_up_in("en")
            if close_up is not None:
                expected.append(("close-up.png", _digest(close_up[0])))
            assert [(name, d) for name, (_, d) in now.items()] == expected, f"command {n + 1}: a stale picture"
            if n and seen[n - 1][0] == message_id:  # an edit: an unchanged picture is kept, not sent again
                before = seen[n - 1][1]
                for name, (att, d) in now.items():
                    if name in before and before[name][1] == d:
                        unchanged += 1
                        kept += before[name][0] == att
        sent = fake.uploaded_bytes(since=start)
        actions = sum(1 for m in fake.channel_history(pitch) if m.attachments) - 1  # the accept's board is not one
        assert "Match over" in _newest_board(fake, pitch).content and actions > 10
        assert unchanged >= 1 and kept == unchanged  # this seed edits a board to an unchanged picture
        assert sent / actions <= BYTES_PER_ACTION, f"{sent / actions / 1024:.0f} KB per action"
        print(f"{commands} commands, {actions} actions: {sent / 1024 / 1024:.1f} MB uploaded, "
              f"{sent / commands / 1024:.0f} KB per command, {sent / actions / 1024:.0f} KB per action")
