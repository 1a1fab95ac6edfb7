"""The AI coach's answers to the engine's questions (re-rolls, interceptions, catches, kegs).

- Own re-rolls replace X dice, then blanks, one at a time, while the roll fails and the counters
  can still turn it (by the exact odds of that same policy, ``_rescue``); an Injury roll of ours
  is pushed until it keeps the player on the field.
- Forced re-rolls strike the successes of an opponent's Intercept or Catch.
- The interceptor is the best-odds candidate; a loose ball is caught unless catching is all risk.
"""

from __future__ import annotations

from functools import lru_cache

from engine import ChallengeRoll, Field, MatchState, Side

from .board import Board, Weights

__all__ = ["answer"]


@lru_cache(maxsize=2)
def _fresh_die(star2: bool) -> tuple[tuple[int, float], ...]:
    """(net, chance) of one new die: X -1, blank 0, bull's-eye +1, a star 1 + a new die."""
    if star2:
        return ((-1, 1 / 6), (0, 2 / 6), (1, 2 / 6), (2, 1 / 6))
    out = [(-1, 1 / 6)]
    for d in range(0, 7):
        out.append((d, 6.0 ** -(d + 2) + 2 * 6.0 ** -(d + 1) + (2 * 6.0**-d if d >= 1 else 0.0)))
    return tuple(out)


@lru_cache(maxsize=4096)
def _rescue(net: int, need: int, xs: int, blanks: int, counters: int, star2: bool) -> float:
    """Chance that replacing X dice, then blanks, one at a time turns a roll of ``net``
    successes (``need`` needed) into a success, stopping when it succeeds or flops (net < 0:
    no more Momentum then) or the counters or such dice run out."""
    if net >= need:
        return 1.0
    if net < 0 or counters <= 0 or xs + blanks <= 0:
        return 0.0
    bonus, rest = (1, (xs - 1, blanks)) if xs else (0, (xs, blanks - 1))
    return sum(pr * _rescue(net + bonus + d, need, *rest, counters - 1, star2) for d, pr in _fresh_die(star2))


def answer(state: MatchState, side: Side, fld: Field, q: dict, weights: Weights) -> object:
    """The answer to the question ``q`` that ``side`` owes (``engine.pending``'s question):
    the kinds it has no policy for get their default."""
    kind = q["kind"]
    if kind == "reroll":
        counters = state.momentum if state.momentum_side == side else 0
        return _reroll(q, counters, state.options.star2)
    if kind == "force_reroll":
        return _force_reroll(state, q)
    if kind == "ability_reroll":
        return _ability_reroll(q)
    if kind == "interceptor":
        return _interceptor(state, side, fld, q, weights)
    if kind == "catch":
        return _catch(state, side, fld, q, weights)
    if kind == "keg":
        return "use"  # asked only when it helps, and the Barrels are back next Test
    return q.get("default")


def _roll(q: dict) -> ChallengeRoll:
    return ChallengeRoll.from_dict(q["roll"])


def _reroll(q: dict, counters: int, star2: bool) -> tuple[int, ...]:
    """Own roll: while it fails and is not flopped, replace one X (else one blank) at a
    time, so each new die is seen before the next counter goes, and only if the counters
    can still turn it (by the exact odds of the same policy). A roll that succeeds is
    kept. An Injury roll of ours is pushed until it keeps the player on the field."""
    roll = _roll(q)
    eligible = list(q["eligible"])
    if not eligible or roll.flopped:
        return ()
    faces = {i: roll.dice[i].face.symbol for i in eligible}
    xs = [i for i in eligible if faces[i] == "X"]
    blanks = [i for i in eligible if faces[i] == "-"]
    if q.get("challenge") == "injury":
        if roll.net >= 4:
            return ()
    elif roll.succeeded:
        return ()
    elif _rescue(roll.net, roll.need.value, len(xs), len(blanks), counters, star2) < 0.05:
        return ()  # the counters cannot turn it: keep them
    for picks in (xs, blanks):
        if picks:
            return (picks[0],)
    return ()


def _ability_reroll(q: dict) -> tuple[int, ...]:
    """A free re-roll (Agile, Buff...): replace an X, else a blank, of a roll that fails or
    flops (an ability may rescue a flop), or of an Injury roll that would take him off."""
    roll = _roll(q)
    if q.get("challenge") == "injury":
        if roll.net >= 4 and not roll.flopped:
            return ()
    elif roll.succeeded:
        return ()
    for face in ("X", "-"):
        picks = [i for i in q["eligible"] if roll.dice[i].face.symbol == face]
        if picks:
            return (picks[0],)
    return ()


def _force_reroll(state: MatchState, q: dict) -> tuple[int, ...]:
    """An opponent's roll in our action: strike successes of a good Intercept or Catch (and
    of an Injury roll that would leave him on the field)."""
    roll = _roll(q)
    eligible = list(q["eligible"])
    good = [i for i in eligible if roll.dice[i].face.symbol in ("O", "*")]
    if not good:
        return ()
    challenge = q.get("challenge")
    if challenge in ("intercept", "catch", "pickup"):
        if not roll.succeeded:
            return ()
        n = min(q["max"], len(good), roll.net - roll.need.value + 1)
        return tuple(good[: max(1, n)])
    if challenge == "injury" and roll.net >= 2 and not roll.flopped:
        action = state.action
        if action is not None and (action.jog_left == 0 or action.normal_over):
            return tuple(good[: q["max"]])
    return ()


def _interceptor(state: MatchState, side: Side, fld: Field, q: dict, weights: Weights) -> str | None:
    """The interceptor with the best odds (a flop counts against him), or none when all are poor."""
    b = Board(state, side, fld, weights)
    best, best_p = None, 0.0
    for pid in q["options"]:
        if pid is None:
            continue
        p = state.players[pid]
        assert p.hex is not None
        need = 2 + len(b.facing(p.hex, side, mates=False)) - len(b.facing(p.hex, side, mates=True, exclude=pid))
        s, flop, _ = b.pf(p.skill, need)
        score = s - 0.25 * flop
        if score > best_p + 1e-12:
            best, best_p = pid, score
    return best if best_p > 0.02 else None


def _catch(state: MatchState, side: Side, fld: Field, q: dict, weights: Weights) -> str:
    """Catch a loose ball unless catching is all risk."""
    p = state.players[q["player"]]
    if p.hex is None:
        return "catch"
    b = Board(state, side, fld, weights)
    need = 2 + len(b.facing(p.hex, side, mates=False)) - len(b.facing(p.hex, side, mates=True, exclude=p.id))
    k = b.k if state.turn_side == side else 0
    s, flop, _ = b.pf(p.skill, need, k)
    return "catch" if s >= 0.05 or s >= flop else "decline"
