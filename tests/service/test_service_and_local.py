"""The match service the bot and the console share, the console itself, and the demo."""

from __future__ import annotations

import io
from datetime import datetime, timedelta, timezone

import pytest

from cli.main import main
from db.errors import MatchChangedError, MatchNotFoundError, NotYourSideError, StoreError
from service.match_rules import MatchSide, rebuild
from engine import commands as C
from engine.errors import IllegalCommandError, MalformedInputError
from engine.legal import legal_commands
from engine.state import Phase
import service.matches as svcmod
from service.matches import AI_COACH_ID, MatchService

ALICE, BOB = 101, 202


def test_two_coaches_play_through_the_service(sessions):
    svc = MatchService(sessions=sessions, render=False)
    out = svc.start(guild_id=1, channel_id=10, west=MatchSide(ALICE, team_list="gnolls"),
                    east=MatchSide(BOB, team_list="night-elves"), seed="fixed-seed")
    first = out.deciding_side
    coach = {"west": ALICE, "east": BOB}
    assert "set up your team" in out.prompt
    # The other coach may not set up now; a stranger may not act at all.
    with pytest.raises(IllegalCommandError):
        svc.act(10, coach["east" if first == "west" else "west"], svc.read(10, coach["east" if first == "west" else "west"], "auto"))
    with pytest.raises(NotYourSideError):
        svc.act(10, 999, svc.read(10, 999, "auto"))
    for side in (first, "east" if first == "west" else "west"):
        svc.act(10, coach[side], svc.read(10, coach[side], "auto"))
        out = svc.act(10, coach[side], svc.read(10, coach[side], "done"))
    assert out.state.phase is Phase.FACEOFF
    winner = out.deciding_side
    out = svc.act(10, coach[winner], svc.read(10, coach[winner], "faceoff pickup"))
    assert any("Pick-up" in line for line in out.lines)
    assert out.state.phase is Phase.TURN and "choose who acts" in out.prompt
    # A typo is refused with the usage and nothing stored.
    version = out.match.version
    with pytest.raises(MalformedInputError):
        svc.act(10, coach[out.deciding_side], svc.read(10, coach[out.deciding_side], "tackle"))
    assert svc.status(10).match.version == version
    # The log is readable and the stored state is the replay of the log.
    assert any("Dice-off" in line for line in svc.log(10))
    with sessions() as s:
        assert rebuild(session=s, match_id=out.match.id).to_dict() == svc.status(10).state.to_dict()


def test_against_the_ai_coach_the_service_plays_its_decisions(sessions):
    from ai import AICoach

    svc = MatchService(sessions=sessions, render=True, width=1000)
    out = svc.start(guild_id=1, channel_id=11, west=MatchSide(ALICE, team_list="timberline-elves"),
                    east=MatchSide(AI_COACH_ID, team_list="night-elves"), seed="ai-seed")
    assert out.deciding_side == "west"  # whatever the AI had to do before Alice, it did
    assert out.png and out.png.startswith(b"\x89PNG")
    # a French server's picture has French panels: drawn once on demand, the English one untouched
    french = out.png_in("fr")
    assert french and french.startswith(b"\x89PNG") and french != out.png
    assert out.png_in("fr") is french and out.png_in("en") is out.png
    alice = AICoach()  # Alice plays well too, through the service like any coach
    for _ in range(1500):
        if out.finished:
            break
        assert out.deciding_side == "west", "every east decision was taken by the AI coach"
        out = svc.act(11, ALICE, alice.choose(out.state, "west"))
    assert out.finished
    assert out.state.winner in ("west", "east", "draw")
    assert out.match.status == "finished"


def test_hot_seat_speaks_for_the_deciding_side_and_concede(sessions):
    svc = MatchService(sessions=sessions, render=False)
    svc.start(guild_id=1, channel_id=12, west=MatchSide(ALICE, team_list="gnolls"),
              east=MatchSide(ALICE, team_list="sarcos"), seed="hot")
    out = svc.act(12, ALICE, svc.read(12, ALICE, "auto"))
    assert out.match.version == 1
    out = svc.concede(12, ALICE, as_side="west")
    assert out.finished and out.state.winner == "east"
    with pytest.raises(MatchNotFoundError):
        svc.status(12)


