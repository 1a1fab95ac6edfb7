"""The action view: a close-up of the part of the field where the decision is, for a phone.

The board shows the whole field at about 42 px a hex; a phone shrinks it to about 16. The
action view shows some 9 hexes across at the same picture width as a phone screen's worth,
so that at 390 px wide a token label and a hex coordinate are still 9 px or more
(:func:`view_text_sizes`): the acting player, the hexes he can walk to, the ball, his legal
targets (Tackle, Shove, the team-mates he can throw to), the opponents who could intercept
those throws, and the coordinate of every hex in view. Set-up shows the setting-up team's
set-up hexes; the face-off shows the centre circle; a team's turn shows the ball's
surroundings; a question (a re-roll, an interception, a catch) shows the players it is about.

Everything is read from the engine: reachable hexes are walked one legal step at a time with
the same validator ``apply`` uses (``engine.legal``), targets are the legal Tackle, Shove and
Throw commands, interceptors are the standing opponents the passing string touches
(``engine.challenges.intercept``, Reach included). Marks are drawn by ``render.marks``, the
same functions as the board and the legend.

    png = render_action_view(result.state, events=result.events, view=result.view)
    alt = action_view_alt(result.state, "fr", view=result.view)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine import (
    Command,
    Direction,
    ElfballError,
    Event,
    Field,
    Hex,
    LegalCommands,
    MatchState,
    Move,
    Phase,
    Player,
    SETUP_ZONES,
    Shove,
    Side,
    TACKLE_USES,
    Tackle,
    Throw,
    distance,
    reach_interceptors,
    standard_field,
    string_path,
)

from . import marks as M
from . import palette as C
from .board import draw_counters, draw_events, draw_pieces, palette_for
from .describe import as_events
from .layers import (
    FIELD_H,
    FIELD_W,
    SMALLEST_TOKEN_LABEL,
    SS,
    Geometry,
    draw_text,
    encode_png,
    field_layer,
    font,
    geometry,
    paste_centered,
    text_length,
)
from .panels import team_icon, words

__all__ = [
    "VIEW_WIDTH",
    "VIEW_HEXES_ACROSS",
    "Focus",
    "action_focus",
    "render_action_view",
    "action_view_alt",
    "view_text_sizes",
    "view_layout",
    "view_geometry",
    "action_view_rgb",
]

#: The picture's default width: with the board's 1000 px, Discord shows both side by side.
VIEW_WIDTH = 600
VIEW_MIN_WIDTH = 300
VIEW_MAX_WIDTH = 2000
#: Hex spacings across the picture: 9 keeps a hex 67 px wide at 600 px (26 px on a 390 px phone).
VIEW_HEXES_ACROSS = 9.0
#: Height over width: about the board's (1.23), so the two sit side by side at one height.
VIEW_ASPECT = 1.3
#: The title band above the close-up and the key band below it, in spacings.
TITLE_H = 0.72
KEY_H = 0.72
#: Tokens are drawn a little smaller than their hex, so the coordinate fits above them.
TOKEN_SCALE = 0.85
TOKEN_DROP = 0.09  # spacings the token sits below the hex centre
COORD_SIZE = 0.24  # the hex coordinate, in spacings
COORD_RISE = 0.37  # its centre above the hex centre
TITLE_SIZE = 0.34
KEY_SIZE = 0.27
#: The phone the sizes are checked for, and the smallest text it must show.
PHONE_WIDTH = 390
PHONE_MIN_PX = 9.0
#: zlib level: a close-up is a new crop every time (no bands to reuse, unlike the board). Over
#: a whole match (``benchmarks/bench_bytes.py``): level 2 writes it in ~2 ms at ~47 KB, 4 in ~3 ms
#: at ~43 KB, 6 in ~6 ms at ~38 KB; 4 buys the most bytes per millisecond before the returns fall.
VIEW_COMPRESS_LEVEL = 4
#: Discord's limit on an attachment's description (its alt text).
ALT_MAX = 1024


@dataclass
class Focus:
    """What the close-up is about: its window, and what to mark in it."""

    kind: str  # action / setup / faceoff / turn / question
    side: str | None  # whose decision
    actor: Player | None = None
    reachable: frozenset[Hex] = frozenset()  # hexes he can walk to (or set up on)
    targets: tuple[Hex, ...] = ()  # tackle / shove targets, team-mates he can throw to, a question's players
    tackle: tuple[Player, ...] = ()
    shove: tuple[Player, ...] = ()
    receivers: tuple[Player, ...] = ()
    interceptors: tuple[Player, ...] = ()  # standing opponents who could intercept those throws
    intercept_hexes: frozenset[Hex] = frozenset()
    strings: tuple[tuple[Hex, Hex], ...] = ()  # thrower -> receiver, drawn as the passing string
    must: tuple[Hex, ...] = ()  # hexes the window must hold (the actor, the zone)
    wanted: tuple[Hex, ...] = ()  # hexes it holds when they fit, most important first
    window: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # x0, y0, x1, y1 in spacings
    in_view: tuple[Hex, ...] = field(default_factory=tuple)


# --- sizes -----------------------------------------------------------------------------------------
def _check_width(width: int) -> int:
    if not isinstance(width, int) or not VIEW_MIN_WIDTH <= width <= VIEW_MAX_WIDTH:
        raise ValueError(f"width {width!r}: give a whole number of pixels from {VIEW_MIN_WIDTH} to {VIEW_MAX_WIDTH}")
    return width


@lru_cache(maxsize=8)
def view_layout(width: int) -> tuple[int, int, float, int, int]:
    """(full field layer width, picture height, pixels per spacing, title band, key band)."""
    full = round(width / VIEW_HEXES_ACROSS * FIELD_W)
    s = geometry(full).s
    height = round(width * VIEW_ASPECT)
    return full, height, s, round(TITLE_H * s), round(KEY_H * s)


def view_text_sizes(width: int = VIEW_WIDTH) -> dict[str, float]:
    """The font sizes (pixels) the action view prints at ``width``: the hex coordinate, the
    smallest token label (a lying token's four-character label, drawn supersampled and
    reduced, as ``layers.token_sprite`` does), the title and the key. Scaled by ``390 / width``
    they are what a 390 px wide phone shows."""
    _, _, s, _, _ = view_layout(_check_width(width))
    return {
        "coordinate": max(8, round(COORD_SIZE * s)),
        "token_label": round(SMALLEST_TOKEN_LABEL * TOKEN_SCALE * s * SS) / SS,
        "title": max(8, round(TITLE_SIZE * s)),
        "key": max(8, round(KEY_SIZE * s)),
    }


def _window_size(width: int) -> tuple[float, float]:
    """Width and height of the close-up, in spacings."""
    _, height, s, title, key = view_layout(width)
    return width / s, (height - title - key) / s


# --- what to show ----------------------------------------------------------------------------------
def _reachable(state: MatchState, legal: LegalCommands, p: Player, fld: Field) -> frozenset[Hex]:
    """Every hex the acting player can end a Move on, walked one step at a time: each hex is
    checked once, by the path that first reached it (the shortest), with the engine's own
    validator. The ball's hex ends a path (a Pick-up), and so do the outer line and a goal
    hex (the referee); those are left out unless it is the goal he would score in."""
    assert p.hex is not None
    ball = state.ball.hex if state.ball.carrier is None else None
    carrying = state.ball.carrier == p.id
    # Hexes the validator would refuse at once (taken; more paces than Jog left) are not put
    # to it: a third of the work on an open field.
    taken = state.occupancy()
    a = state.action
    budget = a.jog_left - (1 if a.surcharge else 0) if a is not None and a.dash == "none" else None
    seen: set[Hex] = {p.hex}
    out: set[Hex] = set()
    frontier: list[tuple[Hex, tuple[Hex, ...]]] = [(p.hex, ())]
    while frontier:
        nxt: list[tuple[Hex, tuple[Hex, ...]]] = []
        for at, path in frontier:
            for h in at.neighbours():
                if h in seen or h not in fld:
                    continue
                seen.add(h)
                step = path + (h,)
                if h in taken or (budget is not None and len(step) > budget) or not legal.is_legal(Move(step)):
                    continue
                info = fld.info(h)
                if info.edge_line or (info.goal is not None and (not carrying or info.goal == p.side)):
                    continue
                out.add(h)
                if h != ball and info.goal is None:
                    nxt.append((h, step))
        frontier = nxt
    return frozenset(out)


def _legal(legal: LegalCommands, c: Command) -> bool:
    try:
        return legal.is_legal(c)
    except ElfballError:
        return False


def _hex(p: Player) -> Hex:
    """The hex of a player on the field (the focus only looks at those)."""
    assert p.hex is not None
    return p.hex


def _action_focus(state: MatchState, p: Player, fld: Field) -> Focus:
    assert p.hex is not None
    here = p.hex
    side = p.side
    legal = LegalCommands(state, side, fld)
    reach = _reachable(state, legal, p, fld) if p.standing else frozenset()
    opponents = [o for o in state.on_field() if o.side != side and o.hex is not None]
    near = [o for o in opponents if distance(_hex(o), here) == 1]
    uses = [None, *TACKLE_USES]  # a plain Tackle, or one using an ability (Cheapshot on a Down player)
    tackle = tuple(o for o in near if any(_legal(legal, Tackle(o.id, u)) for u in uses))
    shove = tuple(o for o in near if _legal(legal, Shove(o.id)))
    receivers: list[Player] = []
    interceptors: list[Player] = []
    ihexes: set[Hex] = set()
    strings: list[tuple[Hex, Hex]] = []
    threats: dict[str, list[Hex]] = {}  # receiver -> the hexes of those who could intercept his pass
    if state.ball.carrier == p.id:
        mates = sorted((m for m in state.on_field(side) if m.id != p.id and m.hex is not None),
                       key=lambda m: (distance(_hex(m), here), m.number))
        standing = [o for o in opponents if o.standing]
        for m in mates:
            if not _legal(legal, Throw(_hex(m))):
                continue
            receivers.append(m)
            strings.append((here, _hex(m)))
            span = distance(here, _hex(m))
            # only an opponent near the line can touch the string or Reach it: skip the
            # geometry (a few ms a pass) when nobody is
            if not any(distance(_hex(o), here) + distance(_hex(o), _hex(m)) <= span + 3 for o in standing):
                continue
            path = _string(here, _hex(m))
            on_string = [o for h in path[1:-1] if (o := state.player_at(h)) is not None and o.side != side and o.standing]
            for o in on_string + reach_interceptors(state, p, list(path), _hex(m)):
                if o.hex is not None:
                    threats.setdefault(m.id, []).append(o.hex)
                    ihexes.add(o.hex)
                    if o not in interceptors:
                        interceptors.append(o)
    targets = tuple(dict.fromkeys([_hex(o) for o in (*tackle, *shove)] + [_hex(m) for m in receivers]))
    ball = [state.ball.hex] if state.ball.carrier is None and state.ball.hex is not None else []
    wanted = [*(o.hex for o in (*tackle, *shove)), *ball]
    for m in receivers:
        wanted.append(m.hex)
        wanted.extend(threats.get(m.id, ()))
    by_distance = sorted(reach, key=lambda h: (distance(h, here), h.r, h.q))
    wanted.extend(by_distance)
    wanted.extend(o.hex for o in opponents if distance(_hex(o), here) <= 3)
    return Focus("action", side, p, reach, targets, tackle, shove, tuple(receivers), tuple(interceptors),
                 frozenset(ihexes), tuple(strings), must=(here,), wanted=tuple(h for h in wanted if h is not None))


@lru_cache(maxsize=4096)
def _string(a: Hex, b: Hex) -> tuple[Hex, ...]:
    """The hexes the passing string from ``a`` to ``b`` touches, ends first and last (cached:
    the same passes come back all match long)."""
    path = string_path([a, b])
    return (a, *(h for h in path if h not in (a, b)), b)


def _setup_focus(state: MatchState, side: Side, fld: Field) -> Focus:
    zone = [h for z in SETUP_ZONES for h in fld.setup_hexes(side, z)]
    free = frozenset(h for h in zone if state.player_at(h) is None)
    return Focus("setup", side, reachable=free, must=tuple(zone))


def _faceoff_focus(state: MatchState, side: str | None, fld: Field) -> Focus:
    circle = fld.circle_hexes("centre", interior_only=False)
    inner = [h for h in fld.circle_hexes("centre") if h != fld.ball_spot]
    players = [state.player_at(h) for h in circle]
    winner = next((p for p in players if p is not None and p.side == side and p.hex in inner), None)
    free = frozenset(h for h in inner if state.player_at(h) is None) if winner is not None else frozenset()
    opponents = tuple(p for p in players if p is not None and p.side != side and p.hex in inner)
    return Focus("faceoff", side, winner, free, tuple(p.hex for p in opponents if p.hex is not None),
                 must=tuple(inner))


def _turn_focus(state: MatchState, side: str | None) -> Focus | None:
    carrier = state.carrier()
    ball = carrier.hex if carrier is not None else state.ball.hex
    if ball is None:
        return None
    near = sorted((p for p in state.on_field() if p.hex is not None and distance(p.hex, ball) <= 4),
                  key=lambda p: (distance(_hex(p), ball), p.id))
    return Focus("turn", side, must=(ball,), wanted=tuple(p.hex for p in near if p.hex is not None))


def _question_focus(state: MatchState, board: MatchState, fld: Field) -> Focus | None:
    assert state.in_progress is not None and state.in_progress.question is not None
    q = state.in_progress.question
    ids = [o for o in q.get("options", []) if isinstance(o, str)] + [q[k] for k in ("player",) if isinstance(q.get(k), str)]
    people = [board.players[i] for i in dict.fromkeys(ids) if i in board.players and board.players[i].hex is not None]
    actor = board.players.get(board.action.player) if board.action is not None else None
    must = [_hex(p) for p in people[:1]] or ([actor.hex] if actor is not None and actor.hex is not None else [])
    ball = board.ball.hex if board.ball.carrier is None else None
    if not must and ball is not None:
        must = [ball]
    if not must:
        return None
    wanted = [p.hex for p in people] + ([actor.hex] if actor is not None else []) + ([ball] if ball else [])
    targets = tuple(p.hex for p in people if q.get("kind") == "interceptor" and p.hex is not None)
    return Focus("question", q.get("side"), actor if actor is not None and actor.on_field else None,
                 targets=targets, must=tuple(must), wanted=tuple(h for h in wanted if h is not None))


def action_focus(state: MatchState, *, view: MatchState | None = None, field: Field | None = None,
                 width: int = VIEW_WIDTH) -> Focus | None:
    """What the action view of ``state`` shows (``view``: the position mid-resolution), or
    ``None`` when there is nothing to zoom on (between Tests, after the match)."""
    fld = field or standard_field()
    board = view or state
    if state.phase in (Phase.MATCH_OVER, Phase.TEST_OVER):
        return None
    focus: Focus | None
    if state.in_progress is not None and state.in_progress.question is not None:
        focus = _question_focus(state, board, fld)
    elif state.phase is Phase.SETUP and state.setup_side is not None:
        focus = _setup_focus(state, state.setup_side, fld)
    elif state.phase is Phase.FACEOFF:
        focus = _faceoff_focus(state, state.faceoff_winner, fld)
    elif state.phase is Phase.ACTION and state.acting_player is not None and state.acting_player.hex is not None:
        focus = _action_focus(state, state.acting_player, fld)
    elif state.phase is Phase.TURN:
        focus = _turn_focus(state, state.turn_side)
    else:
        focus = None
    if focus is None:
        return None
    focus.window = _fit_window(focus, _window_size(_check_width(width)))
    focus.in_view = tuple(_hexes_within(focus.window, 0.0))
    return focus


def _fit_window(focus: Focus, size: tuple[float, float]) -> tuple[float, float, float, float]:
    """A window of ``size`` spacings holding every ``must`` hex and as many ``wanted`` ones as fit
    (in order), centred on them and kept over the field's band."""
    vw, vh = size
    room_w, room_h = vw - 1.0, vh - 1.16  # a whole hex around each one held
    pts = [h.center() for h in focus.must]
    x0, x1 = min(x for x, _ in pts), max(x for x, _ in pts)
    y0, y1 = min(y for _, y in pts), max(y for _, y in pts)
    for h in focus.wanted:
        x, y = h.center()
        nx0, nx1, ny0, ny1 = min(x0, x), max(x1, x), min(y0, y), max(y1, y)
        if nx1 - nx0 <= room_w and ny1 - ny0 <= room_h:
            x0, x1, y0, y1 = nx0, nx1, ny0, ny1
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    half_w, half_h = FIELD_W / 2, FIELD_H / 2
    cx = min(max(cx, -half_w + vw / 2), half_w - vw / 2)
    cy = min(max(cy, -half_h + vh / 2), half_h - vh / 2)
    return (cx - vw / 2, cy - vh / 2, cx + vw / 2, cy + vh / 2)


