"""The Discord bot end to end: the real discord.py client against a fake Discord on 127.0.0.1.

Two members challenge, accept and play a whole 1-goal match through slash commands, buttons and
select menus. Each coach's choices come from the AI coach, turned into the presses a person would
make: the test checks the bot, not the strategy.
"""

from __future__ import annotations

import asyncio

from datetime import timedelta

import pytest
from fakediscord import FakeDiscord
from support.bots import make_bot, panel, play_until, slow_work, start_match, world

from engine import commands as C
from ai import AICoach
from engine.field import standard_field
from engine.state import Phase

F = standard_field()


async def test_challenge_accept_posts_the_board_and_the_deciding_coachs_panel(database):
    async with FakeDiscord() as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        names = set(fake.commands(guild))
        assert {"match", "setup", "act", "move", "throw", "tackle", "shove", "roll", "odds", "team", "rules", "undo"} <= names
        reply = await start_match(fake, pitch, alice, bob)
        assert "Gnolls" in reply.content and "Sarcos" in reply.content
        # The coach who sets up first is mentioned and gets the buttons; nobody else may press.
        board = panel(fake, pitch)
        deciding = bot.service.status(pitch.id).deciding_side
        setter, other = (alice, bob) if deciding == "west" else (bob, alice)  # the challenger plays west
        refused = await fake.click(other, board, label="Auto set-up")
        assert refused.ephemeral and "only" in refused.content
        refused = await fake.click(carol, board, label="Auto set-up")
        assert refused.ephemeral
        before = fake.message(board).custom_ids
        done = await fake.click(setter, board, label="Auto set-up")
        # The set-up goes on in the same message: a new board and a new panel, no new message.
        assert done.callback_type == 7 and fake.message(board).edit_count >= 1
        assert fake.message(board).custom_ids and fake.message(board).custom_ids != before
        assert any(m.is_png for m in fake.message(board).attachments)
        # A second panel of the same moment (/match status), pressed after the match moved on,
        # is refused as out of date and changes nothing.
        # /match status by a coach brings the board and his panel down; the older message
        # loses its controls (nothing out of date is left to press).
        old_panel = (await fake.slash(setter, pitch, "match status")).message
        newer = (await fake.slash(setter, pitch, "match status")).message
        assert not fake.message(old_panel).custom_ids and fake.message(newer).custom_ids
        await fake.click(setter, newer, label="Done")
        # A stranger's command is refused privately and changes nothing.
        before = len(fake.channel_messages(pitch))
        r = await fake.slash(carol, pitch, "setup", subcommand="auto")
        assert r.ephemeral and "not a coach" in r.content
        assert len(fake.channel_messages(pitch)) == before


async def test_odds_roll_rules_and_refusals(database):
    async with FakeDiscord() as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        await fake.start_bot(make_bot(guild))
        r = await fake.slash(alice, pitch, "odds", dice=4, need=2)
        assert r.ephemeral and "52% success" in r.content
        r = await fake.slash(alice, pitch, "roll", dice=3, need=1)
        assert "seed" in r.content
        choices = await fake.autocomplete(alice, pitch, "rules", option="topic", value="mom")
        assert "Momentum" in [c.value for c in choices]
        r = await fake.slash(alice, pitch, "move", path="K11")
        assert r.ephemeral and "no active match" in r.content
        r = await fake.slash(alice, pitch, "match challenge", opponent=alice, team="gnolls")
        assert r.ephemeral


@pytest.mark.slow
async def test_a_complete_match_through_commands_and_buttons_with_a_restart(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        await start_match(fake, pitch, alice, bob)
        service = bot.service
        coaches = {"west": alice, "east": bob}  # the challenger plays west
        ais = {"west": AICoach(), "east": AICoach()}
        # Play until the first action has happened, then restart the bot.
        out = await play_until(fake, pitch, service, coaches, ais, lambda o: o.state.seq >= 12)
        assert out is not None and not out.finished  # the restart comes in the middle of the match
        await fake.stop_bot(bot)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        service = bot.service
        await play_until(fake, pitch, service, coaches, ais, lambda o: False)
        final = fake.channel_messages(pitch)[-1]
        assert "Match over" in final.content
        assert final.attachments and final.attachments[0].is_png
        assert not final.custom_ids  # nothing left to press
        r = await fake.slash(alice, pitch, "match status")
        assert r.ephemeral and "no active match" in r.content


async def test_reminders_ping_the_deciding_coach(database):
    async with FakeDiscord() as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild, reminder_sweep=0.05, service_kw={"reminder_after": timedelta(seconds=0.3)})
        await fake.start_bot(bot)
        await start_match(fake, pitch, alice, bob)
        msg = await fake.wait_for_message(pitch, check=lambda m: "a decision is waiting" in m.content, timeout=5)
        assert msg.mentions_user(alice) or msg.mentions_user(bob)


