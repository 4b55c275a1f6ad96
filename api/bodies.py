"""Limits on a request body: its size (413) and the time it may take to arrive (408).

One middleware for both framings, so a body declared too large by Content-Length and one that grows too large
in chunks get the same JSON error through the same headers. (Starlette's own limiter, behind FastAPI's
`max_body_size`, answers the declared case in plain text from outside the app's middleware.) uvicorn has no
deadline for a body: without one, a client that sends part of a body holds its connection for ever.
"""

from __future__ import annotations

import anyio
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.errors import error_response


class BodyLimits:
    def __init__(self, app: ASGIApp, max_bytes: int, timeout_seconds: float) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.timeout_seconds = timeout_seconds

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
        complete = False
        deadline: float | None = None  # set when the app first asks for the body

        async def limited_receive() -> Message:
            """Raises HTTPException, which the app's handlers turn into the JSON error like any other."""
            nonlocal received, complete, deadline
            if complete:  # past the body, receive() waits for a disconnect: no deadline for that
                return await receive()
            deadline = deadline or anyio.current_time() + self.timeout_seconds
            with anyio.move_on_after(deadline - anyio.current_time()) as waiting:
                message = await receive()
            if waiting.cancelled_caught:
                raise HTTPException(408, f"the request body did not arrive within {self.timeout_seconds:g} s")
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                complete = not message.get("more_body", False)
                if received > self.max_bytes:
                    raise HTTPException(413, self._too_large())
            return message

        await self.app(scope, limited_receive, send)
