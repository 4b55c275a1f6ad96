"""The report as one JSON-ready dict, and writing it out as report.json, report.md and report.html."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from evals.aggregate import by_category, by_language, summarize
from evals.formatting import Report
from evals.html_report import render_html
from evals.markdown import render_markdown
from evals.scoring import CaseResult


def case_record(result: CaseResult) -> dict[str, Any]:
    """One case as a reader needs it: the question, the verdicts, the answer with its citations."""
    case, answer = result.case, result.answer
    return {
        "id": case.id,
        "question": case.question,
        "history": [turn.model_dump() for turn in case.history],
        "language": case.language,
        "category": case.category,
        "must_refuse": case.must_refuse,
        "score": round(result.score, 4),
        "metrics": result.metrics,
        "problems": result.problems,
        "error": result.error,
        "latency_ms": result.latency_ms,
        "answer": answer.answer if answer else None,
        "answer_language": answer.language if answer else None,
        "refused": answer.refused if answer else None,
        "citations": [c.model_dump(include={"n", "section_id", "quote"}) for c in answer.citations]
        if answer
        else [],
        "filter": answer.providers.filter if answer and answer.providers else None,
        "expected_filter": case.expected_filter if case.checks_filter else "not checked",
        "relevant_sections": list(case.relevant_sections),
        "ranking": result.ranking[:10],
    }


def build_report(results: list[CaseResult], config: dict[str, Any]) -> Report:
    return {
        "summary": summarize(results),
        "config": config,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "by_category": by_category(results),
        "by_language": by_language(results),
        "cases": [case_record(result) for result in results],
    }


def write_reports(report: Report, out_dir: Path) -> list[Path]:
    """Writes the three reports; returns their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    files = {
        "report.json": json.dumps(report, indent=2, ensure_ascii=False),
        "report.md": render_markdown(report),
        "report.html": render_html(report),
    }
    paths = []
    for name, text in files.items():
        path = out_dir / name
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def load_report(path: Path) -> Report:
    return json.loads(path.read_text(encoding="utf-8"))
