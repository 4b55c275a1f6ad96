"""Case results folded into metrics: overall (the headline summary), per category and per language."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from evals.cases import CATEGORIES
from evals.scoring import CaseResult

# The headline metrics, in report order, with how each reads.
HEADLINE: dict[str, str] = {
    "hit_at_1": "hit@1",
    "hit_at_3": "hit@3",
    "mrr": "MRR",
    "ndcg_at_10": "nDCG@10",
    "key_fact_recall": "key facts",
    "similarity": "similarity",
    "citation_precision": "citation precision",
    "citation_validity": "citation validity",
    "faithfulness": "faithfulness",
    "language_accuracy": "language",
    "refusal_precision": "refusal precision",
    "refusal_recall": "refusal recall",
    "filter_exact_match": "filter match",
    "intent_accuracy": "intent",
    "lead_accuracy": "lead",
    "sentence_precision": "sentence precision",
    "yes_no_misuse": "yes/no misuse",
    "unexpected_opener": "unexpected opener",
    "dangling_references": "dangling",
    "repeated_answer": "repeated answer",
    "false_filter": "false filters",
    "in_scope_refused": "in-scope refused",
    "match_precision": "match precision",
    "match_recall": "match recall",
    "cheapest_correct": "cheapest",
    "latency_p50_ms": "p50 ms",
    "latency_p95_ms": "p95 ms",
}
LOWER_IS_BETTER = frozenset(
    {
        "latency_p50_ms",
        "latency_p95_ms",
        "false_filter",
        "in_scope_refused",
        "yes_no_misuse",
        "unexpected_opener",
        "dangling_references",
        "repeated_answer",
    }
)
_OVER_ALL_CASES = frozenset({"refusal_precision", "refusal_recall", "latency_p50_ms", "latency_p95_ms"})
# The headline metrics that are means of per-case values; the others are counted over all cases.
_MEANS = tuple(name for name in HEADLINE if name not in _OVER_ALL_CASES)

Summary = dict[str, float | int | None]


def _mean(values: Sequence[float]) -> float | None:
    return float(np.mean(values)) if values else None


def _ratio(numerator: int, denominator: int) -> float | None:
    return numerator / denominator if denominator else None


def summarize(results: Sequence[CaseResult]) -> Summary:
    """Means of the per-case metrics over the cases scored on them; refusal P/R and latency over all."""
    summary: Summary = {"cases": len(results)}
    for name in _MEANS:
        summary[name] = _mean([value for r in results if (value := r.metrics.get(name)) is not None])
    refused = [r for r in results if r.refused]
    must = [r for r in results if r.case.must_refuse]
    correct = sum(r.case.must_refuse for r in refused)
    summary["refusal_precision"] = _ratio(correct, len(refused))
    summary["refusal_recall"] = _ratio(correct, len(must))
    latencies = [r.latency_ms for r in results if r.latency_ms is not None]
    summary["latency_p50_ms"] = float(np.percentile(latencies, 50)) if latencies else None
    summary["latency_p95_ms"] = float(np.percentile(latencies, 95)) if latencies else None
    return summary


def _grouped(
    results: Sequence[CaseResult], key: Callable[[CaseResult], str], order: Sequence[str]
) -> dict[str, Summary]:
    groups = {name: [r for r in results if key(r) == name] for name in order}
    return {name: summarize(members) for name, members in groups.items() if members}


def by_category(results: Sequence[CaseResult]) -> dict[str, Summary]:
    return _grouped(results, lambda r: r.case.category, CATEGORIES)


def by_language(results: Sequence[CaseResult]) -> dict[str, Summary]:
    return _grouped(results, lambda r: r.case.language, ("en", "nl"))
