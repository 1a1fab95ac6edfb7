"""A server's caps and limits in the service (``service.limits``): counted in the transaction
that adds the row, so two requests at once cannot both pass; a server may make a limit
stricter than the operator's, never looser. On SQLite and PostgreSQL, with real threads."""

from __future__ import annotations

import time
from datetime import datetime, timezone
from typing import Any

import pytest
from sqlmodel import Session
from support.databases import at_once

from db import limits as counts
from engine import RuleOptions
from service import challenges, limits, teams
from service.leagues import LeagueService
from service.refusal import Refused

GUILD, ALICE, BOB = 1, 11, 12
WINDOW = 0.25  # seconds between a count and its insert here: both requests are inside it at once


def slow_count(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """``db.limits.<name>`` takes ``WINDOW`` seconds after it has counted."""
    real = getattr(counts, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        out = real(*args, **kwargs)
        time.sleep(WINDOW)
        return out

    monkeypatch.setattr(counts, name, counted)


def test_two_teams_created_at_once_under_a_cap_keep_one(store, monkeypatch):
    monkeypatch.setenv("ELFBALL_LIMIT_TEAMS", "3")
    for name in ("One", "Two"):
        teams.create(guild_id=GUILD, coach_id=ALICE, name=name, team_list="gnolls")
    slow_count(monkeypatch, "team_count")
    results = at_once(*(lambda n=n: teams.create(guild_id=GUILD, coach_id=ALICE, name=n, team_list="gnolls")
                        for n in ("Three", "Four")), catch=(Refused,))
    refused = [r for r in results if isinstance(r, Refused)]
    assert len(refused) == 1 and refused[0].key == "limits.cap.teams" and refused[0].values["cap"] == 3
    assert len(teams.teams(GUILD, coach_id=ALICE)) == 3


def test_two_challenges_at_once_under_a_cap_keep_one(store, monkeypatch):
    monkeypatch.setenv("ELFBALL_LIMIT_CHALLENGES", "1")
    slow_count(monkeypatch, "pending_challenges")

    def challenge(channel: int) -> Any:
        return challenges.propose(guild_id=GUILD, channel_id=channel, challenger_id=ALICE, opponent_id=BOB,
                                  team="gnolls", options=RuleOptions(), entropy=f"c{channel}")

    results = at_once(lambda: challenge(100), lambda: challenge(200), catch=(Refused,))
    refused = [r for r in results if isinstance(r, Refused)]
    assert len(refused) == 1 and refused[0].key == "limits.cap.challenges"
    with Session(store) as s:
        assert len(counts.pending_challenges(s, GUILD, datetime.now(timezone.utc), ALICE)) == 1


def test_the_server_cap_counts_every_member(store, monkeypatch):
    monkeypatch.setenv("ELFBALL_LIMIT_SERVER_LEAGUES", "2")
    league = LeagueService()
    league.create(GUILD, ALICE, "Elf Cup")
    league.create(GUILD, BOB, "Gnoll Cup")
    with pytest.raises(Refused) as refused:
        league.create(GUILD, 13, "Third Cup")
    assert refused.value.key == "limits.cap.server_leagues" and refused.value.values["count"] == 2
    league.create(GUILD + 1, 13, "Third Cup")  # another server counts its own


def test_a_server_makes_a_limit_stricter_never_looser(store, monkeypatch):
    monkeypatch.setenv("ELFBALL_LIMIT_AI_MATCHES", "5")
    monkeypatch.setenv("ELFBALL_LIMIT_REPLAY_COOLDOWN", "30")
    assert limits.server_limits(GUILD)["ai_matches"] == 5  # the operator's value is the default
    with pytest.raises(Refused) as refused:
        limits.change_limit(GUILD, "ai_matches", 2, moderator=False)
    assert refused.value.key == "limits.refuse.moderator"
    assert limits.change_limit(GUILD, "ai_matches", 2, moderator=True)["ai_matches"] == 2
    with pytest.raises(Refused) as refused:
        limits.change_limit(GUILD, "ai_matches", 6, moderator=True)
    assert refused.value.key == "limits.refuse.looser.cap" and refused.value.values["operator"] == 5
    with pytest.raises(Refused) as refused:
        limits.change_limit(GUILD, "replay_cooldown", 10, moderator=True)
    assert refused.value.key == "limits.refuse.looser.cooldown"
    assert limits.change_limit(GUILD, "replay_cooldown", 120, moderator=True)["replay_cooldown"] == 120
    found = limits.server_limits(GUILD)
    assert found["ai_matches"] == 2 and found.chosen == {"ai_matches", "replay_cooldown"}
    assert limits.server_limits(GUILD + 1)["ai_matches"] == 5  # another server keeps the operator's
    # The operator tightens his value: a looser choice no longer holds; back to the default.
    monkeypatch.setenv("ELFBALL_LIMIT_AI_MATCHES", "1")
    assert limits.server_limits(GUILD)["ai_matches"] == 1
    assert limits.change_limit(GUILD, "ai_matches", None, moderator=True).chosen == {"replay_cooldown"}


def test_the_operators_values_and_their_defaults(monkeypatch, caplog):
    monkeypatch.delenv("ELFBALL_LIMIT_AI_MATCHES")
    assert limits.operator_value("ai_matches") == 3
    monkeypatch.setenv("ELFBALL_LIMIT_AI_MATCHES", "lots")
    assert limits.operator_value("ai_matches") == 3 and "ELFBALL_LIMIT_AI_MATCHES" in caplog.text
    assert limits.operator_value("export_cooldown", {"ELFBALL_LIMIT_EXPORT_COOLDOWN": "999999"}) == 300
