"""Regenerate the renderer's golden images (``tests/golden/*.png``): boards, action views, legends.

    .venv/bin/python scripts/gen_golden.py          # rewrite them all
    .venv/bin/python scripts/gen_golden.py --check  # say which differ, write nothing

Each scenario is a fixed position built with ``tests/support/builders.py`` (or a seeded new match) and
the events of its last command, played with scripted dice: ``SCENARIOS`` are drawn as boards,
``VIEW_SCENARIOS`` as action views (``tests/render/test_render_view.py``), ``LEGENDS`` are the legend
in each language. ``tests/render/test_render.py`` loads ``SCENARIOS`` from here and compares its renders with these files pixel by pixel, with a small
tolerance (exact bytes differ between Pillow versions; exact bytes are tested within one
environment instead). Look at the pictures after regenerating: they are the renderer's spec.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from support.builders import P, act, hx, position  # noqa: E402

from engine import (  # noqa: E402
    AutoSetup,
    Event,
    MatchState,
    Move,
    SeededDice,
    SetupDone,
    Shove,
    TeamEntry,
    Throw,
    apply,
    default_roster,
    new_match,
    team_list,
)

GOLDEN = ROOT / "tests" / "golden"
WIDTH = 1000  # the narrowest width the issue asks to be legible


@dataclass
class Scenario:
    state: MatchState
    events: list[Event]
    view: MatchState | None = None


def _dress(st: MatchState, west: str = "timberline-elves", east: str = "night-elves") -> MatchState:
    """Give a builders position real team names and colours."""
    for side, tid in (("west", west), ("east", east)):
        tl = team_list(tid)
        st.teams[side].name = tl.name  # type: ignore[index]
        st.teams[side].colours = tl.colours  # type: ignore[index]
        st.teams[side].list_id = tl.id  # type: ignore[index]
    return st


def after_setup() -> Scenario:
    """A new match, both teams set up by AutoSetup: the field at the face-off, nothing moved yet."""
    dice = SeededDice(11)
    res = new_match(TeamEntry("Timberline Elves", default_roster("timberline-elves")),
                    TeamEntry("Night Elves", default_roster("night-elves")), dice)
    st = res.state
    events: list[Event] = []
    while st.setup_side is not None and st.phase.value == "setup":
        side = st.setup_side
        st = apply(st, AutoSetup(), dice, by=side).state
        res = apply(st, SetupDone(), dice, by=side)
        st, events = res.state, list(res.events)
    return Scenario(st, events)


_BENCHES = (
    P("w7", "timberline-elves/hunters"),
    P("w8", "timberline-elves/midfielders", location="recovery"),
    P("w9", "timberline-elves/strikers", location="infirmary"),
    P("w10", "timberline-elves/throwers"),
    P("e7", "night-elves/imps"),
    P("e8", "night-elves/imps", location="sent_off"),
    P("e9", "night-elves/strikers"),
    P("e10", "night-elves/strikers", location="ejected"),
)


def carried_ball() -> Scenario:
    """Mid-match: the Dryad w1 carries the ball three hexes east; she is acting, West holds
    3 Momentum, East's last mover has his yellow counter."""
    st = position(
        P("w1", "timberline-elves/dryads", "H12", "E", ball=True),
        P("w2", "timberline-elves/hunters", "G10", "E"),
        P("w3", "timberline-elves/midfielders", "F14", "NE"),
        P("w4", "timberline-elves/strikers", "D12", "E"),
        P("w5", "timberline-elves/throwers", "I15", "SE"),
        P("w6", "timberline-elves/midfielders", "E9", "E"),
        P("e1", "night-elves/hunters", "N11", "W"),
        P("e2", "night-elves/imps", "M14", "NW"),
        P("e3", "night-elves/imps", "O9", "SW"),
        P("e4", "night-elves/strikers", "R12", "W"),
        P("e5", "night-elves/hunters", "P15", "W"),
        P("e6", "night-elves/imps", "L8", "SW"),
        *_BENCHES,
        acting="w1",
        jog=6,
        momentum=(3, "west"),
    )
    st.last_moved = {"west": "w2", "east": "e3"}
    _dress(st)
    res = act(st, Move((hx("I12"), hx("J12"), hx("J11"))))
    return Scenario(res.state, list(res.events))


