"""The Elfball bot against the fake Discord: a server to play in, the bot, and a coach's gestures.

``world`` builds the server (Alice, Bob and Carol, a moderator, a ``pitch`` channel), ``make_bot``
the bot on a match service, ``start_match`` a challenge accepted; ``press`` turns an engine
command into what a coach would do in Discord (a button, a select, a slash command) and
``play_until`` plays two coaches' chosen commands that way.
"""

from __future__ import annotations

import asyncio

import bot.common.reply as app
from bot.app import ElfballBot
from engine import commands as C
from engine.field import standard_field
from engine.hexes import direction_between
from engine.match import pending
from engine.state import Phase
from service.matches import MatchService

F = standard_field()


def make_bot(guild, **kw):
    service = MatchService(width=600, **kw.pop("service_kw", {}))
    return ElfballBot(service=service, dev_guild=guild.id, **kw)


def world(fake):
    guild = fake.add_guild("Elfball Club")
    pitch = guild.add_text_channel("pitch")
    alice, bob = guild.add_member("Alice"), guild.add_member("Bob")
    carol = guild.add_member("Carol")
    mod = guild.add_member("Mod", manage_guild=True)
    return guild, pitch, alice, bob, carol, mod


def panel(fake, channel):
    """The newest board with controls: the one the deciding coach presses."""
    for m in reversed(fake.channel_messages(channel)):
        if m.custom_ids:
            return m
    raise AssertionError("no panel in the channel")


async def start_match(fake, pitch, alice, bob):
    reply = await fake.slash(alice, pitch, "match challenge", opponent=bob, team="gnolls")
    assert reply.message.mentions_user(bob) and "challenges you" in reply.content
    reply = await fake.slash(bob, pitch, "match accept", team="sarcos")
    assert not reply.ephemeral and reply.attachments and reply.attachments[0].is_png
    return reply


async def press(fake, pitch, member, cmd, state):
    """Do what a coach would do in Discord to issue ``cmd``."""
    board = panel(fake, pitch)
    q = state.in_progress.question if state.in_progress else None
    if isinstance(cmd, C.Answer):
        kind = q["kind"]
        if "eligible" in q:  # Momentum's re-rolls and the abilities' alike
            if not cmd.value:
                return await fake.click(member, board, label="Keep the roll")
            return await fake.select(member, board, "elfball-select:reroll:*", values=[str(i) for i in cmd.value])
        if kind == "interceptor":
            return await fake.select(member, board, "elfball-select:icpt:*", values=[cmd.value or "none"])
        if kind == "catch":
            return await fake.click(member, board, label="Catch" if cmd.value == "catch" else "Let it drop")
        i = list(q["options"]).index(cmd.value)  # any other question: its options, by their place
        if len(q["options"]) <= 5:
            return await fake.click(member, board, custom_id=next(c for c in board.custom_ids if c.startswith("elfball:opt:")
                                                                  and c.endswith(f":{i}")))
        return await fake.select(member, board, "elfball-select:opt:*", values=[str(i)])
    if isinstance(cmd, C.Cheer):
        return await fake.click(member, board, label="Cheer (+1 Momentum)")
    if isinstance(cmd, C.Quickling):
        return await fake.slash(member, pitch, "quickling", player=cmd.player)
    if isinstance(cmd, C.Taunt):
        return await fake.slash(member, pitch, "taunt", player=cmd.player, target=cmd.target, counters=cmd.counters)
    if isinstance(cmd, C.DrinkPotion):
        return await fake.slash(member, pitch, "potion", player=cmd.player)
    if isinstance(cmd, C.CastSpell):
        where = {"hex": F.format(cmd.hex)} if cmd.hex else {"target": cmd.target}
        return await fake.slash(member, pitch, "spell", spell=cmd.spell, **where)
    if isinstance(cmd, C.AutoSetup):
        return await fake.click(member, board, label="Auto set-up")
    if isinstance(cmd, C.SetupDone):
        return await fake.click(member, board, label="Done")
    if isinstance(cmd, C.FaceoffPickup):
        return await fake.click(member, board, label="Pick up the ball")
    if isinstance(cmd, C.FaceoffContact):
        return await fake.click(member, board, label=cmd.challenge.title())
    if isinstance(cmd, C.StartAction):
        return await fake.select(member, board, "elfball-select:act:*", values=[cmd.player])
    if isinstance(cmd, C.Move):
        p = state.acting_player
        if cmd.ability is not None:
            path = " ".join(F.format(h) for h in cmd.path)
            opts = {"path": path, "ability": cmd.ability} | ({"player": cmd.player} if cmd.player else {})
            return await fake.slash(member, pitch, "move", **opts | ({"facing": cmd.facing.name} if cmd.facing else {}))
        if len(cmd.path) == 1 and cmd.facing is None:
            d = direction_between(p.hex, cmd.path[0])
            # The step buttons' labels carry odds ("↙ SW · pick-up 59%"): find it by its custom id.
            cid = next(c for c in board.custom_ids if c.startswith("elfball:step:") and c.endswith(f":{d.name}"))
            return await fake.click(member, board, custom_id=cid)
        path = " ".join(F.format(h) for h in cmd.path)
        opts = {"path": path} | ({"facing": cmd.facing.name} if cmd.facing else {})
        return await fake.slash(member, pitch, "move", **opts)
    if isinstance(cmd, C.Face):
        return await fake.slash(member, pitch, "face", direction=cmd.facing.name)
    if isinstance(cmd, C.StandUp):
        if cmd.facing is None:
            return await fake.click(member, board, label="Stand up")
        return await fake.slash(member, pitch, "stand", facing=cmd.facing.name)
    if isinstance(cmd, C.EndAction):
        if state.phase is Phase.TURN:  # double player movement: no second player
            return await fake.click(member, board, label="No second player")
        if cmd.facing is None:
            return await fake.click(member, board, label="End action")
        return await fake.slash(member, pitch, "end", facing=cmd.facing.name)
    if isinstance(cmd, (C.Tackle, C.Shove)):
        kind = "tackle" if isinstance(cmd, C.Tackle) else "shove"
        use = f":{cmd.use}" if isinstance(cmd, C.Tackle) and cmd.use else ""
        return await fake.select(member, board, "elfball-select:hit:*", values=[f"{kind}:{cmd.target}{use}"])
    if isinstance(cmd, C.Throw):
        return await fake.slash(member, pitch, "throw", target=F.format(cmd.target), long=bool(cmd.long))
    if isinstance(cmd, C.Dash):
        if cmd.sprint:
            return await fake.slash(member, pitch, "dash", sprint=True)
        return await fake.slash(member, pitch, "dash", counters=cmd.counters)
    if isinstance(cmd, C.Replace):
        return await fake.slash(member, pitch, "replace", player=cmd.player, hex=F.format(cmd.hex), facing=cmd.facing.name)
    if isinstance(cmd, C.StartTest):
        return await fake.click(member, board, label="Start the next Test")
    raise AssertionError(f"no Discord gesture for {cmd}")


