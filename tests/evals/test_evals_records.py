"""Scoring the provider results: match precision and recall of the slugs, and the cheapest provider."""

from __future__ import annotations

from typing import Any

import pytest

from assistant.config import PROJECT_ROOT
from assistant.models import ProviderResults
from evals.cases import load_cases
from evals.record_metrics import match_scores, score_records
from tests.evals.helpers import cited_answer, judge, make_case, observe


def _answer_with(matches: list[dict[str, Any]]):
    answer = cited_answer(providers={"amd": True})
    answer.providers = ProviderResults(filter={"amd": True}, matches=matches, total=len(matches))
    return answer


def _price(amount: float, currency: str = "USD") -> dict[str, Any]:
    return {"per_gpu_hour": amount, "currency": currency}


@pytest.mark.parametrize(
    ("actual", "expected", "scores"),
    [
        ({"a", "b", "c"}, {"a", "b", "d", "e"}, (2 / 3, 2 / 4)),
        ({"a"}, {"a"}, (1.0, 1.0)),
        (set(), {"a"}, (0.0, 0.0)),
        ({"a"}, set(), (0.0, 0.0)),
        (set(), set(), (1.0, 1.0)),
    ],
)
def test_match_precision_and_recall(
    actual: set[str], expected: set[str], scores: tuple[float, float]
) -> None:
    assert match_scores(actual, frozenset(expected)) == pytest.approx(scores)


def test_a_case_is_scored_on_its_expected_matches() -> None:
    case = make_case(
        category="provider", relevant_sections=["provider:*"], expected_matches=["aws", "oci", "vultr"]
    )
    metrics: dict[str, float | None] = {}
    problems: list[str] = []
    answer = _answer_with([{"slug": "aws"}, {"slug": "gcp"}])
    score_records(case, observe(answer), metrics, problems)
    assert metrics == {"match_precision": 0.5, "match_recall": pytest.approx(1 / 3)}
    assert problems == ["matches: unexpected ['gcp'], missing ['oci', 'vultr']"]


@pytest.mark.parametrize(
    ("matches", "correct"),
    [
        ([{"slug": "hyperstack", "price": _price(3.2)}, {"slug": "nebius", "price": _price(3.85)}], 1.0),
        ([{"slug": "nebius", "price": _price(3.85)}, {"slug": "hyperstack", "price": _price(3.2)}], 0.0),
        ([{"slug": "hyperstack", "price": _price(3.5)}], 0.0),  # right provider, wrong price
        ([{"slug": "hyperstack", "price": _price(3.2, "EUR")}], 0.0),
        ([{"slug": "hyperstack", "price": None}], 0.0),
        ([], 0.0),
    ],
)
def test_the_cheapest_must_come_first_at_its_price(matches: list[dict[str, Any]], correct: float) -> None:
    case = make_case(
        category="provider",
        relevant_sections=["provider:*"],
        expected_cheapest={"slug": "hyperstack", "per_gpu_hour": 3.2},
    )
    metrics: dict[str, float | None] = {}
    score_records(case, observe(_answer_with(matches)), metrics, [])
    assert metrics == {"cheapest_correct": correct}


def test_a_failed_question_fails_its_record_metrics() -> None:
    case = make_case(
        category="provider",
        relevant_sections=["provider:*"],
        expected_matches=["aws"],
        expected_cheapest={"slug": "aws", "per_gpu_hour": 1.0},
    )
    metrics = judge().score_error(case, "boom").metrics
    assert (metrics["match_precision"], metrics["match_recall"], metrics["cheapest_correct"]) == (
        0.0,
        0.0,
        0.0,
    )


def test_the_record_cases_name_real_providers() -> None:
    slugs = {path.stem for path in (PROJECT_ROOT / "corpus" / "providers").glob("*.yaml")}
    cases = [case for case in load_cases() if case.id.startswith("rec-")]
    assert len(cases) >= 12
    for case in cases:
        named = set(case.expected_matches or ()) | (
            {case.expected_cheapest.slug} if case.expected_cheapest else set()
        )
        named |= {
            section.removeprefix("provider:") for section in case.relevant_sections if section != "provider:*"
        }
        named -= {section for section in case.relevant_sections if not section.startswith("provider:")}
        assert named <= slugs, (case.id, named - slugs)
