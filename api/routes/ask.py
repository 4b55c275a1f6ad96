"""POST /v1/ask (contract §2) and its streamed twin POST /v1/ask/stream."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response, StreamingResponse
from fastapi.sse import EventSourceResponse

from api.deps import AnswerDep
from api.events import answer_events
from assistant.models import Answer

router = APIRouter(prefix="/v1", tags=["ask"])
# No caching, and no buffering in a proxy (nginx reads X-Accel-Buffering), so each event goes out at once.
_STREAM_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
# Each event of the stream, as OpenAPI 3.2 describes Server-Sent Events (api/README.md has their data).
_EVENT = {
    "type": "object",
    "required": ["event", "data"],
    "properties": {
        "event": {"enum": ["sentence", "citations", "providers", "done"]},
        "data": {"type": "string", "contentMediaType": "application/json"},
    },
}
_STREAM_DOCUMENTED: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/event-stream": {"itemSchema": _EVENT}}}
}


@router.post("/ask", response_model=Answer)
async def ask(answer: AnswerDep) -> Response:
    """A cited answer in the question's language, or a refusal when the guide does not cover the question."""
    # The answer is built and validated by the assistant: serialised once, by pydantic's own encoder, instead
    # of validated again against `response_model` and re-encoded (about 0.8 ms of a request on this machine).
    return Response(answer.model_dump_json(), media_type="application/json")


@router.post("/ask/stream", response_class=StreamingResponse, responses=_STREAM_DOCUMENTED)
async def ask_stream(answer: AnswerDep) -> EventSourceResponse:
    """The same answer as Server-Sent Events: `sentence` events, then `citations`, `providers` and `done`.

    The answer is composed before the response starts, so bad input and failures still get their status
    code; the stream stops when the client disconnects.
    """
    # The events are ready at once, so a plain stream of them. FastAPI's streaming of a generator (its
    # `response_class=EventSourceResponse`) adds a producer task and a keep-alive timer, and a client that left
    # mid-stream made them log two ERROR tracebacks.
    return EventSourceResponse(answer_events(answer), headers=_STREAM_HEADERS)
