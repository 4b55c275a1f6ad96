"""`python -m assistant providers check | import FILE [--provider SLUG]` (contract §4)."""

from __future__ import annotations

import argparse
import sys
from datetime import date
from pathlib import Path

from assistant.config import get_settings
from assistant.providers.catalog import CatalogError, import_catalog
from assistant.providers.records import RecordError, load_records


def _check(args: argparse.Namespace) -> int:
    settings = get_settings()
    try:
        records = load_records(settings.providers_dir)
    except RecordError as error:
        for problem in error.problems:
            print(f"error: {problem}", file=sys.stderr)
        print(f"{len(error.problems)} problem(s); fix them before indexing", file=sys.stderr)
        return 1
    if not records:
        print(f"error: no provider records in {settings.providers_dir}", file=sys.stderr)
        return 1
    facts = [fact for record in records for _, fact in record.facts()]
    sourced = sum(fact.known for fact in facts)
    prices = [price for record in records for price in record.prices]
    stale = sum((date.today() - price.as_of).days > settings.price_max_age_days for price in prices)
    print(
        f"{len(records)} provider records valid: {sourced} facts sourced, {len(facts) - sourced} unknown; "
        f"{len(prices)} dated prices, {stale} older than {settings.price_max_age_days} days"
    )
    return 0


def _import(args: argparse.Namespace) -> int:
    try:
        summary = import_catalog(
            args.file, get_settings().providers_dir, provider=args.provider, as_of=args.as_of
        )
    except (CatalogError, RecordError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(summary)
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `providers` command and its `check` and `import` subcommands; each sets `run(args) -> int`."""
    providers = subparsers.add_parser(
        "providers", help="validate the provider records or merge a price catalog"
    )
    commands = providers.add_subparsers(dest="providers_command", required=True)
    check = commands.add_parser("check", help="validate every record; exit 1 naming file, provider and field")
    check.set_defaults(run=_check)
    merge = commands.add_parser("import", help="merge a SkyPilot vms.csv or gpuhunt CSV, all or nothing")
    merge.add_argument("file", type=Path, help="the catalog CSV")
    merge.add_argument(
        "--provider", help="the provider slug (default: gpuhunt's provider column or <cloud>/vms.csv)"
    )
    merge.add_argument(
        "--as-of",
        type=date.fromisoformat,
        help="the date the catalog was fetched, YYYY-MM-DD (default: today)",
    )
    merge.set_defaults(run=_import)
