"""The shapes the assistant answers in: contract §2 and §3, shared by the CLI, the API and the evaluations."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

Language = Literal["en", "nl"]


class Turn(BaseModel):
    """One earlier message of the conversation, oldest first."""

    role: Literal["user", "assistant"]
    content: str


class Citation(BaseModel):
    """Where one or more sentences of the answer come from."""

    n: int = Field(description="The number of the [n] marker in the answer.")
    section_id: str = Field(description="A guide section id, or provider:<slug> for a provider record.")
    title: str
    quote: str = Field(description="The exact corpus sentence(s), in the answer's language.")
    url: str
    original: str | None = Field(
        default=None, description="The Dutch original of the quote when the answer is in English."
    )
    context: str | None = Field(
        default=None,
        description="When the quote is a part of a long sentence, the whole sentence, in the answer's language.",
    )


class ProviderResults(BaseModel):
    """Provider records that match the filter a question asked for (contract §3)."""

    filter: dict[str, Any]
    matches: list[dict[str, Any]]
    total: int
    unknown: list[dict[str, Any]] = Field(
        default_factory=list, description="Records whose sources leave a filter key open."
    )


class Answer(BaseModel):
    """The response of POST /v1/ask and `python -m assistant ask --json`."""

    answer: str
    language: Language
    refused: bool
    citations: list[Citation]
    providers: ProviderResults | None
    id: str
    intents: list[str] = Field(
        default_factory=list,
        description="What the question asks of the guide: any of guide, providers (choose, list or compare), "
        "named_provider; or out_of_scope alone.",
    )
