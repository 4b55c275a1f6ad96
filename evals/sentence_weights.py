"""`python -m evals.sentence_weights`: fits the answer composer's sentence weights on the tuning set.

A candidate sentence answers a case when its section is relevant and it states one of the case's key facts
(in either language). A logistic regression over the composer's features (`assistant.answering.FEATURES`)
is fitted on the answerable cases of the tuning sets (`evals/data`, and the blind sets 1 to 16 since their
failures were studied), never on a set that still measures (`evals/blind18`, `evals/blind30`, `evals/blind46`,
`evals/blind47`, `evals/blind48`, `evals/blind49`, `evals/blind50`, `evals/blind51`, `evals/blind52`,
`evals/blind53`, `evals/blind54`, `evals/reserve`, `evals/heldout`), and cross-validated by case: the printed
weights are what `assistant/answering.py` holds.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold

from assistant.answering import FEATURES
from assistant.config import Settings
from assistant.models import Turn
from assistant.service import Assistant
from evals.cases import DATA_DIR, Case, load_cases
from evals.text import fold

TUNING_SETS = [DATA_DIR, DATA_DIR.parent / "blind", *(DATA_DIR.parent / f"blind{n}" for n in range(2, 17))]
_STRENGTH = 10.0  # sklearn's C: the features are few and the pairs many, so little regularization


def _labelled(assistant: Assistant, case: Case) -> tuple[np.ndarray, np.ndarray]:
    history = [Turn(role=turn.role, content=turn.content) for turn in case.history] or None
    search = assistant.search(case.question, None, history)
    rows, labels = [], []
    for choice, features in assistant.composer.candidates(search.hits, search.analysis):
        paragraph = assistant.knowledge.paragraphs[choice.key]
        text = fold(" ".join(sentences[choice.index] for sentences in paragraph.sentences.values()))
        states = any(any(fold(wording) in text for wording in fact) for fact in case.key_facts)
        rows.append(features)
        labels.append(case.is_relevant(choice.key[0]) and states)
    return np.array(rows), np.array(labels, dtype=int)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m evals.sentence_weights")
    parser.add_argument(
        "--data",
        type=Path,
        nargs="+",
        default=TUNING_SETS,
        help="the tuning sets (never a set that measures)",
    )
    args = parser.parse_args(argv)
    assistant = Assistant.from_settings(Settings())
    every_case = [case for folder in args.data for case in load_cases(folder)]
    cases = [c for c in every_case if not c.must_refuse and c.key_facts and not c.asks_records]
    cases = [c for c in cases if not any(s.startswith("provider:") for s in c.relevant_sections)]
    parts = [_labelled(assistant, case) for case in cases]
    parts = [(rows, labels) for rows, labels in parts if len(rows)]
    features = np.concatenate([rows for rows, _ in parts])
    labels = np.concatenate([labels for _, labels in parts])
    groups = np.concatenate([np.full(len(rows), i) for i, (rows, _) in enumerate(parts)])

    leads = []
    for train, test in GroupKFold(n_splits=5).split(features, labels, groups):
        model = LogisticRegression(C=_STRENGTH, max_iter=10000).fit(features[train], labels[train])
        scores = model.decision_function(features[test])
        for group in np.unique(groups[test]):
            members = groups[test] == group
            leads.append(labels[test][members][np.argmax(scores[members])])
    model = LogisticRegression(C=_STRENGTH, max_iter=10000).fit(features, labels)
    print(f"{len(parts)} cases, {len(labels)} candidate sentences, {labels.sum()} answering")
    print(f"cross-validated: the best-scored sentence answers in {np.mean(leads):.2f} of cases")
    for name, weight in zip(FEATURES, model.coef_[0], strict=True):
        print(f"  {name:22s} {weight:8.2f}")
    print(f"  {'bias':22s} {model.intercept_[0]:8.2f}")


if __name__ == "__main__":
    main()
