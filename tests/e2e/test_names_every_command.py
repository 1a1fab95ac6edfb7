"""Every command that echoes a member-chosen text (a team's, a league's or a player's name, a
coach's words for the dice, a moderator's reason) shows it as typed: Discord's markdown escaped,
mentions broken, by the one helper every post uses (``service.names.safe_name``). Issue 31:
"every name escaped everywhere it is posted, and a test that walks every command that echoes a
name".

The walk is a table: a new command that echoes a name gets a row. After each row, every message
the channel gained or had edited and every private answer is read as a member sees it: a hostile
text may appear only in its escaped form, and nobody is pinged by it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fakediscord import FakeDiscord
from support.bots import world

from bot.app import ElfballBot
from service.matches import MatchService
from service.names import safe_name

TEAM_A = "Tin_Can *Rattlers*"
TEAM_B = "[Free Nitro](https://example.com)"
LEAGUE = "# Elf_Cup"
PLAYER = "~~Sly~~ |Fox|"
WORDS = "*loud* [x](https://e.x) @everyone"
REASON = "__Alice__ is `away`"
HOSTILE = (TEAM_A, TEAM_B, LEAGUE, PLAYER, WORDS, REASON)


@dataclass
class Row:
    """One command: who, where (``office`` or ``pitch``), its name and options, and which hostile
    texts its answer must show (escaped)."""

    who: str
    where: str
    command: str
    options: dict[str, Any] = field(default_factory=dict)
    shows: tuple[str, ...] = ()
    press: str | None = None  # a button to press on the answer (the AI challenge's Start)


WALK = [
    Row("alice", "office", "team", {"subcommand": "create", "name": TEAM_A, "list": "gnolls"}, (TEAM_A,)),
    Row("bob", "office", "team", {"subcommand": "create", "name": TEAM_B, "list": "sarcos"}, (TEAM_B,)),
    Row("alice", "office", "team hire", {"team": TEAM_A, "position": "Hunters", "name": PLAYER}, (TEAM_A, PLAYER)),
    Row("alice", "office", "team show", {"name": TEAM_A}, (TEAM_A, PLAYER)),
    Row("bob", "office", "team list", {}, (TEAM_A, TEAM_B)),
    Row("alice", "office", "team sheet", {"team": TEAM_A}, (TEAM_A, PLAYER)),
    Row("alice", "office", "league create", {"name": LEAGUE, "goals": 1}, (LEAGUE,)),
    Row("bob", "office", "league list", {}, (LEAGUE,)),
    Row("alice", "office", "league join", {"league": LEAGUE, "team": TEAM_A}, (TEAM_A, LEAGUE)),
    Row("bob", "office", "league join", {"league": LEAGUE, "team": TEAM_B}, (TEAM_B, LEAGUE)),
    Row("mod", "office", "league settings", {"league": LEAGUE, "budget": 200, "reason": REASON}, (LEAGUE,)),
    Row("alice", "office", "league schedule", {"league": LEAGUE}, (TEAM_A, TEAM_B)),
    Row("bob", "office", "league fixtures", {"league": LEAGUE}, (TEAM_A, TEAM_B)),
    Row("alice", "office", "league audit", {"league": LEAGUE}, (REASON,)),
    Row("alice", "pitch", "match challenge", {"opponent": "bob", "team": TEAM_A, "words": WORDS}, (TEAM_A, WORDS)),
    Row("bob", "pitch", "match accept", {"team": TEAM_B, "words": WORDS}, (TEAM_A, TEAM_B, WORDS)),
    Row("carol", "pitch", "match status", {}, (TEAM_A, TEAM_B)),
    Row("alice", "pitch", "match status", {}, (TEAM_A, TEAM_B)),
    Row("bob", "pitch", "match concede", {}, (TEAM_B,)),
    Row("bob", "office", "league standings", {"league": LEAGUE}, (TEAM_A, TEAM_B)),
    Row("alice", "side", "match challenge", {"opponent": "bot", "team": TEAM_A, "words": WORDS}, (TEAM_A, WORDS),
        press="Start"),
]


def _texts(fake: FakeDiscord, reply: Any, channel: Any) -> str:
    """What members read after one command: the answer (public or private, with its followups
    and embeds) and every message of the channel as it reads now (edits included)."""
    return "\n".join([reply.all_text, *(m.text for m in fake.channel_messages(channel))])


def _shows_escaped(text: str, hostile: str) -> bool:
    """``hostile`` appears in ``text`` only as ``safe_name`` writes it (and at least once so)."""
    escaped = safe_name(hostile)
    return escaped in text and hostile not in text.replace(escaped, "")


async def test_every_command_that_echoes_a_name_shows_it_escaped_and_pings_nobody(database):
    async with FakeDiscord(timeout=20.0) as fake:
        guild, pitch, alice, bob, carol, mod = world(fake)
        office, side = guild.add_text_channel("office"), guild.add_text_channel("side")
        bot = ElfballBot(service=MatchService(width=400), dev_guild=guild.id)
        await fake.start_bot(bot)
        members = {"alice": alice, "bob": bob, "carol": carol, "mod": mod, "bot": fake.bot_user}
        channels = {"office": office, "pitch": pitch, "side": side}
        before = fake.mark()
        for row in WALK:
            options = {k: members.get(v, v) if k == "opponent" else v for k, v in row.options.items()}
            channel = channels[row.where]
            reply = await fake.slash(members[row.who], channel, row.command, **options)
            assert "⛔" not in reply.content, (row.command, reply.content)  # the walk itself is refused nowhere
            if row.press:
                reply = await fake.click(members[row.who], reply, label=row.press)
            texts = _texts(fake, reply, channel)
            for hostile in row.shows:
                assert _shows_escaped(texts, hostile), (row.command, hostile, texts[:1500])
            for hostile in HOSTILE:  # a text not meant to show must not show raw either
                escaped = safe_name(hostile)
                assert hostile not in texts.replace(escaped, ""), (row.command, hostile)
        # No hostile text pinged anyone: @everyone in the words is shown, not sent, and the members
        # no command named (a spectator, the moderator) were never notified.
        assert fake.notifications_for(carol, since=before) == []
        assert fake.notifications_for(mod, since=before) == []
