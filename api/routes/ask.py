"""POST /v1/ask (contract §2) and its streamed twin POST /v1/ask/stream."""

from __future__ import annotations

from collections.abc import AsyncIterator

from fastapi import APIRouter
from fastapi.sse import EventSourceResponse, ServerSentEvent

from api.deps import AnswerDep
from api.events import answer_events
from assistant.models import Answer

router = APIRouter(prefix="/v1", tags=["ask"])


@router.post("/ask", response_model=Answer)
async def ask(answer: AnswerDep) -> Answer:
    """A cited answer in the question's language, or a refusal when the guide does not cover the question."""
    return answer


@router.post("/ask/stream", response_class=EventSourceResponse)
async def ask_stream(answer: AnswerDep) -> AsyncIterator[ServerSentEvent]:
    """The same answer as Server-Sent Events: `sentence` events, then `citations`, `providers` and `done`.

    The answer is composed before the response starts, so bad input and failures still get their status
    code; the stream stops when the client disconnects.
    """
    for event in answer_events(answer):
        yield event
