"""The application factory: one FastAPI app per process, its routers, middleware and error handlers.

A new area of the service is a module in `api/routes/` with a `router`, listed in `_PUBLIC_AREAS` (no API
key, no rate limit: pages, operations, callers with their own authentication such as Slack's signed
requests) or in `_V1_AREAS` (paths under /v1/, behind the API key and the rate limit, which `api.guard`
applies to every path under /v1/ and to /mcp before routing). `_OPENAI_AREAS` are under /v1/ too, but answer
errors in OpenAI's shape (api/errors.py) and document the bearer token their clients send.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware

from api import errors
from api.bodies import BodyLimits
from api.deps import API_KEY, BEARER
from api.docs import add_docs
from api.guard import V1Guard
from api.mcp_transport import add_http
from api.middleware import RequestContext
from api.routes import ask, feedback, health, openai_chat, pages, providers
from api.runtime import Loader, Runtime, load_assistant, split_list
from api.slack import router as slack
from api.storage import Store
from assistant.config import Settings, get_settings

_PUBLIC_AREAS = (pages, health, slack)
_V1_AREAS = (ask, providers, feedback)
_OPENAI_AREAS = (openai_chat,)
_V1_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"description": description, "content": errors.ERROR_JSON}
    for status, description in [
        (400, "The body is not JSON."),
        (401, "The X-API-Key header is missing or not valid."),
        (413, "The body is larger than ASSISTANT_MAX_BODY_BYTES."),
        (422, "The request breaks the schema; `detail` says where."),
        (429, "Over the rate limit; retry after `Retry-After` seconds."),
        (503, "The assistant is still loading."),
    ]
}


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    runtime: Runtime = app.state.runtime
    async with app.state.mcp.session_manager.run(), anyio.create_task_group() as tasks:
        tasks.start_soon(runtime.load)
        yield
        tasks.cancel_scope.cancel()
    runtime.store.close()


def create_app(settings: Settings | None = None, loader: Loader = load_assistant) -> FastAPI:
    """The app; the assistant loads in the background once the server starts (see /readyz)."""
    settings = settings or get_settings()
    app = FastAPI(
        title="GPU Kubernetes guide assistant",
        summary="Cited answers about cloud GPU providers with Kubernetes support, in English and Dutch.",
        version="1",
        lifespan=_lifespan,
        # Starlette's redirect to the path without its trailing slash is an absolute URL built from the Host
        # header: a client, or a poisoned cache in front, could send people to another host.
        redirect_slashes=False,
        docs_url=None,  # api.docs serves them, from local assets
        redoc_url=None,
        openapi_url="/openapi.json" if settings.docs else None,
    )
    runtime = app.state.runtime = Runtime(settings, Store.from_settings(settings), loader)
    errors.register(app)
    if settings.docs:
        add_docs(app)
    for area in _PUBLIC_AREAS:
        app.include_router(area.router)
    for area in _V1_AREAS:
        app.include_router(area.router, dependencies=[API_KEY], responses=_V1_ERRORS)
    for area in _OPENAI_AREAS:
        app.include_router(area.router, dependencies=[BEARER, API_KEY], responses=area.ERRORS)
    app.state.mcp = add_http(app, settings, runtime)

    # Innermost first: the key and the rate limit before the body's size is even looked at; every response,
    # these refusals included, leaves through RequestContext with its request id and headers.
    app.add_middleware(
        BodyLimits, max_bytes=settings.max_body_bytes, timeout_seconds=settings.body_timeout_seconds
    )
    app.add_middleware(V1Guard, runtime=runtime)
    app.add_middleware(RequestContext)
    # Outermost, so that errors, 401 and 429 carry CORS headers too and a page's script can read them.
    origins = split_list(settings.cors_origins)
    app.add_middleware(
        CORSMiddleware,
        allow_origins=origins,
        allow_methods=["GET", "POST"],
        allow_headers=["Content-Type", "X-API-Key", "X-Request-ID", "Authorization"],
        expose_headers=["X-Request-ID", "Retry-After"],
        max_age=600,
    )
    return app
