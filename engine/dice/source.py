"""Dice sources: the only randomness in the engine, injected wherever a die is rolled.

Every source records each result in order, so a match can store its record as JSON and
``ReplayDice`` can rebuild it exactly; a replay that asks for a different kind of die than was
recorded raises, which catches an engine whose behaviour changed between versions.
"""

from __future__ import annotations

import hashlib
import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import Literal, TypeAlias

from engine.dice.faces import Face, parse_faces
from engine.errors import DiceScriptError, MalformedInputError

__all__ = [
    "DieKind",
    "RecordEntry",
    "DiceSource",
    "SeededDice",
    "HashDice",
    "ScriptedDice",
    "StatedDice",
    "ReplayDice",
    "record_to_json",
    "record_from_json",
]

DieKind: TypeAlias = Literal["face", "d6"]
RecordEntry: TypeAlias = tuple[DieKind, "Face | int"]
_KIND_NAMES = {"face": "Challenge die", "d6": "D6"}


class DiceSource(ABC):
    """Rolls Challenge dice (``face``) and the ordinary D6 (``d6``), recording every result."""

    def __init__(self) -> None:
        self._record: list[RecordEntry] = []

    def face(self) -> Face:
        """Roll one Challenge die."""
        result = self._next_face()
        self._record.append(("face", result))
        return result

    def d6(self) -> int:
        """Roll the D6 used for directions and distances (1-6)."""
        result = self._next_d6()
        self._record.append(("d6", result))
        return result

    @property
    def record(self) -> list[RecordEntry]:
        """Every result so far, in order, as ``(kind, value)`` pairs (a copy)."""
        return list(self._record)

    def record_json(self) -> list[list[str | int]]:
        return record_to_json(self._record)

    @abstractmethod
    def _next_face(self) -> Face: ...

    @abstractmethod
    def _next_d6(self) -> int: ...


