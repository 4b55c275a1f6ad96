"""Which provider records a filter (contract §3) confirms, which it leaves open, and in what order.

A record matches only when its facts confirm every key. A record whose facts leave a key open goes to
`unknown`, never to the matches; a record a fact rules out is left out. Prices count only when they are
listed on-demand prices in USD with an as-of date, so a filter never compares against a guess.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from datetime import date
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from assistant.models import ProviderResults
from assistant.providers.schema import Price, ProviderRecord, SharingMethod, Source, Tri
from assistant.text import SCHEMA_WHITE_SPACE

SHARING_ORDER: tuple[SharingMethod, ...] = ("time_slicing", "mig", "mps")
_VENDOR_WORDS = frozenset({"NVIDIA", "AMD", "TESLA", "INSTINCT"})


class ProviderFilter(BaseModel):
    """Exactly the keys of contract §3; a key left out does not filter."""

    model_config = ConfigDict(extra="forbid")

    kubernetes: Literal["managed", "bring_your_own"] | None = None
    gpu_sharing: Literal[True] | None = None
    sharing: list[SharingMethod] | None = Field(default=None, min_length=1)
    sharing_any: list[SharingMethod] | None = Field(default=None, min_length=1)
    interconnect: Literal["infiniband"] | None = None
    spot: Literal[True] | None = None
    scale_to_zero: Literal[True] | None = None
    drivers_preinstalled: Literal[True] | None = None
    amd: Literal[True] | None = None
    # The schema's bounds on the text itself; the validator below trims it as the schema's `\S` reads space.
    gpu_model: (
        Annotated[str, Field(max_length=40, json_schema_extra={"minLength": 1, "pattern": r"\S"})] | None
    ) = None
    region: Literal["eu", "us", "apac"] | None = None
    max_price_per_gpu_hour: float | None = Field(default=None, gt=0)

    @field_validator("sharing", "sharing_any")
    @classmethod
    def _canonical_order(cls, methods: list[SharingMethod] | None) -> list[SharingMethod] | None:
        return None if methods is None else [method for method in SHARING_ORDER if method in methods]

    @field_validator("gpu_model")
    @classmethod
    def _trimmed(cls, model: str | None) -> str | None:
        if model is None:
            return None
        trimmed = model.strip(SCHEMA_WHITE_SPACE)
        if not trimmed:
            raise ValueError("gpu_model is empty")
        return trimmed

    def public(self) -> dict[str, Any]:
        """The filter as the response shows it: only the keys asked."""
        return self.model_dump(exclude_none=True)


_TRUE_WORDS = frozenset({"true", "1", "yes"})
_FALSE_WORDS = frozenset({"false", "0", "no"})
_BOOLEAN_KEYS = frozenset({"gpu_sharing", "spot", "scale_to_zero", "drivers_preinstalled", "amd"})


def _query_value(key: str, values: list[str]) -> Any:
    """One query-string key's values as the filter field takes them."""
    values = [value.strip(SCHEMA_WHITE_SPACE) for value in values]
    if not values or any(not value for value in values):
        raise ValueError(f"{key} has no value")
    if key in ("sharing", "sharing_any"):
        return [part.strip() for value in values for part in value.split(",") if part.strip()]
    if len(set(values)) > 1:
        raise ValueError(f"{key} is given more than once with different values")
    value = values[0]
    if key in _BOOLEAN_KEYS:
        if value.lower() in _FALSE_WORDS:
            raise ValueError(f"{key} only takes true; leave {key} out to include every record")
        return True if value.lower() in _TRUE_WORDS else value
    return value


def parse_filter(params: Mapping[str, str | list[str]]) -> ProviderFilter:
    """A filter from query-string parameters; ValueError names the unknown key or the bad value and why."""
    known = ProviderFilter.model_fields
    data: dict[str, Any] = {}
    for key, raw in params.items():
        if key not in known:
            raise ValueError(f"unknown filter key {key!r}; the keys are: {', '.join(known)}")
        data[key] = _query_value(key, [raw] if isinstance(raw, str) else list(raw))
    try:
        return ProviderFilter.model_validate(data)
    except ValidationError as error:
        reasons = [f"{'.'.join(map(str, e['loc']))}: {e['msg']} (got {e['input']!r})" for e in error.errors()]
        raise ValueError("; ".join(reasons)) from None


