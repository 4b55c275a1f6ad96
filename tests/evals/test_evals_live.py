"""The harness in-process on a small subset, against the real assistant and its models."""

import json

import pytest

from evals.cases import load_cases
from evals.harness import evaluate, make_judge
from evals.report import build_report, write_reports
from evals.runners import InProcessRunner

# One case of each category in each language.
SUBSET = (
    "faq-drivers-en",
    "faq-multiple-workloads-nl",
    "para-single-en-1",
    "para-multinode-nl-2",
    "gs-time-slicing-en",
    "to-spot-nl",
    "oos-capital-en",
    "oos-helm-nl",
    "prov-managed-mig-en",
    "prov-infiniband-nl",
    "fu-managed-mig-en",
    "fu-spot-nl",
)


@pytest.mark.evals_live
def test_harness_on_a_subset(assistant, settings, tmp_path):
    cases = [case for case in load_cases() if case.id in SUBSET]
    assert len(cases) == len(SUBSET)

    results = evaluate(InProcessRunner(assistant), cases, make_judge(settings))
    write_reports(build_report(results, {"mode": "in-process"}), tmp_path)

    by_id = {result.case.id: result for result in results}
    assert all(result.error is None for result in results)
    for case_id in ("faq-drivers-en", "faq-multiple-workloads-nl"):
        assert by_id[case_id].metrics["hit_at_3"] == 1.0, by_id[case_id].problems
    for case_id in ("oos-capital-en", "oos-helm-nl"):
        assert by_id[case_id].metrics["refusal_correct"] == 1.0, by_id[case_id].problems
    assert all(result.metrics["citation_validity"] == 1.0 for result in results), [
        r.problems for r in results
    ]
    summary = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))["summary"]
    assert summary["cases"] == len(SUBSET)
    assert summary["language_accuracy"] == 1.0
