"""The action view, the legend and lying tokens (issue 19): golden pictures, legibility on a
390 px phone, what the close-up marks (read from the engine's legal commands), the alt text,
the legend drawn by the board's own mark functions, and lying tokens inside their hex.

Regenerate the goldens with ``scripts/gen_golden.py`` and look at them.
"""

from __future__ import annotations

import inspect
import io
import math

import pytest
from support import ROOT
from support.builders import P, act, hx, position
from PIL import Image, ImageDraw
from support.golden import differing, golden_module

from engine import commands as C
from engine.field import standard_field
from engine.hexes import HEX_CIRCUMRADIUS
from engine.i18n import load
from engine.state import Phase
from render import action_view_alt, render_action_view, render_board, render_legend
from render import marks as M
from render import palette as PAL
from render.layers import token_sprite
from render.legend import LEGEND_ITEMS
from render.view import (
    PHONE_MIN_PX,
    PHONE_WIDTH,
    VIEW_WIDTH,
    action_focus,
    view_text_sizes,
)

F = standard_field()


def view_scenario(name: str):  # type: ignore[no-untyped-def]
    return golden_module().VIEW_SCENARIOS[name]()


def rgb(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def labels(hexes) -> set[str]:  # type: ignore[no-untyped-def]
    return {F.format(h) for h in hexes}


# --- golden pictures --------------------------------------------------------------------------------
VIEW_NAMES = ["view_carrier_run", "view_throw_with_interceptors", "view_tackle", "view_faceoff", "view_setup"]


@pytest.mark.parametrize("name", VIEW_NAMES + ["legend_en", "legend_fr"])
def test_matches_golden_image(name: str) -> None:
    path = ROOT / "tests" / "golden" / f"{name}.png"
    assert path.exists(), f"missing {path}: run scripts/gen_golden.py"
    got = rgb(golden_module().render(name))
    want = Image.open(path).convert("RGB")
    assert got.size == want.size
    frac = differing(got, want)
    assert frac < 0.02, f"{name}: {frac:.2%} of pixels differ from the golden image (regenerate and look)"


@pytest.mark.parametrize("name", VIEW_NAMES)
def test_a_close_up_fits_its_bytes_budget(name: str) -> None:
    # Issue 33: every edit of a board post uploads its close-up again; 42 KB at 600 px is what
    # zlib level 4 and the palette's 16 field colours give these positions (zlib 2 and ~190
    # field colours wrote up to 50 KB; benchmarks/bench_bytes.py).
    sc = view_scenario(name)
    png = render_action_view(sc.state, events=sc.events, view=sc.view)
    assert png is not None and len(png) <= 42 * 1024, f"{name}: {len(png or b'') / 1024:.1f} KB"


def test_the_view_is_the_same_bytes_twice() -> None:
    sc = view_scenario("view_throw_with_interceptors")
    assert render_action_view(sc.state) == render_action_view(sc.state)


# --- legible on a phone -----------------------------------------------------------------------------
@pytest.mark.parametrize("width", [VIEW_WIDTH, 300, 1200])
def test_smallest_label_and_coordinate_are_nine_px_on_a_390_px_phone(width: int) -> None:
    """The font sizes the view prints, scaled as a 390 px wide phone shows the picture."""
    scale = PHONE_WIDTH / width
    sizes = view_text_sizes(width)
    for what in ("coordinate", "token_label", "title", "key"):
        assert sizes[what] * scale >= PHONE_MIN_PX, f"{what}: {sizes[what] * scale:.1f} px on the phone"
    # the sizes are the ones drawn: the font a token sprite at the view's scale gives its
    # smallest label (a lying token's four characters), and the coordinate's
    from render.layers import LYING_LABEL_LONG, SS
    from render.view import COORD_SIZE, TOKEN_SCALE, view_layout

    s = view_layout(width)[2]
    assert sizes["token_label"] == round(LYING_LABEL_LONG * TOKEN_SCALE * s * SS) / SS
    assert sizes["coordinate"] == max(8, round(COORD_SIZE * s))
    # hexes of about 60 px or more in the picture at its default width
    if width == VIEW_WIDTH:
        assert s >= 60


@pytest.mark.parametrize("name", ["view_carrier_run", "view_tackle", "view_setup"])
def test_every_hex_in_view_carries_its_coordinate(name: str) -> None:
    """Above every hex's centre, its label's pixels: light on the pitch, dark on a reachable
    or centre-line hex, light on a dark tab where a token or a mark comes close."""
    from render.view import COORD_RISE, COORD_SIZE, view_geometry, view_layout

    sc = view_scenario(name)
    focus = action_focus(sc.state)
    assert focus is not None and len(focus.in_view) > 60
    im = rgb(render_action_view(sc.state, events=sc.events))  # type: ignore[arg-type]
    g, _ = view_geometry(VIEW_WIDTH, focus)
    s = view_layout(VIEW_WIDTH)[2]
    ink = {PAL.VIEW_LABEL, PAL.VIEW_LABEL_HALO, PAL.TEXT}
    bare = []
    for h in focus.in_view:
        if F.info(h).edge_line:
            continue
        x, y = g.hex_px(h)
        y -= COORD_RISE * s
        box = im.crop((round(x - 0.2 * s), round(y - COORD_SIZE * s / 2), round(x + 0.2 * s), round(y + COORD_SIZE * s / 2)))
        near_ink = sum(n for n, c in box.getcolors(4096) or [] if min(PAL.colour_distance(c, k) for k in ink) < 60)
        if near_ink < 15:
            bare.append(F.format(h))
    assert bare == []


# --- what the close-up shows ------------------------------------------------------------------------
def test_reachable_hexes_follow_jog_blockers_and_the_ball() -> None:
    st = position(
        P("w1", "gnolls/hunters", "K12", "E"),
        P("e1", "sarcos/hunters", "L12", "W"),
        P("w2", "gnolls/strikers", "J12", "E"),
        ball="K11", acting="w1", jog=1,
    )
    focus = action_focus(st)
    assert focus is not None and focus.kind == "action"
    assert labels(focus.reachable) == {"K11", "K13", "J13", "J11"}  # L12 and J12 are taken
    st2 = position(P("w1", "gnolls/hunters", "K12", "E"), ball="K11", acting="w1", jog=2)
    reach = labels(action_focus(st2).reachable)  # type: ignore[union-attr]
    # two rings of 6 and 12 hexes, but the ball's hex ends a path (a Pick-up): K10 is reached
    # around it, L10 only through it
    assert len(reach) == 17 and {"K11", "K10"} <= reach and "L10" not in reach
    down = position(P("w1", "gnolls/hunters", "K12", "E", status="down"), acting="w1", jog=4)
    assert action_focus(down).reachable == frozenset()  # type: ignore[union-attr]


def test_targets_are_the_legal_tackles_and_shoves() -> None:
    sc = view_scenario("view_tackle")
    focus = action_focus(sc.state)
    assert focus is not None and focus.actor is not None and focus.actor.id == "w1"
    # e3 lies Down beside him: without Cheapshot he may neither Tackle nor Shove him
    assert {p.id for p in focus.tackle} == {"e1", "e2"}
    assert {p.id for p in focus.shove} == {"e1", "e2"}
    assert labels(focus.targets) == {"K12", "J11"}
    cheap = sc.state.copy()
    cheap.players["w1"].abilities = (*cheap.players["w1"].abilities, "cheapshot")
    assert {p.id for p in action_focus(cheap).tackle} == {"e1", "e2", "e3"}  # type: ignore[union-attr]


def test_throw_targets_and_who_could_intercept() -> None:
    sc = view_scenario("view_throw_with_interceptors")
    focus = action_focus(sc.state)
    assert focus is not None
    assert {p.id for p in focus.receivers} == {"w2", "w3"}
    assert {p.id for p in focus.interceptors} == {"e1", "e2"}  # e3 lies Down, e4 is off the strings
    assert labels(focus.intercept_hexes) == {"H12", "H14"}
    window = focus.window
    for p in (*focus.receivers, *focus.interceptors):
        x, y = p.hex.center()  # type: ignore[union-attr]
        assert window[0] <= x <= window[2] and window[1] <= y <= window[3], p.id


def test_marks_are_drawn_where_the_focus_says() -> None:
    from render.view import view_geometry, view_layout

    sc = view_scenario("view_throw_with_interceptors")
    focus = action_focus(sc.state)
    im = rgb(render_action_view(sc.state))  # type: ignore[arg-type]
    g, _ = view_geometry(VIEW_WIDTH, focus)  # type: ignore[arg-type]
    s = view_layout(VIEW_WIDTH)[2]
    free = next(h for h in sorted(focus.reachable, key=lambda h: (h.r, h.q))  # type: ignore[union-attr]
                if sc.state.player_at(h) is None and all(sc.state.player_at(n) is None for n in h.neighbours())
                and h in focus.in_view)  # type: ignore[union-attr]
    x, y = g.hex_px(free)
    assert im.getpixel((round(x + 0.3 * s), round(y + 0.1 * s))) == PAL.REACH
    x, y = g.hex_px(hx("J15"))  # a receiver: red corners
    corner = im.crop((round(x + 0.3 * s), round(y + 0.3 * s), round(x + 0.5 * s), round(y + 0.5 * s)))
    assert any(c == PAL.TARGET for _, c in corner.getcolors(4096) or [])
    x, y = g.hex_px(hx("H12"))  # an interceptor's hex: the intercept outline
    ring = im.crop((round(x - 0.5 * s), round(y - 0.1 * s), round(x - 0.4 * s), round(y + 0.1 * s)))
    assert any(c == PAL.INTERCEPT for _, c in ring.getcolors(4096) or [])


def test_setup_and_faceoff_views() -> None:
    sc = view_scenario("view_setup")
    focus = action_focus(sc.state)
    assert focus is not None and focus.kind == "setup" and sc.state.phase is Phase.SETUP
    side = sc.state.setup_side
    zone = {h for z in ("faceoff", "guardian", "rover-north", "rover-south") for h in F.setup_hexes(side, z)}  # type: ignore[arg-type]
    assert set(focus.in_view) >= zone  # the whole set-up zone is in view
    assert focus.reachable == {h for h in zone if sc.state.player_at(h) is None}
    fo = view_scenario("view_faceoff")
    focus = action_focus(fo.state)
    assert focus is not None and focus.kind == "faceoff"
    assert set(focus.in_view) >= set(F.circle_hexes("centre"))
    assert focus.actor is not None and focus.actor.side == fo.state.faceoff_winner
    assert [fo.state.player_at(h).side for h in focus.targets] == [  # type: ignore[union-attr]
        "west" if fo.state.faceoff_winner == "east" else "east"]


def test_a_question_shows_the_players_it_is_about() -> None:
    """Mid-throw, East chooses an interceptor: the view shows the position mid-resolution with
    the eligible opponent marked, and says so."""
    st = position(
        P("w1", "timberline-elves/throwers", "F12", "E", ball=True),
        P("w2", "timberline-elves/hunters", "J12", "W"),
        P("e1", "night-elves/imps", "H12", "W"),
        P("e2", "night-elves/hunters", "G13", "NW"),
        acting="w1", jog=5,
    )
    res = act(st, C.Throw(hx("J12")), faces="O O O -")
    assert res.state.in_progress is not None and res.state.in_progress.question["kind"] == "interceptor"  # type: ignore[index]
    focus = action_focus(res.state, view=res.view)
    assert focus is not None and focus.kind == "question" and focus.side == "east"
    assert labels(focus.targets) == {"H12"} and hx("J12") in focus.in_view
    assert render_action_view(res.state, events=res.events, view=res.view) is not None
    alt = action_view_alt(res.state, view=res.view)
    assert alt.startswith("Close-up of ") and ", East must answer: players concerned: Imp e1 (H12);" in alt


def test_no_view_when_there_is_nothing_to_zoom_on() -> None:
    st = position(P("w1", "gnolls/hunters", "K12", "E"), turn="west")
    st.phase = Phase.MATCH_OVER
    assert render_action_view(st) is None
    assert action_view_alt(st) == "No close-up: nothing to decide on the field."
    assert action_view_alt(st, "fr") == "Pas de gros plan : rien à décider sur le terrain."


def test_a_turn_shows_the_ball() -> None:
    st = position(P("w1", "gnolls/hunters", "C12", "E"), P("e1", "sarcos/hunters", "R5", "W"), ball="Q6", turn="west")
    focus = action_focus(st)
    assert focus is not None and focus.kind == "turn" and hx("Q6") in focus.in_view and hx("R5") in focus.in_view


def test_bad_width_is_refused() -> None:
    sc = view_scenario("view_tackle")
    with pytest.raises(ValueError, match="width"):
        render_action_view(sc.state, width=100)


# --- alt text ---------------------------------------------------------------------------------------
def test_alt_text_in_english_and_french() -> None:
    sc = view_scenario("view_throw_with_interceptors")
    en = action_view_alt(sc.state)
    assert en.startswith("Close-up of ") and " around Thrower w1 (F12), 5 Jog left: " in en
    assert "may throw to Hunter w2 (K11), Striker w3 (J15)" in en
    assert "could intercept: Imp e1 (H12), Hunter e2 (H14)" in en and en.endswith("ball carried by Thrower w1 (F12).")
    fr = action_view_alt(sc.state, "fr")
    assert fr.startswith("Gros plan de ") and " autour de Thrower w1 (F12), 5 de Mouvement restant : " in fr
    assert "peut lancer à Hunter w2 (K11), Striker w3 (J15)" in fr and "pourraient intercepter : Imp e1 (H12)" in fr
    tackle = action_view_alt(view_scenario("view_tackle").state)
    assert "may Tackle " in tackle and "may Shove " in tackle
    setup = action_view_alt(view_scenario("view_setup").state)
    assert ", the set-up zones of Timberline Elves: free set-up hexes: " in setup


def test_alt_text_fits_discord_s_limit() -> None:
    sc = view_scenario("view_throw_with_interceptors")
    for p in sc.state.players.values():
        p.name = p.name + " " + "x" * 300
    alt = action_view_alt(sc.state)
    assert len(alt) == 1024 and alt.endswith("…")


def test_the_view_speaks_french(monkeypatch: pytest.MonkeyPatch) -> None:
    import render.view as V

    drawn: list[str] = []
    real = V.draw_text
    monkeypatch.setattr(V, "draw_text", lambda canvas, xy, text, *a, **kw: (drawn.append(text), real(canvas, xy, text, *a, **kw)))
    sc = view_scenario("view_carrier_run")
    render_action_view(sc.state, language="fr")
    assert any("de Mouvement" in t for t in drawn) and "peut atteindre" in drawn and "cible" in drawn
    assert not any("Jog" in t or "can reach" in t for t in drawn)


# --- the legend -------------------------------------------------------------------------------------
def test_legend_words_exist_in_both_languages() -> None:
    for lang in ("en", "fr"):
        text = load("engine", "data/text", lang)
        for section, items in LEGEND_ITEMS:
            assert f"picture.legend.section.{section}" in text
            for item in items:
                assert f"picture.legend.{item}" in text, (lang, item)
    assert render_legend("en") != render_legend("fr")


def test_legend_draws_every_mark_the_board_and_the_view_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    """Record which ``render.marks`` functions the board, the action view and the legend call:
    the legend must call every one the others do (it shares them, so it cannot go stale)."""
    import render.legend as legend_module

    called: set[str] = set()
    names = [n for n in M.__all__ if inspect.isfunction(getattr(M, n)) and n not in ("hex_corners", "shorten", "arrow", "ring")]
    for n in names:
        real = getattr(M, n)
        monkeypatch.setattr(M, n, (lambda fn, name: lambda *a, **kw: (called.add(name), fn(*a, **kw))[1])(real, n))
    mod = golden_module()
    for name in mod.SCENARIOS:
        sc = mod.SCENARIOS[name]()
        render_board(sc.state, events=sc.events, view=sc.view)
    for name in mod.VIEW_SCENARIOS:
        sc = mod.VIEW_SCENARIOS[name]()
        render_action_view(sc.state, events=sc.events, view=sc.view)
    used_elsewhere = set(called)
    called.clear()
    legend_module.legend_image("en")
    assert used_elsewhere - called == set()
    assert set(names) - called == set(), "a mark the legend does not show"


# --- lying tokens -----------------------------------------------------------------------------------
def _alpha(sprite: Image.Image) -> Image.Image:
    return sprite.getchannel("A").point(lambda v: 255 if v > 96 else 0)


@pytest.mark.parametrize("side", ["west", "east"])
@pytest.mark.parametrize("status", ["down", "dazed"])
def test_lying_tokens_stay_inside_their_hex(side: str, status: str) -> None:
    s = 42.55
    sprite = token_sprite(s, side, (200, 60, 60), status, None, "12", "Mi")
    w, h = sprite.size
    hexmask = Image.new("L", (w, h), 0)
    c = w / 2
    r = HEX_CIRCUMRADIUS * s + 1  # one pixel for anti-aliasing
    ImageDraw.Draw(hexmask).polygon(
        [(c + r * math.cos(math.radians(a)), c + r * math.sin(math.radians(a))) for a in (-90, -30, 30, 90, 150, 210)],
        fill=255)
    outside = Image.composite(_alpha(sprite), Image.new("L", (w, h), 0), hexmask.point(lambda v: 255 - v))
    assert outside.getbbox() is None, f"{status} {side} token reaches {outside.getbbox()} outside its hex"


@pytest.mark.parametrize("side", ["west", "east"])
def test_lying_and_standing_differ_in_greyscale_by_shape_and_orientation(side: str) -> None:
    """Without colour: a lying token is wide and low (no white front band, no pointer); a
    standing one is round or square with a white half and a pointer."""
    s = 42.55
    fill = (90, 150, 90)
    standing = token_sprite(s, side, fill, "standing", 2, "3", "S")
    down = token_sprite(s, side, fill, "down", None, "3", "S")

    def aspect(sp: Image.Image) -> float:
        x0, y0, x1, y1 = _alpha(sp).getbbox()  # type: ignore[misc]
        return (x1 - x0) / (y1 - y0)

    def white(sp: Image.Image) -> int:
        grey = sp.convert("LA").tobytes()
        return sum(1 for v, a in zip(grey[0::2], grey[1::2]) if a > 200 and v > 240)

    assert aspect(down) >= 1.5  # lying: wide and low
    standing_body = token_sprite(s, side, fill, "standing", None, "3", "S")
    assert aspect(standing_body) <= 1.15  # standing: as tall as wide
    assert white(standing) > 8 * max(1, white(down))  # the white front half and pointer
    a, b = _alpha(standing_body), _alpha(down)
    inter = sum(1 for x, y in zip(a.tobytes(), b.tobytes()) if x and y)
    union = sum(1 for x, y in zip(a.tobytes(), b.tobytes()) if x or y)
    assert inter / union < 0.7  # the shapes differ, not only the colours