def _model_tokens(name: str) -> list[str]:
    words = name.upper().replace("-", " ").replace("_", " ").split()
    return [word for word in words if word not in _VENDOR_WORDS]


def offers_model(asked: str, model: str) -> bool:
    """Whether `model` is the asked GPU or a variant of it: H100 covers "H100 SXM", not "GH200"; L4 not L40S."""
    wanted = "".join(_model_tokens(asked))
    tokens = _model_tokens(model)
    return any("".join(tokens[: end + 1]) == wanted for end in range(len(tokens)))


def _any_of(values: Iterable[Tri]) -> Tri:
    values = list(values)
    if "yes" in values:
        return "yes"
    return "no" if all(value == "no" for value in values) else "unknown"


def _all_of(values: Iterable[Tri]) -> Tri:
    values = list(values)
    if "no" in values:
        return "no"
    return "yes" if all(value == "yes" for value in values) else "unknown"


def _usd_on_demand(record: ProviderRecord, flt: ProviderFilter) -> list[Price]:
    return [
        price
        for price in record.prices
        if price.on_demand is not None
        and price.currency == "USD"
        and (flt.gpu_model is None or offers_model(flt.gpu_model, price.gpu_model))
    ]


def _gpu_model_verdict(record: ProviderRecord, model: str) -> Tri:
    listed = record.gpu_models.items + [price.gpu_model for price in record.prices]
    if any(offers_model(model, name) for name in listed):
        return "yes"
    return "no" if record.gpu_models.known else "unknown"


def _price_verdict(record: ProviderRecord, flt: ProviderFilter, limit: float) -> Tri:
    prices = _usd_on_demand(record, flt)
    if any(price.on_demand is not None and price.on_demand <= limit for price in prices):
        return "yes"
    return "no" if prices else "unknown"


def verdicts(record: ProviderRecord, flt: ProviderFilter) -> dict[str, Tri]:
    """Per asked key: does the record confirm it (yes), rule it out (no), or leave it open (unknown)?"""
    out: dict[str, Tri] = {}
    if flt.kubernetes is not None:
        out["kubernetes"] = getattr(record.kubernetes, flt.kubernetes).value
    methods = record.sharing.methods()
    if flt.gpu_sharing:
        out["gpu_sharing"] = _any_of(fact.value for fact in methods.values())
    if flt.sharing is not None:
        out["sharing"] = _all_of(methods[method].value for method in flt.sharing)
    if flt.sharing_any is not None:
        out["sharing_any"] = _any_of(methods[method].value for method in flt.sharing_any)
    if flt.interconnect is not None:
        out["interconnect"] = record.interconnect.value
    for key in ("spot", "scale_to_zero", "drivers_preinstalled", "amd"):
        if getattr(flt, key):
            out[key] = getattr(record, key).value
    if flt.gpu_model is not None:
        out["gpu_model"] = _gpu_model_verdict(record, flt.gpu_model)
    if flt.region is not None:
        out["region"] = record.regions.areas()[flt.region]
    if flt.max_price_per_gpu_hour is not None:
        out["max_price_per_gpu_hour"] = _price_verdict(record, flt, flt.max_price_per_gpu_hour)
    return out


def matching_price(record: ProviderRecord, flt: ProviderFilter) -> Price | None:
    """The lowest listed on-demand price for the asked model (and under the asked limit); USD first."""
    limit = flt.max_price_per_gpu_hour
    prices = [
        price
        for price in record.prices
        if price.on_demand is not None
        and (flt.gpu_model is None or offers_model(flt.gpu_model, price.gpu_model))
        and (limit is None or (price.currency == "USD" and price.on_demand <= limit))
    ]
    return min(prices, key=lambda price: (price.currency != "USD", price.on_demand), default=None)


def _price_order(entry: dict[str, Any]) -> tuple[int, float]:
    price = entry["price"]
    if price is None:
        return 2, math.inf
    return (0 if price["currency"] == "USD" else 1), price["per_gpu_hour"]