@lru_cache(maxsize=1)
def _centres() -> tuple[tuple[Hex, float, float], ...]:
    return tuple((h, *h.center()) for h in standard_field().hexes)


def _hexes_within(window: tuple[float, float, float, float], margin: float) -> list[Hex]:
    """The hexes whose centre is at least ``margin`` spacings inside the window (0.35 from its
    edge counts as inside), or (negative ``margin``) within that much outside it."""
    x0, y0, x1, y1 = window
    a, b, c, d = x0 + margin + 0.35, x1 - margin - 0.35, y0 + margin + 0.35, y1 - margin - 0.35
    return [h for h, x, y in _centres() if a <= x <= b and c <= y <= d]


def _range_label(focus: Focus, fld: Field) -> str:
    """``K9–N13``: the columns and rows of the hexes in view."""
    labels = [fld.format(h) for h in focus.in_view]
    if not labels:
        return ""
    cols = sorted({lab[0] for lab in labels})
    rows = sorted({int(lab[1:]) for lab in labels})
    return f"{cols[0]}{rows[0]}–{cols[-1]}{rows[-1]}"


# --- the picture -----------------------------------------------------------------------------------
def view_geometry(width: int, focus: Focus) -> tuple[Geometry, tuple[int, int, int, int]]:
    """The geometry of the close-up inside the picture, and the crop box in the field layer."""
    full, height, s, title, key = view_layout(width)
    g = geometry(full)
    x0, y0, _, _ = focus.window
    left = round(g.cx + x0 * s)
    top = round(g.cy + y0 * s)
    box = (left, top, left + width, top + height - title - key)
    vg = Geometry(width, height, s, title, title, height - title - key, height - key, g.cx - left, g.cy - top + title)
    return vg, box


