"""`python -m evals [--url URL] [--out DIR] [--compare OLD_REPORT] [--ablations] [--also DIR ...]` (contract §4)."""

from __future__ import annotations

import argparse
from pathlib import Path

from assistant.config import Settings
from evals.ablations import run_ablations
from evals.aggregate import HEADLINE
from evals.cases import DATA_DIR, load_cases
from evals.compare import compare_reports, render_comparison
from evals.formatting import fmt, label, markdown_table
from evals.harness import evaluate, in_process_runner, make_judge, settings_config
from evals.markdown import ablation_table
from evals.report import build_report, load_report, write_reports
from evals.runners import HttpRunner, Runner
from evals.scoring import Judge
from evals.thresholds import THRESHOLDS_FILE, Failure, Thresholds, check_thresholds, load_thresholds

DEFAULT_OUT = Path(__file__).resolve().parent / "out"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m evals", description="Score the assistant on evals/data.")
    parser.add_argument("--url", help="a running server (POST URL/v1/ask); default: the assistant in-process")
    parser.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help="where the reports go (default evals/out)"
    )
    parser.add_argument(
        "--compare", type=Path, metavar="OLD_REPORT", help="an earlier report.json to diff with"
    )
    parser.add_argument(
        "--ablations", action="store_true", help="also run each alternative retrieval, model and selection"
    )
    parser.add_argument(
        "--thresholds", type=Path, default=THRESHOLDS_FILE, help="limits of the headline metrics"
    )
    parser.add_argument("--data", type=Path, default=DATA_DIR, help="the folder of test-set YAML files")
    parser.add_argument(
        "--also",
        type=Path,
        nargs="+",
        default=[],
        metavar="DIR",
        help="more test-set folders, each against its own thresholds.toml, reports in OUT/<folder name>;"
        " one process scores them all, so the model loads once",
    )
    return parser


def _check(report: dict, thresholds: Thresholds) -> list[Failure]:
    """The metrics of a report that break their thresholds, also recorded in the report."""
    failures = check_thresholds(report["summary"], thresholds)
    report["threshold_failures"] = [str(failure) for failure in failures]
    report["failed_metrics"] = [failure.metric for failure in failures]
    return failures


def _gate_also(runner: Runner, judge: Judge, folders: list[Path], out: Path, config: dict) -> bool:
    """Scores each further set against the thresholds beside it; prints one line each; True when all pass."""
    passed = True
    for folder in folders:
        results = evaluate(runner, load_cases(folder), judge, title=folder.name)
        report = build_report(results, config)
        failures = _check(report, load_thresholds(folder / "thresholds.toml"))
        write_reports(report, out / folder.name)
        print(f"{folder.name}: " + ("; ".join(report["threshold_failures"]) or "every threshold met"))
        passed = passed and not failures
    return passed


def main(argv: list[str] | None = None) -> int:
    """Runs, writes the reports, prints the summary; 1 when a metric of any set breaks its threshold, else 0."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.ablations and (args.url or args.also):
        parser.error(
            "--ablations changes the assistant's settings, so it runs in-process and on one set only"
        )
    missing = [str(folder) for folder in args.also if not (folder / "thresholds.toml").is_file()]
    if missing:
        parser.error("no thresholds.toml in " + ", ".join(missing))

    cases = load_cases(args.data)
    thresholds = load_thresholds(args.thresholds)
    old_report = load_report(args.compare) if args.compare else None  # read before --out may overwrite it
    settings = Settings()
    judge = make_judge(settings)

    ablations = None
    runner: Runner | None = None
    if args.url:
        runner = HttpRunner(args.url)
        config = {"mode": "http", "url": args.url}
        results = evaluate(runner, cases, judge)
    elif args.ablations:
        results, ablations = run_ablations(settings, cases, judge)
        config = settings_config(settings)
    else:
        runner = in_process_runner(settings)
        config = settings_config(settings)
        results = evaluate(runner, cases, judge)

    report = build_report(results, config)
    if ablations:
        report["ablations"] = ablations
    failures = _check(report, thresholds)
    paths = write_reports(report, args.out)

    summary = report["summary"]
    print(markdown_table(["metric", "value"], [[label(m), fmt(m, summary.get(m))] for m in HEADLINE]))
    if ablations:
        print("\n" + ablation_table(ablations))
    if old_report is not None:
        comparison = render_comparison(compare_reports(old_report, report), str(args.compare))
        (args.out / "compare.md").write_text(comparison, encoding="utf-8")
        print("\n" + comparison)
    errors = [result for result in results if result.error]
    if errors:
        print(f"\n{len(errors)} cases could not be asked; the first: {errors[0].error}")
    print("\nwrote " + ", ".join(str(path) for path in paths))
    if failures:
        print("\nunder threshold:\n" + "\n".join(f"- {failure}" for failure in failures))
    also_passed = runner is None or _gate_also(runner, judge, args.also, args.out, config)
    return 0 if not failures and also_passed else 1
