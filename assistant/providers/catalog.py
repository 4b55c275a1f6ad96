"""Merging a price catalog into the provider records: SkyPilot's vms.csv or a dstack gpuhunt CSV.

All or nothing: every row is checked before anything is written, a malformed row rejects the whole file
with its row number and reason, and the records are only rewritten (atomically) when all of it is good.
Columns are read by header, because their order differs per cloud. Prices become per GPU-hour.
"""

from __future__ import annotations

import csv
import math
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path, PurePosixPath
from typing import Protocol

from assistant.providers.records import load_records, save_records
from assistant.providers.schema import Catalog, Price, ProviderRecord, Source

# Catalog cloud names that differ from the record slugs; any other name is taken as a slug.
CATALOG_SLUGS = {
    "vast": "vastai",
    "lambdalabs": "lambda",
    "lambda_cloud": "lambda",
    "do": "digitalocean",
    "ovh": "ovhcloud",
    "linode": "akamai-linode",
    "akamai": "akamai-linode",
    "datacrunch": "verda",
}
_SKYPILOT_COLUMNS = ("InstanceType", "AcceleratorName", "AcceleratorCount", "Region", "Price")
_GPUHUNT_COLUMNS = ("instance_name", "location", "price", "gpu_count", "gpu_name", "spot")
_ROWS_SHOWN = 20
_SOURCES = {
    "skypilot": ("SkyPilot catalog {name}", "https://github.com/skypilot-org/skypilot-catalog"),
    "gpuhunt": ("dstack gpuhunt catalog {name}", "https://github.com/dstackai/gpuhunt"),
}


class CatalogError(ValueError):
    """The catalog file cannot be merged; nothing was written."""


@dataclass(frozen=True)
class Row:
    slug: str
    gpu_model: str
    gpu_count: int | float
    region: str | None
    on_demand: float | None
    spot: float | None


def slug_for(name: str) -> str:
    name = name.strip().lower()
    return CATALOG_SLUGS.get(name, name)


def _amount(value: str, column: str) -> float | None:
    value = value.strip()
    if not value:
        return None
    try:
        amount = float(value)
    except ValueError:
        raise ValueError(f"{column} is not a number: {value!r}") from None
    if not math.isfinite(amount) or amount < 0:
        raise ValueError(f"{column} must be a price of zero or more: {value!r}")
    return amount


def _whole(count: float) -> int | float:
    return int(count) if count.is_integer() else count


def _skypilot_row(row: Mapping[str, str], slug: str | None) -> Row | None:
    """A GPU row of vms.csv with per-GPU prices; None for CPU-only rows and rows without any price."""
    name = row["AcceleratorName"].strip()
    if not name:
        return None
    count = _amount(row["AcceleratorCount"], "AcceleratorCount")
    if not count:
        raise ValueError(f"AcceleratorCount must be above zero for {name}: {row['AcceleratorCount']!r}")
    region = row["Region"].strip()
    if not region:
        raise ValueError("Region is empty")
    price, spot = _amount(row["Price"], "Price"), _amount(row.get("SpotPrice", ""), "SpotPrice")
    if price is None and spot is None:
        return None
    return Row(
        slug=slug or "",
        gpu_model=name,
        gpu_count=_whole(count),
        region=region,
        on_demand=None if price is None else round(price / count, 4),
        spot=None if spot is None else round(spot / count, 4),
    )


_BOOLEANS = {"true": True, "false": False, "1": True, "0": False}


def _gpuhunt_row(row: Mapping[str, str], slug: str | None) -> Row | None:
    """A gpuhunt offer with a per-GPU price; None for offers without GPUs."""
    try:
        count = int(row["gpu_count"].strip())
    except ValueError:
        raise ValueError(f"gpu_count is not a whole number: {row['gpu_count']!r}") from None
    if count < 0:
        raise ValueError(f"gpu_count must not be negative: {count}")
    if count == 0:
        return None
    name = row["gpu_name"].strip()
    if not name:
        raise ValueError("gpu_name is empty for an offer with GPUs")
    spot = _BOOLEANS.get(row["spot"].strip().lower())
    if spot is None:
        raise ValueError(f"spot must be True or False: {row['spot']!r}")
    price = _amount(row["price"], "price")
    if price is None:
        raise ValueError("price is empty")
    provider = slug or slug_for(row.get("provider", ""))
    if not provider:
        raise ValueError("provider is empty (pass --provider)")
    per_gpu = round(price / count, 4)
    return Row(
        slug=provider,
        gpu_model=name,
        gpu_count=count,
        region=row["location"].strip() or None,
        on_demand=None if spot else per_gpu,
        spot=per_gpu if spot else None,
    )


