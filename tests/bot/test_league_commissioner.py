"""A server's moderators may stand in for an absent commissioner (issue 18).

Only the commissioner changes a league's settings, draws its schedule and corrects its results;
a member who may manage the server (Manage Server, as for /match forfeit) may do the same when
the commissioner is away, and the audit trail names who acted and for whom. Anyone else is
refused, and nothing changes.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from fakediscord import FakeDiscord
from support.leagues import season, start

from bot.app import ElfballBot
from db import teams as db_teams
from db.engine import session_scope
from db.errors import NotAllowedError
from service.leagues import LeagueService
from service.matches import MatchService

GUILD, ALICE, BOB, MOD = 1, 11, 12, 99


@pytest.fixture
def league(database):
    return LeagueService(MatchService(render=False), render=False)


def test_a_moderator_stands_in_and_the_audit_says_so(league) -> None:
    league.create(GUILD, ALICE, "Elf Cup")
    for coach, name in ((ALICE, "Moonblades"), (BOB, "Gnashers")):
        with session_scope() as s:
            db_teams.create_team(session=s, guild_id=GUILD, coach_id=coach, name=name, team_list="night elves")
        league.join(GUILD, coach, "Elf Cup", name)
    with pytest.raises(NotAllowedError, match="only the commissioner"):
        league.change_settings(GUILD, BOB, "Elf Cup", {"budget": 200})
    with pytest.raises(NotAllowedError):
        league.schedule(GUILD, BOB, "Elf Cup")
    assert league.settings(GUILD, "Elf Cup")["budget"] == 180
    with pytest.raises(NotAllowedError, match="say why"):  # a stand-in says why, for the audit
        league.change_settings(GUILD, MOD, "Elf Cup", {"budget": 200}, moderator=True)
    league.change_settings(GUILD, MOD, "Elf Cup", {"budget": 200}, moderator=True, reason="Alice is away")
    (fixture,) = league.schedule(GUILD, MOD, "Elf Cup", moderator=True, reason="Alice is away")
    league.correct(GUILD, MOD, fixture.id, home_score=1, away_score=0, reason="walkover", moderator=True)
    trail = league.audit(GUILD, "Elf Cup")
    assert [(a.action, a.actor_id, a.detail.get("stand_in_for")) for a in trail[:3]] == [
        ("result_corrected", MOD, ALICE), ("schedule_made", MOD, ALICE), ("settings_changed", MOD, ALICE)]
    league.change_settings(GUILD, ALICE, "Elf Cup", {"budget": 190}, moderator=True)  # his own: no stand-in
    assert "stand_in_for" not in league.audit(GUILD, "Elf Cup")[0].detail


async def test_manage_server_may_change_a_league_s_settings_on_discord(database) -> None:
    async with FakeDiscord(timeout=10.0) as fake:
        guild = fake.add_guild("Elfball Club")
        office = guild.add_text_channel("office")
        alice, bob = guild.add_member("Alice"), guild.add_member("Bob")
        mod = guild.add_member("Mod", manage_guild=True)
        bot = ElfballBot(service=MatchService(width=400), dev_guild=guild.id)
        await fake.start_bot(bot)
        await fake.slash(alice, office, "league create", name="Elf Cup")
        r = await fake.slash(bob, office, "league settings", budget=200)
        assert r.ephemeral and "only the commissioner" in r.content
        for member, budget in ((mod, 200), (guild.owner, 210)):
            r = await fake.slash(member, office, "league settings", budget=budget, reason="Alice is away")
            assert not r.ephemeral and f"budget {budget}" in r.content, r.content
        r = await fake.slash(alice, office, "league audit")
        assert f"by <@{mod.id}> (standing in for <@{alice.id}>)" in r.content
        r = await fake.slash(alice, office, "league audit", locale="fr")
        assert f"par <@{mod.id}> (à la place de <@{alice.id}>)" in r.content


def test_a_moderators_forfeit_of_a_league_match_is_audited_and_not_in_his_own(database) -> None:
    now = [None]
    matches = MatchService(render=False)
    real = matches.clock
    matches.clock = lambda: now[0] or real()
    league = LeagueService(matches, render=False)
    season(league, ALICE, BOB)
    league.change_settings(GUILD, ALICE, "Elf Cup", {"clock_hours": 1})
    view, out = start(league)
    now[0] = real() + timedelta(hours=2)
    with pytest.raises(NotAllowedError, match="a moderator cannot end, forfeit or correct his own match"):
        matches.forfeit(500, ALICE)
    assert matches.current(500).id == out.match.id
    matches.forfeit(500, MOD)
    trail = league.audit(GUILD, "Elf Cup", limit=3)
    # Newest first: the moderator's forfeit, then the result it gave.
    assert [(a.action, a.actor_id) for a in trail[:2]] == [("result_recorded", None), ("forfeit_declared", MOD)]
    assert trail[1].fixture_id == view.id and trail[1].detail == {"match": out.match.id, "hours": 1}