def down_and_dazed() -> Scenario:
    """A shove knocks nobody over but pushes the Imp back; elsewhere players lie Down (face up)
    and Dazed (face down) beside standing ones."""
    st = position(
        P("w1", "timberline-elves/dryads", "J14", "E"),
        P("w2", "timberline-elves/hunters", "H10", "E", status="down"),
        P("w3", "timberline-elves/midfielders", "I11", "NE", status="dazed"),
        P("w4", "timberline-elves/strikers", "G12", "E"),
        P("e1", "night-elves/imps", "K14", "W", ball=True),
        P("e2", "night-elves/hunters", "I10", "W", status="dazed"),
        P("e3", "night-elves/strikers", "L11", "SW", status="down"),
        P("e4", "night-elves/imps", "M13", "W"),
        *_BENCHES,
        acting="w1",
        jog=4,
        momentum=(1, "east"),
    )
    st.last_moved = {"west": "w4", "east": "e4"}
    _dress(st, "timberline-elves", "night-elves")
    res = act(st, Shove("e1"), faces="O O O -")
    return Scenario(res.state, list(res.events))


def throw_and_interception() -> Scenario:
    """A Thrower throws over two opponents to a team-mate: the hexes the passing string touches
    are outlined; East declines to intercept and the receiver catches."""
    st = position(
        P("w1", "timberline-elves/throwers", "F12", "E", ball=True),
        P("w2", "timberline-elves/hunters", "J12", "W"),
        P("w3", "timberline-elves/midfielders", "E10", "E"),
        P("e1", "night-elves/imps", "H12", "W"),
        P("e2", "night-elves/hunters", "G13", "NW"),
        P("e3", "night-elves/strikers", "G10", "SW"),
        *_BENCHES,
        acting="w1",
        jog=5,
    )
    st.last_moved = {"west": "w3", "east": "e3"}
    _dress(st, "gnolls", "valkyries")
    res = act(st, Throw(hx("J12")), faces="O O O - O O", answers=[None, "catch"])
    return Scenario(res.state, list(res.events))


def scatter_and_bounce() -> Scenario:
    """A long throw misses: the ball flies to the outer white line, stops there and bounces
    back into the field; a fumbled pick-up elsewhere would scatter it one hex."""
    st = position(
        P("w1", "timberline-elves/throwers", "L16", "SE", ball=True),
        P("w2", "timberline-elves/hunters", "N19", "SE"),
        P("e1", "night-elves/imps", "O17", "W"),
        P("e2", "night-elves/strikers", "P20", "NW", status="down"),
        *_BENCHES,
        acting="w1",
        jog=5,
    )
    _dress(st, "pharaohs-of-vihktora", "black-widows")
    res = act(st, Throw(hx("N20")), faces="- - - -", d6=[3, 2, 5, 3, 1, 2, 5])
    return Scenario(res.state, list(res.events))


# --- the action view (issue 19) ------------------------------------------------------------------
def view_carrier_run() -> Scenario:
    """A Striker with the ball and 5 Jog left, open field towards the east goal: an Imp beside
    him (a target, and a Disengage if he walks away), a Hunter on the string to the team-mate
    ahead (an interceptor), a Down Imp behind."""
    st = position(
        P("w1", "timberline-elves/strikers", "M12", "E", ball=True),
        P("w2", "timberline-elves/hunters", "P10", "E"),
        P("w3", "timberline-elves/midfielders", "J14", "NE"),
        P("e1", "night-elves/imps", "M11", "SW"),
        P("e2", "night-elves/hunters", "O11", "W"),
        P("e3", "night-elves/strikers", "R12", "W"),
        P("e4", "night-elves/imps", "L15", "NW", status="down"),
        *_BENCHES,
        acting="w1",
        jog=5,
        momentum=(2, "west"),
    )
    st.last_moved = {"west": "w3", "east": "e2"}
    _dress(st)
    return Scenario(st, [])


