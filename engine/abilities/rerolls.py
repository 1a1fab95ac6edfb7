"""The re-roll abilities (pp. 12-13): one die of a challenge replaced, the new result used.

"Steady (Jog/Basic): ... Steady may be used once per action and allows you to replace one die
of your choice from a Dash challenge (you must use the result from the new roll in place of the
original die roll)."
"Buff (Might/Basic): ... Buff may be used once per action and during the Face-off challenge and
allows you to replace one die of your choice from any challenge using the Might attribute ..."
"Grapple (Tackle/Basic): ... once per action ... any challenge using the Tackle attribute ..."
"Nimble (Dodge/Basic): ... once per action ... any challenge using the Dodge attribute ..."
"Agile (Skill/Basic): ... once per action ... any challenge using the Skill attribute ..."
"Resilient (Grit/Basic): ... Resilient may be used once per any player's action and allows you
to replace one die of your choice from any challenge using the Grit attribute ..."

Which ability fits a roll is read from its Spec: Steady by the challenge (a Sprinter's Dash rolls
Jog dice but is still a Dash), the others by the attribute rolled (a Punishing Hit's "grit as
6" is still a Grit challenge). The replacement comes right after the roll, before any Momentum,
so it may rescue a flop (G26). ``MatchState.once`` ("w3:agile") keeps the once-per-action
limit; it is emptied whenever an action starts, which also makes Resilient's "once per any
player's action" hold.
"""

from __future__ import annotations

from ..challenges.spec import Spec
from ..context import Ctx
from ..dice import ChallengeRoll, Reason
from ..events import AbilityUsed
from ..state import Player
from . import has

__all__ = ["REROLL_BY_ATTRIBUTE", "reroll_ability", "offer_ability_reroll", "ask_reroll", "faceoff_buff"]

#: The attribute a re-roll ability works on (Steady goes by the challenge: the Dash).
REROLL_BY_ATTRIBUTE = {"might": "buff", "tackle": "grapple", "dodge": "nimble", "skill": "agile", "grit": "resilient"}


def reroll_ability(spec: Spec) -> str | None:
    """The re-roll ability that applies to ``spec``'s roll, if any."""
    if spec.challenge == "dash":
        return "steady"
    attribute = "grit" if spec.attribute.startswith("grit as ") else spec.attribute
    return REROLL_BY_ATTRIBUTE.get(attribute)


def offer_ability_reroll(ctx: Ctx, spec: Spec, roll: ChallengeRoll) -> ChallengeRoll:
    """Ask the roller's coach whether his ability replaces a die; once per action each."""
    st = ctx.state
    p = st.players.get(spec.roller)
    which = reroll_ability(spec)
    if p is None or which is None or not has(p, which):
        return roll  # the wizard's rolls have no player; the others lack the ability
    key = f"{p.id}:{which}"
    if key in st.once:
        return roll
    new = ask_reroll(ctx, p, which, spec.challenge, roll)
    if new is not roll:
        st.once.append(key)
    return new


def faceoff_buff(ctx: Ctx, p: Player, roll: ChallengeRoll) -> ChallengeRoll:
    """Buff "during the Face-off challenge": once on each face-off roll (a tie is a new roll)."""
    return ask_reroll(ctx, p, "buff", "faceoff", roll) if has(p, "buff") else roll


def ask_reroll(ctx: Ctx, p: Player, which: str, challenge: str, roll: ChallengeRoll) -> ChallengeRoll:
    """One ``ability_reroll`` question to ``p``'s coach; the same roll back if he declines."""
    eligible = list(roll.replaceable(Reason.ABILITY))
    if not eligible:
        return roll
    chosen = ctx.ask(
        {
            "kind": "ability_reroll",
            "side": p.side,
            "player": p.id,
            "ability": which,
            "challenge": challenge,
            "roll": roll.to_dict(),
            "eligible": eligible,
            "max": 1,
            "default": [],
        }
    )
    if not chosen:
        return roll
    ctx.emit(AbilityUsed(p.id, which, "reroll"))
    return roll.replace(int(chosen[0]), ctx.dice, reason=Reason.ABILITY)
