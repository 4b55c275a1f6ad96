"""Parts of long sentences that can be quoted on their own.

One sentence of the guide names the device plugin, the container toolkit and the driver match in one breath;
a question about the device plugin should see that part, not the whole list. Such sentences are split at
":" and ";" (`split_clauses`), except in a list item, which makes one point: its clauses ("cheaper preemptible
nodes fit …; make sure the cluster handles node drains …") are quoted together. A part is offered for quoting
when both languages split into the same number of parts and it does not lean on what came before it. An FAQ's
direct answer that gives its reason after a dash ("Not by default — Kubernetes allocates whole GPUs to pods.")
offers the reason as a part: an open question ("How many pods can use one GPU?") may quote it, where the verdict
would answer a yes/no question nobody asked. Parts are embedded once, when the assistant loads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from langchain_core.embeddings import Embeddings

from assistant.knowledge import KnowledgeBase, ParagraphKey
from assistant.sentences import leans_back
from assistant.text import content_terms, split_clauses

_SHORTEST = 40  # a shorter part says too little to stand as an answer


@dataclass(frozen=True)
class Span:
    """One quotable part of a sentence, in both languages, with its vectors and words."""

    key: ParagraphKey
    index: int  # the sentence's position in its paragraph
    part: int
    texts: dict[str, str]
    vectors: np.ndarray  # one unit vector per language
    terms: frozenset[str]


def _verdict_and_reason(sentence: str) -> list[str]:
    """ "Not by default — Kubernetes allocates …" as its two parts; [] without a dash."""
    verdict, dash, reason = sentence.partition(" — ")
    return [verdict.strip(), reason.strip()] if dash else []


def load_spans(
    knowledge: KnowledgeBase, embeddings: Embeddings, is_direct_answer: Callable[[ParagraphKey, int], bool]
) -> dict[tuple[ParagraphKey, int], list[Span]]:
    """The quotable parts of every long listing sentence and of direct answers, by (paragraph, sentence)."""
    found: list[tuple[ParagraphKey, int, int, dict[str, str]]] = []
    for key, paragraph in knowledge.paragraphs.items():
        if paragraph.bullet:  # a list item makes one point: its clauses are quoted together
            continue
        languages = list(paragraph.sentences)
        for index, sentences in enumerate(zip(*paragraph.sentences.values(), strict=True)):
            split = _verdict_and_reason if is_direct_answer(key, index) else split_clauses
            parts = [split(sentence) for sentence in sentences]
            if not parts[0] or any(len(p) != len(parts[0]) for p in parts):
                continue
            for part, texts in enumerate(zip(*parts, strict=True)):
                if min(map(len, texts)) >= _SHORTEST and not any(leans_back(text) for text in texts):
                    found.append((key, index, part, dict(zip(languages, texts, strict=True))))
    if not found:
        return {}
    vectors = np.asarray(embeddings.embed_documents([t for *_, texts in found for t in texts.values()]))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    spans: dict[tuple[ParagraphKey, int], list[Span]] = {}
    row = 0
    for key, index, part, texts in found:
        span_vectors, row = vectors[row : row + len(texts)], row + len(texts)
        terms = frozenset(term for text in texts.values() for term in content_terms(text))
        spans.setdefault((key, index), []).append(Span(key, index, part, texts, span_vectors, terms))
    return spans
