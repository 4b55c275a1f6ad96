"""The MCP server's two transports: streamable HTTP at /mcp inside the API, and stdio.

HTTP: the SDK's route is added to the FastAPI app, so the request id, security headers, access log, metrics,
body limits, API key and rate limit of the rest of the service apply to it (`api.guard` guards /mcp as it
guards /v1/*, with the key as a bearer token). Its session manager runs in the app's lifespan. It is stateless
and answers in JSON: no session lives in one worker's memory, so any worker or replica can serve any request.
The SDK's DNS-rebinding protection checks Host and Origin against ASSISTANT_MCP_ALLOWED_HOSTS and
ASSISTANT_MCP_ALLOWED_ORIGINS (loopback always, plus ASSISTANT_PUBLIC_URL's host and origin).

stdio (`python -m assistant mcp`): one local client, no key; the model loads in the background once the SDK
has taken stdout for the protocol, so a library printing while it loads cannot corrupt the stream.
"""

from __future__ import annotations

import logging.config
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit

import anyio
from fastapi import FastAPI
from mcp.server import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from starlette.routing import BaseRoute
from starlette.types import Receive, Scope, Send

from api.guard import MCP_PATH
from api.logs import log_config
from api.mcp_server import build_server
from api.runtime import Runtime, split_list
from api.storage import Store
from assistant.config import Settings, get_settings

_LOOPBACK = ("127.0.0.1", "localhost", "[::1]")


def transport_security(settings: Settings) -> TransportSecuritySettings:
    """Host and Origin values a request to /mcp may carry; `*` among the hosts turns the check off."""
    hosts, origins = split_list(settings.mcp_allowed_hosts), split_list(settings.mcp_allowed_origins)
    if "*" in hosts:
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    if settings.public_url:
        public = urlsplit(settings.public_url)
        hosts.append(public.netloc)
        origins.append(f"{public.scheme}://{public.netloc}")
    for host in _LOOPBACK:
        hosts += [host, f"{host}:*"]
        origins += [f"http://{host}", f"http://{host}:*"]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins
    )


class _Named:
    """Names its route in the scope, as FastAPI does for its own routes only, so that the access log and the
    metrics label requests `/mcp` rather than `unmatched`."""

    def __init__(self, route: BaseRoute) -> None:
        self.route = route

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        scope["route"] = self.route
        await self.route.handle(scope, receive, send)


def add_http(app: FastAPI, settings: Settings, runtime: Runtime) -> MCPServer[Any]:
    """Adds POST/GET/DELETE /mcp to the app; the caller runs `server.session_manager.run()` in its lifespan."""
    server = build_server(settings, runtime)
    sdk_app = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        stateless_http=True,
        json_response=True,
        transport_security=transport_security(settings),
        max_request_body_size=settings.max_body_bytes,
    )
    (route,) = sdk_app.routes  # the route only: its lifespan is the app's
    app.add_route(MCP_PATH, _Named(route), include_in_schema=False)
    return server


def serve_stdio(settings: Settings | None = None) -> None:
    """`python -m assistant mcp`: serve one client on stdin and stdout until it closes them."""
    settings = settings or get_settings()
    logging.config.dictConfig(log_config())  # JSON lines on stderr; stdout is the protocol's
    runtime = Runtime(settings, Store.from_settings(settings))

    @asynccontextmanager
    async def loading(_server: MCPServer[Any]) -> AsyncIterator[None]:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(runtime.load)
            yield
            tasks.cancel_scope.cancel()

    try:
        build_server(settings, runtime, lifespan=loading).run("stdio")
    finally:
        runtime.store.close()
