"""Issue 32 in Discord: after a wobbly throw the receiver's coach gets the catch-or-decline
question on his panel, as for a bouncing ball ("A player can choose to automatically fail a
catch roll", p. 7), and either press is played.

The match is started through the fake Discord; its stored position is then replaced by one
paused on the question (a wobbly throw played with scripted dice), as a match would stand after
that throw. The answer is played with the match's own dice."""

from __future__ import annotations

import pytest
from support.builders import P, position
from support.builders import play as act
from fakediscord import FakeDiscord
from sqlmodel import Session, col, select

from bot.app import ElfballBot
from db.models import Match, MatchEvent
from engine import commands as C
from engine.field import standard_field
from service.matches import MatchService

F = standard_field()


def paused_on_the_catch():
    """West's Striker w1 throws from G12 to w2 on E12: exactly 1 success, a wobbly pass to a
    player who is not next to him. The receiver's coach is asked."""
    st = position(P("w1", "gnolls/strikers", "G12", "W", ball=True), P("w2", "gnolls/midfielders", "E12", "E"),
                  P("e1", "gnolls/midfielders", "Q17", "W"), acting="w1")
    st = act(st, C.Throw(F.parse("E12")), faces="O - - -", pending=True).state
    q = st.in_progress.question
    assert (q["kind"], q["side"], q["player"]) == ("catch", "west", "w2")
    return st


def panel(fake, channel):
    for m in reversed(fake.channel_messages(channel)):
        if m.custom_ids:
            return m
    raise AssertionError("no panel in the channel")


@pytest.mark.parametrize("press, told", [("Catch", "challenge_rolled"), ("Let it drop", "catch_declined")])
async def test_the_panel_offers_catch_or_let_it_drop_after_a_wobbly_throw(database, press, told):
    async with FakeDiscord(timeout=30.0) as fake:  # a loaded machine draws boards slowly
        guild = fake.add_guild("Elfball Club")
        pitch = guild.add_text_channel("pitch")
        alice, bob = guild.add_member("Alice"), guild.add_member("Bob")
        bot = ElfballBot(service=MatchService(width=600), dev_guild=guild.id)
        await fake.start_bot(bot)
        await fake.slash(alice, pitch, "match challenge", opponent=bob, team="gnolls")
        await fake.slash(bob, pitch, "match accept", team="sarcos")
        match = bot.service.current(pitch.id)
        assert match.west_coach_id == alice.id  # the challenger plays west
        with Session(database) as s:
            row = s.get(Match, match.id)
            row.state, row.deciding_side, row.deciding_user_id = paused_on_the_catch().to_dict(), "west", alice.id
            s.add(row)
            s.commit()

        board = (await fake.slash(alice, pitch, "match status")).message
        assert board is not None and fake.message(board).custom_ids
        labels = fake.message(panel(fake, pitch)).labels
        assert "Catch" in labels and "Let it drop" in labels
        refused = await fake.click(bob, panel(fake, pitch), label=press)  # not his player's catch
        assert refused.ephemeral

        done = await fake.click(alice, panel(fake, pitch), label=press)
        assert not done.ephemeral
        with Session(database) as s:
            last = s.get(Match, match.id)
            log = select(MatchEvent).where(MatchEvent.match_id == match.id).order_by(col(MatchEvent.seq))
            answer = s.exec(log).all()[-1]
            assert answer.command == C.Answer("catch" if press == "Catch" else "decline").to_dict()
            kinds = [e["kind"] for e in answer.events]
            state = last.state
        assert told in kinds
        if press == "Catch":
            assert [e["challenge"] for e in answer.events if e["kind"] == "challenge_rolled"][-1] == "catch"
        else:
            assert "ball_scattered" in kinds and not any(e.get("challenge") == "catch" for e in answer.events)
        question = (state.get("in_progress") or {}).get("question") or {}
        assert question.get("kind") != "catch"  # answered: the match went on