def _title(focus: Focus, state: MatchState, fld: Field, language: str) -> str:
    t = words(language)
    where = _range_label(focus, fld)
    if focus.kind == "action" and focus.actor is not None:
        a = state.action
        jog = a.jog_left if a is not None else 0
        return t("picture.view.title.action", player=focus.actor.name, hex=fld.format(_hex(focus.actor)), jog=jog,
                 range=where)
    team = state.teams[focus.side].name if focus.side in state.teams else ""
    return t(f"picture.view.title.{focus.kind}", team=team, range=where)


def _key_items(focus: Focus) -> list[str]:
    """The marks this close-up uses, most needed first (the acting hex is the title's player)."""
    items = []
    if focus.reachable:
        items.append("setup" if focus.kind == "setup" else "reachable")
    if focus.targets:
        items.append("target")
    if focus.strings:
        items.append("string")
    if focus.intercept_hexes:
        items.append("intercept")
    if focus.actor is not None:
        items.append("acting")
    return items


def draw_key_sample(d: ImageDraw.ImageDraw, item: str, x: float, y: float, s: float) -> None:
    """The small sample of one mark in the view's key (the legend uses the full-size marks)."""
    k = 0.5
    d.polygon(M.hex_corners(x, y, s * k), fill=C.PITCH, outline=C.PITCH_DARK)
    if item == "acting":
        M.acting_hex(d, x, y, s * k)
    elif item in ("reachable", "setup"):
        M.reachable_hex(d, x, y, s * k)
    elif item == "target":
        M.target_mark(d, x, y, s * k)
    elif item == "intercept":
        M.intercept_hex(d, x, y, s * k)
    elif item == "string":
        M.passing_string(d, (x - 0.9 * s * k, y + 0.3 * s * k), (x + 0.9 * s * k, y - 0.3 * s * k), s * k)


