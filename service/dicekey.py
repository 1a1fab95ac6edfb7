"""The dice key, for the operator's console (``elfball key``): a new one to give as
``ELFBALL_SECRET``, and the check the bot makes at start (``db.seeds``: how strong a key must
be, where it lives, why a broken key file is refused)."""

from __future__ import annotations

from db import seeds
from db.engine import make_engine

__all__ = ["SECRET_ENV", "new_secret", "check_key"]

SECRET_ENV = seeds.SECRET_ENV


def new_secret() -> str:
    """A fresh key of 256 bits (64 hex digits), for ``ELFBALL_SECRET``."""
    return seeds.new_secret()


def check_key(url: str | None = None) -> str:
    """Where the dice key of the database at ``url`` (None: the environment's) lives,
    ``SECRET_ENV``, the key file's path (made now if there was none) or ``memory``, once it is
    known to be usable; else the ``StoreError`` the bot would stop at."""
    engine = make_engine(url)
    try:
        return seeds.check_key(engine)
    finally:
        engine.dispose()
