"""The API key and the rate limit of /v1/* and /mcp, checked before anything reads or parses the request body.

A key comes in the X-API-Key header or, as OpenAI's and MCP's clients send it, as `Authorization: Bearer KEY`.

Plain ASGI middleware rather than a route dependency: FastAPI reads and parses a route's body before it
solves the route's dependencies, so as a dependency the guard let clients without a key make the server parse
JSON without limit (400 for each malformed body, never 401 or 429).
"""

from __future__ import annotations

import hashlib
import hmac

from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from api.errors import error_response
from api.runtime import Runtime

V1_PREFIX = "/v1/"
MCP_PATH = "/mcp"
_BEARER = "bearer "


def guarded(path: str) -> bool:
    return path.startswith(V1_PREFIX) or path == MCP_PATH or path.startswith(MCP_PATH + "/")


def presented_key(headers: Headers) -> str | None:
    """The key a request presents: its X-API-Key header, else its bearer token."""
    key = headers.get("x-api-key")
    if key is not None:
        return key
    authorization = headers.get("authorization", "")
    return authorization[len(_BEARER) :].strip() if authorization.lower().startswith(_BEARER) else None


def _valid_key(key: str | None, keys: frozenset[str]) -> bool:
    # Compared in constant time against every key, so timing tells nothing about how close a guess came.
    return key is not None and any([hmac.compare_digest(key.encode(), valid.encode()) for valid in keys])


def _refusal(runtime: Runtime, key: str | None, address: str) -> Response | None:
    """429 over the rate limit, else 401 without a valid key, else None. A client is its key when valid,
    else its address, so failed key guesses count against the address that makes them."""
    valid = _valid_key(key, runtime.api_keys)
    if runtime.limiter:
        client = f"key:{hashlib.sha256(key.encode()).hexdigest()[:16]}" if valid and key else f"ip:{address}"
        retry_after = runtime.limiter.hit(client)
        if retry_after is not None:
            return error_response(
                429,
                f"rate limit of {runtime.limiter.per_minute} requests per minute exceeded; retry in {retry_after} s",
                headers={"Retry-After": str(retry_after)},
            )
    if runtime.api_keys and not valid:
        reason = (
            "an API key is required: send it in the X-API-Key header or as Authorization: Bearer KEY"
            if key is None
            else "the API key is not valid"
        )
        return error_response(401, reason, headers={"WWW-Authenticate": "Bearer"})
    return None


class V1Guard:
    def __init__(self, app: ASGIApp, runtime: Runtime) -> None:
        self.app = app
        self.runtime = runtime

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and guarded(scope["path"]):
            client = scope.get("client")
            address = client[0] if client else "unknown"
            response = _refusal(self.runtime, presented_key(Headers(scope=scope)), address)
            if response is not None:
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
