"""Text normalisation for comparing answers with facts and quotes, and the answer's `[n]` markers."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

MARKER = re.compile(r"\[(\d+)\]")
_MARKER_RUN = re.compile(r"(?:\s*\[\d+\])+")
_SPACE = re.compile(r"\s+")
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"'})
_EDGE = " \t\n.,;:!?\"'()—–-"


def squash(text: str) -> str:
    """Whitespace runs as one space: a quote is word for word even when its line breaks differ."""
    return _SPACE.sub(" ", text).strip()


def fold(text: str) -> str:
    """Lowercase, no accents, straight quotes, single spaces: 'GPU’s geïnstalleerd' ~ "gpu's geinstalleerd"."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_QUOTES).casefold())
    return squash("".join(ch for ch in decomposed if not unicodedata.combining(ch)))


def core(text: str) -> str:
    """Folded and without the punctuation at its edges, for 'this sentence is inside that one' tests."""
    return fold(text).strip(_EDGE)


_QUESTION = re.compile(r"(^|[.!?\]]\s+)[^.!?\[\]]*\?(?=\s|$)")


def without_questions(answer: str) -> str:
    """The answer's statements: a question it restates (the FAQ's, before its direct answer) claims nothing,
    so it neither states a key fact nor needs a citation nor counts as the answer's first sentence."""
    return _QUESTION.sub(r"\1", answer)


def markers(answer: str) -> list[int]:
    """Every `[n]` of the answer, in order."""
    return [int(number) for number in MARKER.findall(answer)]


def strip_markers(answer: str) -> str:
    return squash(_MARKER_RUN.sub("", answer))


@dataclass(frozen=True)
class Segment:
    """The text before a run of markers, and the citation numbers of that run (empty: unmarked text)."""

    text: str
    numbers: tuple[int, ...]


def segments(answer: str) -> list[Segment]:
    """The answer cut after each run of markers; text with no letters or digits is dropped."""
    parts: list[Segment] = []
    start = 0
    for run in _MARKER_RUN.finditer(answer):
        parts.append(Segment(answer[start : run.start()], tuple(markers(run.group()))))
        start = run.end()
    parts.append(Segment(answer[start:], ()))
    return [part for part in parts if any(ch.isalnum() for ch in part.text)]
