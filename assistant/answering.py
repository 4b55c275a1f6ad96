"""Extractive answers: the few sentences of the corpus that answer the question, each with its citation.

No language model is involved: a sentence inside the best paragraphs scores by its own embedding similarity
to the question (the better of its two languages), by its paragraph's similarity (which includes the section
title, so an FAQ's question counts) and a little by its paragraph's rank. The weights were set on the
evaluation set (README, "Answer quality").
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from langchain_core.documents import Document

from assistant.knowledge import KnowledgeBase, ParagraphKey, paragraph_key
from assistant.models import Citation, Language
from assistant.retrieval import HybridRetriever

MAX_SENTENCES = 4
_CANDIDATE_PARAGRAPHS = 5
_PASSAGE_WEIGHT = 3.0  # times the paragraph's dense similarity to the question
_RANK_WEIGHT = 0.05  # divided by the paragraph's retrieval rank: breaks ties toward the best paragraph
_MARGIN = 0.1  # sentences scoring this close to the best one are worth adding
_DIRECT_ANSWER_CHARS = 60  # "Usually not.": an FAQ's short first sentence answers the question itself


@dataclass(frozen=True)
class Choice:
    key: ParagraphKey
    index: int
    score: float


class Composer:
    """Chooses sentences and numbers their citations; the best support comes first."""

    def __init__(
        self, knowledge: KnowledgeBase, retriever: HybridRetriever, sentence_selection: bool
    ) -> None:
        self._knowledge = knowledge
        self._retriever = retriever
        self._sentence_selection = sentence_selection

    def _score(self, hits: list[Document], question: str) -> list[Choice]:
        vector = self._retriever.query_vector(question)
        choices = []
        for rank, hit in enumerate(hits[:_CANDIDATE_PARAGRAPHS], start=1):
            key = paragraph_key(hit.metadata)
            paragraph = self._knowledge.paragraphs[key]
            similarity = np.max(
                np.stack([vectors @ vector for vectors in paragraph.vectors.values()]), axis=0
            )
            for index, sentence in enumerate(paragraph.sentences["nl"]):
                if sentence.endswith(":"):
                    continue  # a lead-in to a list says nothing on its own
                bonus = _PASSAGE_WEIGHT * hit.metadata["dense"] + _RANK_WEIGHT / rank
                choices.append(Choice(key, index, float(similarity[index]) + bonus))
        return sorted(choices, key=lambda choice: -choice.score)

    def _select(self, hits: list[Document], question: str) -> list[Choice]:
        if not self._sentence_selection:  # the whole best paragraph, for the ablation
            key = paragraph_key(hits[0].metadata)
            return [
                Choice(key, index, 0.0)
                for index in range(len(self._knowledge.paragraphs[key].sentences["nl"]))
            ]
        ranked = self._score(hits, question)
        best = ranked[0].score
        chosen = [choice for choice in ranked if choice.score >= best - _MARGIN][:MAX_SENTENCES]
        return self._with_direct_answer(chosen, paragraph_key(hits[0].metadata))

    def _with_direct_answer(self, chosen: list[Choice], best: ParagraphKey) -> list[Choice]:
        """When the best paragraph answers an FAQ, its short first sentence ("Usually not.") leads the answer."""
        paragraph = self._knowledge.paragraphs[best]
        first = paragraph.sentences["nl"][0]
        quoted = any(choice.key == best for choice in chosen)
        first_quoted = any((choice.key, choice.index) == (best, 0) for choice in chosen)
        if paragraph.kind == "faq" and quoted and not first_quoted and len(first) <= _DIRECT_ANSWER_CHARS:
            chosen = [*chosen[: MAX_SENTENCES - 1], Choice(best, 0, chosen[0].score)]
        return chosen

    def compose(self, hits: list[Document], question: str, language: Language) -> tuple[str, list[Citation]]:
        """The answer text with [n] markers, and its citations in order of relevance."""
        groups: dict[str, list[Choice]] = {}
        for choice in self._select(hits, question):
            groups.setdefault(choice.key[0], []).append(choice)
        parts, citations = [], []
        for n, (section_id, choices) in enumerate(groups.items(), start=1):
            choices.sort(key=lambda choice: (choice.key[1], choice.index))
            paragraph = self._knowledge.paragraphs[choices[0].key]
            quoted = [self._knowledge.paragraphs[c.key].sentences[language][c.index] for c in choices]
            originals = [self._knowledge.paragraphs[c.key].sentences["nl"][c.index] for c in choices]
            parts.extend(f"{sentence} [{n}]" for sentence in quoted)
            citations.append(
                Citation(
                    n=n,
                    section_id=section_id,
                    title=paragraph.titles[language],
                    quote=" ".join(quoted),
                    url=paragraph.urls[language],
                    original=" ".join(originals) if language != "nl" else None,
                )
            )
        return " ".join(parts), citations
