"""Parts of long sentences that can be quoted on their own.

One sentence of the guide names the device plugin, the container toolkit and the driver match in one breath;
a question about the device plugin should see that part, not the whole list. Such sentences are split at
":" and ";" (`split_clauses`), except in a list item, which makes one point: its clauses ("cheaper preemptible
nodes fit …; make sure the cluster handles node drains …") are quoted together. A part is offered for quoting
when both languages split into the same number of parts and it does not lean on what came before it. An FAQ's
direct answer that gives its reason after a dash ("Not by default — Kubernetes allocates whole GPUs to pods.")
offers the reason as a part: an open question ("How many pods can use one GPU?") may quote it, where the verdict
would answer a yes/no question nobody asked. A sentence that leans on the one before it, in a list item too,
offers the part of it that says something by itself (`standalone_part`): the sentence can then answer where what
it leans on does not. Parts are embedded once, when the assistant loads.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from assistant.knowledge import KnowledgeBase, ParagraphKey
from assistant.sentences import leans_back
from assistant.text import content_terms, split_clauses

_SHORTEST = 40  # a shorter part says too little to stand as an answer
_CONTRAST = re.compile(r",\s+(?:but|maar)\s+")  # the clause after it is a main clause of its own
_DESCRIBED = re.compile(r",\s+(?:which|die|dat)\s")  # a relative clause that says what a thing is or does
_ARTICLE = re.compile(r"\b(?:the|de|het)\s", re.IGNORECASE)


@dataclass(frozen=True)
class Part:
    """One part of a sentence, in both languages, with its words."""

    key: ParagraphKey
    index: int  # the sentence's position in its paragraph
    part: int
    texts: dict[str, str]
    terms: frozenset[str]


@dataclass(frozen=True)
class Span(Part):
    """A part of a sentence that is scored for every question: with its vectors."""

    vectors: np.ndarray  # one unit vector per language
    # Whether the part stands in for its sentence: the parts of a listing sentence cover it, so where it leans
    # it is quoted through them; a standalone part (`standalone_part`) leaves its sentence quotable whole.
    covers_sentence: bool


def standalone_part(sentence: str) -> str:
    """Of a sentence that leans on the one before it, the end that says something by itself, or "": the clause
    after ", but" ("The GPU Operator eases this pain, but version mismatches are the most common cause …"), or
    a thing named with the clause that says what it does ("Many providers package this via the NVIDIA GPU
    Operator, which automatically installs drivers …" offers "the NVIDIA GPU Operator, which …")."""
    contrast = _CONTRAST.search(sentence)
    if contrast:
        return sentence[contrast.end() :]
    described = _DESCRIBED.search(sentence)
    if described:
        articles = list(_ARTICLE.finditer(sentence, 0, described.start()))
        if articles:
            return sentence[articles[-1].start() :]
    return ""


def _verdict_and_reason(sentence: str) -> list[str]:
    """ "Not by default — Kubernetes allocates …" as its two parts; [] without a dash."""
    verdict, dash, reason = sentence.partition(" — ")
    return [verdict.strip(), reason.strip()] if dash else []


def load_spans(
    knowledge: KnowledgeBase,
    embed_passages: Callable[[list[str]], np.ndarray],
    is_direct_answer: Callable[[ParagraphKey, int], bool],
) -> dict[tuple[ParagraphKey, int], list[Span]]:
    """The quotable parts of every long listing sentence, of direct answers and of sentences that lean back, by
    (paragraph, sentence), embedded in one batch by `embed_passages` (unit vectors)."""
    found: list[tuple[ParagraphKey, int, int, dict[str, str], bool]] = []  # sentence, part, texts, covers it
    for key, paragraph in knowledge.paragraphs.items():
        languages = list(paragraph.sentences)
        for index, sentences in enumerate(zip(*paragraph.sentences.values(), strict=True)):
            parts, covers = _parts(sentences, paragraph.bullet, is_direct_answer(key, index))
            for part, texts in enumerate(zip(*parts, strict=True)):
                if min(map(len, texts)) >= _SHORTEST and not any(leans_back(text) for text in texts):
                    found.append((key, index, part, dict(zip(languages, texts, strict=True)), covers))
    if not found:
        return {}
    vectors = embed_passages([t for *_, texts, _ in found for t in texts.values()])
    spans: dict[tuple[ParagraphKey, int], list[Span]] = {}
    row = 0
    for key, index, part, texts, covers in found:
        span_vectors, row = vectors[row : row + len(texts)], row + len(texts)
        spans.setdefault((key, index), []).append(
            Span(key, index, part, texts, part_terms(texts), vectors=span_vectors, covers_sentence=covers)
        )
    return spans


def part_terms(texts: dict[str, str]) -> frozenset[str]:
    """A part's words, in every language."""
    return frozenset(term for text in texts.values() for term in content_terms(text))


def _parts(sentences: tuple[str, ...], bullet: bool, direct_answer: bool) -> tuple[list[list[str]], bool]:
    """One sentence's parts per language, and whether they cover it (a listing sentence's do); no parts unless
    every language has as many. A list item makes one point: its clauses are quoted together, but a sentence of
    it that leans back may offer its standalone part."""
    parts: list[list[str]] = []
    covers = False
    if direct_answer:
        parts = [_verdict_and_reason(sentence) for sentence in sentences]
    elif not bullet:
        parts = [split_clauses(sentence) for sentence in sentences]
        covers = bool(parts[0])
    if not (parts and parts[0]) and any(leans_back(sentence) for sentence in sentences):
        parts = [[part] if (part := standalone_part(sentence)) else [] for sentence in sentences]
    if not parts or not parts[0] or any(len(p) != len(parts[0]) for p in parts):
        return [], covers
    return parts, covers
