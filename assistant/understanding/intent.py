"""Scope and intent, learned: logistic regressions over the question's e5 vector, a few corpus features and
the question's own words.

The models are fitted when the assistant starts, on the labelled bank (`corpus/question_bank/`, embedded
at index time), and then applied as plain linear functions, so a question costs a few dot products. Their
probabilities are calibrated (`python -m evals.bank` reports cross-validated accuracy and calibration), so
the refusal threshold is a probability rather than a score tuned on the evaluation questions.

Why words beside the vector: an e5 vector is mostly the topic, so "who lets me share a GPU between pods" and
"can I share a GPU between pods" lie close together although one asks for providers and the other for the
guide. The words and word pairs that ask ("who offers", "welke aanbieders", "under $") carry that difference,
and so do the words that leave the topic ("lassen", "kabels thuis"); tf-idf over the bank gives them weights.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import NamedTuple

import numpy as np
from scipy.sparse import csr_matrix, hstack
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

from assistant.text import fold, meaningful_words
from assistant.understanding.asked import asked_for

# Both chosen by cross-validation on the bank (`python -m evals.bank`), never on the evaluation sets.
REGULARIZATION = 10.0  # sklearn's C
# The dense features' scale against the words': below 1, the vector's 387 dimensions are held back more than
# the words (a weight on a scaled-down feature costs more), so the fit leans on words where they decide.
DENSE_SHARE = 0.1
IN_SCOPE_THRESHOLD = 0.5  # a calibrated probability: refuse when out of scope is the likelier reading


@dataclass(frozen=True)
class CorpusEvidence:
    """What the corpus says about a question besides its vector: how close its passages come, and how
    many of the question's words the corpus uses at all."""

    is_record: np.ndarray  # per passage: whether it belongs to a provider record (else to the guide)
    uses: Callable[[str], bool]  # whether a passage has the word as it is spelled

    def features(self, text: str, vector: np.ndarray, similarities: np.ndarray) -> np.ndarray:
        """The vector, the best similarity among the guide's and among the records' passages (one per
        passage in `similarities`), and the share of the text's words the corpus knows."""
        words = meaningful_words(text)
        known = sum(self.uses(word) for word in words) / len(words) if words else 0.0
        guide = float(similarities.max(where=~self.is_record, initial=-1.0))
        records = float(similarities.max(where=self.is_record, initial=-1.0))
        return np.concatenate([vector, [guide, records, known]]).astype(np.float64)


@dataclass(frozen=True)
class BankNeighbours:
    """How close a question comes to the bank's nearest in-scope and nearest out-of-scope question, among all
    of them and among those in its own language.

    A linear function of the vector cannot say this, and it is free of what the similarities to the corpus
    carry besides the topic: every Dutch question lies close to the Dutch guide, the everyday ones too; within
    one language that closeness is shared by both kinds. A bank question's neighbours are sought outside its
    own batch, since a new question has no paraphrase written beside it (`python -m evals.bank`, each batch
    held out: in scope refused 2.3 -> 1.5 %, out of scope answered 5.4 -> 3.7 %)."""

    in_scope: np.ndarray  # per bank question
    batches: np.ndarray  # per bank question: the batch it was written in
    languages: np.ndarray  # per bank question

    def features(self, similarities: np.ndarray, language: str, batch: str | None = None) -> np.ndarray:
        """The best similarity among the in-scope and among the out-of-scope bank questions (`similarities`:
        the question's with each), first of all of them, then of those in `language`; leaving out the
        questions of `batch`."""
        allowed = self.batches != batch if batch else np.ones(len(self.batches), dtype=bool)
        same = allowed & (self.languages == language)
        return np.array(
            [
                similarities.max(where=where & kind, initial=-1.0)
                for where in (allowed, same)
                for kind in (self.in_scope, ~self.in_scope)
            ]
        )


class Words(NamedTuple):
    """One text's words as a sparse vector over a lexicon."""

    indices: np.ndarray
    weights: np.ndarray


@dataclass(frozen=True)
class Lexicon:
    """The bank's words and word pairs, tf-idf weighted: what a question says, beside what it is about.

    sklearn fits the vocabulary and the idf; the vectors are built here, as sklearn's `transform` would build
    them, because its per-call overhead (about a millisecond) is most of a question's cost otherwise.
    """

    analyze: Callable[[str], list[str]]
    vocabulary: dict[str, int]
    idf: np.ndarray

    @classmethod
    def fit(cls, texts: Sequence[str]) -> Lexicon:
        """The words and word pairs of the texts, and the marker of what their question word asks for."""
        words = TfidfVectorizer(preprocessor=fold, ngram_range=(1, 2)).build_analyzer()
        analyze = partial(_terms, words)  # not a closure: a fitted lexicon is kept on disk (`fitted.py`)
        vectorizer = TfidfVectorizer(analyzer=analyze, min_df=2, sublinear_tf=True)
        vectorizer.fit(texts)
        return cls(analyze, vectorizer.vocabulary_, vectorizer.idf_)

    def words(self, text: str) -> Words:
        """The text's known words and pairs with their weights: (1 + log count) times idf, at unit length."""
        counts = Counter(term for term in self.analyze(text) if term in self.vocabulary)
        indices = np.fromiter((self.vocabulary[term] for term in counts), np.intp, len(counts))
        weights = (1.0 + np.log(np.fromiter(counts.values(), float, len(counts)))) * self.idf[indices]
        norm = np.linalg.norm(weights)
        return Words(indices, weights / norm if norm else weights)

    def vectors(self, texts: Sequence[str]) -> csr_matrix:
        """`words` of each text as the rows of one sparse matrix, for fitting."""
        rows = [self.words(text) for text in texts]
        return csr_matrix(
            (
                np.concatenate([row.weights for row in rows]),
                np.concatenate([row.indices for row in rows]),
                np.cumsum([0] + [len(row.indices) for row in rows]),
            ),
            shape=(len(texts), len(self.idf)),
        )


