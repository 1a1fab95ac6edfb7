"""Challenge dice: faces, injectable dice sources, challenge rolls and exact odds.

The engine's only randomness comes from a ``DiceSource`` passed in by the caller. A roll's
plain text is its ``str()`` (``challenge.py``); Discord markdown comes from
``engine.dice.stringify``.

``engine.dice.odds`` here is the function (the usual front door); to reach the module's other
names, use ``from engine.dice.odds import clear_cache, MAX_DICE``.
"""

from engine.dice.challenge import Band, ChallengeRoll, Die, Modifier, Need, Origin, Reason
from engine.dice.faces import Face, parse_faces
from engine.dice.odds import ExactOdds, Odds, odds
from engine.dice.source import (
    DiceSource,
    HashDice,
    ReplayDice,
    ScriptedDice,
    StatedDice,
    SeededDice,
    record_from_json,
    record_to_json,
)

__all__ = [
    "Band",
    "ChallengeRoll",
    "DiceSource",
    "Die",
    "ExactOdds",
    "HashDice",
    "Face",
    "Modifier",
    "Need",
    "Odds",
    "Origin",
    "Reason",
    "ReplayDice",
    "ScriptedDice",
    "StatedDice",
    "SeededDice",
    "odds",
    "parse_faces",
    "record_from_json",
    "record_to_json",
]
