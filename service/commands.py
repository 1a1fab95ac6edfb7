"""The engine's commands, by name, for the bot (``from service import commands as C``;
``C.Move(...)``): what a coach does, built by the bot from a press or a slash command and
handed to ``MatchService.act``. The bot's door is the service, so the command classes pass
through here unchanged; nothing here decides anything.
"""

from __future__ import annotations

from engine import (
    Answer,
    AutoSetup,
    CastSpell,
    Cheer,
    Command,
    Concede,
    Dash,
    DrinkPotion,
    EndAction,
    Face,
    FaceoffContact,
    FaceoffPickup,
    Move,
    Place,
    Quickling,
    Replace,
    SetupDone,
    Shove,
    StandUp,
    StartAction,
    StartTest,
    Tackle,
    Taunt,
    Throw,
    Undo,
    Unplace,
)

__all__ = [
    "Answer", "AutoSetup", "CastSpell", "Cheer", "Command", "Concede", "Dash", "DrinkPotion", "EndAction", "Face",
    "FaceoffContact", "FaceoffPickup", "Move", "Place", "Quickling", "Replace", "SetupDone", "Shove", "StandUp",
    "StartAction", "StartTest", "Tackle", "Taunt", "Throw", "Undo", "Unplace",
]
