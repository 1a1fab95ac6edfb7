"""The dice seed at rest: sealed with a key the database does not hold, until the match ends.

While a match is played its seed predicts every die, so ``matches.dice_seed`` holds it sealed:
``sealed1:<nonce>:<ciphertext>`` (URL-safe base64), the seed XORed with a keystream of
HMAC-SHA256(key, nonce || block number). Anyone who reads the database, or a backup of it,
learns nothing of a live match's dice. When the match ends the seed is revealed anyway (its
commitment is checked against it), so it is stored in clear from then on: a commissioner checks
a copy of the database with ``elfball verify`` without the key.

**The key.** ``ELFBALL_SECRET`` when it is set (give the bot the same one after every restart);
else, for a SQLite database, a generated key in a file beside it, ``<database>.secret`` (readable
by its owner only): a copy of the database alone does not carry it. An in-memory database has a
key for the life of the process. PostgreSQL deployments must set ``ELFBALL_SECRET``: the server
has no file of ours to keep it beside.

**How strong.** A sealed seed and its public commitment let whoever holds the database test
guesses of the key offline, as fast as SHA-256 runs, so the key must carry at least 128 bits.
Nothing can measure the randomness of a given text, only its form, so ``ELFBALL_SECRET`` is
accepted only in the forms random generators print at that strength (``strong_secret``): at
least 32 hex digits (``secrets.token_hex(16)`` or more; ``elfball key new`` prints 64), or a
base64 / URL-safe base64 token of at least 22 characters, i.e. at least 16 bytes
(``secrets.token_urlsafe(16)``, ``openssl rand -base64 32``), with a spread of characters no
word or repetition has (hex: 8 different digits; base64: 10 different characters, upper and
lower case both). Anything else is refused when the bot or the console opens the database
(``check_key``), with how to make a good one. We refuse rather than stretch a passphrase with a
KDF (scrypt): stretching multiplies the cost of each guess by a constant, it does not make a
guessable passphrase unguessable, and it would need a stored salt and parameters kept forever.
An accepted secret is derived exactly as before (its SHA-256), so a deployment whose secret was
already strong keeps opening the seeds it sealed.

**The key file** is made atomically: the key is written to a temporary file in the same folder,
flushed to disk (fsync), then hard-linked to ``<database>.secret``, which therefore appears
complete or not at all; of two processes making it at once, the link of the second fails and it
reads the first one's key. A key file that is empty, short or not a key (a crash of an older
release, a careless edit) is never used: after a brief wait (a writer of an older release may be
finishing it) it is refused with its path and what to do (``dice_key_file_*``).

A seal opened with the wrong key would give other dice, so ``open_seed`` checks the result
against the match's public commitment (SHA-256 of the seed) and refuses a mismatch
(``db.errors.SealUnopenedError``). With the key lost, a live match can still be abandoned: its seal stays
closed and the match is marked "dice unverifiable" (``db.matches.abandon``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import secrets
import tempfile
import time
from pathlib import Path
from typing import Any

from engine import commitment_of

from .errors import SealUnopenedError, UnusableDatabaseError

__all__ = ["SECRET_ENV", "PREFIX", "MIN_KEY_BYTES", "seal", "open_seed", "is_sealed",
           "key_for", "check_key", "strong_secret", "new_secret", "draw_committed"]

SECRET_ENV = "ELFBALL_SECRET"
PREFIX = "sealed1:"
NONCE_BYTES = 12
#: The least a key must carry: 128 bits.
MIN_KEY_BYTES = 16
#: How long a reader waits for a key file that is empty or short to be completed (by a writer of
#: an older release, which wrote it in place) before refusing it, and how often it looks again.
KEY_FILE_WAIT = 1.0
KEY_FILE_POLL = 0.05
#: The key of in-memory databases, for as long as the process (and they) live.
_PROCESS_KEY = secrets.token_bytes(32)

_HEX = re.compile(r"[0-9a-fA-F]+")
_BASE64 = re.compile(r"[A-Za-z0-9+/_-]+={0,2}")


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
    checked against ``commitment``; ``SealUnopenedError`` if this key did not seal it."""
    if not is_sealed(stored):
        return stored
    if key is None:
        raise SealUnopenedError("dice_seed_match_sealed_set", match=match_id)
    try:
        nonce_text, cipher_text = stored[len(PREFIX):].split(":")
        nonce, cipher = _unb64(nonce_text), _unb64(cipher_text)
        seed = bytes(a ^ b for a, b in zip(cipher, _keystream(key, nonce, len(cipher)))).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        seed = None
    if seed is None or commitment_of(seed) != commitment:
        raise SealUnopenedError("dice_seed_match_was_sealed", match=match_id)
    return seed


def draw_committed(bind: Any) -> tuple[str, str]:
    """A fresh dice secret for the database ``bind``: (sealed, its public commitment)."""
    secret = secrets.token_hex(32)
    return seal(secret, key_for(bind)), commitment_of(secret)