_Parse = Callable[[Mapping[str, str], str | None], Row | None]


class _Reader(Protocol):
    """A csv reader: rows, and the line it reached (for messages)."""

    line_num: int

    def __iter__(self) -> Iterator[list[str]]: ...


def _kind(header: list[str]) -> Catalog:
    if all(column in header for column in _SKYPILOT_COLUMNS):
        return "skypilot"
    if all(column in header for column in _GPUHUNT_COLUMNS):
        return "gpuhunt"
    raise CatalogError(
        f"the header is neither SkyPilot vms.csv ({', '.join(_SKYPILOT_COLUMNS)}) "
        f"nor gpuhunt ({', '.join(_GPUHUNT_COLUMNS)}): {', '.join(header) or '(empty)'}"
    )


def _file_provider(
    location: PurePosixPath, kind: Catalog, header: list[str], provider: str | None
) -> str | None:
    """The slug for every row, or None when gpuhunt's provider column names it per row."""
    if provider:
        return slug_for(provider)
    if kind == "gpuhunt":
        if "provider" not in header:
            raise CatalogError("the gpuhunt file has no provider column: pass --provider")
        return None
    if location.name != "vms.csv":
        raise CatalogError(
            "cannot tell the cloud of a SkyPilot file not named <cloud>/vms.csv: pass --provider"
        )
    return slug_for(location.parent.name)


@dataclass
class ParsedCatalog:
    kind: Catalog
    name: str
    rows: list[Row]
    skipped: int
    url: str


