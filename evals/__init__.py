"""Scores the assistant against the test sets in `evals/data/`, offline and without a language model.

`python -m evals` runs every case, writes report.json, report.md and report.html, and exits 1 when a
headline metric falls under its threshold in `evals/thresholds.toml`.
"""
