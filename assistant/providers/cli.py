"""`python -m assistant providers check | audit [--strict] | import (FILE | --url URL) [--provider SLUG]`.

`check` and `import FILE` are contract §4; `audit` lists what each record leaves open or rests on third
parties for, and `import --url` refreshes prices from a published catalog.
"""

from __future__ import annotations

import argparse
import sys
from datetime import date
from pathlib import Path

from assistant.config import Settings, get_settings
from assistant.providers.audit import audit
from assistant.providers.catalog import CatalogError, import_catalog
from assistant.providers.download import DEFAULT_TIMEOUT_SECONDS, import_catalog_url
from assistant.providers.records import RecordError, load_records
from assistant.providers.schema import ProviderRecord


def _load(settings: Settings, consequence: str) -> list[ProviderRecord] | None:
    """The records, or None after printing every problem and what it stops."""
    try:
        return load_records(settings.providers_dir)
    except RecordError as error:
        for problem in error.problems:
            print(f"error: {problem}", file=sys.stderr)
        print(f"{len(error.problems)} problem(s){consequence}", file=sys.stderr)
        return None


def _check(args: argparse.Namespace) -> int:
    settings = get_settings()
    records = _load(settings, "; fix them before indexing")
    if records is None:
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


def _audit(args: argparse.Namespace) -> int:
    settings = get_settings()
    records = _load(settings, ": the records cannot be audited")
    if records is None:
        return 1
    report = audit(records, today=date.today(), max_age_days=settings.price_max_age_days)
    print(report)
    if args.strict and report.unlinked:
        print(f"error: {report.unlinked} yes/no fact(s) without a link", file=sys.stderr)
        return 1
    return 0


def _import(args: argparse.Namespace) -> int:
    directory = get_settings().providers_dir
    try:
        if args.url:
            summary = import_catalog_url(
                args.url, directory, provider=args.provider, as_of=args.as_of, timeout=args.timeout
            )
        else:
            summary = import_catalog(args.file, directory, provider=args.provider, as_of=args.as_of)
    except (CatalogError, RecordError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(summary)
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `providers` command and its `check`, `audit` and `import` subcommands; each sets `run(args)`."""
    providers = subparsers.add_parser(
        "providers", help="validate the provider records or merge a price catalog"
    )
    commands = providers.add_subparsers(dest="providers_command", required=True)
    check = commands.add_parser("check", help="validate every record; exit 1 naming file, provider and field")
    check.set_defaults(run=_check)
    review = commands.add_parser(
        "audit", help="list unknown, unsourced and third-party-only facts and stale prices per provider"
    )
    review.add_argument("--strict", action="store_true", help="exit 1 when a yes/no fact has no link")
    review.set_defaults(run=_audit)
    merge = commands.add_parser(
        "import", help="merge a SkyPilot vms.csv or gpuhunt CSV (a file or a URL), all or nothing"
    )
    where = merge.add_mutually_exclusive_group(required=True)
    where.add_argument("file", type=Path, nargs="?", help="the catalog CSV")
    where.add_argument("--url", help="download the catalog CSV from this http(s) URL instead")
    merge.add_argument(
        "--provider", help="the provider slug (default: gpuhunt's provider column or <cloud>/vms.csv)"
    )
    merge.add_argument(
        "--as-of",
        type=date.fromisoformat,
        help="the date the catalog was fetched, YYYY-MM-DD (default: today)",
    )
    merge.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT_SECONDS,
        help=f"seconds to wait for --url (default {DEFAULT_TIMEOUT_SECONDS:g})",
    )
    merge.set_defaults(run=_import)
