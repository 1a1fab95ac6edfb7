"""How a match's dice seed is made: a committed secret, then the coaches' entropy.

The bot draws a secret and publishes its SHA-256 (the *commitment*) before any coach acts on
it: with the challenge, or with the league schedule. The coach who then accepts (or starts
the fixture) adds *entropy* the bot could not know when it committed: his interaction's
Discord id. The dice come from::

    seed = secret + "+" + entropy        commitment = sha256(secret)

The operator cannot pick dice (the secret is fixed, in public, before the entropy exists) and
the coach cannot either (he does not know the secret). At the end the whole seed is revealed;
anyone checks ``sha256(part before the first "+") == commitment`` and replays every die.

Seeds from before entropy existed have no ``+``: the commitment covers all of them, as it
always did. Nothing here draws randomness: the caller does (``secrets.token_hex``).
"""

from __future__ import annotations

import hashlib
import re

__all__ = ["SEPARATOR", "join_seed", "committed_part", "entropy_part", "commitment_of", "valid_entropy"]

SEPARATOR = "+"
#: Entropy is made of Discord ids and labels: letters, digits, dots and hyphens, at most 200.
_ENTROPY = re.compile(r"[A-Za-z0-9.\-]{1,200}")


def valid_entropy(entropy: str) -> bool:
    return bool(_ENTROPY.fullmatch(entropy))


def join_seed(secret: str, entropy: str | None) -> str:
    """The dice seed of ``secret`` once ``entropy`` is added (``secret`` alone without it)."""
    if SEPARATOR in secret:
        raise ValueError("a committed secret cannot contain the separator")
    if not entropy:
        return secret
    if not valid_entropy(entropy):
        raise ValueError(f"entropy must be letters, digits, '.' or '-', at most 200: {entropy!r}")
    return f"{secret}{SEPARATOR}{entropy}"


def committed_part(seed: str) -> str:
    """The part of ``seed`` its commitment covers: everything before the first ``+``."""
    return seed.split(SEPARATOR, 1)[0]


def entropy_part(seed: str) -> str:
    """The coaches' part of ``seed`` ("" for a seed from before entropy existed)."""
    return seed.split(SEPARATOR, 1)[1] if SEPARATOR in seed else ""


def commitment_of(seed: str) -> str:
    """The public SHA-256 (hex) a seed must match: of its committed part."""
    return hashlib.sha256(committed_part(seed).encode("utf-8")).hexdigest()