def _links(sources: Iterable[Source]) -> list[str]:
    return [source.url for source in sources]


def _sources(record: ProviderRecord, flt: ProviderFilter, price: Price | None) -> list[str]:
    """Links to the sources behind the asked keys (the Kubernetes modes when nothing was asked)."""
    facts = {
        "kubernetes": [record.kubernetes.managed, record.kubernetes.bring_your_own],
        "gpu_sharing": list(record.sharing.methods().values()),
        "sharing": [record.sharing.methods()[method] for method in flt.sharing or []],
        "sharing_any": [record.sharing.methods()[method] for method in flt.sharing_any or []],
        "interconnect": [record.interconnect],
        "spot": [record.spot],
        "scale_to_zero": [record.scale_to_zero],
        "drivers_preinstalled": [record.drivers_preinstalled],
        "amd": [record.amd],
        "gpu_model": [record.gpu_models],
        "region": [record.regions],
    }
    asked = [key for key in facts if key in flt.public()] or ["kubernetes"]
    links = [link for key in asked for fact in facts[key] for link in _links(fact.sources)]
    if price is not None:
        links += _links([price.source])
    return list(dict.fromkeys(links)) or [record.website]


def _price_entry(price: Price | None, today: date, max_age_days: int) -> dict[str, Any] | None:
    if price is None:
        return None
    return {
        "gpu_model": price.gpu_model,
        "gpu_count": price.gpu_count,
        "region": price.region,
        "per_gpu_hour": price.on_demand,
        "spot_per_gpu_hour": price.spot,
        "currency": price.currency,
        "as_of": price.as_of.isoformat(),
        "source": price.source.url,
        "stale": (today - price.as_of).days > max_age_days,
    }


def public_record(
    record: ProviderRecord, flt: ProviderFilter, *, today: date, max_age_days: int
) -> dict[str, Any]:
    """The fields of a record a client shows next to an answer, with the price that matches the filter."""
    price = matching_price(record, flt)
    return {
        "slug": record.slug,
        "name": record.name,
        "website": record.website,
        "section_id": f"provider:{record.slug}",
        "kubernetes": {
            "managed": record.kubernetes.managed.value,
            "bring_your_own": record.kubernetes.bring_your_own.value,
            "managed_service": record.kubernetes.managed_service.text,
        },
        "sharing": {method: fact.value for method, fact in record.sharing.methods().items()},
        "interconnect": record.interconnect.value,
        "interconnect_fabric": record.interconnect.fabric,
        "interconnect_fabric_name": record.interconnect.fabric_name,
        "interconnect_detail": record.interconnect.detail,
        "spot": record.spot.value,
        "scale_to_zero": record.scale_to_zero.value,
        "drivers_preinstalled": record.drivers_preinstalled.value,
        "amd": record.amd.value,
        "regions": record.regions.areas(),
        "gpu_models": record.gpu_models.items,
        "price": _price_entry(price, today, max_age_days),
        "sources": _sources(record, flt, price),
    }


def apply_filter(
    records: Iterable[ProviderRecord],
    flt: ProviderFilter,
    *,
    cheapest: bool = False,
    today: date | None = None,
    max_age_days: int,
) -> ProviderResults:
    """The records the filter confirms (by name, or by price when a model, a price or the cheapest is asked)."""
    today = today or date.today()
    matches: list[dict[str, Any]] = []
    unknown: list[dict[str, Any]] = []
    for record in sorted(records, key=lambda record: record.name.casefold()):
        verdict = verdicts(record, flt)
        if "no" in verdict.values():
            continue
        entry = public_record(record, flt, today=today, max_age_days=max_age_days)
        open_keys = [key for key, value in verdict.items() if value == "unknown"]
        if open_keys:
            unknown.append({**entry, "unknown_keys": open_keys})
        else:
            matches.append(entry)
    if cheapest or flt.gpu_model is not None or flt.max_price_per_gpu_hour is not None:
        matches.sort(key=_price_order)
    return ProviderResults(filter=flt.public(), matches=matches, total=len(matches), unknown=unknown)
