"""One run per alternative of each switch (retrieval, embedding model, sentence selection), the others kept."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, get_args

from assistant.config import Settings
from evals.aggregate import by_language, summarize
from evals.cases import Case
from evals.harness import evaluate, in_process_runner, settings_config
from evals.scoring import CaseResult, Judge

_SWITCHES = {
    "retrieval": get_args(Settings.model_fields["retrieval"].annotation),
    "embedding_model": get_args(Settings.model_fields["embedding_model"].annotation),
    "sentence_selection": (True, False),
}


def variant_name(settings: Settings) -> str:
    selection = "sentence selection" if settings.sentence_selection else "whole passages"
    return f"{settings.embedding_model} · {settings.retrieval} · {selection}"


def variants(base: Settings) -> list[Settings]:
    """The base first, then the base with one switch changed, for every other value of every switch."""
    found = [base]
    for switch, values in _SWITCHES.items():
        found += [
            base.model_copy(update={switch: value}) for value in values if value != getattr(base, switch)
        ]
    return found


def run_ablations(
    base: Settings, cases: Sequence[Case], judge: Judge
) -> tuple[list[CaseResult], list[dict[str, Any]]]:
    """The base configuration's results, and one table entry per configuration."""
    entries: list[dict[str, Any]] = []
    base_results: list[CaseResult] = []
    for settings in variants(base):
        name = variant_name(settings)
        results = evaluate(in_process_runner(settings), cases, judge, title=name)
        if settings is base:
            base_results = results
        entries.append(
            {
                "name": name,
                "baseline": settings is base,
                "settings": settings_config(settings),
                "summary": summarize(results),
                "by_language": by_language(results),
            }
        )
    return base_results, entries
