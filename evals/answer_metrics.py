"""Checks of the answer text and fields that need no model: key facts, the provider filter, the language."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import cache
from typing import Any

from lingua import Language, LanguageDetector, LanguageDetectorBuilder

from evals.text import fold


def key_fact_recall(answer: str, facts: Sequence[Sequence[str]]) -> tuple[float | None, list[str]]:
    """The share of facts stated (any accepted wording, case- and accent-insensitive), and those missing."""
    if not facts:
        return None, []
    text = fold(answer)
    missing = [" / ".join(fact) for fact in facts if not any(fold(wording) in text for wording in fact)]
    return (len(facts) - len(missing)) / len(facts), missing


def _canonical(value: Any) -> Any:
    """Lists compare as sets: {"sharing": ["mps", "mig"]} asks the same as ["mig", "mps"]."""
    if isinstance(value, dict):
        return {key: _canonical(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return sorted((_canonical(item) for item in value), key=repr)
    return value


def filter_matches(actual: dict[str, Any] | None, expected: dict[str, Any] | None) -> bool:
    """Exact match of contract §3 filters: the same keys with the same values, or both absent."""
    if actual is None or expected is None:
        return actual is None and expected is None
    return _canonical(actual) == _canonical(expected)


@cache
def _detector() -> LanguageDetector:
    return LanguageDetectorBuilder.from_languages(Language.ENGLISH, Language.DUTCH).build()


def text_language(text: str) -> str | None:
    """English or Dutch as written, so a Dutch answer that quotes English sentences is caught. Each sentence
    is read on its own and counts by its words; model and host names ("H100, MI300X", "cloud.ibm.com")
    belong to neither language and are left out, as they tip lingua either way on a long list."""
    votes: Counter[Language] = Counter()
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        words = [
            token for token in sentence.split() if not any(ch.isdigit() or ch == "." for ch in token[:-1])
        ]
        detected = _detector().detect_language_of(" ".join(words)) if words else None
        if detected:
            votes[detected] += len(words)
    if not votes:
        return None
    return {Language.ENGLISH: "en", Language.DUTCH: "nl"}[votes.most_common(1)[0][0]]
