"""Dependencies of the routes, as typed aliases: routes declare what they need, not how it is found."""

from __future__ import annotations

import hashlib
import hmac
from typing import Annotated

from fastapi import Depends, HTTPException, Request, Security
from fastapi.concurrency import run_in_threadpool
from fastapi.security import APIKeyHeader

from api.answers import answer_and_log
from api.runtime import Runtime
from api.schemas import AskRequest
from api.storage import Store
from assistant.models import Answer
from assistant.service import Assistant

READY_WAIT_SECONDS = 30.0  # a request that arrives while the model loads waits rather than fails
_RETRY_AFTER_LOADING = "5"

_api_key_header = APIKeyHeader(
    name="X-API-Key",
    auto_error=False,
    description="Needed for /v1/* when the server has ASSISTANT_API_KEYS set.",
)


def get_runtime(request: Request) -> Runtime:
    return request.app.state.runtime


RuntimeDep = Annotated[Runtime, Depends(get_runtime)]


async def get_assistant(runtime: RuntimeDep) -> Assistant:
    assistant = await runtime.ready_assistant(READY_WAIT_SECONDS)
    if assistant is None:
        reason = "the assistant failed to load" if runtime.failed else "the assistant is still loading"
        raise HTTPException(503, reason, headers={"Retry-After": _RETRY_AFTER_LOADING})
    return assistant


def get_store(runtime: RuntimeDep) -> Store:
    return runtime.store


AssistantDep = Annotated[Assistant, Depends(get_assistant)]
StoreDep = Annotated[Store, Depends(get_store)]


async def answer_request(body: AskRequest, assistant: AssistantDep, store: StoreDep) -> Answer:
    """The answer to the request's question, composed and logged in a worker thread."""
    return await run_in_threadpool(
        answer_and_log, assistant, store, body.question, body.language, body.history
    )


AnswerDep = Annotated[Answer, Depends(answer_request)]


def _valid_key(key: str | None, keys: frozenset[str]) -> bool:
    # Compared in constant time against every key, so timing tells nothing about how close a guess came.
    return key is not None and any([hmac.compare_digest(key.encode(), valid.encode()) for valid in keys])


async def guard_v1(
    request: Request, runtime: RuntimeDep, key: Annotated[str | None, Security(_api_key_header)]
) -> None:
    """The rate limit, then the API key. A client is its key when valid, else its address, so failed
    key guesses count against the address that makes them."""
    valid = _valid_key(key, runtime.api_keys)
    if runtime.limiter:
        client = (
            f"key:{hashlib.sha256(key.encode()).hexdigest()[:16]}"
            if valid and key
            else f"ip:{_address(request)}"
        )
        retry_after = runtime.limiter.hit(client)
        if retry_after is not None:
            raise HTTPException(
                429,
                f"rate limit of {runtime.limiter.per_minute} requests per minute exceeded; retry in {retry_after} s",
                headers={"Retry-After": str(retry_after)},
            )
    if runtime.api_keys and not valid:
        detail = "an X-API-Key header is required" if key is None else "the X-API-Key is not valid"
        raise HTTPException(401, detail)


def _address(request: Request) -> str:
    return request.client.host if request.client else "unknown"