async def test_rate_limits_and_server_errors_lose_no_action(database, caplog):
    import logging

    # A generous bound on each wait (not a timing): under a loaded CI machine a board takes longer.
    async with FakeDiscord(timeout=30.0) as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        await start_match(fake, pitch, alice, bob)
        version = bot.service.status(pitch.id).match.version
        setter = alice if bot.service.status(pitch.id).deciding_side == "west" else bob
        board = panel(fake, pitch)
        fake.fail_next("POST /interactions/*/callback", status=429, times=1, retry_after=0.05)
        with caplog.at_level(logging.INFO, logger="elfball.bot"):
            reply = await fake.click(setter, board, label="Auto set-up", timeout=30.0)
        assert not reply.ephemeral
        assert bot.service.status(pitch.id).match.version == version + 1  # applied exactly once
        assert fake.message(board).attachments and fake.message(board).custom_ids  # updated in place
        failure = fake.fail_next("POST /interactions/*/callback", status=502, times=1)
        reply = await fake.click(setter, board, label="Done", timeout=30.0)
        assert failure.hits == 1 and not reply.ephemeral
        assert bot.service.status(pitch.id).match.version == version + 2
        assert panel(fake, pitch).id != board.id and not fake.message(board).custom_ids  # the other coach's turn
        assert any("match" in r.getMessage() and "latency_ms" in r.getMessage() or "now at version" in r.getMessage()
                   for r in caplog.records)
        assert "fake-bot-token" not in caplog.text


async def test_team_commands_and_a_match_with_a_stored_team(database):
    async with FakeDiscord() as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        await fake.start_bot(make_bot(guild))
        r = await fake.slash(alice, pitch, "team", subcommand="create", name="Moonblades", list="night-elves",
                             lineup="6 imps, 2 hunters, 2 strikers")
        assert "Moonblades" in r.content and not r.ephemeral
        r = await fake.slash(bob, pitch, "team", subcommand="create", name="moonblades", list="gnolls")
        assert r.ephemeral  # names are unique per server, whatever the case
        r = await fake.slash(bob, pitch, "team", subcommand="create", name="Bad", list="night-elves", lineup="11 imps")
        assert r.ephemeral and "Imps" in r.content
        r = await fake.slash(alice, pitch, "team", subcommand="show", name="Moonblades")
        assert "7/2/2/5/3/2" in r.content
        r = await fake.slash(carol, pitch, "team", subcommand="list")
        assert "Moonblades" in r.content
        choices = await fake.autocomplete(alice, pitch, "match challenge", option="team", value="moon")
        assert [c.value for c in choices] == ["Moonblades"]
        await fake.slash(alice, pitch, "match challenge", opponent=bob, team="Moonblades")
        r = await fake.slash(bob, pitch, "match accept", team="gnolls")
        assert "Moonblades" in r.content and r.attachments


async def test_a_refused_accept_leaves_the_challenge_standing(database):
    async with FakeDiscord() as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        await fake.start_bot(make_bot(guild))
        await fake.slash(alice, pitch, "match challenge", opponent=bob, team="gnolls")
        r = await fake.slash(bob, pitch, "match accept", team="no-such-team")
        assert r.ephemeral
        r = await fake.slash(bob, pitch, "match accept", team="sarcos")
        assert not r.ephemeral and r.attachments, r.content


async def test_a_slow_refused_press_keeps_the_board(database, monkeypatch):
    async with FakeDiscord() as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        await start_match(fake, pitch, alice, bob)
        setter = alice if bot.service.status(pitch.id).deciding_side == "west" else bob
        slow_work(monkeypatch)
        board = panel(fake, pitch)
        # Two presses of one panel at once, both deferred: one applies, the other is out of date.
        first, second = await asyncio.gather(fake.click(setter, board, label="Auto set-up"),
                                             fake.click(setter, board, label="Auto set-up"))
        refusals = [m for r in (first, second) for m in r.followups if m.ephemeral and m.content.startswith("⛔")]
        assert len(refusals) == 1, [r.followups for r in (first, second)]
        assert bot.service.status(pitch.id).match.version == 1  # one press applied
        assert not fake.message(board).deleted and fake.message(board).attachments  # the refusal kept the board


