"""What improved and what regressed between two report.json files."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from evals.aggregate import LOWER_IS_BETTER
from evals.formatting import Report, fmt, label

# Differences within these are noise: half a hundredth of a share; a tenth of a latency, at least 1 ms.
_SHARE_TOLERANCE = 0.005
_LATENCY_TOLERANCE = 0.10


@dataclass(frozen=True)
class Change:
    where: str
    metric: str
    old: float
    new: float

    def __str__(self) -> str:
        delta = self.new - self.old
        return (
            f"{self.where}: {label(self.metric)} {fmt(self.metric, self.old)} → {fmt(self.metric, self.new)} "
            f"({delta:+.2f})"
        )


@dataclass
class Comparison:
    improved: list[Change] = field(default_factory=list)
    regressed: list[Change] = field(default_factory=list)


def _direction(metric: str, old: float, new: float) -> int:
    """+1 better, -1 worse, 0 within noise."""
    if metric in LOWER_IS_BETTER:
        if abs(new - old) <= max(_LATENCY_TOLERANCE * old, 1.0):
            return 0
        return 1 if new < old else -1
    if abs(new - old) < _SHARE_TOLERANCE:
        return 0
    return 1 if new > old else -1


def _scopes(report: Report) -> dict[str, dict[str, Any]]:
    scopes = {"overall": report["summary"]}
    scopes |= {f"category {name}": values for name, values in report["by_category"].items()}
    scopes |= {f"language {name}": values for name, values in report["by_language"].items()}
    scopes |= {f"case {case['id']}": {"score": case["score"]} for case in report["cases"]}
    return scopes


def compare_reports(old: Report, new: Report) -> Comparison:
    """Metric by metric, in every scope both reports share (overall, category, language, case)."""
    comparison = Comparison()
    old_scopes = _scopes(old)
    for where, values in _scopes(new).items():
        before = old_scopes.get(where, {})
        for metric, value in values.items():
            previous = before.get(metric)
            if metric == "cases" or value is None or previous is None:
                continue
            change = Change(where, metric, float(previous), float(value))
            direction = _direction(metric, change.old, change.new)
            if direction > 0:
                comparison.improved.append(change)
            elif direction < 0:
                comparison.regressed.append(change)
    return comparison


def render_comparison(comparison: Comparison, old_name: str) -> str:
    parts = [f"# Compared with {old_name}"]
    for title, changes in (("Regressed", comparison.regressed), ("Improved", comparison.improved)):
        lines = "\n".join(f"- {change}" for change in changes) or "- nothing"
        parts.append(f"## {title} ({len(changes)})\n\n{lines}")
    return "\n\n".join(parts) + "\n"
