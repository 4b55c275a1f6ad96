"""Questions already answered: the bank's questions about the guide, with the sentences that answer them.

People ask the same few things in many words. A new question close to labelled ones ("how does the kubelet
know a node has GPUs?" beside "how does a node tell the scheduler what it has?") is likely answered by the
sentences that answer them, even when it shares few words with those sentences. Two multinomial logistic
regressions learn this from the labels: which sentence answers first, and which sentences answer at all (each
labelled answer a sample). Their probabilities are a sentence's support. They read the question's query vector
and its spelling: the letter sequences of its words (tf-idf of 3- to 5-grams), which catch the cue words a
vector blurs ("downsides of Kubernetes against a plain instance" is near "when is a plain instance enough"),
Dutch compounds and typos; both parts weigh alike. Holding out each bank batch in turn, the spelling raised the
first sentence found from 0.726 to 0.748 and any answering sentence from 0.844 to 0.872.
A nearest-neighbour vote over the same labels found the answering sentence less often for the questions of a
batch the vote had not seen (the first sentence 0.69 against 0.73, any answering sentence 0.81 against 0.85,
holding out each bank batch in turn), and the composer leading with the right sentence less often on the
tuning sets (`evals/sentence_weights.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from langchain_core.embeddings import Embeddings
from scipy import sparse
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

from assistant.embeddings import embed_queries
from assistant.knowledge import KnowledgeBase, ParagraphKey
from assistant.understanding.bank import AnswerRef, BankQuestion

STRENGTH = 1.0  # sklearn's C, over standardized vectors: chosen holding out each bank batch (0.1 to 10 alike)
# sklearn's stopping tolerance: at its default (1e-4) the classifier of all answering sentences needs 138
# iterations, 9 s of loading; at 1e-3 it needs 26 and its probabilities move by 0.001 on average.
TOLERANCE = 1e-3
# A question's spelling: its words' letter sequences; a sequence in fewer than three questions says nothing.
_SPELLING = dict(
    analyzer="char_wb",
    ngram_range=(3, 5),
    strip_accents="unicode",
    sublinear_tf=True,
    min_df=3,
    max_features=5000,
)
# Recent questions whose spelling, and whose query vector (`HybridRetriever`), are kept for the next reading.
QUESTIONS_KEPT = 1024

SentenceKey = tuple[ParagraphKey, int]
# What a label names: a sentence (part None), or the part of one that answers (`spans.py`): of the sentence that
# names the device plugin, the container toolkit and the driver match, the part a question asks about.
AnswerKey = tuple[ParagraphKey, int, int | None]


class AnsweredQuestions:
    """The bank's guide questions and the guide's own FAQ questions, their query vectors and the sentences
    that answer them, as two fitted classifiers."""

    def __init__(self, questions: list[BankQuestion], vectors: np.ndarray) -> None:
        labelled = [
            i for i, question in enumerate(questions) if "guide" in question.intents and question.answers
        ]
        answers = [
            [((s, p), sentence, part) for s, p, sentence, part in questions[i].answers] for i in labelled
        ]
        self._sentences: list[AnswerKey] = sorted({key for keys in answers for key in keys}, key=_order)
        number = {key: n for n, key in enumerate(self._sentences)}
        texts = [questions[i].text for i in labelled]
        spelling = TfidfVectorizer(**_SPELLING).fit(texts)
        # The retrieval's vote and the composer both read a new question's spelling: it is computed once.
        self._spelled = lru_cache(maxsize=QUESTIONS_KEPT)(lambda text: spelling.transform([text]))
        spellings = spelling.transform(texts)
        self._leads = _fitted(vectors[labelled], spellings, [number[keys[0]] for keys in answers])
        pairs = [(row, number[key]) for row, keys in enumerate(answers) for key in keys]
        rows = [row for row, _ in pairs]
        self._answers = _fitted(vectors[labelled][rows], spellings[rows], [n for _, n in pairs])

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

    def support(self, vector: np.ndarray, text: str) -> tuple[Support, Support]:
        """Per labelled sentence or part, the probability that it answers the question (its query vector and
        its words), and that it answers first."""
        spelling = self._spelled(text)
        answers = self._probabilities(self._answers, vector, spelling)
        return Support.of(answers), Support.of(self._probabilities(self._leads, vector, spelling))

    def leads(self, vector: np.ndarray, text: str) -> dict[SentenceKey, float]:
        """Per labelled sentence, the probability that it (or a part of it) answers the question first."""
        return Support.of(self._probabilities(self._leads, vector, self._spelled(text))).sentences

    def _probabilities(
        self, model: _Classifier | None, vector: np.ndarray, spelling: sparse.csr_matrix
    ) -> dict[AnswerKey, float]:
        if model is None:
            return {}
        probabilities = model.probabilities(vector, spelling)
        return {self._sentences[n]: float(p) for n, p in zip(model.classes, probabilities, strict=True)}


@dataclass(frozen=True)
class _Classifier:
    """A fitted scaler and multinomial logistic regression folded into one matrix: a question's probabilities
    are one product and a softmax, without sklearn's checks on every call (a millisecond per question)."""

    weights: np.ndarray  # (classes, dimensions)
    spelling_weights: np.ndarray  # (classes, letter sequences)
    bias: np.ndarray  # (classes,)
    classes: np.ndarray  # the sentence number of each row

    def probabilities(self, vector: np.ndarray, spelling: sparse.csr_matrix) -> np.ndarray:
        logits = (
            self.weights @ vector + self.spelling_weights[:, spelling.indices] @ spelling.data + self.bias
        )
        exponentials = np.exp(logits - logits.max())
        return exponentials / exponentials.sum()


