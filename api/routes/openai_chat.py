"""POST /v1/chat/completions and GET /v1/models: the assistant behind OpenAI's chat-completions API (contract §6).

So that tools built for OpenAI (its client libraries, LangChain, chat front ends) can ask the guide unchanged.
The last user message is the question and the user and assistant messages before it are the history, as
/v1/ask takes them; the answer is the content, with its [n] markers, and `message.guide` carries the rest of
the /v1/ask object. Parameters that tune sampling are accepted and ignored; those asking for what a quoted
answer cannot give are refused with 400. Errors are OpenAI's shape (api/errors.py).
"""

from __future__ import annotations

import json
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.sse import EventSourceResponse, format_sse_event
from pydantic import ValidationError

from api.answers import answer_and_log
from api.deps import RuntimeDep, get_assistant
from api.errors import ParamError
from api.events import sentences
from api.openai_schemas import (
    MODEL_ID,
    AssistantMessage,
    ChatCompletion,
    ChatCompletionChunk,
    ChatCompletionRequest,
    ChatMessage,
    Choice,
    ChunkChoice,
    Delta,
    GuideExtra,
    ModelCard,
    ModelList,
    OpenAIError,
)
from api.schemas import MAX_HISTORY_TURNS, MAX_TURN_CHARS, NOT_TEXT, AskRequest
from assistant.models import Answer

router = APIRouter(prefix="/v1", tags=["openai"])

_CREATED = int(time.time())  # when this process began serving the model
_STREAM_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
_SOURCES_HEADING = {"en": "Sources:", "nl": "Bronnen:"}
_IGNORED_ROLES = frozenset({"system", "developer"})
_CHUNK = {
    "type": "object",
    "required": ["data"],
    "properties": {"data": {"type": "string", "description": "a chat.completion.chunk as JSON, or [DONE]"}},
}
ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": OpenAIError, "description": description}
    for status, description in [
        (400, "Malformed JSON, or a parameter asking for what a quoted answer cannot give."),
        (401, "No valid API key (Authorization: Bearer KEY, or X-API-Key)."),
        (404, "No model of this id."),
        (413, "The body is larger than ASSISTANT_MAX_BODY_BYTES."),
        (422, "The body breaks the schema; `param` names the first fault."),
        (429, "Over the rate limit; retry after `Retry-After` seconds."),
        (503, "The assistant is still loading."),
    ]
}


def _refuse_unsupported(body: ChatCompletionRequest) -> None:
    """404 for a model other than the one; 400 for a parameter asking for more than one plain-text answer."""
    if body.model != MODEL_ID:
        raise ParamError(
            404,
            f"the model '{body.model}' does not exist; this service has one model, '{MODEL_ID}'",
            param="model",
            code="model_not_found",
        )
    unsupported = [
        ("n", body.n not in (None, 1), "n must be 1: there is one answer"),
        ("tool_choice", body.tool_choice not in (None, "none", "auto"), "no tool is ever called"),
        (
            "response_format",
            body.response_format is not None and body.response_format.get("type") != "text",
            "the answer is plain text with [n] markers; only {'type': 'text'} is possible",
        ),
        ("logprobs", bool(body.logprobs), "no token is sampled, so there are no log probabilities"),
        ("top_logprobs", bool(body.top_logprobs), "no token is sampled, so there are no log probabilities"),
    ]
    for param, refused, reason in unsupported:
        if refused:
            raise ParamError(400, reason, param=param, code="unsupported_parameter")


def _text(index: int, message: ChatMessage) -> str:
    """A message's text; content parts other than text cannot be read."""
    if message.content is None or isinstance(message.content, str):
        return message.content or ""
    for position, part in enumerate(message.content):
        if part.type != "text" or part.text is None:
            raise ParamError(
                400,
                f"only text content can be read; this part is of type '{part.type}'",
                param=f"messages[{index}].content[{position}]",
                code="unsupported_content",
            )
    return "\n".join(part.text or "" for part in message.content)


