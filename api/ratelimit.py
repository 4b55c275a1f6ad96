"""A per-client sliding-window rate limit, kept in this process's memory.

Each worker process and each replica counts on its own, so N of them let a client make up to N times the
limit; a shared limit needs a shared store (Redis, or the ingress in front of the service).
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable

_WINDOW_SECONDS = 60.0
_SWEEP_EVERY = 1024  # hits between sweeps that forget clients idle for a whole window


class RateLimiter:
    """Allows `per_minute` requests per client in any 60-second window."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self._clock = clock
        self._hits: dict[str, deque[float]] = {}
        self._since_sweep = 0

    def hit(self, client: str) -> int | None:
        """Count one request; None when it is allowed, else the whole seconds until the client may retry."""
        now = self._clock()
        self._sweep(now)
        hits = self._hits.setdefault(client, deque())
        while hits and hits[0] <= now - _WINDOW_SECONDS:
            hits.popleft()
        if len(hits) >= self.per_minute:
            return max(1, math.ceil(hits[0] + _WINDOW_SECONDS - now))
        hits.append(now)
        return None

    def _sweep(self, now: float) -> None:
        """Keeps memory bounded by the clients of the last minute, however many have come and gone."""
        self._since_sweep += 1
        if self._since_sweep < _SWEEP_EVERY:
            return
        self._since_sweep = 0
        idle = [
            client for client, hits in self._hits.items() if not hits or hits[-1] <= now - _WINDOW_SECONDS
        ]
        for client in idle:
            del self._hits[client]
