"""`python -m evals.own_answers [--out DIR] SET_DIR ...`: the follow-ups of test sets, asked as people ask them.

A test set's follow-up carries its writer's summary of the earlier answer. In the widget, in a Slack thread and
through the OpenAI-compatible endpoint, the history holds the assistant's own answer, with its [n] markers, and
the next answer can build on what that one quoted (`reading.py` reads a follow-up's answer against it). Here each
follow-up's earlier questions are asked first, in order, and their answers take the place of the written ones.
One report per set, of its follow-ups alone; no thresholds: this measures, the sets' own gates guard.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from assistant.config import Settings
from evals.cases import Case, HistoryTurn, load_cases
from evals.harness import evaluate, in_process_runner, make_judge, settings_config
from evals.report import build_report, write_reports
from evals.runners import Runner

SHOWN = ("key_fact_recall", "lead_accuracy", "sentence_precision", "dangling_references", "repeated_answer")


def with_own_answers(case: Case, runner: Runner) -> Case:
    """The case with every answer in its history replaced by the assistant's answer to the question before it,
    asked with the turns before that."""
    turns: list[HistoryTurn] = []
    for turn in case.history:
        if turn.role == "assistant" and turns and turns[-1].role == "user":
            earlier = case.model_copy(update={"question": turns[-1].content, "history": tuple(turns[:-1])})
            turn = HistoryTurn(role="assistant", content=runner.observe(earlier).answer.answer)
        turns.append(turn)
    return case.model_copy(update={"history": tuple(turns)})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.own_answers", description=__doc__.splitlines()[0])
    parser.add_argument("sets", type=Path, nargs="+", metavar="SET_DIR", help="test-set folders")
    parser.add_argument(
        "--out", type=Path, default=Path("evals/out/own-answers"), help="reports, one per set"
    )
    args = parser.parse_args(argv)
    settings = Settings()
    runner, judge = in_process_runner(settings), make_judge(settings)
    for folder in args.sets:
        follow_ups = [with_own_answers(case, runner) for case in load_cases(folder) if case.history]
        report = build_report(
            evaluate(runner, follow_ups, judge, title=folder.name), settings_config(settings)
        )
        write_reports(report, args.out / folder.name)
        summary = report["summary"]
        shown = ", ".join(f"{name} {value:.3f}" for name in SHOWN if (value := summary.get(name)) is not None)
        print(f"{folder.name}: {len(follow_ups)} follow-ups; {shown}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
