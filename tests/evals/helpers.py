"""Hand-made cases, answers and a judge with stand-in scorers, shared by the harness tests."""

from __future__ import annotations

from typing import Any

from assistant.models import Answer, Citation, ProviderResults
from evals.cases import Case
from evals.citations import QuoteBook
from evals.reading import SentenceBook
from evals.runners import Observation
from evals.scoring import Judge

SHARING = "Plain Kubernetes treats a GPU as an indivisible integer resource."
BOOK = QuoteBook({"gpu-sharing": [SHARING]})


def split(text: str) -> list[str]:
    parts = [part.strip() for part in text.replace(". ", ".\n").splitlines()]
    return [part for part in parts if part]


def judge(similarity: float = 0.5) -> Judge:
    """Similarity is a constant and the written language is taken from the answer's field."""
    return Judge(
        BOOK,
        SentenceBook({}, frozenset()),
        split,
        lambda _answer, _reference: similarity,
        detect_language=lambda _text: None,
    )


def make_case(**fields: Any) -> Case:
    defaults: dict[str, Any] = {"id": "c", "question": "q", "language": "en", "category": "section"}
    return Case.model_validate({**defaults, **fields})


def cited_answer(language: str = "en", providers: dict[str, Any] | None = None) -> Answer:
    citation = Citation(n=1, section_id="gpu-sharing", title="t", quote=SHARING, url="/guide/en#gpu-sharing")
    results = ProviderResults(filter=providers, matches=[], total=0) if providers is not None else None
    return Answer(
        answer=f"{SHARING} [1]",
        language=language,
        refused=False,
        citations=[citation],
        providers=results,
        id="a",
    )


def refusal(language: str = "en") -> Answer:
    return Answer(
        answer="Not covered.", language=language, refused=True, citations=[], providers=None, id="r"
    )


def observe(answer: Answer, ranking: list[str] | None = None, latency_ms: float = 10.0) -> Observation:
    return Observation(answer, ranking if ranking is not None else ["gpu-sharing"], latency_ms)