async def test_the_advanced_commands_reach_the_engine_and_their_options_are_offered(database):
    async with FakeDiscord() as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        assert {"cheer", "quickling", "taunt", "potion", "spell"} <= set(fake.commands(guild))
        choices = await fake.autocomplete(alice, pitch, "rules", option="topic", value="lead")
        assert "Lead Pass" in [c.value for c in choices]
        r = await fake.slash(alice, pitch, "rules", topic="lead-pass")
        assert "Thrower type, Advanced (needs Scramble)" in r.content
        r = await fake.slash(alice, pitch, "rules", topic="wizard")
        assert "System Shock" in r.content
        await start_match(fake, pitch, alice, bob)
        service = bot.service
        side = service.status(pitch.id).deciding_side
        setter = alice if side == "west" else bob
        await fake.click(setter, panel(fake, pitch), label="Auto set-up")
        version = service.status(pitch.id).match.version
        # Each new command goes through the match service: the engine judges it (none of these is
        # possible during a set-up, and these teams have no support) and nothing changes.
        for command, opts in (("cheer", {}), ("potion", {"player": f"{side[0]}1"}),
                              ("spell", {"spell": "inferno", "hex": "K12"}),
                              ("move", {"path": "NE", "ability": "beeline"})):
            r = await fake.slash(setter, pitch, command, **opts)
            assert r.ephemeral, (command, r.content)
        r = await fake.slash(setter, pitch, "dash")
        assert r.ephemeral and "counters" in r.content
        r = await fake.slash(setter, pitch, "spell", spell="system_shock")
        assert r.ephemeral and "needs a target" in r.content
        assert service.status(pitch.id).match.version == version
        # The path of another player starts from his hex.
        state = service.status(pitch.id).state
        mover = state.on_field(side)[0]
        choices = await fake.autocomplete(setter, pitch, "move", option="path", value="", options={"player": mover.id})
        assert choices and all(c.value in {F.format(h) for h in mover.hex.neighbours()} for c in choices)
        choices = await fake.autocomplete(setter, pitch, "move", option="player", value="")
        assert {c.value for c in choices} == {p.id for p in state.on_field(side)}


async def test_team_show_lists_abilities_and_support_and_a_match_gets_them(database):
    from sqlmodel import select

    from db.engine import session_scope
    from db.models import Team

    async with FakeDiscord() as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        await fake.slash(alice, pitch, "team", subcommand="create", name="Veterans", list="orcs")
        with session_scope() as s:
            team = s.exec(select(Team).where(Team.name == "Veterans")).one()
            team.support = {"cheerleaders": 2, "wizard": 1}
            team.players[0].abilities = [*team.players[0].abilities, "grapple", "psycho"]
            s.add(team)
            s.commit()
        r = await fake.slash(alice, pitch, "team", subcommand="show", name="Veterans")
        assert "Grapple, Psycho" in r.content and "Support: Cheerleaders ×2, Hired Gun Wizard ×1" in r.content
        await fake.slash(alice, pitch, "match challenge", opponent=bob, team="Veterans")
        await fake.slash(bob, pitch, "match accept", team="gnolls")
        state = bot.service.status(pitch.id).state
        assert state.teams["west"].support == {"cheerleaders": 2, "wizard": 1}
        assert {"grapple", "psycho"} <= set(state.players["w1"].abilities)


@pytest.mark.slow
async def test_a_challenge_with_a_profile_plays_its_rules(database):
    """/match challenge with the beginner profile and a rules string: the accepted match keeps
    them, /match status shows them, and a whole match is played under them with the second
    player of double movement passed on with its button."""
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        choices = await fake.autocomplete(alice, pitch, "match challenge", option="rules", value="double fr_da")
        assert [c.value for c in choices] == ["double fr_dash"]
        bad = await fake.slash(alice, pitch, "match challenge", opponent=bob, team="gnolls", rules="bogus")
        assert bad.ephemeral and "unknown rule" in bad.content
        reply = await fake.slash(alice, pitch, "match challenge", opponent=bob, team="gnolls", profile="beginner",
                                 rules="double fr_failed_disengage_sim goals=1")
        assert "simplified face-off" in reply.content and "double player movement" in reply.content
        await fake.slash(bob, pitch, "match accept", team="sarcos")
        state = bot.service.status(pitch.id).state
        assert state.options.simple_faceoff and state.options.star2 and state.options.double
        assert state.options.variants == ("fr_failed_disengage_sim",) and state.options.profile == "beginner"
        status = await fake.slash(carol, pitch, "match status")
        assert "Rules: profile beginner" in status.content and "fr_failed_disengage_sim" in status.content
        coaches = {"west": alice, "east": bob}
        ais = {"west": AICoach(), "east": AICoach()}
        seen = {"second": False}

        def stop(o):
            if o.state.turn_actors and o.state.phase is Phase.TURN:
                seen["second"] = True
            return False

        await play_until(fake, pitch, bot.service, coaches, ais, stop)
        assert seen["second"], "double movement offered a second player at least once"
        assert "Match over" in fake.channel_messages(pitch)[-1].content


