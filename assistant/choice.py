"""A sentence chosen for an answer: where it stands in the corpus, how likely it answers, and which part of it
is quoted."""

from __future__ import annotations

from dataclasses import dataclass

from assistant.knowledge import ParagraphKey


@dataclass(frozen=True)
class Choice:
    key: ParagraphKey
    index: int  # the sentence's position in its paragraph
    score: float
    part: int | None = None  # a part of a long sentence (`spans.py`) instead of the whole sentence


def stated_terms(terms: frozenset[str], focus: dict[str, float]) -> set[str]:
    """The words of the question's focus that a sentence's words state."""
    return {term for term in terms if term in focus}


def stated_share(terms: frozenset[str], focus: dict[str, float]) -> float:
    """The share of the question's focus (its words, by rarity) that a sentence's words state."""
    weight = sum(focus.values())
    return sum(focus[term] for term in terms if term in focus) / weight if weight else 0.0
