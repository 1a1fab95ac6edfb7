"""Steal (Striker/Basic, p. 14): "This player is a master ball thief. This player may attempt to
steal the ball instead of knocking down the opponent during a Tackle challenge attempt. No
Impact challenge is ever required for a Steal. If a Steal is attempted, replace "Slide Tackle.
Both Tackler and Opponent are Down." with "Strip. Both players standing. Ball scatters". All
results for one or more successes than needed are replaced with "Steal. Both players standing.
The Tackling player gets possession of the ball." Only successes over three more than needed
earn Momentum as with a normal Tackle challenge."

"Never" yields to Fear (p. 14), which names the Steal. The stolen ball is his at once (no Catch
roll): ``BallCaught(how="steal")``, and it lets Burst spend counters on his move.
"""

from __future__ import annotations

from .. import effects
from ..context import Ctx
from ..dice import Band, ChallengeRoll
from ..events import BallCaught
from ..refusals import Refusal
from ..state import ActionState, MatchState, Player, Status

__all__ = ["refusal", "result", "resolve_result", "RULE"]

RULE = "steal"  # Steal (p. 14), a rule id


def refusal(state: MatchState, target: Player) -> Refusal | None:
    if state.ball.carrier != target.id:
        return Refusal("steal.no_ball", player=target.name)
    return None


def result(roll: ChallengeRoll) -> str:
    return {Band.FLOP: "tackler Down, SiM", Band.FAILURE: "stiff-armed", Band.EXACT: "Strip: the ball scatters"}.get(
        roll.band, "Steal: he takes the ball"
    )


def resolve_result(ctx: Ctx, action: ActionState, attacker: Player, target: Player, roll: ChallengeRoll) -> None:
    if roll.band is Band.FLOP:
        effects.fall(ctx, attacker, Status.DOWN, "flopped a Tackle")
    elif roll.band is Band.EXACT:
        effects.drop(ctx, target)
    elif roll.band is Band.EXTRA:
        st = ctx.state
        st.ball.carrier, st.ball.hex = attacker.id, None
        ctx.emit(BallCaught(attacker.id, "steal"))
        action.burst = True
