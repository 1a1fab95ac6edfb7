"""League round deadlines through the real discord.py client and the fake Discord (issue 34).

The commissioner sets round 1's deadline; the fixtures show it as a Discord timestamp. A day
before, the reminder loop posts one message for the round, pinging only the coaches whose
fixture is unplayed, and never again (not on the next sweep, not after a restart). When it
passes, one notice pings the commissioner, whose *Decide* shows the choices to him only. He
plays the fixture left, so he cannot rule on it; a moderator who does not play it extends it,
then, when the extension passes too, forfeits it: each ruling posted and in the league's audit.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fakediscord import FakeDiscord

from bot.app import ElfballBot
from service.deadlines import unix
from service.matches import MatchService

TEAMS = (("Moonblades", "night-elves"), ("Gnashers", "gnolls"), ("Tinkers", "gnomes"), ("Widows", "black-widows"))


async def test_a_round_deadline_is_shown_reminded_once_and_ruled_privately(database):
    now = [datetime(2026, 11, 27, 12, 0, tzinfo=UTC)]
    async with FakeDiscord(timeout=10.0) as fake:
        guild = fake.add_guild("Elfball Club")
        office = guild.add_text_channel("office")
        alice, bob, carol, dave = (guild.add_member(n) for n in ("Alice", "Bob", "Carol", "Dave"))
        mod = guild.add_member("Mod", manage_guild=True)

        def make_bot() -> ElfballBot:
            return ElfballBot(service=MatchService(width=400, clock=lambda: now[0]), dev_guild=guild.id, background=False)

        bot = make_bot()
        await fake.start_bot(bot)
        for member, (name, lst) in zip((alice, bob, carol, dave), TEAMS, strict=True):
            await fake.slash(member, office, "team", subcommand="create", name=name, list=lst)
        await fake.slash(alice, office, "league create", name="Elf Cup")
        for member, (name, _lst) in zip((alice, bob, carol, dave), TEAMS, strict=True):
            await fake.slash(member, office, "league join", league="Elf Cup", team=name)
        await fake.slash(alice, office, "league schedule")

        # Only the commissioner sets a deadline; an unreadable one is refused privately.
        r = await fake.slash(bob, office, "league deadline", round=1, when="in 7 days")
        assert r.ephemeral and "only the commissioner" in r.content
        r = await fake.slash(alice, office, "league deadline", round=1, when="next blue moon")
        assert r.ephemeral and "cannot read" in r.content
        r = await fake.slash(alice, office, "league deadline", round=1, when="in 7 days")
        when = now[0] + timedelta(days=7)
        assert not r.ephemeral and f"<t:{unix(when)}:f>" in r.content and not r.message.notified

        # The fixtures show it, in every member's own time zone, for round 1 only.
        fixtures = bot.league.fixtures(guild.id, "Elf Cup")
        r = await fake.slash(carol, office, "league fixtures")
        due = [line for line in r.content.splitlines() if f"due <t:{unix(when)}:f>" in line]
        assert len(due) == 2 and all(line.startswith("R1 ") for line in due)

        # Carol's fixture gets a result (a walkover): its coaches are not reminded.
        round1 = [v for v in fixtures if v.fixture.round == 1]
        alices = next(v for v in round1 if alice.id in (v.home_coach, v.away_coach))
        other = next(v for v in round1 if v is not alices)
        r = await fake.slash(alice, office, "league correct", fixture=str(other.id), home_score=2, away_score=0,
                             reason="walkover")
        assert not r.ephemeral

        # Too early: nothing. A day before: one message for the round, pinging exactly the two coaches.
        now[0] = when - timedelta(hours=25)
        mark = fake.mark()
        await bot.remind()
        assert fake.new_messages(office, mark) == []
        now[0] = when - timedelta(hours=23)
        await bot.remind()
        (reminder,) = fake.new_messages(office, mark)
        assert "round 1" in reminder.content and f"#{alices.id}" in reminder.content
        assert f"#{other.id}" not in reminder.content
        assert sorted(reminder.notified) == sorted([alices.home_coach, alices.away_coach])
        # Never twice: not on the next sweep, not after a restart.
        mark = fake.mark()
        await bot.remind()
        await fake.stop_bot(bot)
        bot = make_bot()
        await fake.start_bot(bot)
        await bot.remind()
        assert fake.new_messages(office, mark) == []

        # The deadline passes: one notice, pinging the commissioner only, with his button.
        now[0] = when + timedelta(minutes=5)
        await bot.remind()
        await bot.remind()
        (notice,) = fake.new_messages(office, mark)
        assert notice.notified == [alice.id] and f"#{alices.id}" in notice.content
        r = await fake.click(bob, notice, label="Decide")
        assert r.ephemeral and "only the commissioner" in r.content
        r = await fake.click(alice, notice, label="Decide")
        assert r.ephemeral and f"#{alices.id}" in r.content
        # Alice plays it: she may not rule on it, and nothing changes.
        r = await fake.click(alice, r.message, label=f"#{alices.id}: draw")
        assert r.ephemeral and "your own fixture" in r.content
        assert bot.league.fixture(guild.id, alices.id).fixture.status == "scheduled"

        # A moderator who does not play it extends it (three days from now): said in public, audited.
        stale = await fake.click(mod, notice, label="Decide")  # a panel he opens, then leaves
        panel = await fake.click(mod, notice, label="Decide")
        assert panel.ephemeral
        mark = fake.mark()
        r = await fake.click(mod, panel.message, label=f"#{alices.id}: +3 days")
        assert "nothing to decide" in r.message.content  # the private panel, updated
        extended = now[0].replace(second=0) + timedelta(days=3)
        (said,) = [m for m in fake.new_messages(office, mark) if not m.ephemeral]
        assert f"<t:{unix(extended)}:f>" in said.content and not said.notified
        assert bot.league.fixture(guild.id, alices.id).fixture.deadline == extended
        # The panel he left is out of date: its press is refused, and nothing changes.
        r = await fake.click(mod, stale.message, label=f"#{alices.id}: {alices.home} forfeits")
        assert r.ephemeral and "changed since" in r.content
        assert bot.league.fixture(guild.id, alices.id).fixture.status == "scheduled"

        # The extension passes too: a new notice; the moderator forfeits the home team.
        now[0] = extended + timedelta(minutes=1)
        mark = fake.mark()
        await bot.remind()
        (notice,) = fake.new_messages(office, mark)
        assert notice.notified == [alice.id]
        panel = await fake.click(mod, notice, label="Decide")
        r = await fake.click(mod, panel.message, label=f"#{alices.id}: {alices.home} forfeits")
        ruled = bot.league.fixture(guild.id, alices.id).fixture
        assert (ruled.status, ruled.home_score, ruled.away_score, ruled.conceded_by) == ("played", 0, 2, "home")
        r = await fake.slash(carol, office, "league standings")
        assert alices.away in r.content
        r = await fake.slash(alice, office, "league audit")
        lines = r.content.splitlines()
        assert f"deadline_forfeit (home) fixture #{alices.id} by <@{mod.id}> (standing in for <@{alice.id}>)" in lines[0]
        assert "0-2" in lines[0]
        assert any("deadline_extended" in line and "+" not in line for line in lines)
        assert any(line.count("deadline_set") for line in lines)
        r = await fake.slash(alice, office, "league audit", locale="fr")
        assert "forfait à l'échéance (domicile)" in r.content and "échéance prolongée" in r.content


async def test_a_league_created_with_a_round_length_gets_each_rounds_deadline_with_its_schedule(database):
    now = [datetime(2026, 11, 27, 12, 0, 30, tzinfo=UTC)]
    async with FakeDiscord(timeout=10.0) as fake:
        guild = fake.add_guild("Elfball Club")
        office = guild.add_text_channel("office")
        alice, bob, carol = (guild.add_member(n) for n in ("Alice", "Bob", "Carol"))
        bot = ElfballBot(service=MatchService(width=400, clock=lambda: now[0]), dev_guild=guild.id, background=False)
        await fake.start_bot(bot)
        for member, (name, lst) in zip((alice, bob, carol), TEAMS[:3], strict=True):
            await fake.slash(member, office, "team", subcommand="create", name=name, list=lst)
        await fake.slash(alice, office, "league create", name="Elf Cup", round_days=7)
        for member, (name, _lst) in zip((alice, bob, carol), TEAMS[:3], strict=True):
            await fake.slash(member, office, "league join", league="Elf Cup", team=name)
        r = await fake.slash(alice, office, "league schedule")
        start = now[0].replace(second=0)
        for rnd in (1, 2, 3):  # three teams: three rounds, one fixture each (one team rests)
            due = unix(start + timedelta(days=7 * rnd))
            (line,) = [ln for ln in r.content.splitlines() if ln.startswith(f"R{rnd} ")]
            assert f"due <t:{due}:f>" in line
        r = await fake.slash(alice, office, "league settings")
        assert "round days 7" in r.content
        # Reminded in the channel where the schedule was drawn.
        now[0] = start + timedelta(days=6, hours=1)
        mark = fake.mark()
        await bot.remind()
        (reminder,) = fake.new_messages(office, mark)
        assert "round 1" in reminder.content and len(reminder.notified) == 2