async def play_until(fake, pitch, service, coaches, ais, stop, limit=1200, record=None):
    """Play as the two coaches would until ``stop(outcome)`` or the end of the match;
    ``record(coach, side, mark)`` after each command (``mark``: the fake's, taken before it)."""
    for _ in range(limit):
        out = service.status(pitch.id) if service.current_or_none(pitch.id) else None
        if out is None or stop(out):
            return out
        state = out.state
        side = pending(state).side
        cmd = ais[side].choose(state, side)
        mark = fake.mark()
        reply = await press(fake, pitch, coaches[side], cmd, state)
        if record is not None:
            record(coaches[side], side, mark)
        # A slash command within an action updates its message and is acknowledged privately.
        assert not reply.ephemeral or reply.content.startswith("✓"), f"{cmd} was refused: {reply.content}"
    raise AssertionError("the match did not end")


def slow_work(monkeypatch):
    """Every piece of work outlasts the window: each reply is deferred first."""
    real = asyncio.to_thread

    async def slow(fn, *a, **kw):
        await asyncio.sleep(0.05)
        return await real(fn, *a, **kw)

    monkeypatch.setattr(app, "WORK_WINDOW", 0.01)
    monkeypatch.setattr(asyncio, "to_thread", slow)


def panels(fake, channel, prefix):
    """The messages of ``channel`` with a control whose custom id starts with ``prefix``."""
    return [m for m in fake.channel_messages(channel) if any(c.startswith(prefix) for c in m.custom_ids)]


async def wait_for_panels(fake, channel, prefix, count, timeout=10.0):
    """The post-match panels follow the final board once their report is read (a worker thread)."""
    for _ in range(int(timeout / 0.05)):
        found = panels(fake, channel, prefix)
        if len(found) >= count:
            await fake.settle()
            return panels(fake, channel, prefix)
        await asyncio.sleep(0.05)
    raise AssertionError(f"{count} panels {prefix}* never came")
