"""Runs the cases through a runner and scores them; builds the judge and the in-process runner."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Sequence
from typing import Any

from assistant.chunking import build_documents
from assistant.config import Settings
from assistant.service import Assistant
from assistant.text import split_sentences
from evals.cases import Case
from evals.citations import QuoteBook
from evals.reading import SentenceBook
from evals.runners import InProcessRunner, Runner
from evals.scoring import CaseResult, Judge
from evals.similarity import Similarity


def make_judge(settings: Settings) -> Judge:
    """Quotes are checked against the local corpus, also when the assistant under test runs elsewhere."""
    documents = build_documents(settings)
    return Judge(
        QuoteBook.from_documents(documents),
        SentenceBook.from_documents(documents),
        split_sentences,
        Similarity.default(),
    )


def in_process_runner(settings: Settings) -> InProcessRunner:
    return InProcessRunner(Assistant.from_settings(settings))


def settings_config(settings: Settings) -> dict[str, Any]:
    """The ablation switches of a configuration, as the report names it."""
    return {
        "mode": "in-process",
        "embedding_model": settings.embedding_model,
        "retrieval": settings.retrieval,
        "sentence_selection": settings.sentence_selection,
    }


def _progress(title: str, done: int, total: int) -> None:
    if sys.stderr.isatty():
        end = "\n" if done == total else ""
        print(f"\r{title}: {done}/{total}", end=end, file=sys.stderr, flush=True)


def evaluate(
    runner: Runner, cases: Sequence[Case], judge: Judge, title: str = "evaluating"
) -> list[CaseResult]:
    """Every case scored; one untimed question first so latency is measured warm.

    A case whose question fails (a server error, say) is scored as failed rather than stopping the run.
    """
    if cases:
        with contextlib.suppress(Exception):  # a failing question is recorded below, with its case
            runner.observe(cases[0])
    results = []
    for done, case in enumerate(cases, start=1):
        try:
            results.append(judge.score(case, runner.observe(case)))
        except Exception as error:  # recorded as this case's failure
            results.append(judge.score_error(case, f"{type(error).__name__}: {error}"))
        _progress(title, done, len(cases))
    return results