def _fitted(vectors: np.ndarray, spellings: sparse.csr_matrix, labels: list[int]) -> _Classifier | None:
    """A classifier of the sentence numbers, or None when the labels name fewer than two sentences. A
    standardized vector's length is about the square root of its dimensions; each spelling (of length 1) is
    scaled to it, so that the two parts weigh alike."""
    if len(set(labels)) < 2:
        return None
    scaler = StandardScaler().fit(vectors)
    balance = np.sqrt(vectors.shape[1])
    features = sparse.hstack([sparse.csr_matrix(scaler.transform(vectors)), spellings * balance]).tocsr()
    regression = LogisticRegression(C=STRENGTH, tol=TOLERANCE, max_iter=5000).fit(features, labels)
    coefficients, intercepts = regression.coef_, regression.intercept_
    if len(regression.classes_) == 2:  # sklearn keeps one row for two classes: the second's logit against 0
        coefficients = np.vstack([np.zeros_like(coefficients), coefficients])
        intercepts = np.concatenate([[0.0], intercepts])
    dimensions = vectors.shape[1]
    weights = coefficients[:, :dimensions] / scaler.scale_
    spelling_weights = (coefficients[:, dimensions:] * balance).astype(np.float32)
    return _Classifier(weights, spelling_weights, intercepts - weights @ scaler.mean_, regression.classes_)


@dataclass(frozen=True)
class Support:
    """Per labelled sentence or part, the probability that it answers. A label on a sentence supports each of
    its parts, and a label on a part supports the sentence that holds it."""

    units: dict[AnswerKey, float]
    sentences: dict[SentenceKey, float]  # each sentence's own probability and its parts' together

    @classmethod
    def of(cls, units: dict[AnswerKey, float]) -> Support:
        sentences: dict[SentenceKey, float] = {}
        for (key, index, _), probability in units.items():
            sentences[key, index] = sentences.get((key, index), 0.0) + probability
        return cls(units, sentences)

    def get(self, key: ParagraphKey, index: int, part: int | None = None) -> float:
        """The support of a sentence (part None) or of one part of it."""
        if part is None:
            return self.sentences.get((key, index), 0.0)
        return self.units.get((key, index, part), 0.0) + self.units.get((key, index, None), 0.0)


def _order(key: AnswerKey) -> tuple[ParagraphKey, int, int]:
    """Sentences in order, a sentence before its parts."""
    paragraph, index, part = key
    return paragraph, index, -1 if part is None else part


def _whole_paragraph(key: ParagraphKey, sentences: int) -> tuple[AnswerRef, ...]:
    """Every sentence of a paragraph, in order (both languages have the same sentences; the corpus checks it)."""
    return tuple((*key, index, None) for index in range(sentences))
