"""Scores of the answers' provider results against the records: which providers matched, and the cheapest.

A citation of any record used to count as relevant, so a wrong shortlist could pass. These metrics compare
`providers.matches` with the set of slugs the case expects (derived from the records by hand), and a price
question's first match with the expected provider and price.
"""

from __future__ import annotations

from evals.cases import Case
from evals.runners import Observation

MATCH_METRICS = ("match_precision", "match_recall")
CHEAPEST_METRIC = "cheapest_correct"
_PRICE_TOLERANCE = 0.005

Metrics = dict[str, float | None]


def match_scores(actual: set[str], expected: frozenset[str]) -> tuple[float, float]:
    """Precision and recall of the matched slugs; an empty side counts as perfect only against empty."""
    hits = len(actual & expected)
    precision = hits / len(actual) if actual else float(not expected)
    recall = hits / len(expected) if expected else float(not actual)
    return precision, recall


def applicable(case: Case) -> list[str]:
    """The record metrics a case is scored on."""
    names = list(MATCH_METRICS) if case.expected_matches is not None else []
    return names + ([CHEAPEST_METRIC] if case.expected_cheapest is not None else [])


def score_records(case: Case, observation: Observation, metrics: Metrics, problems: list[str]) -> None:
    """Add the record metrics of `case` to `metrics`, and a problem line for each miss."""
    results = observation.answer.providers
    matches = results.matches if results else []
    if case.expected_matches is not None:
        actual = {entry["slug"] for entry in matches}
        metrics["match_precision"], metrics["match_recall"] = match_scores(actual, case.expected_matches)
        if actual != case.expected_matches:
            extra, missing = sorted(actual - case.expected_matches), sorted(case.expected_matches - actual)
            problems.append(f"matches: unexpected {extra}, missing {missing}")
    if case.expected_cheapest is not None:
        expected = case.expected_cheapest
        first = matches[0] if matches else None
        price = (first or {}).get("price") or {}
        amount = price.get("per_gpu_hour")
        correct = (
            first is not None
            and first.get("slug") == expected.slug
            and price.get("currency") == "USD"
            and amount is not None
            and abs(amount - expected.per_gpu_hour) <= _PRICE_TOLERANCE
        )
        metrics[CHEAPEST_METRIC] = float(correct)
        if not correct:
            shown = f"{first.get('slug')} at {amount}" if first else "no match"
            problems.append(f"cheapest: {shown}, expected {expected.slug} at {expected.per_gpu_hour}")
