"""uvicorn's h11 protocol with a deadline for a request's headers.

uvicorn closes a connection that stays idle after a response (`timeout_keep_alive`), but not one that sends
the first bytes of a request and then nothing, or trickles its headers: such connections stayed open for
ever, each one a slot of `limit_concurrency`. h11 rather than httptools because uvicorn bounds the size of
the headers only with h11 (`h11_max_incomplete_event_size`).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from assistant.config import get_settings


class HeaderDeadlineH11Protocol(H11Protocol):
    """From the moment a connection opens, or a response on it ends, the next request's headers must be in
    within ASSISTANT_HEADER_TIMEOUT_SECONDS, or the connection is closed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._headers_timeout = get_settings().header_timeout_seconds
        self._headers_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_headers()

    def data_received(self, data: bytes) -> None:
        cycle = self.cycle
        super().data_received(data)
        if self.cycle is not cycle:  # the headers are in: a new request has begun
            self._stop_waiting()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self._between_requests():
            self._await_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        super().connection_lost(exc)

    def _between_requests(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def _await_headers(self) -> None:
        self._stop_waiting()
        self._headers_deadline = self.loop.call_later(self._headers_timeout, self._headers_too_slow)

    def _stop_waiting(self) -> None:
        if self._headers_deadline is not None:
            self._headers_deadline.cancel()
            self._headers_deadline = None

    def _headers_too_slow(self) -> None:
        self._headers_deadline = None
        if self._between_requests() and not self.transport.is_closing():
            self.transport.close()
