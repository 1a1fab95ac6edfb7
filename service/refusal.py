"""A refusal of the service that the caller words: a catalogue key and its values.

The service decides *that* something is refused (no pending challenge for you, this panel is
stale); the bot says it in the member's language from its catalogue (``bot/locales``), keyed
the same way. ``str(error)`` is the key, for logs.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Refused"]


class Refused(ValueError):
    """Refused with nothing changed: ``key`` of the caller's catalogue and its ``values``."""

    def __init__(self, key: str, /, **values: Any) -> None:
        self.key, self.values = key, values
        super().__init__(key)
