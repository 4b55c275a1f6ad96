"""report.html: one self-contained page with inline SVG charts and every case, worst first."""

from __future__ import annotations

from html import escape
from typing import Any

from evals.aggregate import HEADLINE
from evals.charts import grouped_bars
from evals.formatting import Report, fmt, label, worst_first

CHART_SERIES = (
    "hit_at_3",
    "key_fact_recall",
    "similarity",
    "citation_precision",
    "citation_validity",
    "faithfulness",
    "language_accuracy",
    "refusal_recall",
)
_ABLATION_SERIES = ("hit_at_1", "ndcg_at_10", "key_fact_recall", "faithfulness", "refusal_recall")

_STYLE = """
body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:1400px}
h1{margin-bottom:4px}.meta{color:#666;margin-top:0}
.cards{display:flex;flex-wrap:wrap;gap:8px;margin:16px 0}
.card{border:1px solid #ddd;border-radius:6px;padding:8px 12px;min-width:110px}
.card b{display:block;font-size:20px}.card.fail{border-color:#d33;background:#fdecec}
.charts{display:flex;flex-wrap:wrap;gap:24px}
table{border-collapse:collapse;width:100%;font-size:13px}
th,td{border-bottom:1px solid #eee;padding:6px;text-align:left;vertical-align:top}
th{background:#f6f6f6;position:sticky;top:0}
.score{font-weight:bold;text-align:right}.bad{background:#fdecec}.mid{background:#fff6e0}.good{background:#ecf8ec}
.problems{color:#b00;margin:0;padding-left:16px}.cite{color:#555;margin:0 0 4px}
.history{color:#777;font-size:12px}.failures{color:#b00}
"""


def _cards(report: Report) -> str:
    failed = set(report.get("failed_metrics", []))
    cards = []
    for name in HEADLINE:
        css = "card fail" if name in failed else "card"
        value = fmt(name, report["summary"].get(name))
        cards.append(f'<div class="{css}"><b>{value}</b>{escape(label(name))}</div>')
    return f'<div class="cards">{"".join(cards)}</div>'


def _charts(report: Report) -> str:
    names = {name: label(name) for name in HEADLINE}
    charts = [
        grouped_bars("Per category", report["by_category"], CHART_SERIES, names),
        grouped_bars("Per language", report["by_language"], CHART_SERIES, names),
    ]
    if report.get("ablations"):
        groups = {entry["name"]: entry["summary"] for entry in report["ablations"]}
        charts.append(grouped_bars("Ablations", groups, _ABLATION_SERIES, names))
    return f'<div class="charts">{"".join(charts)}</div>'


def _score_class(score: float) -> str:
    return "good" if score >= 1 else "mid" if score >= 0.75 else "bad"


def _row(rank: int, case: dict[str, Any]) -> str:
    history = "".join(
        f'<div class="history">{escape(turn["role"])}: {escape(turn["content"])}</div>'
        for turn in case["history"]
    )
    citations = "".join(
        f'<p class="cite">[{c["n"]}] <code>{escape(c["section_id"])}</code> “{escape(c["quote"])}”</p>'
        for c in case["citations"]
    )
    problems = "".join(f"<li>{escape(problem)}</li>" for problem in case["problems"])
    refused = " <em>(refused)</em>" if case["refused"] else ""
    return (
        f'<tr><td>{rank}</td><td class="score {_score_class(case["score"])}">{case["score"]:.2f}</td>'
        f"<td><code>{escape(case['id'])}</code><br>{case['category']} · {case['language']}</td>"
        f"<td>{history}{escape(case['question'])}</td>"
        f"<td>{escape(case['answer'] or '')}{refused}{citations}</td>"
        f'<td><ul class="problems">{problems}</ul></td></tr>'
    )


def render_html(report: Report) -> str:
    config = ", ".join(f"{key} {value}" for key, value in report["config"].items())
    failures = "".join(f"<li>{escape(failure)}</li>" for failure in report.get("threshold_failures", []))
    rows = "".join(_row(rank, case) for rank, case in enumerate(worst_first(report), start=1))
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>Evaluation report</title><style>{_STYLE}</style></head><body>"
        f'<h1>Evaluation report</h1><p class="meta">{report["summary"]["cases"]} cases · {escape(config)} · '
        f"{escape(report['created'])}</p>"
        + (f'<ul class="failures">{failures}</ul>' if failures else "")
        + _cards(report)
        + _charts(report)
        + '<h2>Cases, worst first</h2><table id="cases"><thead><tr><th>#</th><th>score</th><th>case</th>'
        "<th>question</th><th>answer and citations</th><th>problems</th></tr></thead>"
        f"<tbody>{rows}</tbody></table></body></html>"
    )
