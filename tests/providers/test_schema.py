"""The record schema accepts a complete record and rejects each kind of bad one, naming the field."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import ValidationError

from assistant.providers.schema import ProviderRecord
from tests.providers.conftest import price, record_data


def _set(data: dict[str, Any], path: str, value: Any) -> None:
    *parents, last = path.split(".")
    for part in parents:
        data = data[int(part)] if part.isdigit() else data[part]
    data[last] = value


def _good() -> dict[str, Any]:
    return record_data(
        "acme", managed="yes", mig="no", spot="yes", gpu_models=["H100"], prices=[price("H100", 2.5)]
    )


def test_a_complete_record_is_accepted() -> None:
    record = ProviderRecord.model_validate(_good())
    assert record.kubernetes.managed.value == "yes"
    assert record.sharing.mig.value == "no"
    assert record.prices[0].as_of.isoformat() == "2026-11-01"


def test_an_unquoted_yaml_yes_is_read_as_the_word() -> None:
    data = _good()
    data["spot"] = {"value": True, "sources": data["kubernetes"]["managed"]["sources"]}
    data["regions"]["eu"] = False
    record = ProviderRecord.model_validate(data)
    assert (record.spot.value, record.regions.eu) == ("yes", "no")


BAD: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("yes without a source", lambda d: _set(d, "kubernetes.managed.sources", []), "kubernetes.managed"),
    ("maybe is not a fact value", lambda d: _set(d, "spot", {"value": "maybe"}), "spot.value"),
    ("a misspelt key", lambda d: _set(d, "interconnect.detial", "InfiniBand"), "interconnect.detial"),
    ("a missing fact", lambda d: d.pop("scale_to_zero"), "scale_to_zero"),
    ("a price without a date", lambda d: d["prices"][0].pop("as_of"), "prices.0.as_of"),
    ("a date that is not a date", lambda d: _set(d, "prices.0.as_of", "September 2026"), "prices.0.as_of"),
    ("a price without an amount", lambda d: d["prices"][0].pop("on_demand"), "prices.0"),
    ("a negative price", lambda d: _set(d, "prices.0.on_demand", -1), "prices.0.on_demand"),
    ("a currency symbol", lambda d: _set(d, "prices.0.currency", "$"), "prices.0.currency"),
    ("zero GPUs", lambda d: _set(d, "prices.0.gpu_count", 0), "prices.0.gpu_count"),
    ("a slug with capitals", lambda d: _set(d, "slug", "Acme Cloud"), "slug"),
    ("a website without scheme", lambda d: _set(d, "website", "acme.example.com"), "website"),
    (
        "a source link without scheme",
        lambda d: _set(
            d,
            "spot",
            {
                "value": "yes",
                "sources": [{"title": "acme docs", "url": "docs.acme.example", "read": "2026-10-01"}],
            },
        ),
        "spot.sources.0.url",
    ),
    (
        "a source without read date",
        lambda d: _set(d, "amd", {"value": "no", "sources": [{"url": "https://a.b"}]}),
        "amd.sources.0.read",
    ),
    ("GPU models without a source", lambda d: _set(d, "gpu_models", {"items": ["H100"]}), "gpu_models"),
    (
        "a source without a link",
        lambda d: _set(
            d, "spot", {"value": "yes", "sources": [{"title": "a forum post", "read": "2026-10-01"}]}
        ),
        "spot.sources.0.url",
    ),
    (
        "a link with words after it",
        lambda d: _set(
            d,
            "spot",
            {"value": "yes", "sources": [{"url": "https://a.example (see notes)", "read": "2026-10-01"}]},
        ),
        "spot.sources.0.url",
    ),
    (
        "InfiniBand confirmed without saying which fabric",
        lambda d: _set(d, "interconnect", {"value": "yes", "sources": d["spot"]["sources"]}),
        "interconnect",
    ),
    (
        "an RDMA fabric without its name",
        lambda d: _set(
            d, "interconnect", {"value": "yes", "fabric": "rdma", "sources": d["spot"]["sources"]}
        ),
        "interconnect",
    ),
    (
        "Ethernet counted as InfiniBand-class",
        lambda d: _set(
            d, "interconnect", {"value": "yes", "fabric": "ethernet", "sources": d["spot"]["sources"]}
        ),
        "interconnect",
    ),
    (
        "a fabric for an open fact",
        lambda d: _set(d, "interconnect", {"value": "unknown", "fabric": "infiniband"}),
        "interconnect",
    ),
    (
        "a region claim without a source",
        lambda d: _set(d, "regions", {"eu": "yes", "us": "no", "apac": "unknown"}),
        "regions",
    ),
    (
        "a fee amount without its text",
        lambda d: _set(d, "kubernetes.control_plane_fee", {"usd_per_hour": 0.1}),
        "kubernetes.control_plane_fee",
    ),
]


@pytest.mark.parametrize(("case", "break_it", "field"), BAD, ids=[case for case, _, _ in BAD])
def test_a_bad_record_is_rejected_at_its_field(case: str, break_it: Callable, field: str) -> None:
    data = copy.deepcopy(_good())
    break_it(data)
    with pytest.raises(ValidationError) as error:
        ProviderRecord.model_validate(data)
    locations = [".".join(str(part) for part in e["loc"]) for e in error.value.errors()]
    assert any(location == field or location.startswith(f"{field}.") for location in locations), locations


def test_a_fabric_is_kept_with_its_name() -> None:
    data = _good()
    data["interconnect"] = {
        "value": "yes",
        "fabric": "rdma",
        "fabric_name": "EFA",
        "sources": data["spot"]["sources"],
    }
    record = ProviderRecord.model_validate(data)
    assert (record.interconnect.fabric, record.interconnect.fabric_name) == ("rdma", "EFA")
