"""The loose ball: scatters, white-line stops and bounces, and where it comes to rest.

"Anytime a ball bounces or is thrown its movement is stopped as soon as it enters a hex with a
white line passing through it. Bounce the ball D6 hexes in a D6 direction away from the hex
with the white line (rolling again any D6 rolls for a direction that would bounce the ball
where the first hex contains a white line or would allow the ball to pass through the white
line.)" (p. 6). Players in between never stop the ball (G13); a standing player where it comes
to rest may Catch, a Down or Dazed one makes it scatter again.
"""

from __future__ import annotations

from .abilities.bankshot import bankshot_direction, bankshot_distance
from .challenges.catch import attempt_catch, footnote_check
from .context import Ctx
from .events import BallBounced, BallLanded, BallScattered, BallStoppedByLine
from .field import Side
from .hexes import Direction, Hex, ray
from .state import Player

__all__ = ["scatter", "arrive", "land", "trace_bounce", "bounce_from_line", "MAX_BOUNCES"]

#: A fair D6 never needs this many legs; a scripted one that would loop stops here.
MAX_BOUNCES = 30


def scatter(ctx: Ctx, origin: Hex, *, depth: int = 0) -> None:
    """A dropped ball: one pace in a D6 direction from ``origin``."""
    d = Direction(ctx.d6())
    to = origin.neighbour(d)
    ctx.emit(BallScattered(origin, d.name, to))
    arrive(ctx, to, came_from=origin, depth=depth + 1)


def _from_half(ctx: Ctx, came_from: Hex | None, line_hex: Hex) -> Side | None:
    for h in (came_from, line_hex):
        info = ctx.field.get(h) if h is not None else None
        if info is not None and info.half is not None:
            return info.half
    return None


def arrive(
    ctx: Ctx, h: Hex, *, came_from: Hex | None, depth: int = 0, catch_kind: str = "loose", bankshot: Player | None = None
) -> None:
    """The ball has entered ``h`` (thrown, scattered or bouncing). ``bankshot``: the thrower
    whose throw this is steers a bounce off ``h`` (Bankshot)."""
    info = ctx.field.get(h)
    if info is None:  # only reachable from a hex beside the edge line, which stops it first
        h = came_from if came_from is not None else ctx.field.ball_spot
        info = ctx.field.info(h)
    if info.white_line and depth < MAX_BOUNCES:
        ctx.emit(BallStoppedByLine(h))
        p = ctx.state.player_at(h)
        # "if a player is standing in a white lined hex ... roll the Catch challenge first. If
        # that fails the ball bounces off the white line as if the catching player has not
        # been in that hex."
        if p is not None and p.standing:
            if attempt_catch(ctx, p, catch_kind):
                return
            bounce_from_line(ctx, h, _from_half(ctx, came_from, h), depth=depth + 1, bankshot=bankshot)
            footnote_check(ctx, p)
            return
        bounce_from_line(ctx, h, _from_half(ctx, came_from, h), depth=depth + 1, bankshot=bankshot)
        return
    land(ctx, h, depth=depth, catch_kind=catch_kind)


def land(ctx: Ctx, h: Hex, *, depth: int = 0, catch_kind: str = "loose") -> None:
    """The ball comes down in ``h``: caught, scattered off a fallen player, or at rest."""
    st = ctx.state
    p = st.player_at(h)
    if p is None:
        st.ball.carrier, st.ball.hex = None, h
        ctx.emit(BallLanded(h))
        return
    if p.standing:
        # A ball he declines or fails to catch bounces one pace from him.
        if not attempt_catch(ctx, p, catch_kind):
            assert p.hex is not None
            scatter(ctx, p.hex, depth=depth)
            footnote_check(ctx, p)
        return
    # "the ball bounces onto a Down or Dazed player": a dropped ball again.
    scatter(ctx, h, depth=depth)


def _legal_bounce(ctx: Ctx, line_hex: Hex, d: Direction, from_half: Side | None) -> bool:
    first = ctx.field.get(line_hex.neighbour(d))
    if first is None or first.white_line:
        return False
    return from_half is None or first.half == from_half


def trace_bounce(
    ctx: Ctx, line_hex: Hex, from_half: Side | None, *, depth: int = 0, bankshot: Player | None = None
) -> tuple[list[Hex], Hex]:
    """Bounce off ``line_hex`` until the ball stops somewhere it can come to rest.

    Returns every point the ball travelled through (``line_hex``, each further white-line hex
    it stopped on, then the final hex) and the hex it entered the final hex from. The final
    hex is either clear of lines or a line hex with a standing player in it, who will get to
    Catch first. Nothing at the final hex is resolved here: a throw must lay the passing
    string over the whole path before anyone catches (p. 7). ``bankshot``: the thrower who
    steers the first bounce (direction and +-1 hex); later bounces are rolled.
    """
    points = [line_hex]
    steer = bankshot
    while True:
        if not any(_legal_bounce(ctx, line_hex, d, from_half) for d in Direction):
            from_half = None  # no way back to the side it came from: any clear direction will do
        # Cornered (the outer-line hex behind a goal: every neighbour on the field is a white
        # line): any direction onto the field will do, else the re-rolls would never end.
        cornered = not any(_legal_bounce(ctx, line_hex, d, None) for d in Direction)
        rerolled: list[str] = []
        chosen = None
        if steer is not None:
            legal = [
                x for x in Direction
                if _legal_bounce(ctx, line_hex, x, from_half) or (cornered and line_hex.neighbour(x) in ctx.field)
            ]
            chosen = bankshot_direction(ctx, steer, line_hex, legal)
        if chosen is not None:
            d = chosen
        else:
            while True:
                d = Direction(ctx.d6())
                if _legal_bounce(ctx, line_hex, d, from_half) or (cornered and line_hex.neighbour(d) in ctx.field):
                    break
                rerolled.append(d.name)
        distance = ctx.d6()
        if steer is not None:
            distance, steer = bankshot_distance(ctx, steer, distance), None
        came_from, end, steps = line_hex, line_hex, 0
        for h in ray(line_hex, d, distance):
            info = ctx.field.get(h)
            if info is None:  # never reached: the outer line stops the ball first
                break
            came_from, end, steps = end, h, steps + 1
            if info.white_line:
                break
        ctx.emit(BallBounced(line_hex, d.name, steps, end, tuple(rerolled)))
        points.append(end)
        depth += 1
        occupant = ctx.state.player_at(end)
        if not ctx.field.info(end).white_line or (occupant is not None and occupant.standing) or depth >= MAX_BOUNCES:
            return points, came_from
        ctx.emit(BallStoppedByLine(end))
        from_half = _from_half(ctx, came_from, end)
        line_hex = end


def bounce_from_line(
    ctx: Ctx, line_hex: Hex, from_half: Side | None, *, depth: int = 0, bankshot: Player | None = None
) -> None:
    """D6 hexes in a D6 direction away from a white-line hex, never into or across a line."""
    points, came_from = trace_bounce(ctx, line_hex, from_half, depth=depth, bankshot=bankshot)
    arrive(ctx, points[-1], came_from=came_from, depth=depth + len(points))
