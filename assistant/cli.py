"""`python -m assistant`: index, ask, serve, providers (contract §4)."""

from __future__ import annotations

import argparse
import json
import sys
from importlib.metadata import entry_points

from assistant.config import get_settings
from assistant.corpus import CorpusError
from assistant.models import Answer
from assistant.providers.cli import register as register_providers
from assistant.providers.records import RecordError

COMMANDS_GROUP = "assistant.commands"


def _index(args: argparse.Namespace) -> int:
    from assistant.indexer import build_index

    def progress(done: int, total: int) -> None:
        print(f"\rembedding {done}/{total}", end="" if done < total else "\n", file=sys.stderr, flush=True)

    report = build_index(get_settings(), progress=progress)
    if report.status == "unchanged":
        print(f"index up to date: {report.collection} ({report.documents} documents, {report.seconds:.2f} s)")
    else:
        print(
            f"index built: {report.collection} ({report.documents} documents, {report.embedded} embedded anew,"
            f" {report.seconds:.1f} s)"
        )
    return 0


def _print_answer(answer: Answer) -> None:
    print(answer.answer)
    if answer.citations:
        print()
        for citation in answer.citations:
            print(f"[{citation.n}] {citation.title} ({citation.url})\n    “{citation.quote}”")
    if answer.providers:
        print(f"\nProviders matching {json.dumps(answer.providers.filter)}: {answer.providers.total}")
        for match in answer.providers.matches:
            print(f"  - {match['name']}")


def _ask(args: argparse.Namespace) -> int:
    from assistant.service import Assistant

    question = args.question.strip()
    if not question:
        print("error: the question is empty", file=sys.stderr)
        return 2
    answer = Assistant.from_settings().ask(question, language=args.language)
    if args.json:
        print(answer.model_dump_json(indent=2))
    else:
        _print_answer(answer)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m assistant", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    commands.add_parser("index", help="build the vector index from corpus/ (idempotent)").set_defaults(
        run=_index
    )

    ask = commands.add_parser("ask", help="answer one question")
    ask.add_argument("question")
    ask.add_argument("--json", action="store_true", help="print the /v1/ask response object")
    ask.add_argument("--language", choices=["en", "nl"], help="answer in this language")
    ask.set_defaults(run=_ask)

    register_providers(commands)
    for entry in entry_points(group=COMMANDS_GROUP):  # commands of installed parts, `serve` among them
        entry.load()(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except (CorpusError, RecordError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