def _draw_key(canvas: Image.Image, d: ImageDraw.ImageDraw, g: Geometry, focus: Focus, language: str) -> None:
    t = words(language)
    s = g.s
    size = max(8, round(KEY_SIZE * s))
    y = g.footer_top + (g.height - g.footer_top) / 2
    x = 0.4 * s
    for item in _key_items(focus):
        label = t(f"picture.view.key.{item}")
        w = 0.4 * s + text_length(label, size)
        if x + w > g.width - 0.1 * s:
            break
        draw_key_sample(d, item, x, y, s)
        draw_text(canvas, (x + 0.32 * s, y), label, size, C.TEXT, "lm")
        x += w + 0.42 * s


def _label_colour(info: Any) -> C.RGB:
    """A coordinate's colour on its bare hex: dark on the pale centre line, light on the pitch."""
    return C.VIEW_LABEL if info.centre_line else C.VIEW_LABEL_HALO


@lru_cache(maxsize=4)
def _labelled_field(full: int) -> Image.Image:
    """The field layer at ``full`` px wide with every hex's coordinate printed above its centre
    (the outer line's hexes carry theirs already): drawn once, then cropped by every view,
    which only redraws the labels that a mark or a token covers."""
    g = geometry(full)
    im = field_layer(full).image.copy()
    size = max(8, round(COORD_SIZE * g.s))
    for h in standard_field().hexes:
        info = standard_field().info(h)
        if not info.edge_line:
            x, y = g.hex_px(h)
            draw_text(im, (x, y - COORD_RISE * g.s), info.label, size, _label_colour(info), "mm")
    return im


