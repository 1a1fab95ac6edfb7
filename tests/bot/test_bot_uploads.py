"""What a board post uploads: an edit sends only the pictures that changed (Discord keeps the
others by their attachment ids), and the message still shows the current board and close-up."""

from __future__ import annotations

from fakediscord import FakeDiscord

from support.bots import make_bot, panel, start_match, world


def _pictures(message):
    return [(a.filename, a.data) for a in message.attachments if a.is_png]


async def test_an_edit_that_changes_no_picture_uploads_nothing_and_keeps_both(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, alice, bob, carol, mod = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        await fake.slash(mod, pitch, "preferences", server_close_up=True)  # the close-up in the post (not the default)
        await start_match(fake, pitch, alice, bob)
        board = panel(fake, pitch)
        shown = fake.message(board).attachments
        assert [a.filename for a in shown] == ["board.png", "close-up.png"]
        # The same position again (the sweep, a coach's status, an undo back to it): the text is
        # edited, the pictures are kept by id, and not one byte is uploaded.
        mark = fake.mark()
        uploads = list(fake.message(board).uploads)
        assert await bot.poster.publish(None, bot.service.status(pitch.id), notice="Where we stand")
        again = fake.message(board)
        assert fake.new_message_count(pitch, since=mark) == 0 and again.edit_count == 1
        assert "Where we stand" in again.content
        assert fake.uploaded_bytes(since=mark) == 0 and again.uploads == uploads
        assert [a.id for a in again.attachments] == [a.id for a in shown]
        assert [a.description for a in again.attachments] == [a.description for a in shown]
        # A press that changes the position uploads the new pictures, and the message shows them.
        side = bot.service.status(pitch.id).deciding_side
        setter = alice if side == "west" else bob
        seen = []

        async def listener(interaction, outcome):
            seen.append(outcome)

        bot.poster.listeners.append(listener)
        mark = fake.mark()
        await fake.click(setter, board, label="Auto set-up")
        after = fake.message(board)
        assert fake.uploaded_bytes(since=mark) > 0
        assert _pictures(after) == [("board.png", seen[-1].png_in("en")), ("close-up.png", seen[-1].close_up_in("en")[0])]
        assert {a.id for a in after.attachments}.isdisjoint(a.id for a in shown)
