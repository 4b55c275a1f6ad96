"""Per request: an id (in the logs and the X-Request-ID header), the security headers, an access log line,
metrics, and a JSON 500.

Written as plain ASGI rather than with BaseHTTPMiddleware so streamed responses pass through unbuffered.
"""

from __future__ import annotations

import logging
import re
import time
import uuid

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api import metrics
from api.errors import error_style, internal_error, style_for
from api.logs import request_id
from api.policies import DEFAULT_HEADERS

logger = logging.getLogger("api.access")

_CLIENT_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")  # an id a proxy set is kept when it cannot inject anything
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def _route(scope: Scope) -> str:
    """The route's template, never the raw path, so metric labels stay few whatever clients send."""
    return getattr(scope.get("route"), "path", "unmatched")


class RequestContext:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        incoming = Headers(scope=scope).get("x-request-id", "")
        rid = incoming if _CLIENT_ID.fullmatch(incoming) else uuid.uuid4().hex
        token = request_id.set(rid)
        style = error_style.set(style_for(scope["path"]))
        started = time.perf_counter()
        status = 500
        response_started = False

        async def send_with_id(message: Message) -> None:
            nonlocal status, response_started
            if message["type"] == "http.response.start":
                response_started, status = True, message["status"]
                headers = MutableHeaders(scope=message)
                headers["X-Request-ID"] = rid
                for name, value in DEFAULT_HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        except Exception:
            logger.exception("unhandled error")
            if response_started:
                raise
            await internal_error()(scope, receive, send_with_id)
        finally:
            seconds = time.perf_counter() - started
            method = scope["method"] if scope["method"] in _METHODS else "other"
            route = _route(scope)
            metrics.observe_request(method, route, status, seconds)
            fields = {"method": method, "path": scope["path"], "route": route, "status": status}
            logger.info("request", extra={"fields": fields | {"duration_ms": round(seconds * 1000, 2)}})
            request_id.reset(token)
            error_style.reset(style)
