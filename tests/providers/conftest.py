"""Small provider records built in the tests themselves, so expected results come from the test's own data."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from assistant.providers.records import save_records
from assistant.providers.schema import ProviderRecord

FIXTURES = Path(__file__).parent / "fixtures"
SOURCE = {"url": "https://docs.example.com/gpu", "read": "2026-10-01"}
FACTS = (
    "managed bring_your_own drivers_preinstalled time_slicing mig mps interconnect spot autoscaling "
    "scale_to_zero amd".split()
)


def _fact(value: str) -> dict[str, Any]:
    return {"value": value} if value == "unknown" else {"value": value, "sources": [SOURCE]}


def _interconnect(value: str, fabric: str | None) -> dict[str, Any]:
    """A confirmed interconnect names its fabric; InfiniBand unless the test says otherwise."""
    data = _fact(value)
    if value == "yes":
        data["fabric"] = fabric or "infiniband"
        if data["fabric"] == "rdma":
            data["fabric_name"] = "RoCE v2"
    elif fabric:
        data["fabric"] = fabric
    return data


def record_data(
    slug: str,
    name: str | None = None,
    *,
    gpu_models: list[str] | None = None,
    regions: tuple[str, str, str] = ("unknown", "unknown", "unknown"),
    prices: list[dict[str, Any]] | None = None,
    fabric: str | None = None,
    **facts: str,
) -> dict[str, Any]:
    """A valid record as YAML would hold it; every fact not given is unknown."""
    unknown_facts = set(facts) - set(FACTS)
    assert not unknown_facts, unknown_facts
    value = {key: facts.get(key, "unknown") for key in FACTS}
    eu, us, apac = regions
    return {
        "slug": slug,
        "name": name or slug.title(),
        "website": f"https://{slug}.example.com",
        "kubernetes": {
            "managed": _fact(value["managed"]),
            "bring_your_own": _fact(value["bring_your_own"]),
            "managed_service": {},
            "control_plane_fee": {},
        },
        "drivers_preinstalled": _fact(value["drivers_preinstalled"]),
        "sharing": {method: _fact(value[method]) for method in ("time_slicing", "mig", "mps")},
        "interconnect": _interconnect(value["interconnect"], fabric),
        "storage": {},
        "spot": _fact(value["spot"]),
        "autoscaling": _fact(value["autoscaling"]),
        "scale_to_zero": _fact(value["scale_to_zero"]),
        "amd": _fact(value["amd"]),
        "gpu_models": {"items": gpu_models, "sources": [SOURCE]} if gpu_models else {},
        "regions": {"eu": eu, "us": us, "apac": apac, "sources": [SOURCE]},
        "prices": prices or [],
    }


def price(
    model: str, on_demand: float, *, currency: str = "USD", as_of: str = "2026-11-01", **more: Any
) -> dict:
    return {
        "gpu_model": model,
        "gpu_count": more.pop("gpu_count", 1),
        "on_demand": on_demand,
        "currency": currency,
        "as_of": as_of,
        "source": {"url": "https://prices.example.com/list", "read": as_of},
        **more,
    }


@pytest.fixture
def make_record() -> Callable[..., ProviderRecord]:
    return lambda *args, **kwargs: ProviderRecord.model_validate(record_data(*args, **kwargs))


@pytest.fixture
def records_dir(tmp_path: Path, make_record: Callable[..., ProviderRecord]) -> Path:
    """Records for the catalogs' providers, one with a hand-entered price that an import must keep."""
    directory = tmp_path / "providers"
    directory.mkdir()
    save_records(
        directory,
        [
            make_record("lambda", "Lambda", prices=[price("H100 SXM", 3.99, gpu_count=8)]),
            make_record("runpod", "RunPod"),
            make_record("nebius", "Nebius"),
        ],
    )
    return directory


def snapshot(directory: Path) -> dict[str, bytes]:
    """Every file of the directory with its bytes, to show an import changed nothing (or what it changed)."""
    return {
        str(path.relative_to(directory)): path.read_bytes()
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }
