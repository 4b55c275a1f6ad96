"""`python -m evals.bank`: how well the intent models generalise within the question bank.

Stratified 5-fold cross-validation over `corpus/question_bank/`, of the models the assistant fits (the words'
tf-idf is fitted within each fold too), for several regularization strengths: scope accuracy, the share of
in-scope questions refused and of out-of-scope ones answered, how well P(in scope) is calibrated (Brier
score, expected calibration error), and the accuracy of the providers and guide intents; and, as new questions
are met, with each batch of the bank held out in turn (its writer and time differ from the others'; the scope
model's nearest-neighbour features leave a question's own batch out for the same reason). The regularization,
the dense features' share and the refusal threshold are chosen here, on the bank, never on the evaluation sets.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sklearn.model_selection import StratifiedKFold

from assistant.config import Settings
from assistant.service import Assistant
from assistant.understanding.intent import (
    GUIDE,
    IN_SCOPE_THRESHOLD,
    PROVIDERS,
    REGULARIZATION,
    Lexicon,
    LinearScore,
    asks_class,
)
from evals.formatting import markdown_table

STRENGTHS = (0.3, 1.0, 3.0, 10.0, 30.0)
_BINS = 10


def calibration_error(probabilities: np.ndarray, labels: np.ndarray) -> float:
    """Expected calibration error over equal-width probability bins."""
    bins = np.minimum((probabilities * _BINS).astype(int), _BINS - 1)
    error = 0.0
    for b in range(_BINS):
        members = bins == b
        if members.any():
            error += members.mean() * abs(probabilities[members].mean() - labels[members].mean())
    return float(error)


def _row(label: str, probabilities: np.ndarray, labels: np.ndarray) -> list[str]:
    predicted = probabilities >= IN_SCOPE_THRESHOLD
    refused_in_scope = float(np.mean(~predicted[labels == 1]))
    answered_out_of_scope = float(np.mean(predicted[labels == 0]))
    return [
        label,
        f"{np.mean(predicted == labels):.3f}",
        f"{refused_in_scope:.3f}",
        f"{answered_out_of_scope:.3f}",
        f"{np.mean((probabilities - labels) ** 2):.3f}",
        f"{calibration_error(probabilities, labels):.3f}",
    ]


def cross_validated(
    features: np.ndarray,
    texts: Sequence[str],
    labels: np.ndarray,
    strength: float,
    batches: np.ndarray | None = None,
) -> np.ndarray:
    """Each question's probabilities from the model fitted on the other four fifths of the bank, or, given
    `batches`, on the other batches (a batch was written by another writer at another time, as new questions
    are): of the positive label when the labels are binary, else one column per class."""
    classes = int(labels.max()) + 1
    probabilities = np.zeros((len(labels), classes))
    if batches is None:
        splits = StratifiedKFold(n_splits=5, shuffle=True, random_state=0).split(features, labels)
    else:
        splits = ((np.flatnonzero(batches != b), np.flatnonzero(batches == b)) for b in np.unique(batches))
    for fitted, held_out in splits:
        lexicon = Lexicon.fit([texts[i] for i in fitted])
        model = LinearScore.fit(
            features[fitted], lexicon.vectors([texts[i] for i in fitted]), labels[fitted], strength
        )
        for index in held_out:
            words = lexicon.words(texts[index])
            if classes == 2:
                positive = model.probability(features[index], words)
                probabilities[index] = [1.0 - positive, positive]
            else:
                probabilities[index] = model.probabilities(features[index], words)
    return probabilities[:, 1] if classes == 2 else probabilities


def main() -> None:
    assistant = Assistant.from_settings(Settings())
    features = assistant.analyzer.bank_features
    scope_features = np.hstack([features, assistant.analyzer.bank_neighbours])
    questions = assistant.knowledge.questions
    texts = [question.text for question in questions]
    labels = np.array(["out_of_scope" not in question.intents for question in questions], dtype=int)
    rows = [
        _row(f"C={strength}", cross_validated(scope_features, texts, labels, strength), labels)
        for strength in STRENGTHS
    ]
    batches = np.array([question.batch for question in questions])
    rows.append(
        _row(
            f"C={REGULARIZATION}, each batch held out",
            cross_validated(scope_features, texts, labels, REGULARIZATION, batches),
            labels,
        )
    )
    print(f"{len(questions)} bank questions, {labels.sum()} in scope; 5-fold cross-validation of P(in scope)")
    header = ["model", "accuracy", "in scope refused", "out of scope answered", "Brier", "ECE"]
    print(markdown_table(header, rows))
    inside = labels == 1
    inside_texts = [text for text, keep in zip(texts, inside, strict=True) if keep]
    asked = np.array([asks_class(question.intents) for question in questions])[inside]
    intent_rows = []
    for strength in STRENGTHS:
        probabilities = cross_validated(features[inside], inside_texts, asked, strength)
        row = [f"C={strength}", f"{np.mean(probabilities.argmax(axis=1) == asked):.3f}"]
        for bit in (GUIDE, PROVIDERS):
            wanted = (asked & bit) > 0
            marginal = probabilities[:, [c for c in range(probabilities.shape[1]) if c & bit]].sum(axis=1)
            row += [
                f"{np.mean((marginal >= 0.5) == wanted):.3f}",
                f"{calibration_error(marginal, wanted):.3f}",
            ]
        intent_rows.append(row)
    by_batch = cross_validated(features[inside], inside_texts, asked, REGULARIZATION, batches[inside])
    intent_rows.append(
        [f"C={REGULARIZATION}, each batch held out", f"{np.mean(by_batch.argmax(axis=1) == asked):.3f}"]
        + ["–"] * 4
    )
    print(
        f"\nIn-scope questions (the assistant uses C={REGULARIZATION}): which of guide and providers they ask, one"
        " model over the combinations; accuracy of the likeliest combination, and of each intent on its own"
    )
    header = ["model", "combination", "guide", "guide ECE", "providers", "providers ECE"]
    print(markdown_table(header, intent_rows))


if __name__ == "__main__":
    main()