def test_local_console_plays_quits_and_resumes(tmp_path, monkeypatch, capsys):
    db, boards = tmp_path / "local.db", tmp_path / "boards"
    args = ["local", "--db", str(db), "--out", str(boards), "--quiet", "--ai", "east"]
    monkeypatch.setattr("sys.stdin", io.StringIO("help\nauto\nwhat\nquit\n"))
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "New match #1" in out and "refused: no command 'what'" in out and "Bye" in out
    assert (boards / "latest.png").read_bytes().startswith(b"\x89PNG")
    monkeypatch.setattr("sys.stdin", io.StringIO("done\nfaceoff pickup\nlog\n"))
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Resuming match #1" in out
    assert "has finished setting up" in out and "face-off" in out.lower()
    assert len(list(boards.glob("board-*.png"))) >= 3


def test_local_console_takes_a_profile_and_rules(tmp_path, monkeypatch, capsys):
    db, boards = tmp_path / "local.db", tmp_path / "boards"
    args = ["local", "--db", str(db), "--out", str(boards), "--quiet", "--ai", "east", "--profile", "beginner",
            "--rules", "timed double fr_dash"]
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Rules: profile beginner; timed (52-card deck" in out and "no goal limit" in out and "fr_dash" in out


@pytest.mark.slow
def test_demo_writes_frames_replay_and_log(tmp_path, capsys):
    out_dir = tmp_path / "demo"
    assert main(["demo", "--seed", "3", "--out", str(out_dir), "--width", "600"]) == 0
    text = capsys.readouterr().out
    assert "win after" in text or "draw" in text
    frames = sorted((out_dir / "frames").glob("frame-*.png"))
    assert len(frames) > 5
    assert (out_dir / "replay.gif").read_bytes()[:6] in (b"GIF89a", b"GIF87a")
    log = (out_dir / "match-log.txt").read_text()
    assert "Dice-off" in log and "Face-off" in log


def test_undo_takes_back_steps_and_turns_until_a_die_is_rolled(sessions):
    from db.errors import InvalidInputError
    from service.match_rules import rebuild
    from engine import commands as C

    svc = MatchService(sessions=sessions, render=False)
    svc.start(guild_id=1, channel_id=13, west=MatchSide(ALICE, team_list="gnolls"),
              east=MatchSide(BOB, team_list="night-elves"), seed="undo-seed")
    coach = {"west": ALICE, "east": BOB}
    out = svc.status(13)
    while out.state.phase is not Phase.TURN:  # set up and face off by the engine's defaults
        side = out.deciding_side
        cmd = out.pending.default[0]
        if out.pending.kind == "setup" and out.state.on_field(side):
            cmd = C.SetupDone()
        out = svc.act(13, coach[side], cmd)
    side = out.deciding_side
    # A player far from everyone, so his steps need no Disengage.
    from engine.legal import legal_commands
    starts = legal_commands(out.state, side).of(C.StartAction)
    out = svc.act(13, coach[side], starts[-1])
    with pytest.raises(InvalidInputError):
        svc.undo(13, coach[side])  # nothing to take back yet
    p = out.state.acting_player
    before = out.state.to_dict()
    steps = legal_commands(out.state, side).of(C.Move)
    out = svc.act(13, coach[side], steps[0])
    if not out.events or any(e.kind == "challenge_rolled" for e in out.events):
        pytest.skip("the step rolled dice in this position")
    out = svc.act(13, coach[side], svc.read(13, coach[side], "face W"))
    out = svc.act(13, coach[side], svc.read(13, coach[side], "undo"))
    out = svc.act(13, coach[side], svc.read(13, coach[side], "undo"))
    assert out.state.to_dict() == before  # exactly the position before the step
    assert out.state.players[p.id].hex == p.hex and out.state.action.jog_left == p.jog
    with pytest.raises(NotYourSideError):
        svc.undo(13, coach["east" if side == "west" else "west"])
    with sessions() as s:  # the log (undo rows included) still rebuilds the stored state
        assert rebuild(session=s, match_id=out.match.id).to_dict() == svc.status(13).state.to_dict()


@pytest.mark.slow
def test_reminders_are_due_after_the_delay_and_claimed_once_across_processes(sessions):
    from datetime import datetime, timedelta, timezone

    now = [datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)]
    clock = lambda: now[0]  # noqa: E731
    one = MatchService(sessions=sessions, render=False, clock=clock, reminder_after=timedelta(hours=24))
    other = MatchService(sessions=sessions, render=False, clock=clock, reminder_after=timedelta(hours=24))
    one.start(guild_id=1, channel_id=14, west=MatchSide(ALICE, team_list="gnolls"),
              east=MatchSide(BOB, team_list="night-elves"), seed="remind")
    now[0] += timedelta(hours=23)
    assert one.due_reminders() == []
    now[0] += timedelta(hours=2)
    assert other.due_reminders(accept=lambda m: False) == []  # another process's shard: left alone
    (match, prompt), = one.due_reminders()
    assert match.channel_id == 14 and "set up your team" in prompt
    assert other.due_reminders() == []  # claimed: no second reminder from another process
    now[0] += timedelta(hours=25)
    assert len(other.due_reminders()) == 1  # a day later, one more reminder
    # Acting resets the clock.
    side = one.status(14).deciding_side
    one.act(14, {"west": ALICE, "east": BOB}[side], one.read(14, {"west": ALICE, "east": BOB}[side], "auto"))
    now[0] += timedelta(hours=1)
    assert one.due_reminders() == []


