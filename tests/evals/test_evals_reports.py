"""The three report files, their summary keys, the inline charts and the worst-first order."""

import json

from evals.aggregate import HEADLINE
from evals.markdown import ablation_table
from evals.report import build_report, write_reports
from tests.evals.helpers import cited_answer, judge, make_case, observe, refusal


def sample_report():
    good = make_case(id="good-case", relevant_sections=["gpu-sharing"], language="nl")
    bad = make_case(id="bad-case", relevant_sections=["tradeoffs"], key_facts=[["drain"]])
    results = [
        judge().score(good, observe(cited_answer(language="nl"))),
        judge().score(bad, observe(refusal(), ranking=["faq-drivers"])),
    ]
    return build_report(results, {"mode": "in-process", "retrieval": "hybrid"})


def test_files_and_summary(tmp_path):
    paths = write_reports(sample_report(), tmp_path)
    assert sorted(path.name for path in paths) == ["report.html", "report.json", "report.md"]
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert set(data["summary"]) == set(HEADLINE) | {"cases"}
    assert set(data["by_category"]) == {"section"}
    assert set(data["by_language"]) == {"en", "nl"}
    assert [case["id"] for case in data["cases"]] == ["good-case", "bad-case"]


def test_html_is_self_contained_with_charts_and_worst_first(tmp_path):
    write_reports(sample_report(), tmp_path)
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert html.count("<svg") == 2  # per category and per language
    assert 'class="bar"' in html
    assert "<script" not in html and "<link" not in html and "src=" not in html
    assert html.index("bad-case") < html.index("good-case")
    assert "refused an answerable question" in html
    assert "Plain Kubernetes treats a GPU" in html  # the answer and its citation are shown


def test_markdown_lists_the_failing_case(tmp_path):
    write_reports(sample_report(), tmp_path)
    markdown = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "## Per category" in markdown and "## Per language" in markdown
    assert "`bad-case`" in markdown and "missing fact: drain" in markdown
    assert "`good-case`" not in markdown  # nothing to report on a case without problems


def test_ablations_appear_as_a_table_and_a_chart(tmp_path):
    report = sample_report()
    entry = {"summary": report["summary"], "by_language": report["by_language"]}
    report["ablations"] = [
        {"name": "e5 · hybrid", "baseline": True, **entry},
        {"name": "e5 · dense", "baseline": False, **entry},
    ]
    write_reports(report, tmp_path)
    table = ablation_table(report["ablations"])
    assert table.splitlines()[0].startswith("| configuration | hit@1 en | hit@1 nl |")
    assert "**e5 · hybrid** (default)" in table
    assert table in (tmp_path / "report.md").read_text(encoding="utf-8")
    assert (tmp_path / "report.html").read_text(encoding="utf-8").count("<svg") == 3