def _terms(words: Callable[[str], list[str]], text: str) -> list[str]:
    """A text's `words`, and the marker of what its question word asks for."""
    marker = asked_for(text)
    return [*words(text), marker] if marker else words(text)


@dataclass(frozen=True)
class LinearScore:
    """A fitted scaler and logistic regression, binary or over several classes, folded into weights for the
    dense features and the words (a row per class; one row when binary)."""

    weights: np.ndarray  # (rows, dense features)
    word_weights: np.ndarray  # (rows, words)
    bias: np.ndarray  # (rows,)

    @classmethod
    def fit(
        cls, features: np.ndarray, words: csr_matrix, labels: Sequence[int], strength: float = REGULARIZATION
    ) -> LinearScore:
        """Binary when the labels take two values (`probability` is that of the larger, True), else
        multinomial over the labels 0 .. n-1 (`probabilities`)."""
        scaler = StandardScaler().fit(features)
        scaled = csr_matrix(scaler.transform(features) * DENSE_SHARE)
        regression = LogisticRegression(C=strength, max_iter=5000)
        regression.fit(hstack([scaled, words]).tocsr(), np.asarray(labels, dtype=int))
        dense, word_weights = np.split(regression.coef_, [features.shape[1]], axis=1)
        weights = dense * DENSE_SHARE / scaler.scale_
        return cls(weights, word_weights, regression.intercept_ - weights @ scaler.mean_)

    def _logits(self, features: np.ndarray, words: Words) -> np.ndarray:
        return self.weights @ features + self.word_weights[:, words.indices] @ words.weights + self.bias

    def probability(self, features: np.ndarray, words: Words) -> float:
        """A binary model's probability for one question: its dense features and its words."""
        return float(1.0 / (1.0 + np.exp(-self._logits(features, words)[0])))

    def probabilities(self, features: np.ndarray, words: Words) -> np.ndarray:
        """A multinomial model's probability of each class for one question."""
        logits = self._logits(features, words)
        exponentials = np.exp(logits - logits.max())
        return exponentials / exponentials.sum()


# What an in-scope question asks, as one class of the joint model: bit 1 the guide, bit 2 providers (0: only
# the named provider's record). One model over the combinations learns when a question asks for both, where
# two independent models each say yes near their threshold (cross-validated on the bank: 0.940 against 0.935).
GUIDE, PROVIDERS = 1, 2


def asks_class(intents: frozenset[str]) -> int:
    """The joint model's class of labelled intents."""
    return GUIDE * ("guide" in intents) + PROVIDERS * ("providers" in intents)


@dataclass(frozen=True)
class IntentScores:
    """Calibrated probabilities: in scope at all; and, in scope, asking for providers or for the guide (each
    summed over the combinations that hold it), with the likeliest combination."""

    in_scope: float
    providers: float
    guide: float
    likeliest: frozenset[str]  # guide, providers, both, or neither (a question about a named provider)

    @property
    def out_of_scope(self) -> bool:
        return self.in_scope < IN_SCOPE_THRESHOLD


@dataclass(frozen=True)
class IntentModel:
    lexicon: Lexicon
    scope: LinearScore
    asks: LinearScore  # over the four classes of `asks_class`

    @classmethod
    def fit(
        cls,
        features: np.ndarray,
        neighbours: np.ndarray,
        texts: Sequence[str],
        intents: Sequence[frozenset[str]],
    ) -> IntentModel:
        """Scope on every question, from the features and the nearest bank questions (`BankNeighbours`); what
        it asks on the questions in scope, from the features (the neighbours were measured for scope only)."""
        lexicon = Lexicon.fit(texts)
        words = lexicon.vectors(texts)
        in_scope = np.array(["out_of_scope" not in labels for labels in intents])
        inside = [labels for labels, keep in zip(intents, in_scope, strict=True) if keep]
        return cls(
            lexicon=lexicon,
            scope=LinearScore.fit(np.hstack([features, neighbours]), words, in_scope),
            asks=LinearScore.fit(
                features[in_scope], words[in_scope], [asks_class(labels) for labels in inside]
            ),
        )

    def scores(self, features: np.ndarray, neighbours: np.ndarray, text: str) -> IntentScores:
        """The scores of one question: its dense features, its nearest bank questions and its text."""
        words = self.lexicon.words(text)
        asks = self.asks.probabilities(features, words)
        likeliest = int(np.argmax(asks))
        return IntentScores(
            in_scope=self.scope.probability(np.concatenate([features, neighbours]), words),
            providers=float(asks[PROVIDERS] + asks[GUIDE | PROVIDERS]),
            guide=float(asks[GUIDE] + asks[GUIDE | PROVIDERS]),
            likeliest=frozenset(
                intent for intent, bit in (("guide", GUIDE), ("providers", PROVIDERS)) if likeliest & bit
            ),
        )
