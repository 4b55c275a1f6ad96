"""Request and response bodies of the HTTP API that `assistant.models` does not already define."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field, field_validator

from assistant.models import Language, Turn
from assistant.text import SCHEMA_WHITE_SPACE

MAX_QUESTION_CHARS = 2000
MAX_HISTORY_TURNS = 20
MAX_TURN_CHARS = 4000  # an earlier answer, quoted back with its markers, is longer than a question
MAX_COMMENT_CHARS = 2000
# JSON can escape a lone UTF-16 surrogate ("\ud800"); it is no character, nothing can encode it, and the
# language detector fails on it. Refused like any other invalid input; pydantic says it of bounded strings.
NOT_TEXT = "a lone surrogate (\\ud800 to \\udfff) is not text"


class HistoryTurn(Turn):
    content: str = Field(max_length=MAX_TURN_CHARS)


class AskRequest(BaseModel):
    """Contract §2: a question, the answer's language (null: the question's), earlier turns oldest first."""

    question: str = Field(
        description=f"1 to {MAX_QUESTION_CHARS:,} characters, one at least not white space; answered trimmed.",
        # The bounds as the validator below keeps them, for the schema alone: a constraint of pydantic's own
        # would answer first, in words of its own.
        json_schema_extra={"minLength": 1, "maxLength": MAX_QUESTION_CHARS, "pattern": r"\S"},
    )
    language: Language | None = None
    history: list[HistoryTurn] | None = Field(default=None, max_length=MAX_HISTORY_TURNS)

    model_config = {
        "json_schema_extra": {
            "examples": [{"question": "Can I share one GPU between pods?", "language": None}]
        }
    }

    @field_validator("question")
    @classmethod
    def _valid(cls, value: str) -> str:
        if len(value) > MAX_QUESTION_CHARS:
            raise ValueError(f"the question has {len(value):,} characters, more than {MAX_QUESTION_CHARS:,}")
        question = value.strip(SCHEMA_WHITE_SPACE)
        if not question:
            raise ValueError("the question is empty")
        try:
            question.encode()
        except UnicodeEncodeError:
            raise ValueError(NOT_TEXT) from None
        return question


class FeedbackRequest(BaseModel):
    answer_id: str = Field(min_length=1, max_length=64, description="The `id` of an answer.")
    rating: Literal["up", "down"]
    comment: str | None = Field(default=None, max_length=MAX_COMMENT_CHARS)


class FeedbackReceipt(BaseModel):
    id: int
    answer_id: str
    rating: Literal["up", "down"]
    created: datetime


class ErrorBody(BaseModel):
    """Every 4xx and 5xx: a reason a person can act on, and the request id to find it in the logs."""

    detail: str
    request_id: str | None = None


class Status(BaseModel):
    status: Literal["ok", "loading", "failed"]
