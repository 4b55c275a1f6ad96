"""Questions already answered: the bank's questions about the guide, with the sentences that answer them.

People ask the same few things in many words. A new question close to labelled ones ("how does the kubelet
know a node has GPUs?" beside "how does a node tell the scheduler what it has?") is likely answered by the
sentences that answer them, even when it shares few words with those sentences. The evidence is a
nearest-neighbour vote: the NEIGHBOURS most similar labelled questions, each weighted by a softmax of its
similarity, vote for the sentences that answer it (a question the guide does not answer votes for none); a
sentence's support is the weight of the votes it gets, from 0 to 1.
"""

from __future__ import annotations

import numpy as np
from langchain_core.embeddings import Embeddings

from assistant.embeddings import embed_queries
from assistant.knowledge import KnowledgeBase, ParagraphKey
from assistant.understanding.bank import BankQuestion, SentenceRef

NEIGHBOURS = 8  # the labelled questions that vote
TEMPERATURE = 0.02  # of the softmax over their cosine similarities: e5's similarities span a narrow range

SentenceKey = tuple[ParagraphKey, int]


class AnsweredQuestions:
    """The bank's guide questions and the guide's own FAQ questions, their query vectors and the sentences
    that answer them."""

    def __init__(self, questions: list[BankQuestion], vectors: np.ndarray) -> None:
        labelled = [
            i for i, question in enumerate(questions) if "guide" in question.intents and question.answers
        ]
        self._vectors = vectors[labelled]
        self._answers: list[list[SentenceKey]] = [
            [((section, paragraph), sentence) for section, paragraph, sentence in questions[i].answers]
            for i in labelled
        ]

    @classmethod
    def from_knowledge(cls, knowledge: KnowledgeBase, embeddings: Embeddings) -> AnsweredQuestions:
        """The bank, and each FAQ's question in each language answered by its paragraph, in order: the
        guide's own labelled questions (embedded here as queries, as the bank's were at index time)."""
        faq = [
            BankQuestion(
                title, language, frozenset({"guide"}), _whole_paragraph(key, len(paragraph.sentences["nl"]))
            )
            for key, paragraph in knowledge.paragraphs.items()
            if paragraph.kind == "faq" and key[1] == 0
            for language, title in paragraph.titles.items()
        ]
        if not faq:
            return cls(knowledge.questions, knowledge.question_vectors)
        vectors = np.asarray(embed_queries(embeddings, [question.text for question in faq]), dtype=np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        return cls([*knowledge.questions, *faq], np.vstack([knowledge.question_vectors, vectors]))

    def support(self, vector: np.ndarray) -> tuple[dict[SentenceKey, float], dict[SentenceKey, float]]:
        """Per sentence, the share of the neighbours' votes that it answers, and that it answers first."""
        if not any(self._answers):
            return {}, {}
        # In float64, so that the vote's shares add up to 1 within float64's error, not float32's.
        similarity = (self._vectors @ vector).astype(np.float64)
        nearest = np.argsort(-similarity)[:NEIGHBOURS]
        weights = np.exp((similarity[nearest] - similarity[nearest[0]]) / TEMPERATURE)
        weights /= weights.sum()
        answers: dict[SentenceKey, float] = {}
        leads: dict[SentenceKey, float] = {}
        for neighbour, weight in zip(nearest, weights, strict=True):
            sentences = self._answers[neighbour]
            if sentences:
                leads[sentences[0]] = leads.get(sentences[0], 0.0) + float(weight)
            for sentence in sentences:
                answers[sentence] = answers.get(sentence, 0.0) + float(weight)
        return answers, leads


def _whole_paragraph(key: ParagraphKey, sentences: int) -> tuple[SentenceRef, ...]:
    """Every sentence of a paragraph, in order (both languages have the same sentences; the corpus checks it)."""
    return tuple((*key, index) for index in range(sentences))
