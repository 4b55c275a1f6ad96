"""What a buyer should not take on trust in the provider records, per provider.

People shortlist providers from these records, so the audit lists what each record does not settle: facts
its sources leave open, facts with no source from the provider itself, facts that rest on third parties
alone, and prices older than the configured age. A source is the provider's own when its link lies on the
website's domain or on one of the record's `own_sites`; SkyPilot's and dstack's published catalogs are a
kind of their own (kept from the providers' price APIs, but not the providers' pages).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Literal
from urllib.parse import urlparse

from assistant.providers.schema import ProviderRecord, Source, Sourced

SourceKind = Literal["provider", "catalog", "other", "third_party"]
KINDS: tuple[SourceKind, ...] = ("provider", "catalog", "other", "third_party")
CATALOG_SITES = (
    "github.com/skypilot-org/skypilot-catalog",
    "raw.githubusercontent.com/skypilot-org/skypilot-catalog",
    "github.com/dstackai/gpuhunt",
)


def _site(url: str) -> str:
    """The link without scheme and www., lowercased: `docs.aws.amazon.com/eks/...`."""
    parsed = urlparse(url)
    return (parsed.netloc.lower().removeprefix("www.") + parsed.path).lower()


def own_sites(record: ProviderRecord) -> list[str]:
    """The website's domain (its last two labels) and the record's extra sites."""
    host = urlparse(record.website).netloc.lower().removeprefix("www.")
    return [".".join(host.split(".")[-2:]), *(site.lower() for site in record.own_sites)]


def _on(site: str, own: str) -> bool:
    if "/" in own:
        return site.startswith(own)
    host = site.split("/", 1)[0]
    return host == own or host.endswith(f".{own}")


def source_kind(source: Source, record: ProviderRecord) -> SourceKind:
    """The provider's own page, a public price catalog, another party's page, or marked third party."""
    site = _site(source.url)
    if not source.third_party and any(_on(site, own) for own in own_sites(record)):
        return "provider"
    if any(site.startswith(catalog) for catalog in CATALOG_SITES):
        return "catalog"
    return "third_party" if source.third_party else "other"


def best_kind(fact: Sourced, record: ProviderRecord) -> SourceKind | None:
    """The most direct kind among the fact's sources (provider first); None without sources."""
    kinds = {source_kind(source, record) for source in fact.sources}
    return next((kind for kind in KINDS if kind in kinds), None)


@dataclass
class ProviderAudit:
    slug: str
    unknown: list[str] = field(default_factory=list)
    not_primary: list[str] = field(default_factory=list)
    third_party_only: list[str] = field(default_factory=list)
    stale_prices: list[str] = field(default_factory=list)
    unlinked: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        parts = [
            ("unknown", self.unknown),
            ("no source from the provider", self.not_primary),
            ("third-party sources only", self.third_party_only),
            ("stale prices", self.stale_prices),
            ("yes/no without a link", self.unlinked),
        ]
        shown = [f"  {label}: {', '.join(items)}" for label, items in parts if items]
        return [f"{self.slug}:", *(shown or ["  nothing to report"])]


@dataclass
class AuditReport:
    providers: list[ProviderAudit]
    yes_no: int
    unknown: int
    by_kind: dict[SourceKind, int]
    prices: int
    prices_by_kind: dict[SourceKind, int]
    stale: int
    max_age_days: int

    @property
    def unknown_share(self) -> float:
        return self.unknown / self.yes_no if self.yes_no else 0.0

    @property
    def unlinked(self) -> int:
        return sum(len(provider.unlinked) for provider in self.providers)

    def summary(self) -> str:
        kinds = ", ".join(f"{kind.replace('_', ' ')} {self.by_kind[kind]}" for kind in KINDS)
        price_kinds = ", ".join(f"{kind.replace('_', ' ')} {self.prices_by_kind[kind]}" for kind in KINDS)
        return (
            f"{self.yes_no} yes/no facts: {self.yes_no - self.unknown} known, {self.unknown} unknown "
            f"({self.unknown_share:.0%}); known facts by their most direct source: {kinds}\n"
            f"{self.prices} prices by source: {price_kinds}; {self.stale} older than {self.max_age_days} days\n"
            f"{self.unlinked} yes/no facts without a link"
        )

    def __str__(self) -> str:
        lines = [line for provider in self.providers for line in provider.lines()]
        return "\n".join([*lines, "", self.summary()])


def _audit_one(record: ProviderRecord, today: date, max_age_days: int) -> ProviderAudit:
    result = ProviderAudit(record.slug)
    for name, fact in record.yes_no():
        if not fact.known:
            result.unknown.append(name)
        elif not fact.sources or any(not source.url for source in fact.sources):
            result.unlinked.append(name)
    result.unknown += [
        f"regions.{area}" for area, value in record.regions.areas().items() if value == "unknown"
    ]
    for name, fact in record.facts():
        if not fact.known:
            continue
        kinds = {source_kind(source, record) for source in fact.sources}
        if "provider" not in kinds:
            result.not_primary.append(name)
        if kinds == {"third_party"}:
            result.third_party_only.append(name)
    for price in record.prices:
        age = (today - price.as_of).days
        if age > max_age_days:
            result.stale_prices.append(f"{price.gpu_model} as of {price.as_of.isoformat()} ({age} days)")
    return result


def audit(records: Iterable[ProviderRecord], *, today: date, max_age_days: int) -> AuditReport:
    """Every record's findings and the totals over the yes/no facts and the prices."""
    records = list(records)
    yes_no = [(record, fact) for record in records for _, fact in record.yes_no()]
    known = [(record, fact) for record, fact in yes_no if fact.known]
    by_kind = Counter(best_kind(fact, record) for record, fact in known)
    prices = [(record, price) for record in records for price in record.prices]
    prices_by_kind = Counter(source_kind(price.source, record) for record, price in prices)
    providers = [_audit_one(record, today, max_age_days) for record in records]
    return AuditReport(
        providers=providers,
        yes_no=len(yes_no),
        unknown=len(yes_no) - len(known),
        by_kind={kind: by_kind[kind] for kind in KINDS},
        prices=len(prices),
        prices_by_kind={kind: prices_by_kind[kind] for kind in KINDS},
        stale=sum(len(provider.stale_prices) for provider in providers),
        max_age_days=max_age_days,
    )