def test_a_moderator_confirms_a_forfeit_only_when_the_clock_ran_out(sessions):
    from datetime import datetime, timedelta, timezone

    from db.errors import InvalidInputError

    now = [datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)]
    svc = MatchService(sessions=sessions, render=False, clock=lambda: now[0])
    svc.start(guild_id=1, channel_id=15, west=MatchSide(ALICE, team_list="gnolls"),
              east=MatchSide(BOB, team_list="night-elves"), seed="clock", options={"clock_hours": 48})
    side = svc.status(15).deciding_side
    with pytest.raises(InvalidInputError, match="still has"):
        svc.forfeit(15, 999)
    now[0] = svc.status(15).match.updated_at + timedelta(hours=49)
    out = svc.forfeit(15, 999)
    assert out.finished and out.state.winner == ("east" if side == "west" else "west")
    assert "forfeit confirmed by <@999>" in out.lines[0]
    svc.start(guild_id=1, channel_id=16, west=MatchSide(ALICE, team_list="gnolls"),
              east=MatchSide(BOB, team_list="sarcos"), seed="no-clock")
    with pytest.raises(InvalidInputError, match="no clock"):
        svc.forfeit(16, 999)


# --- races, undo and reminders (review fixes) --------------------------------------------------


def _to_action(svc, ch):
    coach = {"west": ALICE, "east": BOB}
    out = svc.status(ch)
    while out.state.phase is not Phase.TURN:
        side = out.deciding_side
        cmd = out.pending.default[0]
        if out.pending.kind == "setup" and out.state.on_field(side):
            cmd = C.SetupDone()
        out = svc.act(ch, coach[side], cmd)
    side = out.deciding_side
    starts = legal_commands(out.state, side).of(C.StartAction)
    out = svc.act(ch, coach[side], starts[-1])
    return out, side, coach


def test_undo_keeps_the_reminder_deadline(sessions):
    now = [datetime(2026, 1, 1, tzinfo=timezone.utc)]
    svc = MatchService(sessions=sessions, render=False, clock=lambda: now[0])
    svc.start(guild_id=1, channel_id=13, west=MatchSide(ALICE, team_list="gnolls"),
              east=MatchSide(BOB, team_list="night-elves"), seed="undo-seed")
    out, side, coach = _to_action(svc, 13)
    out = svc.act(13, coach[side], svc.read(13, coach[side], "face W"))
    out = svc.act(13, coach[side], svc.read(13, coach[side], "undo"))
    assert out.match.deadline is not None
    now[0] += timedelta(hours=25)
    assert len(svc.due_reminders()) == 1


def test_undo_from_a_stale_panel_is_refused(sessions):
    svc = MatchService(sessions=sessions, render=False)
    svc.start(guild_id=1, channel_id=13, west=MatchSide(ALICE, team_list="gnolls"),
              east=MatchSide(BOB, team_list="night-elves"), seed="undo-seed")
    out, side, coach = _to_action(svc, 13)
    svc.act(13, coach[side], svc.read(13, coach[side], "face W"))
    out = svc.act(13, coach[side], svc.read(13, coach[side], "face E"))
    v = out.match.version
    svc.undo(13, coach[side], expected_version=v)
    with pytest.raises(MatchChangedError):
        svc.undo(13, coach[side], expected_version=v)  # the second click on the same panel