@lru_cache(maxsize=4)
def _reach_field(full: int) -> Image.Image:
    """The labelled field with every hex marked reachable and its coordinate dark: a view pastes
    from it through a mask of the hexes its player can reach (one paste, not two polygons and
    a label per hex)."""
    g = geometry(full)
    im = _labelled_field(full).copy()
    d = ImageDraw.Draw(im)
    size = max(8, round(COORD_SIZE * g.s))
    for h in standard_field().hexes:
        x, y = g.hex_px(h)
        M.reachable_hex(d, x, y, g.s)
        info = standard_field().info(h)
        draw_text(im, (x, y - COORD_RISE * g.s), info.label if not info.edge_line else "", size, C.VIEW_LABEL, "mm")
    return im


def _draw_reachable(canvas: Image.Image, g: Geometry, focus: Focus, full: int, box: tuple[int, int, int, int],
                    shown: set[Hex]) -> None:
    """Paste the reachable hexes from the marked field, through a mask of their outlines
    (only over the rectangle they cover)."""
    polys = [M.hex_corners(*g.hex_px(h), g.s) for h in focus.reachable if h in shown]
    if not polys:
        return
    x0 = max(0, math.floor(min(x for poly in polys for x, _ in poly)))
    y0 = max(g.field_top, math.floor(min(y for poly in polys for _, y in poly)))
    x1 = min(g.width, math.ceil(max(x for poly in polys for x, _ in poly)) + 1)
    y1 = min(g.footer_top, math.ceil(max(y for poly in polys for _, y in poly)) + 1)
    if x1 <= x0 or y1 <= y0:
        return
    mask = Image.new("L", (x1 - x0, y1 - y0), 0)
    md = ImageDraw.Draw(mask)
    for poly in polys:
        md.polygon([(x - x0, y - y0) for x, y in poly], fill=255)
    left, top = box[0] + x0, box[1] + y0 - g.field_top
    canvas.paste(_reach_field(full).crop((left, top, left + x1 - x0, top + y1 - y0)), (x0, y0), mask)