def read_catalog(path: Path, provider: str | None = None) -> ParsedCatalog:
    """Every GPU price row of the file; CatalogError lists each malformed row and why."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CatalogError(f"cannot read {path}: {error}") from None
    return parse_catalog(text, PurePosixPath(path.as_posix()), provider, label=str(path))


def _rows(
    reader: _Reader, header: list[str], parse: _Parse, slug: str | None
) -> tuple[list[Row], int, list[str]]:
    """The parsed rows, the count of rows without a GPU or price, and the errors with their row numbers."""
    rows: list[Row] = []
    errors: list[str] = []
    skipped = 0
    for number, fields in enumerate(reader, start=1):
        if not fields:
            continue
        where = f"row {number} (line {reader.line_num})"
        if len(fields) != len(header):
            errors.append(f"{where}: has {len(fields)} fields, the header has {len(header)}")
            continue
        try:
            row = parse(dict(zip(header, fields, strict=True)), slug)
        except ValueError as error:
            errors.append(f"{where}: {error}")
            continue
        if row is None:
            skipped += 1
        else:
            rows.append(row)
    return rows, skipped, errors


def parse_catalog(
    text: str, location: PurePosixPath, provider: str | None = None, *, label: str, url: str | None = None
) -> ParsedCatalog:
    """The catalog in `text`; `location` is its path (or its URL's path) for SkyPilot's <cloud>/vms.csv.

    `label` names the file or URL in messages; `url` is where the prices were read, for their source
    (by default the catalog's public repository).
    """
    reader = csv.reader(text.splitlines())
    header = [column.strip() for column in next(reader, [])]
    kind = _kind(header)
    slug = _file_provider(location, kind, header, provider)
    rows, skipped, errors = _rows(reader, header, _skypilot_row if kind == "skypilot" else _gpuhunt_row, slug)
    if errors:
        more = f"\n... and {len(errors) - _ROWS_SHOWN} more" if len(errors) > _ROWS_SHOWN else ""
        raise CatalogError(f"{label}: rejected, nothing changed:\n" + "\n".join(errors[:_ROWS_SHOWN]) + more)
    if not rows:
        raise CatalogError(f"{label}: no GPU row with a price, nothing changed")
    name = f"{location.parent.name}/{location.name}" if kind == "skypilot" else location.name
    return ParsedCatalog(kind=kind, name=name, rows=rows, skipped=skipped, url=url or _SOURCES[kind][1])


def _prices(catalog: ParsedCatalog, rows: list[Row], as_of: date) -> list[Price]:
    """One price per model, GPU count and region: the lowest on-demand and the lowest spot price."""
    title = _SOURCES[catalog.kind][0].format(name=catalog.name)
    source = Source(url=catalog.url, title=title, read=as_of, third_party=True)
    groups: dict[tuple[str, int | float, str | None], list[Row]] = defaultdict(list)
    for row in rows:
        groups[(row.gpu_model, row.gpu_count, row.region)].append(row)
    prices = []
    for (model, count, region), group in sorted(
        groups.items(), key=lambda item: (item[0][0], item[0][1], item[0][2] or "")
    ):
        on_demand = [row.on_demand for row in group if row.on_demand is not None]
        spot = [row.spot for row in group if row.spot is not None]
        prices.append(
            Price(
                gpu_model=model,
                gpu_count=count,
                region=region,
                on_demand=min(on_demand, default=None),
                spot=min(spot, default=None),
                currency="USD",
                as_of=as_of,
                source=source,
                catalog=catalog.kind,
            )
        )
    return prices


def _key(price: Price) -> tuple[str, int | float, str | None]:
    return price.gpu_model, price.gpu_count, price.region


@dataclass
class ProviderChange:
    slug: str
    added: int = 0
    removed: int = 0
    changed: list[str] = field(default_factory=list)
    unchanged: int = 0

    def __str__(self) -> str:
        lines = [
            f"  {self.slug}: {self.added} added, {self.removed} removed, {len(self.changed)} changed, "
            f"{self.unchanged} unchanged"
        ]
        return "\n".join(lines + [f"    {line}" for line in self.changed])


@dataclass
class ImportSummary:
    catalog: str
    rows: int
    skipped: int
    providers: list[ProviderChange]
    written: list[str]

    def __str__(self) -> str:
        head = f"{self.catalog}: {self.rows} GPU price rows, {self.skipped} rows without a GPU or a price skipped"
        tail = f"records rewritten: {', '.join(self.written) or 'none (no price changed)'}"
        return "\n".join([head, *(str(change) for change in self.providers), tail])


def _describe(old: Price, new: Price) -> str:
    def money(value: float | None) -> str:
        return "-" if value is None else f"${value:g}"

    where = f" {new.region}" if new.region else ""
    return (
        f"{new.gpu_model} x{new.gpu_count:g}{where}: on demand {money(old.on_demand)} -> {money(new.on_demand)}, "
        f"spot {money(old.spot)} -> {money(new.spot)} per GPU-hour"
    )


def _merge(record: ProviderRecord, kind: Catalog, new: list[Price]) -> tuple[ProviderRecord, ProviderChange]:
    """The record with its prices from this kind of catalog replaced by `new`, and what changed."""
    old = {_key(price): price for price in record.prices if price.catalog == kind}
    change = ProviderChange(record.slug, removed=len(old.keys() - {_key(price) for price in new}))
    for price in new:
        before = old.get(_key(price))
        if before is None:
            change.added += 1
        elif (before.on_demand, before.spot) != (price.on_demand, price.spot):
            change.changed.append(_describe(before, price))
        else:
            change.unchanged += 1
    kept = [price for price in record.prices if price.catalog != kind]
    merged = ProviderRecord.model_validate({**record.model_dump(), "prices": [*kept, *new]})
    return merged, change


def import_catalog(
    path: Path, directory: Path, *, provider: str | None = None, as_of: date | None = None
) -> ImportSummary:
    """Merge the catalog file's prices (as of `as_of`, default today) into the records of `directory`."""
    return merge_catalog(read_catalog(path, provider), directory, as_of=as_of, label=str(path))


def merge_catalog(
    catalog: ParsedCatalog, directory: Path, *, as_of: date | None = None, label: str
) -> ImportSummary:
    """Merge a parsed catalog into the records, all or nothing: an unknown provider changes no record."""
    records = {record.slug: record for record in load_records(directory)}
    by_slug: dict[str, list[Row]] = defaultdict(list)
    for row in catalog.rows:
        by_slug[row.slug].append(row)
    missing = sorted(by_slug.keys() - records.keys())
    if missing:
        raise CatalogError(f"{label}: no provider record for {', '.join(missing)}; nothing changed")
    as_of = as_of or date.today()
    changes, updated = [], []
    for slug in sorted(by_slug):
        merged, change = _merge(records[slug], catalog.kind, _prices(catalog, by_slug[slug], as_of))
        changes.append(change)
        if merged != records[slug]:
            updated.append(merged)
    save_records(directory, updated)
    return ImportSummary(
        catalog=f"{catalog.kind} {catalog.name}",
        rows=len(catalog.rows),
        skipped=catalog.skipped,
        providers=changes,
        written=[record.slug for record in updated],
    )