def view_throw_with_interceptors() -> Scenario:
    """A Thrower holding the ball before his throw: two receivers; standing opponents on the
    passing strings could intercept, a Down one could not."""
    st = position(
        P("w1", "timberline-elves/throwers", "F12", "E", ball=True),
        P("w2", "timberline-elves/hunters", "K11", "W"),
        P("w3", "timberline-elves/strikers", "J15", "NW"),
        P("e1", "night-elves/imps", "H12", "W"),
        P("e2", "night-elves/hunters", "H14", "NW"),
        P("e3", "night-elves/strikers", "I11", "W", status="down"),
        P("e4", "night-elves/imps", "E10", "SE"),
        *_BENCHES,
        acting="w1",
        jog=5,
    )
    _dress(st, "gnolls", "valkyries")
    return Scenario(st, [])


def view_tackle() -> Scenario:
    """A Hunter who has just stepped next to the carrier: he may Tackle or Shove the two
    standing opponents beside him; the Down one beside him is no target (no Cheapshot)."""
    st = position(
        P("w1", "timberline-elves/hunters", "H12", "E"),
        P("w2", "timberline-elves/strikers", "G14", "E"),
        P("e1", "night-elves/strikers", "K12", "W", ball=True),
        P("e2", "night-elves/imps", "J11", "SW"),
        P("e3", "night-elves/hunters", "I13", "NE", status="down"),
        P("e4", "night-elves/imps", "L11", "W"),
        *_BENCHES,
        acting="w1",
        jog=4,
        momentum=(1, "east"),
    )
    st.last_moved = {"west": "w2", "east": "e4"}
    _dress(st)
    res = act(st, Move((hx("I12"), hx("J12"))), faces="")
    return Scenario(res.state, list(res.events))


def view_setup() -> Scenario:
    """Set-up: the first team has placed its players (AutoSetup) but not confirmed; its set-up
    zones show, the free hexes marked."""
    dice = SeededDice(11)
    res = new_match(TeamEntry("Timberline Elves", default_roster("timberline-elves")),
                    TeamEntry("Night Elves", default_roster("night-elves")), dice)
    st = res.state
    side = st.setup_side
    res = apply(st, AutoSetup(), dice, by=side)
    return Scenario(res.state, list(res.events))


#: Action-view goldens: the scenario, drawn by ``render_action_view``.
VIEW_SCENARIOS: dict[str, Callable[[], Scenario]] = {
    "view_carrier_run": view_carrier_run,
    "view_throw_with_interceptors": view_throw_with_interceptors,
    "view_tackle": view_tackle,
    "view_faceoff": after_setup,
    "view_setup": view_setup,
}
LEGENDS = {"legend_en": "en", "legend_fr": "fr"}


SCENARIOS: dict[str, Callable[[], Scenario]] = {
    "after_setup": after_setup,
    "carried_ball": carried_ball,
    "down_and_dazed": down_and_dazed,
    "throw_and_interception": throw_and_interception,
    "scatter_and_bounce": scatter_and_bounce,
}


def render(name: str) -> bytes:
    """The golden picture ``name``: a board, an action view or a legend."""
    from render import render_action_view, render_board, render_legend

    if name in LEGENDS:
        return render_legend(LEGENDS[name])
    if name in VIEW_SCENARIOS:
        sc = VIEW_SCENARIOS[name]()
        png = render_action_view(sc.state, events=sc.events, view=sc.view)
        assert png is not None, f"{name}: no action view"
        return png
    sc = SCENARIOS[name]()
    return render_board(sc.state, events=sc.events, view=sc.view, width=WIDTH)


ALL = [*SCENARIOS, *VIEW_SCENARIOS, *LEGENDS]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="report differences, write nothing")
    ap.add_argument("names", nargs="*", choices=[[], *ALL], help="pictures to regenerate (default: all)")
    args = ap.parse_args(argv)
    GOLDEN.mkdir(parents=True, exist_ok=True)
    bad = 0
    for name in args.names or ALL:
        png = render(name)
        path = GOLDEN / f"{name}.png"
        same = path.exists() and path.read_bytes() == png
        if args.check:
            print(f"{name}: {'same' if same else 'DIFFERS'}")
            bad += not same
        else:
            path.write_bytes(png)
            print(f"{path.relative_to(ROOT)}: {len(png) // 1024} KB{'' if not same else ' (unchanged)'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
