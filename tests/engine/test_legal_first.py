"""``LegalCommands.first``: the first legal command of a kind, validating only until it is found
(the face-off panel asks whether a Shove or a Tackle is possible, and a press takes the shortest
path). It must agree with ``of`` everywhere random play goes."""

from __future__ import annotations

import random

from engine import (
    FaceoffContact,
    Move,
    Phase,
    SeededDice,
    Shove,
    StartAction,
    Tackle,
    TeamEntry,
    all_team_lists,
    apply,
    default_roster,
    legal_commands,
    new_match,
    pending,
    standard_field,
)
from engine.fuzz import RandomCoach

FIELD = standard_field()


def test_first_is_the_first_of_the_legal_list_with_or_without_the_full_list() -> None:
    faceoffs = 0
    for seed in range(2):
        rng = random.Random(seed)
        w, e = rng.sample(all_team_lists(), 2)
        dice = SeededDice(seed)
        state = new_match(TeamEntry(w.name, default_roster(w)), TeamEntry(e.name, default_roster(e)), dice).state
        coach = RandomCoach(rng)
        for n in range(150):
            if state.phase is Phase.MATCH_OVER:
                break
            side = pending(state).side
            assert side is not None
            if state.in_progress is None:
                faceoffs += state.phase is Phase.FACEOFF
                for kind, where in ((FaceoffContact, lambda c: c.challenge == "shove"),
                                    (FaceoffContact, lambda c: c.challenge == "tackle"),
                                    (Move, lambda c: True), (StartAction, lambda c: True), (Tackle, lambda c: True),
                                    (Shove, lambda c: True)):
                    expected = next((c for c in legal_commands(state, side).of(kind) if where(c)), None)
                    assert legal_commands(state, side).first(kind, where) == expected
                    if n % 10 == 0:
                        listed = legal_commands(state, side)
                        len(listed)  # the full list is known: ``first`` reads it
                        assert listed.first(kind, where) == expected
            state = apply(state, coach.choose(state, side, FIELD), dice, by=side).state
    assert faceoffs  # the face-off was reached


def test_a_face_off_press_takes_the_shortest_legal_path() -> None:
    """The candidates come shortest first, so the first legal contact is a shortest one (the
    press used ``min`` over every legal contact)."""
    for seed in range(3):
        rng = random.Random(seed)
        w, e = rng.sample(all_team_lists(), 2)
        dice = SeededDice(seed)
        state = new_match(TeamEntry(w.name, default_roster(w)), TeamEntry(e.name, default_roster(e)), dice).state
        coach = RandomCoach(rng)
        for _ in range(60):
            side = pending(state).side
            if state.phase is Phase.MATCH_OVER or side is None:
                break
            if state.phase is Phase.FACEOFF and state.in_progress is None:
                for challenge in ("shove", "tackle"):
                    contacts = [c for c in legal_commands(state, side).of(FaceoffContact) if c.challenge == challenge]
                    got = legal_commands(state, side).first(FaceoffContact, lambda c, ch=challenge: c.challenge == ch)
                    assert got == (min(contacts, key=lambda c: len(c.path)) if contacts else None)
            state = apply(state, coach.choose(state, side, FIELD), dice, by=side).state