class SeededDice(DiceSource):
    """Pseudo-random dice from a private ``random.Random(seed)``: the same seed, the same rolls."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.seed = seed
        self._rng = random.Random(seed)

    def _next_face(self) -> Face:
        return Face.from_d6(self._rng.randrange(1, 7))

    def _next_d6(self) -> int:
        return self._rng.randrange(1, 7)

    def __repr__(self) -> str:
        return f"SeededDice({self.seed!r})"


class HashDice(DiceSource):
    """Dice derived from a secret seed and a position: result n is SHA-256(seed, n) mod 6.

    A match keeps only the seed (secret until it ends) and how many results it has drawn, so
    a stored match resumes its dice exactly with ``HashDice(seed, offset=state.dice_drawn)``,
    and anyone given the seed afterwards can recompute every roll (auditable dice).
    """

    def __init__(self, seed: str | bytes, offset: int = 0) -> None:
        super().__init__()
        self.seed = seed.encode() if isinstance(seed, str) else bytes(seed)
        self.position = offset

    def _pips(self) -> int:
        digest = hashlib.sha256(self.seed + b":" + str(self.position).encode()).digest()
        self.position += 1
        return int.from_bytes(digest[:8], "big") % 6 + 1  # bias below 1e-18

    def _next_face(self) -> Face:
        return Face.from_d6(self._pips())

    def _next_d6(self) -> int:
        return self._pips()

    def __repr__(self) -> str:
        return f"HashDice(<seed>, offset={self.position})"


class ScriptedDice(DiceSource):
    """Exactly the scripted results, in order: tests and scenarios state the faces they mean.

    ``faces`` and ``d6`` are separate queues, so a script need not know how the engine
    interleaves the two kinds.
    """

    def __init__(
        self,
        faces: str | Iterable[str | Face] = (),
        d6: Iterable[int] = (),
    ) -> None:
        super().__init__()
        self._faces = parse_faces(faces)
        self._d6 = tuple(_check_d6(v) for v in d6)
        self._face_pos = 0
        self._d6_pos = 0

    @property
    def unused_faces(self) -> tuple[Face, ...]:
        return self._faces[self._face_pos :]

    @property
    def unused_d6(self) -> tuple[int, ...]:
        return self._d6[self._d6_pos :]

    @property
    def exhausted(self) -> bool:
        """True once every scripted result has been used (tests assert nothing was left over)."""
        return not self.unused_faces and not self.unused_d6

    def _next_face(self) -> Face:
        if self._face_pos >= len(self._faces):
            script = " ".join(f.symbol for f in self._faces) or "nothing"
            raise DiceScriptError.of("dice.script_faces", n=self._face_pos + 1, n2=len(self._faces), text=script)
        self._face_pos += 1
        return self._faces[self._face_pos - 1]

    def _next_d6(self) -> int:
        if self._d6_pos >= len(self._d6):
            raise DiceScriptError.of("dice.script_d6", n=self._d6_pos + 1, n2=len(self._d6), text=str(list(self._d6)))
        self._d6_pos += 1
        return self._d6[self._d6_pos - 1]

    def __repr__(self) -> str:
        faces = " ".join(f.symbol for f in self._faces)
        return f"ScriptedDice(faces={faces!r}, d6={list(self._d6)!r})"


class StatedDice(HashDice):
    """A lesson's dice: the stated results first, then the seed's, by position.

    Result n is ``stated[n]`` when the engine asks for that kind of die there (a face for a
    Challenge die, an int for a D6), else the seed's result n, so a stored lesson resumes with
    ``StatedDice(stated, seed, offset=state.dice_drawn)`` exactly as a match resumes its
    ``HashDice``. A learner who does something else than the lesson planned still gets fair
    dice where the plan has none of his kind.
    """

    def __init__(self, stated: Sequence[Face | int], seed: str | bytes, offset: int = 0) -> None:
        super().__init__(seed, offset)
        self.stated = tuple(stated)

    def _stated(self, kind: type) -> Face | int | None:
        n = self.position
        if n < len(self.stated) and isinstance(self.stated[n], kind) and not isinstance(self.stated[n], bool):
            self.position += 1
            return self.stated[n]
        return None

    def _next_face(self) -> Face:
        value = self._stated(Face)
        return value if isinstance(value, Face) else super()._next_face()

    def _next_d6(self) -> int:
        value = self._stated(int)
        return value if isinstance(value, int) else super()._next_d6()

    def __repr__(self) -> str:
        return f"StatedDice({len(self.stated)} stated, <seed>, offset={self.position})"


class ReplayDice(DiceSource):
    """Replays a record exactly; raises if the engine asks for a different kind than recorded."""

    def __init__(self, record: Iterable[Sequence[object]]) -> None:
        super().__init__()
        self._script = record_from_json(record)
        self._pos = 0

    @property
    def exhausted(self) -> bool:
        return self._pos >= len(self._script)

    def _next(self, kind: DieKind) -> Face | int:
        if self._pos >= len(self._script):
            raise DiceScriptError.of("dice.replay_ran_out", text=_KIND_NAMES[kind], n=self._pos + 1, n2=len(self._script))
        recorded_kind, value = self._script[self._pos]
        if recorded_kind != kind:
            shown = value.symbol if isinstance(value, Face) else value
            raise DiceScriptError.of("dice.replay_diverged", n=self._pos + 1, text=_KIND_NAMES[kind],
                                     text2=_KIND_NAMES[recorded_kind], text3=str(shown))
        self._pos += 1
        return value

    def _next_face(self) -> Face:
        value = self._next("face")
        assert isinstance(value, Face)
        return value

    def _next_d6(self) -> int:
        value = self._next("d6")
        assert isinstance(value, int)
        return value


def _check_d6(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise MalformedInputError.of("dice.d6_result", text=repr(value))
    return value


def record_to_json(record: Iterable[RecordEntry]) -> list[list[str | int]]:
    """``[("face", Face.FLOP), ("d6", 5)]`` -> ``[["face", "X"], ["d6", 5]]``."""
    return [
        [kind, value.symbol if isinstance(value, Face) else value] for kind, value in record
    ]


def record_from_json(data: Iterable[Sequence[object]]) -> list[RecordEntry]:
    """The inverse of ``record_to_json``; also accepts records that already hold ``Face`` values."""
    entries: list[RecordEntry] = []
    for i, item in enumerate(data):
        if isinstance(item, (str, bytes)) or len(item) != 2:
            raise MalformedInputError.of("record.dice_pair", n=i + 1, text=repr(item))
        kind, value = item
        if kind == "face":
            if isinstance(value, Face):
                entries.append(("face", value))
            elif isinstance(value, str):
                entries.append(("face", Face.parse(value)))
            else:
                raise MalformedInputError.of("record.dice_face", n=i + 1, text=repr(item))
        elif kind == "d6":
            entries.append(("d6", _check_d6(value)))
        else:
            raise MalformedInputError.of("record.dice_kind", n=i + 1, text=repr(kind))
    return entries
