"""Filters give exactly the matches the records' facts confirm; open facts go to `unknown`, never to matches.

The expected slugs below are read off the four records built here, not taken from the code's output.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

import pytest

from assistant.providers.filters import ProviderFilter, apply_filter, offers_model, parse_filter
from assistant.providers.schema import ProviderRecord
from tests.providers.conftest import price

TODAY = date(2026, 12, 1)


@pytest.fixture
def records(make_record: Callable[..., ProviderRecord]) -> list[ProviderRecord]:
    return [
        make_record(
            "alpha",
            "Alpha",
            managed="yes",
            mig="yes",
            mps="no",
            interconnect="yes",
            spot="yes",
            scale_to_zero="yes",
            drivers_preinstalled="yes",
            amd="no",
            gpu_models=["H100 SXM", "L4"],
            regions=("yes", "yes", "no"),
            prices=[price("H100 SXM", 3.00, gpu_count=8), price("L4", 0.80)],
        ),
        make_record(
            "beta",
            "Beta",
            managed="yes",
            time_slicing="yes",
            mps="yes",
            scale_to_zero="no",
            drivers_preinstalled="no",
            amd="yes",
            gpu_models=["MI300X", "H100"],
            regions=("unknown", "yes", "unknown"),
            prices=[price("H100", 2.50, as_of="2026-01-01"), price("MI300X", 2.00)],
        ),
        make_record(
            "gamma",
            "Gamma",
            managed="no",
            bring_your_own="yes",
            time_slicing="no",
            mig="no",
            mps="no",
            interconnect="no",
            spot="no",
            prices=[price("H100", 2.00, currency="EUR")],
        ),
        make_record("delta", "Delta", managed="yes", gpu_models=["A100-80GB", "GH200"]),
    ]


def _run(records: list[ProviderRecord], cheapest: bool = False, **keys: object):
    return apply_filter(records, ProviderFilter(**keys), cheapest=cheapest, today=TODAY, max_age_days=120)


def _slugs(entries: list[dict]) -> list[str]:
    return [entry["slug"] for entry in entries]


CASES = [
    # keys, matches in order, unknown (by name)
    ({"kubernetes": "managed"}, ["alpha", "beta", "delta"], []),
    ({"kubernetes": "bring_your_own"}, ["gamma"], ["alpha", "beta", "delta"]),
    ({"sharing": ["mig"]}, ["alpha"], ["beta", "delta"]),
    ({"sharing": ["time_slicing", "mps"]}, ["beta"], ["delta"]),
    ({"gpu_sharing": True}, ["alpha", "beta"], ["delta"]),
    ({"interconnect": "infiniband"}, ["alpha"], ["beta", "delta"]),
    ({"spot": True}, ["alpha"], ["beta", "delta"]),
    ({"scale_to_zero": True}, ["alpha"], ["delta", "gamma"]),
    ({"drivers_preinstalled": True}, ["alpha"], ["delta", "gamma"]),
    ({"amd": True}, ["beta"], ["delta", "gamma"]),
    ({"region": "eu"}, ["alpha"], ["beta", "delta", "gamma"]),
    ({"region": "apac"}, [], ["beta", "delta", "gamma"]),
    # by price: Beta's H100 $2.50 < Alpha's $3.00 < Gamma's €2.00 (not USD, after); Delta lists no H100
    ({"gpu_model": "H100"}, ["beta", "alpha", "gamma"], []),
    ({"gpu_model": "A100"}, ["delta"], ["gamma"]),
    ({"gpu_model": "l4"}, ["alpha"], ["gamma"]),
    # under $2.60: Alpha's L4 $0.80, Beta's MI300X $2.00; Gamma lists only euros, Delta no price
    ({"max_price_per_gpu_hour": 2.6}, ["alpha", "beta"], ["delta", "gamma"]),
    ({"gpu_model": "H100", "max_price_per_gpu_hour": 2.6}, ["beta"], ["gamma"]),
    (
        {"kubernetes": "managed", "sharing": ["mig"], "interconnect": "infiniband"},
        ["alpha"],
        ["beta", "delta"],
    ),
    ({}, ["alpha", "beta", "delta", "gamma"], []),
]


@pytest.mark.parametrize(("keys", "matches", "unknown"), CASES)
def test_filter_gives_exactly_the_confirmed_matches(
    records: list[ProviderRecord], keys: dict, matches: list[str], unknown: list[str]
) -> None:
    results = _run(records, **keys)
    assert _slugs(results.matches) == matches
    assert _slugs(results.unknown) == unknown
    assert results.total == len(matches)
    assert results.filter == ProviderFilter(**keys).public()


def test_unknown_entries_say_which_keys_are_open(records: list[ProviderRecord]) -> None:
    results = _run(records, kubernetes="managed", sharing=["mig"], spot=True)
    assert {entry["slug"]: entry["unknown_keys"] for entry in results.unknown} == {
        "beta": ["sharing", "spot"],
        "delta": ["sharing", "spot"],
    }


def test_cheapest_orders_by_the_lowest_price_of_any_model(records: list[ProviderRecord]) -> None:
    # Alpha $0.80 (L4), Beta $2.00 (MI300X), Gamma €2.00, Delta no price
    assert _slugs(_run(records, cheapest=True).matches) == ["alpha", "beta", "gamma", "delta"]


def test_a_match_carries_its_price_with_date_source_and_staleness(records: list[ProviderRecord]) -> None:
    by_slug = {entry["slug"]: entry for entry in _run(records, gpu_model="H100").matches}
    alpha, beta = by_slug["alpha"]["price"], by_slug["beta"]["price"]
    assert alpha == {
        "gpu_model": "H100 SXM",
        "gpu_count": 8,
        "region": None,
        "per_gpu_hour": 3.0,
        "spot_per_gpu_hour": None,
        "currency": "USD",
        "as_of": "2026-11-01",
        "source": "https://prices.example.com/list",
        "stale": False,
    }
    assert (beta["as_of"], beta["stale"]) == ("2026-01-01", True)
    assert by_slug["alpha"]["sources"] == ["https://docs.example.com/gpu", "https://prices.example.com/list"]


def test_a_match_shows_the_public_fields(records: list[ProviderRecord]) -> None:
    alpha = _run(records, interconnect="infiniband").matches[0]
    assert alpha["section_id"] == "provider:alpha"
    assert alpha["website"] == "https://alpha.example.com"
    assert alpha["kubernetes"] == {"managed": "yes", "bring_your_own": "unknown", "managed_service": None}
    assert alpha["sharing"] == {"time_slicing": "unknown", "mig": "yes", "mps": "no"}
    assert alpha["regions"] == {"eu": "yes", "us": "yes", "apac": "no"}
    assert (alpha["interconnect"], alpha["spot"], alpha["amd"]) == ("yes", "yes", "no")
    assert alpha["gpu_models"] == ["H100 SXM", "L4"]


@pytest.mark.parametrize(
    ("asked", "model", "offered"),
    [
        ("H100", "H100 SXM", True),
        ("H100", "NVIDIA H100 80GB HBM3", True),
        ("H100", "GH200", False),
        ("H200", "GH200", False),
        ("L4", "L40S", False),
        ("L40", "L40S", False),
        ("A100", "A100-80GB", True),
        ("RTX 6000", "RTX6000-Ada", True),
        ("RTX 6000", "RTX PRO 6000", False),
        ("B200", "GB200", False),
    ],
)
def test_gpu_model_matching_respects_model_boundaries(asked: str, model: str, offered: bool) -> None:
    assert offers_model(asked, model) is offered


def test_parse_filter_reads_query_strings() -> None:
    flt = parse_filter(
        {"kubernetes": "managed", "sharing": ["mps", "mig"], "spot": "true", "max_price_per_gpu_hour": "2.5"}
    )
    assert flt.public() == {
        "kubernetes": "managed",
        "sharing": ["mig", "mps"],
        "spot": True,
        "max_price_per_gpu_hour": 2.5,
    }
    assert parse_filter({"sharing": "time_slicing,mig"}).sharing == ["time_slicing", "mig"]
    assert parse_filter({}).public() == {}


@pytest.mark.parametrize(
    ("params", "reason"),
    [
        ({"colour": "blue"}, "unknown filter key 'colour'"),
        ({"kubernetes": "sometimes"}, "kubernetes: Input should be 'managed' or 'bring_your_own'"),
        ({"spot": "false"}, "spot only takes true"),
        ({"amd": "perhaps"}, "amd: Input should be True"),
        ({"sharing": ["mig", "vgpu"]}, "sharing.1: Input should be"),
        ({"region": ["eu", "us"]}, "region is given more than once"),
        ({"max_price_per_gpu_hour": "cheap"}, "max_price_per_gpu_hour: Input should be a valid number"),
        ({"max_price_per_gpu_hour": "-1"}, "max_price_per_gpu_hour: Input should be greater than 0"),
        ({"gpu_model": " "}, "gpu_model has no value"),
    ],
)
def test_parse_filter_explains_what_is_wrong(params: dict, reason: str) -> None:
    with pytest.raises(ValueError, match=reason.replace("(", r"\(")):
        parse_filter(params)


def test_the_filter_model_forbids_keys_outside_the_contract() -> None:
    with pytest.raises(ValueError, match="Extra inputs are not permitted"):
        ProviderFilter.model_validate({"provider": "coreweave"})
