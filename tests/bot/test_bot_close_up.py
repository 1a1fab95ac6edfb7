"""The phone board in Discord: the close-up of the action on demand (the board's Close-up
button, privately) or beside the board (the coach's and the server's choice), and the legend
behind ``/rules Board``."""

from __future__ import annotations

from fakediscord import FakeDiscord

from db import matches as store
from engine import event_from_dict

from support.bots import make_bot, panel, start_match, world


def _pictures(message):
    return [(a.filename, a.description or "") for a in message.attachments if a.is_png]


def _labels(message):
    return [b.get("label") for b in message.buttons]


async def test_a_board_post_carries_the_board_alone_unless_the_coach_or_his_server_asks_for_the_close_up(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, alice, bob, carol, mod = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        await start_match(fake, pitch, alice, bob)
        board = panel(fake, pitch)
        # Issue 33: every command edits the post and uploads its pictures again, so by default the
        # channel gets the board alone, with a Close-up button for whoever wants it.
        assert [name for name, _ in _pictures(board)] == ["board.png"]
        assert "Close-up" in _labels(fake.message(board))
        side = bot.service.status(pitch.id).deciding_side
        setter = alice if side == "west" else bob
        r = await fake.slash(setter, pitch, "preferences")
        assert r.ephemeral and "off" in r.content and "server's default" in r.content
        r = await fake.slash(setter, pitch, "preferences", close_up=True)
        assert r.ephemeral and "on" in r.content
        await fake.click(setter, board, label="Auto set-up")
        pictures = _pictures(fake.message(board))
        assert [name for name, _ in pictures] == ["board.png", "close-up.png"]  # his choice: the full field first
        assert pictures[1][1].startswith("Close-up") and "hex" in pictures[1][1].lower()
        assert "Close-up" not in _labels(fake.message(board))  # the post shows it already
        # A server may make "on" its default; a coach who chose keeps his choice.
        r = await fake.slash(carol, pitch, "preferences", server_close_up=True)
        assert r.ephemeral and r.content.startswith("⛔")  # only Manage Server
        r = await fake.slash(mod, pitch, "preferences", server_close_up=True)
        assert "on" in r.content
        r = await fake.slash(setter, pitch, "preferences", close_up=False)
        await fake.click(setter, board, label="Auto set-up")
        assert len(_pictures(fake.message(board))) == 1


async def test_the_close_up_button_shows_the_presser_alone_the_close_up_of_the_position(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, alice, bob, carol, mod = world(fake)
        amelie = guild.add_member("Amélie", locale="fr")
        bot = make_bot(guild)
        await fake.start_bot(bot)
        await start_match(fake, pitch, alice, bob)
        board = panel(fake, pitch)
        side = bot.service.status(pitch.id).deciding_side
        setter = alice if side == "west" else bob
        await fake.click(setter, board, label="Auto set-up")
        before = fake.message(board)
        content, uploads = before.content, list(before.uploads)
        match_id = bot.service.status(pitch.id).match.id
        mark = fake.mark()
        # Anyone may ask (a spectator too): the answer is his alone.
        r = await fake.click(carol, board, label="Close-up")
        assert r.ephemeral and "only you see this" in r.content
        [picture] = r.attachments
        assert picture.filename == "close-up.png" and picture.is_png
        assert picture.description.startswith("Close-up") and "hex" in picture.description.lower()
        # the close-up of the position as it stands, drawn as a post that carries it draws it
        state = bot.service.status(pitch.id).state
        wanted = bot.service.drawing.close_up(state, events=_last_events(bot, match_id), language="en")
        assert wanted is not None and picture.data == wanted[0]
        # Nothing new in the channel, the board post untouched, nobody pinged.
        assert fake.new_message_count(pitch, since=mark) == 0 and fake.edit_count(pitch, since=mark) == 0
        after = fake.message(board)
        assert after.content == content and after.uploads == uploads
        for member in (alice, bob, carol, mod):
            assert fake.notifications_for(member, since=mark) == []
        assert r.message.mentions == []
        # In the presser's language.
        fr = await fake.click(amelie, board, label="Close-up", locale="fr")
        assert fr.ephemeral and "vous seul" in fr.content
        assert fr.attachments[0].description.startswith("Gros plan")
        # Once the match is over the panel goes, and its button with it.
        await fake.slash(alice, pitch, "match concede")
        assert "Close-up" not in _labels(fake.message(board))


def _last_events(bot, match_id):
    with bot.service.sessions() as s:
        m = store.get_match(session=s, match_id=match_id)
        rows = store.match_events(session=s, match_id=m.id, after_seq=m.version - 1)
    return [event_from_dict(e) for r in rows for e in r.events]


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
