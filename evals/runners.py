"""How a case reaches the assistant: in this process, or over HTTP against a running server (contract §2)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

import httpx

from assistant.models import Answer, Turn
from evals.cases import Case

_RETRIES = 20
_MAX_WAIT_SECONDS = 60.0


@dataclass(frozen=True)
class Observation:
    """The answer to one case, the sections ranked for it (best first), and how long answering took."""

    answer: Answer
    ranking: list[str]
    latency_ms: float


class _Hit(Protocol):
    section_id: str


class AnsweringCore(Protocol):
    """What the evaluations need of `assistant.service.Assistant`."""

    def ask(
        self, question: str, language: str | None = None, history: list[Turn] | None = None
    ) -> Answer: ...

    def retrieve(
        self, question: str, language: str | None = None, history: list[Turn] | None = None, k: int = 10
    ) -> Sequence[_Hit]: ...


class Runner(Protocol):
    def observe(self, case: Case) -> Observation: ...


def _history(case: Case) -> list[Turn] | None:
    return [Turn(role=turn.role, content=turn.content) for turn in case.history] or None


def citation_ranking(answer: Answer) -> list[str]:
    """Citations are ordered by relevance (contract §2), so their sections are a ranking."""
    return list(dict.fromkeys(citation.section_id for citation in answer.citations))


class InProcessRunner:
    """Calls `Assistant.ask` for the answer and `Assistant.retrieve` for the ranking."""

    def __init__(self, assistant: AnsweringCore) -> None:
        self._assistant = assistant

    def observe(self, case: Case) -> Observation:
        history = _history(case)
        started = time.perf_counter()
        answer = self._assistant.ask(case.question, language=None, history=history)
        latency_ms = (time.perf_counter() - started) * 1000
        hits = self._assistant.retrieve(case.question, language=None, history=history, k=10)
        return Observation(answer, [hit.section_id for hit in hits], latency_ms)


class HttpRunner:
    """POSTs /v1/ask; the ranking is the citation order, as a client sees it.

    A 429 or 503 with Retry-After (rate limit, model still loading) is waited out, so a run against a
    deployed server measures answers rather than its limits; only the answered request is timed.
    """

    def __init__(
        self, base_url: str, client: httpx.Client | None = None, sleep: Callable[[float], None] = time.sleep
    ) -> None:
        self._client = client or httpx.Client(base_url=base_url.rstrip("/"), timeout=60.0)
        self._sleep = sleep

    def _post(self, payload: dict[str, object]) -> tuple[httpx.Response, float]:
        for _ in range(_RETRIES):
            started = time.perf_counter()
            response = self._client.post("/v1/ask", json=payload)
            latency_ms = (time.perf_counter() - started) * 1000
            wait = response.headers.get("Retry-After")
            if response.status_code not in (429, 503) or wait is None:
                break
            self._sleep(min(float(wait), _MAX_WAIT_SECONDS))
        return response, latency_ms

    def observe(self, case: Case) -> Observation:
        history = _history(case)
        payload = {
            "question": case.question,
            "language": None,
            "history": [turn.model_dump() for turn in history] if history else None,
        }
        response, latency_ms = self._post(payload)
        response.raise_for_status()
        answer = Answer.model_validate(response.json())
        return Observation(answer, citation_ranking(answer), latency_ms)
