"""The Bribed Referee (Team support, p. 11).

"Having a Bribed Referee allows you to set up a player with a Type of Monster in the face-off
circle and allows your players without the ball to end an action inside either goal circle
hex. However before your first action after the face-off with a Monster Type player or at the
start of any turn by your team where you have a player inside a goal circle hex, roll one
Challenge die. If you flop, the result is that the referee cannot stand the rule breaking
anymore. The rule-breaking player is ejected for the remainder of the game, your team loses
the ability to perform anything this turn (this counts as a SiM) and you may not break either
of these rules for the remainder of the game."

``setup.py`` lets the Monster face off, ``referee.py`` lets the players stay in a goal hex, and
``turns.begin_turn`` calls ``check`` (one roll covers both reasons). ``Team.used`` holds
``bribe_faceoff_check`` (the number of the Monster who faced off, until the check) and
``bribe_void`` once the referee has had enough.
"""

from __future__ import annotations

from .. import ball as _ball
from .. import effects
from ..context import Ctx
from ..dice import Face
from ..events import RefereeCheck
from ..field import Side
from ..state import Location, MatchState, Player, Team

__all__ = ["active", "faceoff_decided", "check"]

MONSTER = "monster"


def active(team: Team) -> bool:
    """The team has bribed the referee and he has not had enough yet."""
    return bool(team.support.get("bribed_referee")) and not team.used.get("bribe_void")


def faceoff_decided(state: MatchState, players: tuple[Player, ...]) -> None:
    """Note each bribing team whose face-off player is a Monster: it checks before its first action."""
    for p in players:
        team = state.teams[p.side]
        if p.type == MONSTER and active(team):
            team.used["bribe_faceoff_check"] = p.number


def _offenders(ctx: Ctx, side: Side) -> tuple[list[Player], str | None]:
    st = ctx.state
    team = st.teams[side]
    out: list[Player] = []
    reason = None
    number = team.used.pop("bribe_faceoff_check", 0)
    if number:
        reason = "bribe_faceoff_monster"
        out += [p for p in st.team_players(side) if p.number == number]
    in_goal = [p for p in st.on_field(side) if p.hex is not None and ctx.field.info(p.hex).goal is not None]
    if in_goal:
        reason = reason or "bribe_goal_hex"
        out += [p for p in in_goal if p not in out]
    return out, reason


def check(ctx: Ctx, side: Side) -> bool:
    """The check at the start of ``side``'s turn. True if the referee had enough: the
    offenders are ejected, the bribe is void, and the turn is lost (the caller passes it)."""
    team = ctx.state.teams[side]
    if not active(team):
        team.used.pop("bribe_faceoff_check", None)
        return False
    offenders, reason = _offenders(ctx, side)
    if reason is None:
        return False
    face = ctx.dice.face()
    flopped = face is Face.FLOP
    ctx.emit(RefereeCheck(side, reason, face.symbol, flopped, tuple(p.id for p in offenders) if flopped else ()))
    if not flopped:
        return False
    team.used["bribe_void"] = 1
    for p in offenders:
        if p.location in (Location.INFIRMARY, Location.EJECTED):
            continue  # already out for the game
        old, had_ball = effects.remove(ctx, p, Location.EJECTED, "ejected by the referee")
        if had_ball and old is not None:
            _ball.scatter(ctx, old)
    return True
