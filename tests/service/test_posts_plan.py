"""Which messages show which log rows (``service.posts.plan``): one message per action, a new one
when the action, the decider or the size limit says so, a ping only on hand-over."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from service import posts

WEST, EAST = 101, 202


@pytest.fixture(autouse=True)
def lines(monkeypatch):
    """Each row says one line, ``row N`` (the narration itself is tested elsewhere)."""
    monkeypatch.setattr(posts, "row_lines", lambda row, *a, **k: [f"row {row.seq}" + "." * getattr(row, "pad", 0)])


def row(seq, side, *kinds, pad=0, kind="command"):
    return SimpleNamespace(seq=seq, actor_side=side, kind=kind, command={"name": "x"}, pad=pad,
                           events=[{"kind": k} for k in kinds])


def post(message_id=10, side="west", first=4, shown=7, closed=False):
    return SimpleNamespace(message_id=message_id, side=side, first_version=first, shown_version=shown, header="",
                           closed=closed)


def plan(p, rows, decider, actor, **kw):
    user = {"west": WEST, "east": EAST, None: None}[decider]
    return posts.plan(p, rows, None, deciding_side=decider, deciding_user=user, actor_user_id=actor, **kw)


def old_rows():
    return [row(5, "west", "action_started"), row(6, "west"), row(7, "west")]


def test_a_step_within_the_action_edits_its_message_and_pings_nobody():
    out = plan(post(), [*old_rows(), row(8, "west")], "west", WEST)
    assert len(out.pieces) == 1
    live = out.live
    assert live.message_id == 10 and live.live and not live.closed and live.mention is None
    assert live.lines == ("row 5", "row 6", "row 7", "row 8")  # the whole action, rebuilt from the log


def test_a_hand_over_closes_the_message_and_pings_the_new_decider_in_a_new_one():
    out = plan(post(), [*old_rows(), row(8, "west")], "east", WEST)
    closed, live = out.pieces
    assert closed.message_id == 10 and closed.closed and not closed.live and closed.lines[-1] == "row 8"
    assert live.new and live.side == "east" and live.mention == EAST and live.lines == ()
    # His answer goes on in the message that asked him; the decision coming back pings the first coach.
    back = plan(post(11, "east", 8, 8), [row(9, "east")], "west", EAST)
    assert back.pieces[0].message_id == 11 and back.live.new and back.live.mention == WEST


def test_a_new_action_of_the_same_coach_is_a_new_message_without_a_ping():
    out = plan(post(), [*old_rows(), row(8, "west", "action_ended")], "west", WEST)
    closed, live = out.pieces
    assert closed.closed and live.new and live.mention is None


def test_the_ai_coachs_action_is_one_new_message_that_carries_the_board_for_the_human():
    rows = [*old_rows(), row(8, "west", "action_ended", "turn_passed"), row(9, "east", "action_started"),
            row(10, "east"), row(11, "east", "action_ended", "turn_passed")]
    out = plan(post(), rows, "west", WEST)
    assert [p.message_id for p in out.pieces] == [10, None]
    live = out.live
    assert live.lines == ("row 9", "row 10", "row 11") and live.mention is None  # he sent the command
    assert live.closed  # his next command starts a new action: a new message
    assert out.new_messages == 1


def test_a_closed_live_message_loses_its_panel_when_the_next_action_starts():
    out = plan(post(closed=True), [*old_rows(), row(8, "west", "action_started")], "west", WEST)
    closed, live = out.pieces
    assert closed.message_id == 10 and closed.lines == ("row 5", "row 6", "row 7")
    assert live.new and live.lines == ("row 8",)


def test_narration_past_the_size_limit_goes_on_in_a_new_message():
    rows = [row(5, "west", pad=600), row(6, "west", pad=600), row(7, "west", pad=600), row(8, "west", pad=600)]
    out = plan(post(shown=6), rows, "west", WEST, budget=1500)
    assert [p.message_id for p in out.pieces] == [10, None]
    first, second = out.pieces
    assert [x[:5] for x in first.lines] == ["row 5", "row 6"] and [x[:5] for x in second.lines] == ["row 7", "row 8"]
    assert second.mention is None  # a continuation pings nobody


def test_the_first_message_carries_the_header_and_belongs_to_the_first_decider():
    out = plan(None, [row(0, None, "match_started", "dice_off_rolled", kind="create")], "east", WEST, header="H")
    live = out.live
    assert live.new and live.header == "H" and live.side == "east" and not live.closed
    assert live.mention == EAST  # the other coach accepted: the first decision is handed to this one


def test_an_owed_board_that_never_reached_the_channel_shows_its_rows_in_a_new_message():
    owed = SimpleNamespace(message_id=None, side=None, first_version=8, shown_version=7, header="", closed=False)
    out = plan(owed, [row(8, "west"), row(9, "west")], "west", None)
    assert len(out.pieces) == 1 and out.live.new and out.live.lines == ("row 8", "row 9")
    assert out.live.mention == WEST  # the sweep is nobody's command: the decider is told


def test_extra_lines_end_the_live_message():
    out = plan(post(), [*old_rows(), row(8, "west", "match_ended")], None, WEST, extra_lines=["League result recorded"])
    assert out.live.lines[-1] == "League result recorded"


def test_a_name_with_markdown_shows_as_typed():
    from types import SimpleNamespace as NS

    from bot.play.panels import literal_names

    state = NS(teams={"west": NS(name="*Stars*"), "east": NS(name="Gnolls")},
               players={"w1": NS(name="Jo_the_Quick"), "e1": NS(name="Hunter #1")})
    text = literal_names("**West (*Stars*)**: Jo_the_Quick tackles Hunter #1", state)
    assert text == "**West (\\*Stars\\*)**: Jo\\_the\\_Quick tackles Hunter #1"  # our own bold stays bold
