"""The size limit of a request body: 413, the same JSON error whether the body declares its length or not.

Starlette's own limiter, behind FastAPI's `max_body_size`, answers a body whose Content-Length is too large
in plain text from outside the app's middleware (no request id, no CORS headers, and an ERROR in the log),
and only a chunked one through the app's error handlers.
"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.errors import error_response


class BodyLimits:
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    def _too_large(self) -> str:
        return f"the request body is larger than {self.max_bytes:,} bytes"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:  # refused before a byte of it is read
            await error_response(413, self._too_large())(scope, receive, send)
            return
        received = 0

        async def limited_receive() -> Message:
            """Raises HTTPException, which the app's handlers turn into the JSON error like any other."""
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise HTTPException(413, self._too_large())
            return message

        await self.app(scope, limited_receive, send)
