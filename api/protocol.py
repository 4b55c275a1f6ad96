"""uvicorn's httptools protocol with a deadline for a request's headers and a bound on their size.

uvicorn closes a connection that stays idle after a response (`timeout_keep_alive`), but not one that sends
the first bytes of a request and then nothing, or trickles its headers: such connections stayed open for
ever, each one a slot of `limit_concurrency`. uvicorn bounds the size of headers only with its h11 protocol,
which parses in Python; httptools parses in C and took about half a millisecond less per request on this
machine, so the bound is kept here: what a connection sends before its headers are complete may not exceed
ASSISTANT_MAX_HEADER_BYTES (as h11's `max_incomplete_event_size` bounds what it buffers of an incomplete
event), or it gets a 431 and is closed.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from assistant.config import get_settings

_TOO_LARGE = b"Request headers too large."


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    """From the moment a connection opens, or a response on it ends, the next request's headers must be in
    within ASSISTANT_HEADER_TIMEOUT_SECONDS and within ASSISTANT_MAX_HEADER_BYTES, or the connection is
    closed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        settings = get_settings()
        self._headers_timeout = settings.header_timeout_seconds
        self._max_header_bytes = settings.max_header_bytes
        self._headers_deadline: asyncio.TimerHandle | None = None
        self._unfinished_header_bytes = 0  # received since the last request's headers were complete

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_headers()

    def data_received(self, data: bytes) -> None:
        cycle = self.cycle
        waiting = self._between_requests()
        super().data_received(data)
        if self.cycle is not cycle:  # the headers are in: a new request has begun
            self._stop_waiting()
            self._unfinished_header_bytes = 0
        elif waiting and not self.transport.is_closing():
            self._unfinished_header_bytes += len(data)
            if self._unfinished_header_bytes > self._max_header_bytes:
                self._refuse_headers()

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
        self._unfinished_header_bytes = 0
        self._headers_deadline = self.loop.call_later(self._headers_timeout, self._headers_too_slow)

    def _stop_waiting(self) -> None:
        if self._headers_deadline is not None:
            self._headers_deadline.cancel()
            self._headers_deadline = None

    def _headers_too_slow(self) -> None:
        self._headers_deadline = None
        if self._between_requests() and not self.transport.is_closing():
            self.transport.close()

    def _refuse_headers(self) -> None:
        self._stop_waiting()
        self.transport.write(
            b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: text/plain; charset=utf-8\r\n"
            b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (len(_TOO_LARGE), _TOO_LARGE)
        )
        self.transport.close()
