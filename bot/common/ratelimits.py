"""discord.py's rate-limit buckets, swept on a clock instead of on every new bucket.

``HTTPClient.get_ratelimit`` makes a bucket for each route and channel it has not used for five
minutes, and each time, once there are 256 of them, walks every bucket to drop the idle ones.
A play-by-post bot meets a new bucket on most actions (a channel acts every few minutes or
hours), and at 1,000 active channels there are thousands of buckets: the walk was ~0.7 ms of
the bot's ~15 ms per action in ``bench_load.py``'s profile (docs/benchmarks.md). Walking at
most once a minute keeps the same memory bound (idle buckets still go, a minute later at most)
for a walk per minute instead of one per action.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

__all__ = ["SWEEP_SECONDS", "pace_bucket_sweeps"]

#: The shortest time between two walks over discord.py's rate-limit buckets.
SWEEP_SECONDS = 60.0


def pace_bucket_sweeps(http: Any, every: float = SWEEP_SECONDS,
                       clock: Callable[[], float] = time.monotonic) -> None:
    """Make ``http`` (a ``discord.http.HTTPClient``) walk its buckets at most once ``every``
    seconds. Left alone if this discord.py has no such walk (a later version may sweep otherwise)."""
    sweep = getattr(http, "_try_clear_expired_ratelimits", None)
    if sweep is None:
        return
    last = [-every]

    def paced() -> None:
        now = clock()
        if now - last[0] >= every:
            last[0] = now
            sweep()

    http._try_clear_expired_ratelimits = paced