def conversation(body: ChatCompletionRequest) -> AskRequest:
    """The question (the last user message) and its history (user and assistant messages before it, the
    latest 20, each cut to 4,000 characters), checked as /v1/ask checks them."""
    said = [
        (index, message) for index, message in enumerate(body.messages) if message.role not in _IGNORED_ROLES
    ]
    if not said or said[-1][1].role != "user":
        raise ParamError(
            400,
            "the last message (system and developer messages aside) must be the user's question",
            param="messages",
            code="invalid_messages",
        )
    last, question = said[-1]
    history = [
        {"role": message.role, "content": text[:MAX_TURN_CHARS]}
        for index, message in said[:-1]
        if message.role in ("user", "assistant") and (text := _text(index, message).strip())
    ]
    try:
        return AskRequest(
            question=_text(last, question), language=body.language, history=history[-MAX_HISTORY_TURNS:]
        )
    except ValidationError as error:
        fault = error.errors()[0]
        where = f"messages[{last}].content" if fault["loc"][0] == "question" else "messages"
        reason = NOT_TEXT if fault["type"] == "string_unicode" else fault["msg"].removeprefix("Value error, ")
        raise ParamError(422, f"{where}: {reason}", param=where, code="invalid_value") from None


def _absolute(url: str, base: str) -> str:
    return base.rstrip("/") + url if url.startswith("/") else url


def sources_text(answer: Answer, base: str) -> str:
    """The citations as a short list to append to the content: `[n] title: url`, one per line."""
    if not answer.citations:
        return ""
    lines = [f"[{c.n}] {c.title}: {_absolute(c.url, base)}" for c in answer.citations]
    return "\n\n" + _SOURCES_HEADING[answer.language] + "\n" + "\n".join(lines)


def _guide(answer: Answer) -> GuideExtra:
    return GuideExtra(**answer.model_dump(exclude={"answer"}))


def _chunk(completion_id: str, created: int, delta: Delta, finished: bool = False) -> bytes:
    chunk = ChatCompletionChunk(
        id=completion_id,
        created=created,
        choices=[ChunkChoice(delta=delta, finish_reason="stop" if finished else None)],
    ).model_dump(mode="json")
    # A delta names only what it carries (OpenAI's do); the guide inside keeps its nulls.
    chunk["choices"][0]["delta"] = {
        key: value for key, value in delta.model_dump(mode="json").items() if value is not None
    }
    return format_sse_event(data_str=json.dumps(chunk, ensure_ascii=False, separators=(",", ":")))


def stream_chunks(answer: Answer, completion_id: str, created: int, sources: str) -> list[bytes]:
    """The answer as chat.completion.chunk events: the role, one chunk per sentence (their contents joined
    make the plain response's content), the sources if asked, then `guide` with finish_reason stop."""
    texts = [sentence["text"] for sentence in sentences(answer.answer)]
    pieces = [text if index == 0 else " " + text for index, text in enumerate(texts)]
    pieces += [sources] if sources else []
    return [
        _chunk(completion_id, created, Delta(role="assistant", content="")),
        *(_chunk(completion_id, created, Delta(content=piece)) for piece in pieces),
        _chunk(completion_id, created, Delta(guide=_guide(answer)), finished=True),
        format_sse_event(data_str="[DONE]"),
    ]


@router.post(
    "/chat/completions",
    response_model=ChatCompletion,
    responses={200: {"content": {"application/json": {}, "text/event-stream": {"itemSchema": _CHUNK}}}},
)
async def chat_completions(body: ChatCompletionRequest, request: Request, runtime: RuntimeDep) -> Any:
    """The guide's answer to the last user message, in OpenAI's chat-completions shape (`stream: true`:
    Server-Sent Events of `chat.completion.chunk`, then `data: [DONE]`)."""
    _refuse_unsupported(body)
    asked = conversation(body)
    assistant = await get_assistant(runtime)
    answer = await run_in_threadpool(
        answer_and_log, assistant, runtime.store, asked.question, asked.language, asked.history
    )
    completion_id, created = f"chatcmpl-{answer.id}", int(time.time())
    base = runtime.settings.public_url or str(request.base_url)
    sources = sources_text(answer, base) if body.include_sources else ""
    if body.stream:
        return EventSourceResponse(
            stream_chunks(answer, completion_id, created, sources), headers=_STREAM_HEADERS
        )
    message = AssistantMessage(content=answer.answer + sources, guide=_guide(answer))
    return ChatCompletion(id=completion_id, created=created, choices=[Choice(message=message)])


@router.get("/models", response_model=ModelList)
async def models() -> ModelList:
    """The one model: the guide and the provider records behind it."""
    return ModelList(data=[ModelCard(created=_CREATED)])


@router.get("/models/{model}", response_model=ModelCard)
async def model(model: str) -> ModelCard:
    """The model of this id; 404 for any other."""
    if model != MODEL_ID:
        raise ParamError(404, f"the model '{model}' does not exist", param="model", code="model_not_found")
    return ModelCard(created=_CREATED)
