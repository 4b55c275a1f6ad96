"""The gate: headline metrics against the limits in thresholds.toml."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from evals.formatting import fmt, label

THRESHOLDS_FILE = Path(__file__).resolve().parent / "thresholds.toml"


@dataclass(frozen=True)
class Thresholds:
    minimum: dict[str, float]
    maximum: dict[str, float]


@dataclass(frozen=True)
class Failure:
    metric: str
    value: float | None
    limit: float
    kind: Literal["minimum", "maximum"]

    def __str__(self) -> str:
        if self.value is None:
            return f"{label(self.metric)}: not measured (needs {self.kind} {fmt(self.metric, self.limit)})"
        relation = "under minimum" if self.kind == "minimum" else "over maximum"
        return (
            f"{label(self.metric)} {fmt(self.metric, self.value)} {relation} {fmt(self.metric, self.limit)}"
        )


def load_thresholds(path: Path = THRESHOLDS_FILE) -> Thresholds:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return Thresholds(minimum=dict(data.get("minimum", {})), maximum=dict(data.get("maximum", {})))


def check_thresholds(summary: dict[str, Any], thresholds: Thresholds) -> list[Failure]:
    """Every limit that the summary breaks; a metric the run could not measure breaks its limit too."""
    failures = []
    for kind, limits in (("minimum", thresholds.minimum), ("maximum", thresholds.maximum)):
        for metric, limit in limits.items():
            value = summary.get(metric)
            broken = value is None or (value < limit if kind == "minimum" else value > limit)
            if broken:
                failures.append(Failure(metric, value, limit, kind))
    return failures
