"""What improved and what regressed between two reports."""

from evals.compare import compare_reports, render_comparison


def report(hit: float, p95: float, case_score: float) -> dict:
    return {
        "summary": {"cases": 1, "hit_at_1": hit, "latency_p95_ms": p95, "similarity": 0.7},
        "by_category": {"faq": {"cases": 1, "hit_at_1": hit}},
        "by_language": {},
        "cases": [{"id": "faq-drivers-en", "score": case_score}],
    }


def test_improvements_regressions_and_noise():
    comparison = compare_reports(report(0.80, 100.0, 1.0), report(0.90, 150.0, 0.5))
    improved = {(c.where, c.metric) for c in comparison.improved}
    regressed = {(c.where, c.metric) for c in comparison.regressed}
    assert improved == {("overall", "hit_at_1"), ("category faq", "hit_at_1")}
    assert regressed == {("overall", "latency_p95_ms"), ("case faq-drivers-en", "score")}


def test_small_differences_are_noise():
    comparison = compare_reports(report(0.800, 100.0, 1.0), report(0.803, 105.0, 1.0))
    assert comparison.improved == [] and comparison.regressed == []


def test_lower_latency_is_an_improvement():
    comparison = compare_reports(report(0.8, 200.0, 1.0), report(0.8, 100.0, 1.0))
    assert [c.metric for c in comparison.improved] == ["latency_p95_ms"]


def test_rendering():
    text = render_comparison(compare_reports(report(0.8, 100.0, 1.0), report(0.9, 100.0, 1.0)), "old.json")
    assert "## Regressed (0)" in text
    assert "overall: hit@1 0.80 → 0.90 (+0.10)" in text
