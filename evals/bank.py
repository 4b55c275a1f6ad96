"""`python -m evals.bank`: how well the intent models generalise within the question bank.

Stratified 5-fold cross-validation over `corpus/question_bank/` for several regularization strengths:
scope accuracy, the share of in-scope questions refused and of out-of-scope ones answered, and how well
P(in scope) is calibrated (Brier score, expected calibration error). The regularization and the refusal
threshold are chosen here, on the bank, never on the evaluation sets.
"""

from __future__ import annotations

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from assistant.config import Settings
from assistant.service import Assistant
from assistant.understanding.intent import IN_SCOPE_THRESHOLD, REGULARIZATION
from evals.formatting import markdown_table

STRENGTHS = (0.005, 0.01, 0.02, 0.05, 0.1, 0.3, 1.0)
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


def main() -> None:
    assistant = Assistant.from_settings(Settings())
    features = assistant.analyzer.bank_features
    questions = assistant.knowledge.questions
    labels = np.array(["out_of_scope" not in question.intents for question in questions], dtype=int)
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    rows = []
    for strength in STRENGTHS:
        model = make_pipeline(StandardScaler(), LogisticRegression(C=strength, max_iter=5000))
        probabilities = cross_val_predict(model, features, labels, cv=folds, method="predict_proba")[:, 1]
        rows.append(_row(f"C={strength}", probabilities, labels))
    print(f"{len(questions)} bank questions, {labels.sum()} in scope; 5-fold cross-validation of P(in scope)")
    header = ["model", "accuracy", "in scope refused", "out of scope answered", "Brier", "ECE"]
    print(markdown_table(header, rows))
    inside = labels == 1
    intent_rows = []
    for intent in ("providers", "guide"):
        wanted = np.array([intent in question.intents for question in questions], dtype=int)[inside]
        model = make_pipeline(StandardScaler(), LogisticRegression(C=REGULARIZATION, max_iter=5000))
        probabilities = cross_val_predict(model, features[inside], wanted, cv=folds, method="predict_proba")[
            :, 1
        ]
        accuracy = np.mean((probabilities >= 0.5) == wanted)
        intent_rows.append(
            [intent, str(wanted.sum()), f"{accuracy:.3f}", f"{calibration_error(probabilities, wanted):.3f}"]
        )
    print(f"\nIn-scope questions, C={REGULARIZATION}: does the question ask for this intent?")
    print(markdown_table(["intent", "labelled", "accuracy", "ECE"], intent_rows))


if __name__ == "__main__":
    main()
