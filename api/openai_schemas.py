"""OpenAI's chat-completions shapes, as far as this service reads and writes them.

Requests keep OpenAI's field names and types, so any OpenAI client can call the service; fields the guide
cannot honour are typed (a wrong type is still refused) and then ignored or refused by the route. Responses
are OpenAI's, plus one documented field, `guide`, on the message (and on the stream's last delta).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from assistant.models import Citation, Language, ProviderResults

MODEL_ID = "gpu-guide"
MAX_MESSAGES = 200  # far more than a conversation the follow-up logic reads; the body limit binds first


class ContentPart(BaseModel):
    """One part of a message's content; only `text` parts can be read (others are refused by the route)."""

    model_config = ConfigDict(extra="allow")

    type: str
    text: str | None = None


class ChatMessage(BaseModel):
    """A message of the conversation. `system` and `developer` messages are read but not followed: the
    answers are sentences of the guide, which no instruction changes; `tool` messages are ignored."""

    model_config = ConfigDict(extra="allow")  # name, tool_calls, tool_call_id, ...

    role: Literal["system", "developer", "user", "assistant", "tool", "function"]
    content: str | list[ContentPart] | None = None


class ChatCompletionRequest(BaseModel):
    """OpenAI's request body, plus `language` and `include_sources` (send them in `extra_body`)."""

    model_config = ConfigDict(
        extra="allow",  # OpenAI's other parameters (metadata, store, service_tier, ...) are accepted and ignored
        json_schema_extra={
            "examples": [
                {
                    "model": MODEL_ID,
                    "messages": [{"role": "user", "content": "Can I share one GPU between pods?"}],
                }
            ]
        },
    )

    model: str = Field(min_length=1, max_length=200, json_schema_extra={"examples": [MODEL_ID]})
    messages: list[ChatMessage] = Field(min_length=1, max_length=MAX_MESSAGES)
    stream: bool | None = False
    stream_options: dict[str, Any] | None = Field(default=None, description="Accepted and ignored.")
    n: int | None = Field(default=None, ge=1, le=128, description="Only 1: there is one answer.")
    language: Language | None = Field(
        default=None, description="Not OpenAI's: the answer's language; unset, the question's."
    )
    include_sources: bool = Field(
        default=False,
        description="Not OpenAI's: append a 'Sources' list (one line per citation) to the content.",
    )
    # Accepted and ignored: the answer is quoted from the guide, never sampled, so nothing tunes it.
    temperature: float | None = Field(default=None, ge=0, le=2)
    top_p: float | None = Field(default=None, ge=0, le=1)
    max_tokens: int | None = Field(default=None, ge=1)
    max_completion_tokens: int | None = Field(default=None, ge=1)
    presence_penalty: float | None = Field(default=None, ge=-2, le=2)
    frequency_penalty: float | None = Field(default=None, ge=-2, le=2)
    logit_bias: dict[str, float] | None = None
    seed: int | None = None
    stop: str | list[str] | None = None
    user: str | None = None
    parallel_tool_calls: bool | None = None
    tools: list[dict[str, Any]] | None = Field(default=None, description="Accepted; no tool is ever called.")
    # Refused by the route when they ask for what cannot be given.
    tool_choice: str | dict[str, Any] | None = Field(default=None, description="Only 'none' or 'auto'.")
    response_format: dict[str, Any] | None = Field(default=None, description="Only {'type': 'text'}.")
    logprobs: bool | None = Field(default=None, description="Only false: no token is sampled.")
    top_logprobs: int | None = Field(default=None, ge=0, le=20, description="Only 0 or unset.")


class GuideExtra(BaseModel):
    """Not OpenAI's: the /v1/ask answer object (contract §2) without `answer`, which is the content."""

    id: str = Field(description="The answer's id, for POST /v1/feedback.")
    language: Language
    refused: bool
    citations: list[Citation]
    providers: ProviderResults | None
    intents: list[str] = Field(default_factory=list)


class AssistantMessage(BaseModel):
    role: Literal["assistant"] = "assistant"
    content: str
    refusal: None = None
    annotations: list[dict[str, Any]] = Field(default_factory=list)
    guide: GuideExtra


class Choice(BaseModel):
    index: int = 0
    message: AssistantMessage
    logprobs: None = None
    finish_reason: Literal["stop"] = "stop"


class ChatCompletion(BaseModel):
    id: str
    object: Literal["chat.completion"] = "chat.completion"
    created: int
    model: str = MODEL_ID
    choices: list[Choice]
    usage: None = Field(default=None, description="No tokens are counted: no language model runs.")
    system_fingerprint: None = None


class Delta(BaseModel):
    role: Literal["assistant"] | None = None
    content: str | None = None
    guide: GuideExtra | None = Field(default=None, description="On the last chunk only.")


class ChunkChoice(BaseModel):
    index: int = 0
    delta: Delta
    logprobs: None = None
    finish_reason: Literal["stop"] | None = None


class ChatCompletionChunk(BaseModel):
    id: str
    object: Literal["chat.completion.chunk"] = "chat.completion.chunk"
    created: int
    model: str = MODEL_ID
    choices: list[ChunkChoice]
    system_fingerprint: None = None


class ModelCard(BaseModel):
    id: str = MODEL_ID
    object: Literal["model"] = "model"
    created: int
    owned_by: str = "gpu-k8s-assistant"


class ModelList(BaseModel):
    object: Literal["list"] = "list"
    data: list[ModelCard]


class OpenAIErrorDetail(BaseModel):
    message: str
    type: str
    param: str | None = None
    code: str | None = None


class OpenAIError(BaseModel):
    """Every error of the OpenAI-compatible routes, as OpenAI's client libraries read it."""

    error: OpenAIErrorDetail