@lru_cache(maxsize=2048)
def _tab(label: str, s: float) -> Image.Image:
    """A coordinate in light letters with a dark outline, as an RGBA sprite, for where a token
    or a mark lies under it (outlined letters, not a box: a box would look like a token)."""
    size = max(8, round(COORD_SIZE * s))
    stroke = max(2, round(0.045 * s))
    w = round(text_length(label, size) + 2 * stroke + 4)
    h = round(size * 1.3 + 2 * stroke)
    im = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(im).text((w / 2, h / 2), label, font=font(size), fill=C.TEXT + (255,), anchor="mm",
                            stroke_width=stroke, stroke_fill=C.PANEL + (255,))
    return im


def _draw_coordinates(canvas: Image.Image, g: Geometry, focus: Focus, board: MatchState, fld: Field,
                      shown: set[Hex]) -> None:
    """Redraw, outlined, the coordinates that a token, the ball or a target's corners reach
    into: in the hex itself and the two below it (the labels sit at the top of a hex)."""
    s = g.s
    crowded = {p.hex for p in board.on_field() if p.hex is not None} | set(focus.targets)
    if board.ball.hex is not None:
        crowded.add(board.ball.hex)
    tabs = {h for c in crowded for h in (c, c.neighbour(Direction.SE), c.neighbour(Direction.SW))} & shown
    for h in tabs:
        info = fld.info(h)
        if not info.edge_line:
            x, y = g.hex_px(h)
            paste_centered(canvas, _tab(info.label, s), x, y - COORD_RISE * s)


