"""report.md: the summary, the tables per category and language, ablations, and the worst cases."""

from __future__ import annotations

from typing import Any

from evals.aggregate import HEADLINE
from evals.formatting import TABLE_METRICS, Report, fmt, label, markdown_table, metric_rows, worst_first

_ABLATION_METRICS = (
    "hit_at_1",
    "hit_at_3",
    "mrr",
    "ndcg_at_10",
    "key_fact_recall",
    "similarity",
    "faithfulness",
    "citation_precision",
    "refusal_precision",
    "refusal_recall",
    "latency_p50_ms",
)
_WORST_SHOWN = 25


def ablation_table(entries: list[dict[str, Any]]) -> str:
    """One row per configuration, with hit@1 per language beside the overall figures."""
    header = ["configuration", "hit@1 en", "hit@1 nl"] + [label(m) for m in _ABLATION_METRICS]
    rows = []
    for entry in entries:
        name = f"**{entry['name']}** (default)" if entry.get("baseline") else entry["name"]
        languages = entry["by_language"]
        per_language = [fmt("hit_at_1", languages.get(code, {}).get("hit_at_1")) for code in ("en", "nl")]
        rows.append([name, *per_language] + [fmt(m, entry["summary"].get(m)) for m in _ABLATION_METRICS])
    return markdown_table(header, rows)


def _config_line(config: dict[str, Any]) -> str:
    return ", ".join(f"{key} `{value}`" for key, value in config.items())


def render_markdown(report: Report) -> str:
    summary = report["summary"]
    parts = [
        "# Evaluation report",
        f"{summary['cases']} cases; {_config_line(report['config'])}; {report['created']}.",
        "## Summary",
        markdown_table(["metric", "value"], [[label(m), fmt(m, summary.get(m))] for m in HEADLINE]),
    ]
    failures = report.get("threshold_failures")
    if failures:
        parts += ["## Under threshold", "\n".join(f"- {failure}" for failure in failures)]
    header = ["cases"] + [label(m) for m in TABLE_METRICS]
    parts += ["## Per category", markdown_table(["category", *header], metric_rows(report["by_category"]))]
    parts += ["## Per language", markdown_table(["language", *header], metric_rows(report["by_language"]))]
    if report.get("ablations"):
        parts += ["## Ablations", ablation_table(report["ablations"])]
    failing = [case for case in worst_first(report) if case["problems"]][:_WORST_SHOWN]
    parts.append(f"## Worst cases ({len(failing)} shown)")
    for case in failing:
        problems = "\n".join(f"  - {problem}" for problem in case["problems"])
        parts.append(
            f"- `{case['id']}` ({case['category']}, {case['language']}, score {case['score']:.2f}): "
            f"{case['question']}\n  - answer: {case['answer']}\n{problems}"
        )
    return "\n\n".join(parts) + "\n"
