"""One case scored end to end, and results folded into summaries."""

import pytest

from evals.aggregate import by_category, by_language, summarize
from tests.evals.helpers import cited_answer, judge, make_case, observe, refusal

SHARING_CASE = make_case(
    relevant_sections=["gpu-sharing"],
    reference="Plain Kubernetes allocates whole GPUs.",
    key_facts=[["indivisible"], ["mig"]],
)


def test_a_good_extractive_answer():
    result = judge(similarity=0.8).score(SHARING_CASE, observe(cited_answer()))
    metrics = result.metrics
    assert metrics["hit_at_1"] == 1.0
    assert metrics["key_fact_recall"] == 0.5
    assert metrics["similarity"] == 0.8
    assert metrics["citation_precision"] == 1.0
    assert metrics["citation_validity"] == 1.0
    assert metrics["faithfulness"] == 1.0
    assert metrics["language_accuracy"] == 1.0
    assert metrics["refusal_correct"] == 1.0
    assert "filter_exact_match" not in metrics  # the case names no expected filter
    assert metrics["lead_accuracy"] == 1.0  # its first sentence is cited to a relevant section, with a fact
    assert metrics["sentence_precision"] == 1.0
    assert metrics["dangling_references"] == 0.0
    assert result.problems == ["missing fact: mig"]
    # Checks scored: ndcg 1, facts .5, precision 1, validity 1, faithfulness 1, language 1, refusal 1,
    # lead 1, sentence precision 1 (no intents: the answer names none).
    assert result.score == pytest.approx(8.5 / 9)


def test_refusing_an_answerable_question():
    result = judge().score(SHARING_CASE, observe(refusal(), ranking=[]))
    assert result.metrics["refusal_correct"] == 0.0
    assert result.metrics["hit_at_3"] == 0.0
    assert result.metrics["citation_precision"] is None
    assert "refused an answerable question" in result.problems


def test_a_must_refuse_case_is_scored_on_refusal_language_and_filter():
    case = make_case(category="out-of-scope", must_refuse=True, expected_filter=None)
    result = judge().score(case, observe(refusal(), ranking=[]))
    assert set(result.metrics) == {
        "citation_validity",
        "faithfulness",
        "language_accuracy",
        "refusal_correct",
        "filter_exact_match",
    }
    assert result.score == 1.0


def test_wrong_language_and_filter():
    case = make_case(relevant_sections=["gpu-sharing", "provider:*"], expected_filter={"spot": True})
    result = judge().score(case, observe(cited_answer(language="nl", providers={"spot": True, "amd": True})))
    assert result.metrics["language_accuracy"] == 0.0
    assert result.metrics["filter_exact_match"] == 0.0


def test_an_error_fails_every_applicable_check():
    result = judge().score_error(SHARING_CASE, "ConnectError: refused")
    assert result.score == 0.0
    assert result.metrics["key_fact_recall"] == 0.0
    assert result.problems == ["error: ConnectError: refused"]


def test_summaries():
    answered = make_case(id="in", relevant_sections=["gpu-sharing"], language="nl")
    outside = make_case(id="out", category="out-of-scope", must_refuse=True)
    outside_2 = make_case(id="out2", category="out-of-scope", must_refuse=True)
    results = [
        judge().score(answered, observe(refusal("nl"), ranking=[], latency_ms=10)),  # false refusal
        judge().score(outside, observe(refusal(), latency_ms=20)),  # right refusal
        judge().score(outside_2, observe(cited_answer(), latency_ms=30)),  # answered, should refuse
    ]
    summary = summarize(results)
    assert summary["cases"] == 3
    assert summary["refusal_precision"] == 0.5  # 1 right of 2 refusals
    assert summary["refusal_recall"] == 0.5  # 1 of 2 must-refuse cases
    assert summary["hit_at_1"] == 0.0  # only the answerable case is scored on retrieval
    assert summary["latency_p50_ms"] == 20.0
    assert summary["latency_p95_ms"] == pytest.approx(29.0)  # linear: 20 + 0.9 * (30 - 20)
    assert summary["filter_exact_match"] is None
    assert set(by_category(results)) == {"section", "out-of-scope"}
    assert by_language(results)["nl"]["cases"] == 1
