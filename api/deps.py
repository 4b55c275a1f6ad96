"""Dependencies of the routes, as typed aliases: routes declare what they need, not how it is found."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException, Request, Security
from fastapi.concurrency import run_in_threadpool
from fastapi.security import APIKeyHeader, HTTPBearer

from api.answers import answer_and_log
from api.runtime import READY_WAIT_SECONDS, Runtime
from api.schemas import AskRequest
from api.storage import Store
from assistant.models import Answer
from assistant.service import Assistant

_RETRY_AFTER_LOADING = "5"

# Declares the X-API-Key header of /v1/* in the OpenAPI document; `api.guard` checks it, before the body is read.
API_KEY = Security(
    APIKeyHeader(
        name="X-API-Key",
        auto_error=False,
        description="Needed for /v1/* when the server has ASSISTANT_API_KEYS set.",
    )
)

# The same keys as a bearer token, as OpenAI's clients send them (api.guard accepts either on every guarded path).
BEARER = Security(
    HTTPBearer(auto_error=False, description="An ASSISTANT_API_KEYS key, when the server has keys set.")
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
