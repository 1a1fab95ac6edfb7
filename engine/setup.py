"""Beginning a Test (p. 3): placing players, the automatic set-up, and the checks.

One face-off player on your side of the centre circle, facing the ball, never a Monster; one
guardian in the guardian circle if you have a second player; up to two in each of your rover
circles; nobody on a hex a white or yellow line runs through; at most 6 on the field, the rest
on the Bench. You may field fewer than 6, but the face-off player and (with 2+ players) the
guardian are compulsory (G54). A team with a Bribed Referee may face off with a Monster
(``engine/support/bribed_referee.py``).
"""

from __future__ import annotations

from .errors import IllegalCommandError
from .field import Field, Side
from .hexes import Direction, Hex, is_in_front
from .refusals import Refusal, Term, phrase_term, side_term
from .state import Location, MatchState, Player
from .support.bribed_referee import active as bribe_active

__all__ = [
    "RULE_SETUP",
    "MAX_ON_FIELD",
    "zone_of",
    "placement_refusal",
    "setup_refusal",
    "available",
    "can_face_off",
    "may_face_off",
    "auto_placements",
]

RULE_SETUP = "setup"  # Beginning a Test (p. 3)
MAX_ON_FIELD = 6
ZONES = ("faceoff", "guardian", "rover-north", "rover-south")
CAPACITY = {"faceoff": 1, "guardian": 1, "rover-north": 2, "rover-south": 2}
MONSTER = "monster"


def zone_of(field: Field, side: Side, h: Hex) -> str | None:
    for zone in ZONES:
        if h in field.setup_hexes(side, zone):
            return zone
    return None


def available(state: MatchState, side: Side) -> list[Player]:
    """Players who may take part in this Test's set-up (Bench or already placed)."""
    return [p for p in state.team_players(side) if p.location in (Location.BENCH, Location.FIELD)]


def may_face_off(state: MatchState, p: Player) -> bool:
    """Not a Monster, unless his team has bribed the referee (Team support, p. 11)."""
    return p.type != MONSTER or bribe_active(state.teams[p.side])


def can_face_off(state: MatchState, side: Side) -> bool:
    return any(may_face_off(state, p) for p in available(state, side))


def placement_refusal(state: MatchState, field: Field, p: Player, h: Hex, facing: Direction) -> Refusal | None:
    side = p.side
    if p.location not in (Location.BENCH, Location.FIELD):
        return Refusal("setup.not_available", player=p.name, text=phrase_term(p.location.value.replace("_", " ")))
    zone = zone_of(field, side, h)
    if zone is None:
        return Refusal("setup.not_setup_hex", hex=field.format(h), side=side_term(side))
    occupant = state.player_at(h)
    if occupant is not None and occupant.id != p.id:
        return Refusal("hex.taken_by", hex=field.format(h), player=occupant.name)
    placed = [q for q in state.on_field(side) if q.id != p.id]
    in_zone = [q for q in placed if q.hex is not None and zone_of(field, side, q.hex) == zone]
    if len(in_zone) >= CAPACITY[zone]:
        return Refusal("setup.zone_full", zone=Term("zone", zone), n=len(in_zone), n2=CAPACITY[zone])
    if len(placed) >= MAX_ON_FIELD:
        return Refusal("setup.at_most", n=MAX_ON_FIELD)
    if zone == "faceoff":
        if not may_face_off(state, p):
            return Refusal("setup.monster_faceoff", n=8)
        if not is_in_front(h, facing, field.ball_spot):
            return Refusal("setup.faceoff_facing")
    return None


def setup_refusal(state: MatchState, field: Field, side: Side) -> Refusal | None:
    placed = state.on_field(side)
    zones = [zone_of(field, side, p.hex) for p in placed if p.hex is not None]
    if "faceoff" not in zones:
        return Refusal("setup.faceoff_needed", hex="J12", side=side_term("west"), hex2="L12", side2=side_term("east"))
    if "guardian" not in zones and len(available(state, side)) >= 2:
        return Refusal("setup.guardian_needed")
    return None


def auto_placements(state: MatchState, field: Field, side: Side) -> list[tuple[str, Hex, Direction]]:
    """A sound default set-up: the strongest non-Monster faces off, the best catcher guards the
    goal, and up to four more take the rover circles, best Jog first."""
    pool = sorted(available(state, side), key=lambda p: p.number)
    out: list[tuple[str, Hex, Direction]] = []
    toward = Direction.E if side == "west" else Direction.W
    faceoff_hex = field.setup_hexes(side, "faceoff")[0]
    # A bribed referee allows a Monster, but only when nobody else can: he risks an ejection.
    candidates = [p for p in pool if p.type != MONSTER] or [p for p in pool if may_face_off(state, p)]
    if not candidates:
        return out
    fo = max(candidates, key=lambda p: (p.might, p.tackle, -p.number))
    out.append((fo.id, faceoff_hex, toward))
    pool.remove(fo)
    if pool:
        guard = max(pool, key=lambda p: (p.skill, p.tackle, -p.number))
        out.append((guard.id, field.setup_hexes(side, "guardian")[0], toward))
        pool.remove(guard)
    rest = sorted(pool, key=lambda p: (-p.jog, -p.might, p.number))[:4]
    for i, p in enumerate(rest):
        zone = "rover-north" if i % 2 == 0 else "rover-south"
        hexes = field.setup_hexes(side, zone)
        # The two hexes of each rover circle nearest the centre line.
        hexes = sorted(hexes, key=lambda h: (abs(h.center()[0]), h.r, h.q))
        out.append((p.id, hexes[i // 2], toward))
    return out


def refuse(why: Refusal) -> IllegalCommandError:
    return IllegalCommandError(why.cited(RULE_SETUP))
