"""Shared by the Markdown and HTML reports: how values print and in which order cases are shown."""

from __future__ import annotations

from typing import Any

from evals.aggregate import HEADLINE

Report = dict[str, Any]

# The metrics shown per category and per language: every headline metric but the p95 latency.
TABLE_METRICS = tuple(name for name in HEADLINE if name != "latency_p95_ms")


def label(name: str) -> str:
    return HEADLINE.get(name, name)


def fmt(name: str, value: Any) -> str:
    """Fractions with two decimals, milliseconds with one, missing values as a dash."""
    if value is None:
        return "–"
    if name.endswith("_ms"):
        return f"{value:.1f}"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def worst_first(report: Report) -> list[dict[str, Any]]:
    return sorted(report["cases"], key=lambda case: (case["score"], case["id"]))


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def metric_rows(
    groups: dict[str, dict[str, Any]], metrics: tuple[str, ...] = TABLE_METRICS
) -> list[list[str]]:
    return [
        [name, str(summary["cases"])] + [fmt(m, summary.get(m)) for m in metrics]
        for name, summary in groups.items()
    ]