def test_a_command_read_against_an_old_state_is_not_applied_to_a_newer_one(sessions, monkeypatch):
    svc = MatchService(sessions=sessions, render=False)
    svc.start(guild_id=1, channel_id=13, west=MatchSide(ALICE, team_list="gnolls"),
              east=MatchSide(BOB, team_list="night-elves"), seed="undo-seed")
    out, side, coach = _to_action(svc, 13)
    real_parse = svcmod.parse
    raced = []
    def racing_parse(text, state, s):
        cmd = real_parse(text, state, s)
        if not raced:  # another click lands between reading the match and saving
            raced.append(1)
            svc.act(13, coach[side], svc.read(13, coach[side], "face W"))
        return cmd
    monkeypatch.setattr(svcmod, "parse", racing_parse)
    with pytest.raises(MatchChangedError):
        svc.act(13, coach[side], svc.read(13, coach[side], "face E", match=(seen := svc.current(13))), match=seen)


def test_a_match_the_caller_loaded_is_used_as_it_was_loaded(sessions):
    """The bot loads the match to check its server, then hands it to ``act``: no second load,
    but the write still refuses it once another command was saved, and a match of another
    channel is a programming error, never applied."""
    svc = MatchService(sessions=sessions, render=False)
    svc.start(guild_id=1, channel_id=16, west=MatchSide(ALICE, team_list="gnolls"),
              east=MatchSide(BOB, team_list="night-elves"), seed="loaded-seed")
    svc.start(guild_id=1, channel_id=17, west=MatchSide(ALICE, team_list="gnolls"),
              east=MatchSide(BOB, team_list="night-elves"), seed="loaded-seed")
    out, side, coach = _to_action(svc, 16)
    loaded = svc.current(16)
    with pytest.raises(ValueError, match="not channel 17"):
        svc.act(17, coach[side], svc.read(17, coach[side], "face W", match=loaded), match=loaded)
    assert svc.current(17).version == 0 and svc.current(16).version == loaded.version
    after = svc.act(16, coach[side], svc.read(16, coach[side], "face W", match=loaded), match=loaded)
    assert after.match.version == loaded.version + 1
    with pytest.raises(MatchChangedError):  # the same loaded match again: a newer one is saved
        svc.act(16, coach[side], svc.read(16, coach[side], "face E", match=loaded), match=loaded)
    assert svc.current(16).version == loaded.version + 1


def test_forfeit_raced_by_a_move_is_refused(sessions, monkeypatch):
    now = [datetime(2026, 1, 1, tzinfo=timezone.utc)]
    svc = MatchService(sessions=sessions, render=False, clock=lambda: now[0])
    svc.start(guild_id=1, channel_id=15, west=MatchSide(ALICE, team_list="gnolls"),
              east=MatchSide(BOB, team_list="night-elves"), seed="clock", options={"clock_hours": 1})
    side = svc.status(15).deciding_side
    coach = {"west": ALICE, "east": BOB}
    now[0] = svc.status(15).match.updated_at + timedelta(hours=3)
    real = svc.current
    def racing_current(ch):
        m = real(ch)
        svc.current = real
        svc.act(15, coach[side], svc.read(15, coach[side], "auto"))  # the late coach acts just as the moderator confirms
        svc.act(15, coach[side], svc.read(15, coach[side], "done"))
        return m
    svc.current = racing_current
    with pytest.raises(StoreError):
        svc.forfeit(15, 999)
    assert svc.status(15).match.status == "active"


def test_other_shards_due_matches_do_not_starve_ours(sessions):
    now = [datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)]
    svc = MatchService(sessions=sessions, render=False, clock=lambda: now[0], reminder_after=timedelta(hours=1))
    for ch in (20, 21, 22):
        svc.start(guild_id=ch, channel_id=ch, west=MatchSide(ALICE, team_list="gnolls"),
                  east=MatchSide(BOB, team_list="night-elves"), seed=f"s{ch}")
        now[0] += timedelta(minutes=1)
    now[0] += timedelta(hours=2)
    due = svc.due_reminders(accept=lambda m: m.guild_id == 22, limit=2)
    assert [m.channel_id for m, _ in due] == [22]