# --- the Advanced rules: stored careers and support, played through buttons ---------------------
TACKLE_ABILITIES = {"gnolls/hunters": ["cutblock"], "gnolls/strikers": ["steal"],
                    "middle-kingdoms/ogres-cyclops-minotaurs": ["pummel"]}


class Showcase:
    """The AI coach, except that a Tackle it would make, or any Tackle its acting player could
    make, uses the player's Tackle ability when the engine allows it (AICoach never does)."""

    def __init__(self) -> None:
        self.ai = AICoach()

    def choose(self, state, side):  # type: ignore[no-untyped-def]
        from engine.legal import legal_commands

        cmd = self.ai.choose(state, side)
        if state.phase.value != "action" or state.in_progress is not None or isinstance(cmd, C.Cheer):
            return cmd
        uses = [c for c in legal_commands(state, side).of(C.Tackle) if c.use not in (None, "cheapshot")]
        mine = [c for c in uses if isinstance(cmd, C.Tackle) and c.target == cmd.target]
        return (mine or uses or [cmd])[0]


@pytest.mark.slow
async def test_stored_advanced_teams_cheer_and_tackle_with_abilities_through_the_panels(database, monkeypatch):
    """Two stored teams with learned Tackle abilities and team support play through Discord:
    the members cheer with the panel's button and tackle with an ability from the hit select;
    then the east coach concedes."""
    from types import SimpleNamespace

    from sqlmodel import select

    import db.challenges
    import service.match_rules
    from db.engine import session_scope
    from db.models import Team

    monkeypatch.setattr(service.match_rules, "secrets", SimpleNamespace(token_hex=lambda n: ("crown" * n)[: 2 * n]))  # fixed dice
    # ... with no entropy from the accept (an interaction id changes every run): the secret alone.
    monkeypatch.setattr(db.challenges, "challenge_seed", lambda **_: None)
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, alice, bob, carol, _ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        await fake.slash(alice, pitch, "team", subcommand="create", name="Howlers", list="gnolls")
        await fake.slash(bob, pitch, "team", subcommand="create", name="Crowns", list="middle-kingdoms")
        with session_scope() as s:
            for name, support in (("Howlers", {"cheerleaders": 2, "potions": 1}), ("Crowns", {"cheerleaders": 1, "kegs": 2})):
                team = s.exec(select(Team).where(Team.name == name)).one()
                team.support = support
                for p in team.players:
                    p.abilities = [*p.abilities, *TACKLE_ABILITIES.get(p.position_id, [])]
                s.add(team)
            s.commit()
        await fake.slash(alice, pitch, "match challenge", opponent=bob, team="Howlers")
        r = await fake.slash(bob, pitch, "match accept", team="Crowns")
        assert not r.ephemeral, r.content
        service = bot.service
        state = service.status(pitch.id).state
        assert state.teams["west"].support == {"cheerleaders": 2, "potions": 1}
        assert "cutblock" in state.players["w1"].abilities
        coaches = {"west": alice, "east": bob}
        ais = {"west": Showcase(), "east": Showcase()}
        seen: dict[str, int] = {}
        original = service.act

        def act(*a, **kw):  # type: ignore[no-untyped-def]
            out = original(*a, **kw)
            for ev in out.events:
                if ev.kind == "support_used" and ev.item == "cheerleaders":
                    seen["cheer"] = seen.get("cheer", 0) + 1
                if ev.kind == "ability_used" and ev.ability in ("cutblock", "steal", "pummel"):
                    seen[ev.ability] = seen.get(ev.ability, 0) + 1
            return out

        monkeypatch.setattr(service, "act", act)
        out = await play_until(fake, pitch, service, coaches, ais, lambda o: o.finished or (
            "cheer" in seen and any(a in seen for a in ("cutblock", "steal", "pummel"))), limit=1500)
        assert out is not None and not out.finished, seen
        r = await fake.slash(bob, pitch, "match concede")
        assert not r.ephemeral and "conceded" in r.content.lower()
        final = service.latest(pitch.id).engine_state()
        assert final.winner == "west" and final.end_reason == "east conceded"
        assert final.teams["west"].used.get("cheerleaders") or final.teams["east"].used.get("cheerleaders")
        # A friendly match: the teams' abilities and support play, but careers are the league's
        # (no experience, Basic injury results).
        assert not final.options.advanced and not any(p.xp for p in final.players.values())
