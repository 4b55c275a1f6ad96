"""Scope and intent, learned: logistic regressions over the question's e5 vector and a few corpus features.

The models are fitted when the assistant starts, on the labelled bank (`corpus/question_bank/`, embedded
at index time), and then applied as plain linear functions, so a question costs two dot products. Their
probabilities are calibrated (`python -m evals.bank` reports cross-validated accuracy and calibration), so
the refusal threshold is a probability rather than a score tuned on the evaluation questions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from assistant.text import content_terms

REGULARIZATION = 0.3  # sklearn's C: chosen by cross-validation on the bank (`python -m evals.bank`)
IN_SCOPE_THRESHOLD = 0.5  # a calibrated probability: refuse when out of scope is the likelier reading


@dataclass(frozen=True)
class CorpusEvidence:
    """What the corpus says about a question besides its vector: how close its passages come, and how
    many of the question's words the corpus uses at all."""

    guide_vectors: np.ndarray  # unit vectors of the guide's passages
    record_vectors: np.ndarray  # unit vectors of the provider records' passages
    knows: Callable[[str], bool]

    def features(self, text: str, vector: np.ndarray) -> np.ndarray:
        terms = content_terms(text)
        known = sum(self.knows(term) for term in terms) / len(terms) if terms else 0.0
        guide = float(np.max(self.guide_vectors @ vector))
        records = float(np.max(self.record_vectors @ vector))
        return np.concatenate([vector, [guide, records, known]]).astype(np.float64)


@dataclass(frozen=True)
class LinearScore:
    """A fitted scaler and logistic regression folded into one weight vector and bias."""

    weights: np.ndarray
    bias: float

    @classmethod
    def fit(cls, features: np.ndarray, labels: Sequence[bool]) -> LinearScore:
        model = make_pipeline(StandardScaler(), LogisticRegression(C=REGULARIZATION, max_iter=5000))
        model.fit(features, np.asarray(labels, dtype=int))
        scaler, regression = model.steps[0][1], model.steps[1][1]
        weights = regression.coef_[0] / scaler.scale_
        bias = float(regression.intercept_[0] - np.dot(weights, scaler.mean_))
        return cls(weights, bias)

    def probability(self, features: np.ndarray) -> np.ndarray | float:
        return 1.0 / (1.0 + np.exp(-(features @ self.weights + self.bias)))


@dataclass(frozen=True)
class IntentScores:
    """Calibrated probabilities: in scope at all; and, in scope, asking for providers or for the guide."""

    in_scope: float
    providers: float
    guide: float

    @property
    def out_of_scope(self) -> bool:
        return self.in_scope < IN_SCOPE_THRESHOLD


@dataclass(frozen=True)
class IntentModel:
    scope: LinearScore
    providers: LinearScore
    guide: LinearScore

    @classmethod
    def fit(cls, features: np.ndarray, intents: Sequence[frozenset[str]]) -> IntentModel:
        """Scope on every question; providers and guide on the questions in scope."""
        in_scope = np.array(["out_of_scope" not in labels for labels in intents])
        inside = [labels for labels, keep in zip(intents, in_scope, strict=True) if keep]
        return cls(
            scope=LinearScore.fit(features, in_scope),
            providers=LinearScore.fit(features[in_scope], ["providers" in labels for labels in inside]),
            guide=LinearScore.fit(features[in_scope], ["guide" in labels for labels in inside]),
        )

    def scores(self, features: np.ndarray) -> IntentScores:
        return IntentScores(
            in_scope=float(self.scope.probability(features)),
            providers=float(self.providers.probability(features)),
            guide=float(self.guide.probability(features)),
        )
