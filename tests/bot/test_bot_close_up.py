"""The phone board in Discord: the close-up of the action beside the board, the coach's and the
server's choice, and the legend behind ``/rules Board``."""

from __future__ import annotations

from fakediscord import FakeDiscord

from support.bots import make_bot, panel, start_match, world


def _pictures(message):
    return [(a.filename, a.description or "") for a in message.attachments if a.is_png]


async def test_the_deciding_coach_gets_the_close_up_unless_he_or_his_server_says_no(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, alice, bob, carol, mod = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        await start_match(fake, pitch, alice, bob)
        board = panel(fake, pitch)
        pictures = _pictures(board)
        assert [name for name, _ in pictures] == ["board.png", "close-up.png"]  # the full field first
        assert pictures[1][1].startswith("Close-up") and "hex" in pictures[1][1].lower()
        side = bot.service.status(pitch.id).deciding_side
        setter = alice if side == "west" else bob
        r = await fake.slash(setter, pitch, "preferences", close_up=False)
        assert r.ephemeral and "off" in r.content
        await fake.click(setter, board, label="Auto set-up")
        assert [name for name, _ in _pictures(fake.message(board))] == ["board.png"]  # his choice: the board only
        # A server may make "off" its default; a coach who chose keeps his choice.
        r = await fake.slash(carol, pitch, "preferences", server_close_up=False)
        assert r.ephemeral and r.content.startswith("⛔")  # only Manage Server
        r = await fake.slash(mod, pitch, "preferences", server_close_up=False)
        assert "off" in r.content
        r = await fake.slash(setter, pitch, "preferences", close_up=True)
        await fake.click(setter, board, label="Auto set-up")
        assert len(_pictures(fake.message(board))) == 2


async def test_rules_board_pictures_every_mark_in_the_members_language(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, alice, bob, carol, mod = world(fake)
        amelie = guild.add_member("Amélie", locale="fr")
        await fake.start_bot(make_bot(guild))
        r = await fake.slash(alice, pitch, "rules", topic="Board")
        assert r.ephemeral and r.attachments and r.attachments[0].is_png and "marks" in r.content
        fr = await fake.slash(amelie, pitch, "rules", topic="Terrain")
        assert fr.attachments and fr.attachments[0].data != r.attachments[0].data and "marques" in fr.content
        h = await fake.slash(alice, pitch, "help")
        assert "What do the marks mean?" in h.embeds[0]["description"]
