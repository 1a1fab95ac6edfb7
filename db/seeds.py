"""The dice seed at rest: sealed with a key the database does not hold, until the match ends.

While a match is played its seed predicts every die, so ``matches.dice_seed`` holds it sealed:
``sealed1:<nonce>:<ciphertext>`` (URL-safe base64), the seed XORed with a keystream of
HMAC-SHA256(key, nonce || block number). Anyone who reads the database, or a backup of it,
learns nothing of a live match's dice. When the match ends the seed is revealed anyway (its
commitment is checked against it), so it is stored in clear from then on: a commissioner checks
a copy of the database with ``elfball verify`` without the key.

The key is ``ELFBALL_SECRET`` (any text; give the bot the same one after every restart). Without
it, a SQLite database keeps a generated key in a file beside itself, ``<database>.secret``
(readable by its owner only): a copy of the database alone does not carry it. An in-memory
database has a key for the life of the process. PostgreSQL deployments must set
``ELFBALL_SECRET``: the server has no file of ours to keep it beside.

A seal opened with the wrong key would give other dice, so ``open_seed`` checks the result
against the match's public commitment (SHA-256 of the seed) and refuses a mismatch.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from pathlib import Path
from typing import Any

from engine import commitment_of

from .errors import UnusableDatabaseError

__all__ = ["SECRET_ENV", "PREFIX", "seal", "open_seed", "is_sealed", "key_for", "draw_committed"]

SECRET_ENV = "ELFBALL_SECRET"
PREFIX = "sealed1:"
NONCE_BYTES = 12
#: The key of in-memory databases, for as long as the process (and they) live.
_PROCESS_KEY = secrets.token_bytes(32)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _keystream(key: bytes, nonce: bytes, length: int) -> bytes:
    blocks = (hmac.new(key, nonce + i.to_bytes(4, "big"), hashlib.sha256).digest() for i in range((length + 31) // 32))
    return b"".join(blocks)[:length]


def is_sealed(stored: str) -> bool:
    return stored.startswith(PREFIX)


def seal(seed: str, key: bytes) -> str:
    """``seed`` sealed with ``key`` (a fresh nonce each time)."""
    nonce = secrets.token_bytes(NONCE_BYTES)
    plain = seed.encode("utf-8")
    cipher = bytes(a ^ b for a, b in zip(plain, _keystream(key, nonce, len(plain))))
    return f"{PREFIX}{_b64(nonce)}:{_b64(cipher)}"


def open_seed(stored: str, key: bytes | None, commitment: str, *, match_id: Any = None) -> str:
    """The seed in ``stored`` (sealed, or in clear: revealed, or stored before sealing existed),
    checked against ``commitment``; ``UnusableDatabaseError`` if this key did not seal it."""
    if not is_sealed(stored):
        return stored
    if key is None:
        raise UnusableDatabaseError("dice_seed_match_sealed_set",
                                    match=match_id)
    try:
        nonce_text, cipher_text = stored[len(PREFIX):].split(":")
        nonce, cipher = _unb64(nonce_text), _unb64(cipher_text)
        seed = bytes(a ^ b for a, b in zip(cipher, _keystream(key, nonce, len(cipher)))).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        seed = None
    if seed is None or commitment_of(seed) != commitment:
        raise UnusableDatabaseError("dice_seed_match_was_sealed", match=match_id)
    return seed


def draw_committed(bind: Any) -> tuple[str, str]:
    """A fresh dice secret for the database ``bind``: (sealed, its public commitment)."""
    secret = secrets.token_hex(32)
    return seal(secret, key_for(bind)), commitment_of(secret)


def key_for(bind: Any, environ: Any = None) -> bytes:
    """The sealing key for the database ``bind`` (an engine or a connection): ``ELFBALL_SECRET``,
    else the key file beside a SQLite database (made on first use), else the process's key for
    an in-memory one. PostgreSQL without ``ELFBALL_SECRET`` is refused."""
    env = os.environ if environ is None else environ
    secret = (env.get(SECRET_ENV) or "").strip()
    if secret:
        return hashlib.sha256(secret.encode("utf-8")).digest()
    url = bind.engine.url if hasattr(bind, "engine") else bind.url
    if url.get_backend_name() != "sqlite":
        raise UnusableDatabaseError("set_elfball_secret_any_long", backend=url.get_backend_name())
    database = (url.database or "").removeprefix("file:")
    if database in ("", ":memory:"):
        return _PROCESS_KEY
    path = Path(f"{database}.secret")
    if not path.exists():
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="ascii") as f:
                f.write(secrets.token_hex(32) + "\n")
        except FileExistsError:
            pass  # another process made it first: read theirs
        except OSError as exc:
            raise UnusableDatabaseError("cannot_keep_dice_key_beside", path=str(path), reason=exc.strerror or str(exc)) from None
    try:
        return hashlib.sha256(path.read_text(encoding="ascii").strip().encode("ascii")).digest()
    except (OSError, UnicodeDecodeError) as exc:
        raise UnusableDatabaseError("cannot_read_dice_key", path=str(path),
                                    reason=getattr(exc, "strerror", None) or str(exc)) from None
