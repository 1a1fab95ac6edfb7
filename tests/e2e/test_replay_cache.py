"""``/match replay`` draws a match's replay once per version: a second request for a finished
match (or for a match in progress that has not moved) is answered from what was drawn, with the
same GIF; a move in between is drawn anew. Draws are counted, not timed."""

from __future__ import annotations

from fakediscord import FakeDiscord

import service.lookup
from engine.match import pending
from service.lookup import forget_replays
from support.bots import make_bot, panel, start_match, world


def _count_draws(monkeypatch) -> list[int]:
    draws: list[int] = []
    real = service.lookup.render_replay

    def counted(steps, **kw):
        draws.append(len(steps))
        return real(steps, **kw)

    monkeypatch.setattr(service.lookup, "render_replay", counted)
    return draws


async def test_a_second_replay_is_served_from_what_was_drawn(database, monkeypatch):
    forget_replays()
    draws = _count_draws(monkeypatch)
    async with FakeDiscord(timeout=15.0) as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        await start_match(fake, pitch, alice, bob)

        # In progress: drawn once for this version, again after a move.
        first = await fake.slash(carol, pitch, "match replay")
        second = await fake.slash(alice, pitch, "match replay")
        assert first.attachments[0].data == second.attachments[0].data and len(draws) == 1
        side = pending(bot.service.status(pitch.id).state).side
        await fake.click(alice if side == "west" else bob, panel(fake, pitch), label="Auto set-up")
        moved = await fake.slash(carol, pitch, "match replay")
        assert len(draws) == 2 and moved.attachments[0].filename == "replay.gif"

        # Over: drawn once more, then never again, whoever asks and however often.
        r = await fake.slash(bob, pitch, "match concede")
        assert "conceded" in r.content.lower()
        gifs = [(await fake.slash(who, pitch, "match replay")).attachments[0].data for who in (alice, bob, carol, carol)]
        assert len(draws) == 3
        assert all(g == gifs[0] for g in gifs) and gifs[0][:6] == b"GIF89a"


async def test_a_finished_matchs_replay_is_kept_in_the_database_for_every_process(database, monkeypatch):
    """Issue 31: a finished match's replay is drawn once and kept (in the database, not only in
    one process's memory): a bot started afresh on the same database, as after a restart or in
    another shard's process, answers it without drawing."""
    forget_replays()
    draws = _count_draws(monkeypatch)
    async with FakeDiscord(timeout=15.0) as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        await start_match(fake, pitch, alice, bob)
        await fake.slash(bob, pitch, "match concede")
        first = await fake.slash(carol, pitch, "match replay")
        assert len(draws) == 1 and first.attachments[0].data[:6] == b"GIF89a"
        match_id = bot.service.latest(pitch.id).id
    forget_replays()  # the process that drew it is gone: its memory with it
    assert service.lookup.replay(match_id, language="en") == first.attachments[0].data
    assert len(draws) == 1, "drawn again once the process that drew it was gone"
    # Another language is another drawing, kept as well.
    french = service.lookup.replay(match_id, language="fr")
    forget_replays()
    assert service.lookup.replay(match_id, language="fr") == french and len(draws) == 2
