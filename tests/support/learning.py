"""A newcomer learning Elfball through ``/learn`` in the fake Discord: his lessons thread, and a
lesson's solution (console grammar, ``service.grammar``) played as a member would play it: by
typing the slash commands (``typed``), or by pressing the panel only.

The commands a panel answers (a catch, a re-roll, an interception) have no slash command: they
are pressed in both ways, as a member would.
"""

from __future__ import annotations

import random

from ai import AICoach
from engine import commands as C
from engine.field import standard_field
from engine.match import pending
from engine.state import Phase
from service.grammar import parse
from support.bots import panel, press

F = standard_field()


class NoPress(Exception):
    """A command the panel offers no press for (a move ending with a facing, a throw to an empty
    hex): that lesson cannot be played by presses only."""


def lesson_thread(fake, guild, member):
    """The member's lessons thread (the one private thread he is in)."""
    mine = [t for t in guild.threads if t.is_private and member.id in t.thread_members]
    assert len(mine) == 1, f"{member.name} is in {len(mine)} lessons threads"
    return mine[0]


async def slash_command(fake, thread, member, cmd, state):
    """The slash command a member types for ``cmd`` (a panel's press for an answer)."""
    if isinstance(cmd, C.StartAction):
        return await fake.slash(member, thread, "act", player=cmd.player)
    if isinstance(cmd, C.Move):
        opts = {"path": " ".join(F.format(h) for h in cmd.path)}
        if cmd.facing is not None:
            opts["facing"] = cmd.facing.name
        if cmd.ability is not None:
            opts["ability"] = cmd.ability
        if cmd.player is not None:
            opts["player"] = cmd.player
        return await fake.slash(member, thread, "move", **opts)
    if isinstance(cmd, C.Face):
        return await fake.slash(member, thread, "face", direction=cmd.facing.name)
    if isinstance(cmd, C.StandUp):
        return await fake.slash(member, thread, "stand", **({"facing": cmd.facing.name} if cmd.facing else {}))
    if isinstance(cmd, C.Throw):
        return await fake.slash(member, thread, "throw", target=F.format(cmd.target), long=bool(cmd.long))
    if isinstance(cmd, C.Tackle):
        return await fake.slash(member, thread, "tackle", target=cmd.target, **({"use": cmd.use} if cmd.use else {}))
    if isinstance(cmd, C.Shove):
        return await fake.slash(member, thread, "shove", target=cmd.target)
    if isinstance(cmd, C.Dash):
        if cmd.sprint:
            return await fake.slash(member, thread, "dash", sprint=True)
        return await fake.slash(member, thread, "dash", counters=cmd.counters)
    if isinstance(cmd, C.EndAction) and state.phase is not Phase.TURN:
        return await fake.slash(member, thread, "end", **({"facing": cmd.facing.name} if cmd.facing else {}))
    if isinstance(cmd, C.Cheer):
        return await fake.slash(member, thread, "cheer")
    if isinstance(cmd, C.Place):
        return await fake.slash(member, thread, "setup place", player=cmd.player, hex=F.format(cmd.hex),
                                facing=cmd.facing.name)
    if isinstance(cmd, C.AutoSetup):
        return await fake.slash(member, thread, "setup auto")
    if isinstance(cmd, C.SetupDone):
        return await fake.slash(member, thread, "setup done")
    return await press(fake, thread, member, cmd, state)


async def panel_press(fake, bot, thread, member, cmd, state):
    """The press a member makes on the panel for ``cmd`` (a path: one step button a hex)."""
    board = panel(fake, thread)
    if isinstance(cmd, C.Move):
        if cmd.facing is not None or cmd.ability is not None or cmd.player is not None:
            raise NoPress(f"{cmd}: a facing or an ability is typed")
        last = None
        for i, to in enumerate(cmd.path):
            if i:
                state = bot.service.status(thread.id).state
            last = await press(fake, thread, member, C.Move((to,)), state)
            if last.ephemeral and not last.content.startswith("✓"):
                return last
        return last
    if isinstance(cmd, C.Throw):
        board_ids = board.custom_ids
        select = next((c for c in board.selects if c.get("custom_id", "").startswith("elfball-select:throw:")), None)
        target = F.format(cmd.target)
        if cmd.long or select is None or target not in [o["value"] for o in select.get("options", [])]:
            raise NoPress(f"{cmd}: not to a team-mate the panel offers")
        assert select["custom_id"] in board_ids
        return await fake.select(member, board, "elfball-select:throw:*", values=[target])
    if isinstance(cmd, C.Dash):
        cid = next((c for c in board.custom_ids if c.startswith("elfball:dash:") and c.endswith(f":{cmd.counters}")), None)
        if cmd.sprint or cid is None:
            raise NoPress(f"{cmd}: no such Dash button")
        return await fake.click(member, board, custom_id=cid)
    if isinstance(cmd, C.StartAction):
        return await fake.select(member, board, "elfball-select:act:*", values=[cmd.player])
    if isinstance(cmd, (C.Face, C.Place, C.Replace, C.Quickling, C.Taunt, C.DrinkPotion, C.CastSpell)):
        raise NoPress(f"{cmd}: typed only")
    if isinstance(cmd, C.EndAction) and cmd.facing is not None:
        raise NoPress(f"{cmd}: a facing is typed")
    return await press(fake, thread, member, cmd, state)


async def play_solution(fake, bot, thread, member, lines, *, typed=True):
    """Play console lines in the lesson's thread until they are played or the lesson's try has
    ended; the replies. A refusal fails the test."""
    replies = []
    for line in lines:
        if bot.service.current_or_none(thread.id) is None:  # the lesson ended: its verdict is posted
            break
        out = bot.service.status(thread.id)
        state = out.state
        side = pending(state).side
        cmd = parse(line, state, side)
        if typed:
            reply = await slash_command(fake, thread, member, cmd, state)
        else:
            reply = await panel_press(fake, bot, thread, member, cmd, state)
        assert not reply.ephemeral or reply.content.startswith("✓"), f"{line!r} was refused: {reply.content}"
        replies.append(reply)
    return replies


async def end_the_try(fake, bot, thread, member, *, limit=30):
    """After a wrong try's lines, if the lesson still plays (real dice gave the other team a
    question): answer as the AI coach would and end the action, until the verdict."""
    coach = AICoach(rng=random.Random(35))
    for _ in range(limit):
        if bot.service.current_or_none(thread.id) is None:
            return
        state = bot.service.status(thread.id).state
        pend = pending(state)
        cmd = coach.choose(state, pend.side) if pend.question is not None else C.EndAction()
        reply = await press(fake, thread, member, cmd, state)
        assert not reply.ephemeral or reply.content.startswith("✓"), f"{cmd} was refused: {reply.content}"
    raise AssertionError("the try never ended")
