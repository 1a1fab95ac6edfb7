"""The fixture autocompletes of a server with many leagues answer from one bounded query: the
typed text filtered by the database, at most 25 rows (Discord shows 25), whatever the number of
leagues. Counted in statements and rows, not timed (``benchmarks/bench_lookups.py`` times it)."""

from __future__ import annotations

from fakediscord import FakeDiscord
from sqlalchemy import event, text
from support.crowd import crowded_server

from bot.app import ElfballBot
from service.matches import MatchService

LEAGUE_TABLES = ("leagues", "league_fixtures", "teams")


class Statements:
    """The SQL statements that read the league tables while it listens."""

    def __init__(self, engine) -> None:
        self.seen: list[str] = []
        event.listen(engine, "before_cursor_execute", self._record)

    def _record(self, conn, cursor, statement, parameters, context, executemany) -> None:
        if any(f" {t}" in statement for t in LEAGUE_TABLES):
            self.seen.append(statement)

    def since(self, start: int) -> list[str]:
        return self.seen[start:]


async def test_fixture_autocompletes_read_one_bounded_query_filtered_by_what_is_typed(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild = fake.add_guild("Elfball Club")
        office = guild.add_text_channel("office")
        alice = guild.add_member("Alice")
        crowded_server(guild.id, leagues=40, fixtures=400)
        with database.begin() as conn:  # Alice coaches Cup 3's first team
            conn.execute(text("UPDATE teams SET coach_id = :a WHERE name = 'Team 3a'"), {"a": alice.id})
        # No sweeps: the round-deadline sweep reads league fixtures too, and only the autocomplete's reads count here.
        bot = ElfballBot(service=MatchService(width=600), dev_guild=guild.id, background=False)
        await fake.start_bot(bot)
        sql = Statements(database)

        start = len(sql.seen)
        choices = await fake.autocomplete(alice, office, "league replay", option="fixture", value="")
        assert len(choices) == 25
        reads = sql.since(start)
        assert len(reads) == 1 and "LIMIT" in reads[0], reads  # not one query per league

        start = len(sql.seen)
        choices = await fake.autocomplete(alice, office, "league replay", option="fixture", value="cup 7")
        assert len(sql.since(start)) == 1
        assert len(choices) == 10 and all("Cup 7" in c.name for c in choices)
        assert not any("Cup 17" in c.name or "Cup 27" in c.name for c in choices)

        choices = await fake.autocomplete(alice, office, "league replay", option="fixture", value="#12")
        assert choices[0].value == "12" and all(c.value.startswith("12") or "12" in c.name for c in choices)

        # /league play offers Alice's own fixtures still to play, nobody else's.
        start = len(sql.seen)
        mine = await fake.autocomplete(alice, office, "league play", option="fixture", value="")
        assert len(sql.since(start)) == 1
        assert len(mine) == 6 and all("Team 3a" in c.name for c in mine)  # 10 rounds, 1, 4, 7 and 10 played


async def test_team_and_league_autocompletes_read_a_bounded_page_without_players(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild = fake.add_guild("Elfball Club")
        office = guild.add_text_channel("office")
        alice = guild.add_member("Alice")
        crowded_server(guild.id, leagues=40, fixtures=40)
        # No sweeps: the round-deadline sweep reads league fixtures too, and only the autocomplete's reads count here.
        bot = ElfballBot(service=MatchService(width=600), dev_guild=guild.id, background=False)
        await fake.start_bot(bot)
        sql = Statements(database)

        start = len(sql.seen)
        teams = await fake.autocomplete(alice, office, "team show", option="name", value="team 1")
        reads = sql.since(start)
        assert len(reads) == 1 and "LIMIT" in reads[0] and "roster" not in reads[0], reads  # no players read
        assert {"Team 1a", "Team 1b", "Team 19b"} <= {c.value for c in teams} and len(teams) == 22

        start = len(sql.seen)
        leagues = await fake.autocomplete(alice, office, "league standings", option="league", value="")
        assert len(sql.since(start)) == 1 and len(leagues) == 25
        leagues = await fake.autocomplete(alice, office, "league standings", option="league", value="cup 3")
        assert {c.value for c in leagues} == {"Cup 3", "Cup 30", "Cup 31", "Cup 32", "Cup 33", "Cup 34", "Cup 35",
                                              "Cup 36", "Cup 37", "Cup 38", "Cup 39"}
