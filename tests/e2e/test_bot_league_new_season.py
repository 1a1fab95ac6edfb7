"""A league's second season through the real discord.py client and the fake Discord (issue 34).

The first season is over (every fixture has a result). Bob, who is no commissioner, is refused
privately and nothing changes; Alice starts season 2 with one public message that pings only
the coaches whose teams carried over. The first season stays readable with ``/league seasons``;
Carol withdraws her team before the new schedule, which then pairs the two left.
"""

from __future__ import annotations

from fakediscord import FakeDiscord

from bot.app import ElfballBot
from service.matches import MatchService
from service.seasons import SeasonService

TEAMS = (("Moonblades", "night-elves"), ("Gnashers", "gnolls"), ("Tinkers", "gnomes"))


async def test_the_commissioner_starts_season_two_and_season_one_stays_readable(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild = fake.add_guild("Elfball Club")
        office = guild.add_text_channel("office")
        alice, bob, carol = (guild.add_member(n) for n in ("Alice", "Bob", "Carol"))
        bot = ElfballBot(service=MatchService(width=400), dev_guild=guild.id, background=False)
        await fake.start_bot(bot)
        for member, (name, lst) in zip((alice, bob, carol), TEAMS, strict=True):
            await fake.slash(member, office, "team", subcommand="create", name=name, list=lst)
        await fake.slash(alice, office, "league create", name="Elf Cup")
        for member, (name, _lst) in zip((alice, bob, carol), TEAMS, strict=True):
            await fake.slash(member, office, "league join", league="Elf Cup", team=name)
        await fake.slash(alice, office, "league schedule")
        first = bot.league.league(guild.id, "Elf Cup")

        # Not over yet: refused privately.
        r = await fake.slash(alice, office, "league new-season")
        assert r.ephemeral and "not over: 3 fixture" in r.content
        for v in bot.league.fixtures(guild.id, "Elf Cup"):
            await fake.slash(alice, office, "league correct", fixture=str(v.id), home_score=2, away_score=1,
                             reason="played at the club")

        # Bob is no commissioner: a private refusal, nothing posted, nothing changed.
        mark = fake.mark()
        r = await fake.slash(bob, office, "league new-season")
        assert r.ephemeral and "only the commissioner" in r.content
        assert [m for m in fake.new_messages(office, mark) if not m.ephemeral] == []
        assert bot.league.league(guild.id, "Elf Cup").id == first.id

        # Alice starts season 2: one message, pinging only the coaches carried over.
        mark = fake.mark()
        r = await fake.slash(alice, office, "league new-season")
        (post,) = fake.new_messages(office, mark)
        assert not post.ephemeral and "season 2 begins" in post.content
        assert all(name in post.content for name, _ in TEAMS)
        assert sorted(post.notified) == sorted([bob.id, carol.id])
        second = bot.league.league(guild.id, "Elf Cup")
        assert second.season == 2 and second.id != first.id
        # The new season's draw is committed with it, before anyone can withdraw or draw.
        assert len(second.draw_commitment) == 64 and second.draw_commitment != first.draw_commitment
        assert f"`{second.draw_commitment}`" in post.content

        # Season 1 stays readable: the list with its champion, its table and its results.
        r = await fake.slash(carol, office, "league seasons")
        assert not r.ephemeral and "Season 1: 3 team(s), 3/3 played · champion" in r.content
        assert "Season 2 (current)" in r.content and not r.message.notified
        r = await fake.slash(carol, office, "league seasons", season=1)
        assert "season 1" in r.content and r.content.count("2-1") >= 3 and not r.message.notified
        r = await fake.slash(carol, office, "league seasons", season=5)
        assert r.ephemeral and "no season 5" in r.content

        # Carol leaves: her team withdraws before the schedule, which pairs the two others.
        r = await fake.slash(carol, office, "league withdraw", team="Tinkers")
        assert not r.ephemeral and "withdraws" in r.content and not r.message.notified
        r = await fake.slash(alice, office, "league schedule")
        assert "Moonblades" in r.content and "Gnashers" in r.content and "Tinkers" not in r.content
        assert SeasonService(bot.league).season(guild.id, "Elf Cup", 1).id == first.id
        await bot.close()