def action_view_rgb(state: MatchState, focus: Focus, *, events: Iterable[Event | Mapping[str, Any]] = (),
                    view: MatchState | None = None, width: int = VIEW_WIDTH, language: str = "en") -> Image.Image:
    """The action view as an RGB image (before the palette); see :func:`render_action_view`."""
    fld = standard_field()
    board = view or state
    full, height, s, title, key = view_layout(width)
    g, box = view_geometry(width, focus)
    # one crop, bands included (they are painted over below)
    canvas = _labelled_field(full).crop((box[0], box[1] - title, box[2], box[1] - title + height))
    d = ImageDraw.Draw(canvas)
    fills = C.team_fills(state.teams["west"].colours, state.teams["east"].colours)
    shown = set(_hexes_within(focus.window, -1.0))  # in view, or partly
    if focus.reachable:
        _draw_reachable(canvas, g, focus, full, box, shown)
    actor = focus.actor
    if actor is not None and actor.hex is not None:
        M.acting_hex(d, *g.hex_px(actor.hex), s)
    draw_events(d, g, board, as_events(events), fld)
    for a, b in focus.strings:
        M.passing_string(d, g.hex_px(a), g.hex_px(b), s)
    token = Geometry(g.width, g.height, s * TOKEN_SCALE, g.header_h, g.field_top, g.field_h, g.footer_top,
                     g.cx, g.cy + TOKEN_DROP * s)
    draw_pieces(canvas, _Scaled(g, token), board, fills, only=shown)
    for h in focus.intercept_hexes:
        M.intercept_hex(d, *g.hex_px(h), s)
    for h in focus.targets:
        M.target_mark(d, *g.hex_px(h), s)
    draw_counters(canvas, _Scaled(g, token), board, only=shown)
    _draw_coordinates(canvas, g, focus, board, fld, shown)
    # the bands: what this is, and the marks it uses
    d.rectangle((0, 0, width, title), fill=C.PANEL)
    d.rectangle((0, g.footer_top, width, height), fill=C.PANEL)
    lw = max(1, round(s * 0.04))
    d.line((0, title - lw, width, title - lw), fill=C.PANEL_LINE, width=lw)
    d.line((0, g.footer_top, width, g.footer_top), fill=C.PANEL_LINE, width=lw)
    size = max(8, round(TITLE_SIZE * s))
    text = _title(focus, state, fld, language)
    x = 0.3 * s
    if focus.side in fills:
        team_icon(d, focus.side, x + 0.22 * s, title / 2, 0.2 * s, fills[focus.side], max(1, round(s * 0.03)))
        x += 0.55 * s
    while text and text_length(text, size) > width - x - 0.2 * s:
        text = text[:-2] + "…"
    draw_text(canvas, (x, title / 2), text, size, C.TEXT, "lm")
    _draw_key(canvas, d, g, focus, language)
    return canvas