# --- the key -------------------------------------------------------------------------------------
def strong_secret(text: str) -> bool:
    """Whether ``text`` (stripped) has a form that carries at least 128 bits: 32 hex digits or
    more, or a base64 token of 22 characters or more (16 bytes), spread as random ones are (see
    the module's text: a random token fails this about once in 50,000 at the shortest length,
    never at ``new_secret``'s)."""
    text = text.strip()
    if _HEX.fullmatch(text):
        return len(text) >= 2 * MIN_KEY_BYTES and len(set(text.lower())) >= 8
    if not _BASE64.fullmatch(text):
        return False
    body = text.rstrip("=")
    return (len(body) * 6 >= 8 * MIN_KEY_BYTES and len(set(body)) >= 10
            and any(c.isupper() for c in body) and any(c.islower() for c in body))


def new_secret() -> str:
    """A fresh key to give as ``ELFBALL_SECRET`` (256 bits, 64 hex digits)."""
    return secrets.token_hex(32)


def _derive(text: str) -> bytes:
    """The key from its text: one SHA-256, as every release did (a strong text needs no stretching)."""
    return hashlib.sha256(text.encode("utf-8")).digest()


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # a platform without folder handles: the link is as durable as it gets there
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _make_key_file(path: Path) -> None:
    """Write a new key to ``path`` if none is there: complete or not at all (temporary file,
    fsync, hard link). Another process's key, made first, is kept."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)  # mode 0600
    except OSError as exc:
        raise UnusableDatabaseError("cannot_keep_dice_key_beside", path=str(path), reason=exc.strerror or str(exc)) from None
    try:
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(new_secret() + "\n")
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(tmp, path)  # fails if the file exists: never replaces a key
        except FileExistsError:
            return  # another process made it first: read theirs
        _fsync_folder(path.parent)
    except OSError as exc:
        raise UnusableDatabaseError("cannot_keep_dice_key_beside", path=str(path), reason=exc.strerror or str(exc)) from None
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def _read_key_file(path: Path) -> str | None:
    """The key in ``path``, stripped ("" if empty or not a key yet); None if there is no file."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise UnusableDatabaseError("cannot_read_dice_key", path=str(path), reason=exc.strerror or str(exc)) from None
    try:
        return raw.decode("ascii").strip()
    except UnicodeDecodeError:
        return "\x00"  # not a key: refused below


def _key_file_key(path: Path) -> bytes:
    """The key kept in ``path``, made first if there is none; an empty or malformed file refused."""
    deadline = time.monotonic() + KEY_FILE_WAIT
    while True:
        text = _read_key_file(path)
        if text is None:
            if time.monotonic() >= deadline + KEY_FILE_WAIT:  # made, and gone again at once: say so
                raise UnusableDatabaseError("cannot_read_dice_key", path=str(path), reason="it keeps disappearing")
            _make_key_file(path)
            continue
        if strong_secret(text):
            return _derive(text)
        if time.monotonic() >= deadline:
            if not text:
                raise UnusableDatabaseError("dice_key_file_empty", path=str(path))
            raise UnusableDatabaseError("dice_key_file_malformed", path=str(path))
        time.sleep(KEY_FILE_POLL)  # an older release may be writing it in place: wait for it


def key_for(bind: Any, environ: Any = None) -> bytes:
    """The sealing key for the database ``bind`` (an engine or a connection): ``ELFBALL_SECRET``
    (refused unless ``strong_secret``), else the key file beside a SQLite database (made on first
    use), else the process's key for an in-memory one. PostgreSQL without ``ELFBALL_SECRET`` is
    refused."""
    env = os.environ if environ is None else environ
    secret = (env.get(SECRET_ENV) or "").strip()
    if secret:
        if not strong_secret(secret):
            raise UnusableDatabaseError("elfball_secret_weak", length=len(secret))
        return _derive(secret)
    url = bind.engine.url if hasattr(bind, "engine") else bind.url
    if url.get_backend_name() != "sqlite":
        raise UnusableDatabaseError("set_elfball_secret_any_long", backend=url.get_backend_name())
    database = (url.database or "").removeprefix("file:")
    if database in ("", ":memory:"):
        return _PROCESS_KEY
    return _key_file_key(Path(f"{database}.secret"))


def check_key(bind: Any, environ: Any = None) -> str:
    """At start: the key of the database ``bind`` can be had (made, for a new key file), else the
    refusal that says what to fix. Returns where it lives: ``ELFBALL_SECRET``, the key file's path,
    or ``memory``."""
    env = os.environ if environ is None else environ
    key_for(bind, env)
    if (env.get(SECRET_ENV) or "").strip():
        return SECRET_ENV
    url = bind.engine.url if hasattr(bind, "engine") else bind.url
    database = (url.database or "").removeprefix("file:")
    return "memory" if database in ("", ":memory:") else f"{database}.secret"
