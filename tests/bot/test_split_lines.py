"""One splitter for every long answer (league lists, seasons, the help's embed fields): split at
line breaks, never over Discord's limit, a line too long for one message cut with "…"."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.common.reply import split_lines


def test_lines_fill_each_text_up_to_the_limit_and_a_long_line_is_cut() -> None:
    assert split_lines(["ab", "cd", "ef"], 5) == ["ab\ncd", "ef"]
    assert split_lines(["x" * 8, "y"], 5) == ["xxxx…", "y"]
    assert split_lines([], 5) == []


@given(st.lists(st.text(alphabet="ab ", max_size=30), max_size=40), st.integers(min_value=2, max_value=50))
def test_no_text_passes_the_limit_and_short_lines_arrive_whole_and_in_order(lines: list[str], limit: int) -> None:
    out = split_lines(lines, limit)
    assert all(len(t) <= limit for t in out)
    if all(len(line) <= limit for line in lines):
        assert "\n".join(out) == "\n".join(lines)