class _Scaled:
    """A geometry whose hex centres are ``g``'s but whose spacing and offset are the tokens'
    (smaller and a little lower, so the coordinate shows above them)."""

    def __init__(self, g: Geometry, token: Geometry) -> None:
        self.s = token.s
        self._g, self._dy = g, token.cy - g.cy

    def hex_px(self, h: Hex) -> tuple[float, float]:
        x, y = self._g.hex_px(h)
        return x, y + self._dy


def render_action_view(
    state: MatchState,
    *,
    events: Iterable[Event | Mapping[str, Any]] | None = None,
    view: MatchState | None = None,
    width: int = VIEW_WIDTH,
    language: str = "en",
    compress_level: int = VIEW_COMPRESS_LEVEL,
) -> bytes | None:
    """PNG bytes of the close-up where the decision is, or ``None`` when there is none.

    ``events``: the last command's events, drawn as on the board; ``view``: the position
    mid-resolution (``Result.view``); ``width``: pixels (the height is 1.3 times it);
    ``language``: the title's and the key's words. The same arguments give the same bytes.
    """
    focus = action_focus(state, view=view, width=_check_width(width))
    if focus is None:
        return None
    rgb = action_view_rgb(state, focus, events=events or (), view=view, width=width, language=language)
    full = view_layout(width)[0]
    im = rgb.quantize(palette=palette_for(state, full, False), dither=Image.Dither.NONE)
    return encode_png(im, compress_level)


# --- in words --------------------------------------------------------------------------------------
def _names(players: Iterable[Player], fld: Field) -> str:
    return ", ".join(f"{p.name} ({fld.format(p.hex)})" for p in players if p.hex is not None)


def action_view_alt(state: MatchState, language: str = "en", *, view: MatchState | None = None) -> str:
    """The action view's alt text: which part of the field, around whom, and what is marked
    ("Close-up of K9–N13 around Hunter #2 (K12), 4 Jog left: 17 hexes within reach; ...")."""
    focus = action_focus(state, view=view)
    t = words(language)
    if focus is None:
        return t("picture.view.alt.none")
    fld = standard_field()
    where = _range_label(focus, fld)
    sep = t("picture.view.alt.separator")
    parts = []
    if focus.kind == "action" and focus.actor is not None:
        a = state.action
        head = t("picture.view.alt.action", range=where, player=focus.actor.name, hex=fld.format(_hex(focus.actor)),
                 jog=a.jog_left if a is not None else 0)
        if focus.reachable:
            parts.append(t("picture.view.alt.reach", count=len(focus.reachable)))
        if focus.tackle:
            parts.append(t("picture.view.alt.tackle", players=_names(focus.tackle, fld)))
        if focus.shove:
            parts.append(t("picture.view.alt.shove", players=_names(focus.shove, fld)))
        if focus.receivers:
            parts.append(t("picture.view.alt.throw", players=_names(focus.receivers, fld)))
        if focus.interceptors:
            parts.append(t("picture.view.alt.intercept", players=_names(focus.interceptors, fld)))
    else:
        team = state.teams[focus.side].name if focus.side in state.teams else ""
        head = t(f"picture.view.alt.{focus.kind}", range=where, team=team)
        if focus.kind == "setup":
            parts.append(t("picture.view.alt.setup_free", count=len(focus.reachable)))
        elif focus.kind == "faceoff" and focus.targets:
            parts.append(t("picture.view.alt.faceoff_target",
                           players=_names((p for h in focus.targets if (p := (view or state).player_at(h))), fld)))
        elif focus.kind == "question" and focus.targets:
            parts.append(t("picture.view.alt.question_players",
                           players=_names((p for h in focus.targets if (p := (view or state).player_at(h))), fld)))
    board = view or state
    carrier = board.carrier()
    if carrier is not None and carrier.hex is not None:
        parts.append(t("picture.view.alt.ball_carried", player=carrier.name, hex=fld.format(carrier.hex)))
    elif board.ball.hex is not None:
        parts.append(t("picture.view.alt.ball_loose", hex=fld.format(board.ball.hex)))
    text = head + (t("picture.view.alt.colon") + sep.join(parts) if parts else "") + "."
    return text if len(text) <= ALT_MAX else text[: ALT_MAX - 1] + "…"
