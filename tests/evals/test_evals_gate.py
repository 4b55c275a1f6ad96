"""Thresholds, and the exit code of `python -m evals` around them (with a stand-in assistant)."""

import json

import pytest

import evals.cli as cli
from evals.thresholds import Thresholds, check_thresholds
from tests.evals.helpers import cited_answer, judge, observe, refusal

CASES = """
- id: sharing-en
  question: Can I share a GPU?
  language: en
  category: section
  relevant_sections: [gpu-sharing]
  key_facts: [["indivisible"], ["mig"]]
- id: capital-en
  question: What is the capital of Australia?
  language: en
  category: out-of-scope
  must_refuse: true
"""


class StandInRunner:
    def observe(self, case):
        return observe(refusal() if case.must_refuse else cited_answer(), latency_ms=5.0)


def test_check_thresholds():
    summary = {"hit_at_1": 0.8, "latency_p95_ms": 120.0, "similarity": None}
    thresholds = Thresholds(
        minimum={"hit_at_1": 0.85, "similarity": 0.5, "mrr": 0.1}, maximum={"latency_p95_ms": 100.0}
    )
    failures = check_thresholds(summary, thresholds)
    assert [(f.metric, f.kind) for f in failures] == [
        ("hit_at_1", "minimum"),
        ("similarity", "minimum"),
        ("mrr", "minimum"),
        ("latency_p95_ms", "maximum"),
    ]
    assert str(failures[0]) == "hit@1 0.80 under minimum 0.85"
    assert str(failures[3]) == "p95 ms 120.0 over maximum 100.0"
    assert check_thresholds({"hit_at_1": 0.85}, Thresholds({"hit_at_1": 0.85}, {})) == []


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    data = tmp_path / "data"
    data.mkdir()
    (data / "cases.yaml").write_text(CASES, encoding="utf-8")
    monkeypatch.setattr(cli, "make_judge", lambda _settings: judge())
    monkeypatch.setattr(cli, "in_process_runner", lambda _settings: StandInRunner())
    return tmp_path


def run(workspace, limits: str, *extra: str) -> int:
    (workspace / "thresholds.toml").write_text(limits, encoding="utf-8")
    argv = ["--data", str(workspace / "data"), "--out", str(workspace / "out")]
    return cli.main([*argv, "--thresholds", str(workspace / "thresholds.toml"), *extra])


def test_exit_0_when_every_metric_meets_its_threshold(workspace, capsys):
    assert (
        run(workspace, "[minimum]\nhit_at_1 = 1.0\nrefusal_recall = 1.0\n[maximum]\nlatency_p95_ms = 50\n")
        == 0
    )
    assert "under threshold" not in capsys.readouterr().out
    assert (workspace / "out" / "report.html").exists()


def test_exit_1_and_names_the_metric_under_its_threshold(workspace, capsys):
    assert run(workspace, "[minimum]\nkey_fact_recall = 1.0\nmrr = 0.5\n") == 1
    out = capsys.readouterr().out
    assert "- key facts 0.50 under minimum 1.00" in out
    assert "mrr" not in out.split("under threshold")[1].lower()
    report = json.loads((workspace / "out" / "report.json").read_text(encoding="utf-8"))
    assert report["failed_metrics"] == ["key_fact_recall"]


def test_compare_prints_and_writes_the_changes(workspace, capsys):
    run(workspace, "")
    old = workspace / "out" / "report.json"
    assert run(workspace, "", "--compare", str(old)) == 0
    assert "## Regressed (0)" in capsys.readouterr().out
    assert (workspace / "out" / "compare.md").exists()


def test_ablations_need_the_assistant_in_process(workspace):
    with pytest.raises(SystemExit):
        run(workspace, "", "--url", "http://localhost:1", "--ablations")


def also_set(workspace, name: str, limits: str):
    folder = workspace / name
    folder.mkdir()
    (folder / "cases.yaml").write_text(CASES, encoding="utf-8")
    (folder / "thresholds.toml").write_text(limits, encoding="utf-8")
    return str(folder)


def test_also_scores_each_set_against_its_own_thresholds(workspace, capsys):
    met = also_set(workspace, "met", "[minimum]\nhit_at_1 = 1.0\n")
    missed = also_set(workspace, "missed", "[minimum]\nkey_fact_recall = 1.0\n")
    assert run(workspace, "", "--also", met) == 0
    assert run(workspace, "", "--also", met, missed) == 1
    out = capsys.readouterr().out
    assert "met: every threshold met" in out
    assert "missed: key facts 0.50 under minimum 1.00" in out
    report = json.loads((workspace / "out" / "missed" / "report.json").read_text(encoding="utf-8"))
    assert report["failed_metrics"] == ["key_fact_recall"]
    assert (workspace / "out" / "met" / "report.html").exists()


def test_also_needs_a_thresholds_file_beside_each_set(workspace, capsys):
    bare = workspace / "bare"
    bare.mkdir()
    with pytest.raises(SystemExit):
        run(workspace, "", "--also", str(bare))
    assert "no thresholds.toml in" in capsys.readouterr().err
