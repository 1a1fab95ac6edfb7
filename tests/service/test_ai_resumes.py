"""The AI coach always resumes: a failure in the middle of its moves, a restart or its command
cap never leaves a match waiting on it (issue 17). On SQLite and PostgreSQL."""

from __future__ import annotations

import io
from contextlib import contextmanager

import pytest
from support.databases import sessions_on
from sqlmodel import Session

import service.matches as svcmod
from cli.main import main
from service.match_rules import MatchSide
from ai import AICoach
from service.matches import AI_COACH_ID, MatchService

ALICE = 101


@pytest.fixture
def scope(db_engine):
    @contextmanager
    def sessions():
        with Session(db_engine, expire_on_commit=False) as s:
            yield s

    return sessions


class Killed(RuntimeError):
    """What a worker dying in the middle of the AI's moves looks like to the service."""


class DyingAI(AICoach):
    """The real AI coach, killed at its ``die_at``-th decision (once, or ``times`` times)."""

    def __init__(self, die_at: int, times: int = 1) -> None:
        super().__init__()
        self.calls, self.die_at, self.times = 0, die_at, times

    def choose(self, state, side):  # type: ignore[no-untyped-def]
        self.calls += 1
        if self.times and self.calls >= self.die_at:
            self.times -= 1
            raise Killed("worker killed")
        return super().choose(state, side)


def _ai_first(svc: MatchService, channel: int):  # type: ignore[no-untyped-def]
    """A match where the AI (west) sets up first, with the dice of a fixed seed."""
    for seed in range(40):
        out = svc.start(guild_id=1, channel_id=channel + seed, west=MatchSide(AI_COACH_ID, team_list="night-elves"),
                        east=MatchSide(ALICE, team_list="gnolls"), seed=f"resume-{seed}")
        if out.match.version > 0 or svc.ai.calls:  # type: ignore[attr-defined]
            return out, channel + seed
    raise AssertionError("no seed lets the AI decide first")


def test_an_ai_killed_mid_chain_plays_on_at_the_next_load(scope, caplog) -> None:
    ai = DyingAI(die_at=2)
    svc = MatchService(sessions=scope, render=False, ai=ai)
    out, channel = _ai_first(svc, 500)
    # The kill was logged, the moves before it are saved, and the match waits on the AI.
    assert any("AI coach failed" in r.message for r in caplog.records)
    stuck = out.match.version
    assert out.deciding_side == "west" and out.match.deciding_user_id == AI_COACH_ID
    # The human looks at the match: the AI plays on and hands over to him.
    shown = svc.status(channel)
    assert shown.match.version > stuck and shown.deciding_side == "east"
    assert shown.events, "the AI's moves since are shown"
    # And the human can play: his command is not refused as "not your side".
    after = svc.act(channel, ALICE, svc.read(channel, ALICE, "auto"))
    assert after.match.version > shown.match.version


def test_a_command_of_the_human_resumes_the_ai_first(scope) -> None:
    ai = DyingAI(die_at=2)
    svc = MatchService(sessions=scope, render=False, ai=ai)
    out, channel = _ai_first(svc, 600)
    assert out.deciding_side == "west"
    # Alice types before anybody looked: the AI finishes its set-up, then her command applies.
    after = svc.act(channel, ALICE, svc.read(channel, ALICE, "auto"))
    assert after.match.version == out.match.version + 2  # the AI's SetupDone, then her AutoSetup


def test_the_ai_command_cap_continues_on_the_next_load(scope, monkeypatch) -> None:
    monkeypatch.setattr(svcmod, "MAX_AI_COMMANDS", 2)
    svc = MatchService(sessions=scope, render=False)
    out = svc.start(guild_id=1, channel_id=700, west=MatchSide(AI_COACH_ID, team_list="night-elves"),
                    east=MatchSide(AI_COACH_ID, team_list="gnolls"), seed="ai-v-ai")
    # AI v AI: every load makes at most two moves and never stalls.
    versions = [out.match.version]
    for _ in range(5):
        versions.append(svc.status(700).match.version)
    assert all(b - a == 2 for a, b in zip(versions, versions[1:])), versions


def test_the_reminder_sweep_resumes_waiting_ai_and_tells_the_coach(scope) -> None:
    svc = MatchService(sessions=scope, render=False, ai=DyingAI(die_at=2))
    out, channel = _ai_first(svc, 800)
    assert out.deciding_side == "west"
    due = svc.due_reminders()
    assert [m.channel_id for m, _ in due] == [channel]
    match, prompt = due[0]
    assert match.deciding_user_id == ALICE and "set up" in prompt
    assert svc.due_reminders() == []  # nothing more waits on the AI, and Alice's deadline is a day away


def test_an_ai_that_keeps_failing_never_blocks_reading_or_abandoning(scope) -> None:
    svc = MatchService(sessions=scope, render=False, ai=DyingAI(die_at=1, times=10**6))
    out = svc.start(guild_id=1, channel_id=900, west=MatchSide(AI_COACH_ID, team_list="night-elves"),
                    east=MatchSide(AI_COACH_ID, team_list="gnolls"), seed="broken")
    assert out.match.version == 0
    assert svc.status(900).match.version == 0  # refused nothing, raised nothing
    assert svc.abandon(900, ALICE, "the AI is broken").status == "abandoned"


def test_the_console_resumes_a_match_left_waiting_on_the_ai(tmp_path, monkeypatch, capsys) -> None:
    from db.engine import make_engine, use_engine
    from db.migrate import upgrade

    db = tmp_path / "local.db"
    engine = make_engine(f"sqlite:///{db}")
    upgrade(engine)

    sessions = sessions_on(engine)

    # A console match against the AI (west), killed in the middle of the AI's set-up.
    for seed in range(40):
        ai = DyingAI(die_at=2)
        svc = MatchService(sessions=sessions, render=False, ai=ai)
        out = svc.start(guild_id=0, channel_id=1, west=MatchSide(AI_COACH_ID, team_list="night-elves"),
                        east=MatchSide(1, team_list="gnolls"), seed=f"console-{seed}")
        if ai.calls:
            break
        svc.abandon(1, 1)  # the human sets up first with this seed: try another
    assert out.deciding_side == "west" and out.match.version == 1
    engine.dispose()
    old = use_engine(None)
    try:
        monkeypatch.setattr("sys.stdin", io.StringIO("auto\ndone\nquit\n"))
        assert main(["local", "--db", str(db), "--out", str(tmp_path / "boards"), "--quiet"]) == 0
    finally:
        use_engine(old)
    printed = capsys.readouterr().out
    assert f"Resuming match #{out.match.id}" in printed and "refused" not in printed
    assert "has finished setting up" in printed
