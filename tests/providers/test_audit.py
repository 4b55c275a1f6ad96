"""The audit: what each record leaves open or rests on others for; the real records pass it under --strict.

Expected lists are read off the record built here: one fact per source kind, seven facts left open.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import yaml

from assistant.config import PROJECT_ROOT, get_settings
from assistant.providers.audit import audit, source_kind
from assistant.providers.records import load_records
from assistant.providers.schema import ProviderRecord, Source
from tests.providers.conftest import price, record_data
from tests.providers.test_cli import _run

TODAY = date(2026, 12, 1)
CATALOG = "https://github.com/skypilot-org/skypilot-catalog/blob/HEAD/catalogs/v8/alpha/vms.csv"


def _source(url: str, third_party: bool = False) -> dict[str, Any]:
    return {"url": url, "read": "2026-11-01", "third_party": third_party}


@pytest.fixture
def alpha() -> ProviderRecord:
    data = record_data(
        "alpha",
        "Alpha",
        managed="yes",
        mig="yes",
        spot="yes",
        amd="yes",
        prices=[price("H100", 2.0, as_of="2026-01-01"), price("L4", 0.5, as_of="2026-11-01")],
    )
    data["website"] = "https://www.alpha.example"
    data["own_sites"] = ["github.com/alpha-cloud/"]
    data["kubernetes"]["managed"]["sources"] = [_source("https://docs.alpha.example/k8s")]
    data["sharing"]["mig"]["sources"] = [_source("https://docs.nvidia.com/alpha-mig")]
    data["spot"]["sources"] = [_source("https://blog.example.org/spot", third_party=True)]
    data["amd"]["sources"] = [_source(CATALOG, third_party=True)]
    return ProviderRecord.model_validate(data)


def test_sources_are_sorted_into_kinds(alpha: ProviderRecord) -> None:
    kinds = [
        source_kind(Source(url=url, read=TODAY, third_party=third_party), alpha)
        for url, third_party in [
            ("https://docs.alpha.example/k8s", False),
            ("https://alpha.example/pricing", False),
            ("https://github.com/alpha-cloud/docs/blob/main/gpu.md", False),
            ("https://github.com/someone-else/alpha-notes", False),
            ("https://notalpha.example/page", False),
            ("https://docs.alpha.example/k8s", True),
            (CATALOG, True),
        ]
    ]
    assert kinds == ["provider", "provider", "provider", "other", "other", "third_party", "catalog"]


def test_a_record_is_audited_fact_by_fact(alpha: ProviderRecord) -> None:
    report = audit([alpha], today=TODAY, max_age_days=120)
    [found] = report.providers
    assert found.unknown == [
        "kubernetes.bring_your_own",
        "drivers_preinstalled",
        "sharing.time_slicing",
        "sharing.mps",
        "interconnect",
        "autoscaling",
        "scale_to_zero",
        "regions.eu",
        "regions.us",
        "regions.apac",
    ]
    assert found.not_primary == ["sharing.mig", "spot", "amd"]
    assert found.third_party_only == ["spot"]  # the catalog is its own kind, not "third party only"
    assert found.stale_prices == ["H100 as of 2026-01-01 (334 days)"]
    assert found.unlinked == []
    assert (report.yes_no, report.unknown) == (11, 7)
    assert report.by_kind == {"provider": 1, "catalog": 1, "other": 1, "third_party": 1}
    # both prices cite prices.example.com, which is not alpha.example's own site
    assert report.prices_by_kind == {"provider": 0, "catalog": 0, "other": 2, "third_party": 0}
    assert "11 yes/no facts: 4 known, 7 unknown (64%)" in str(report)


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    shutil.copytree(PROJECT_ROOT / "corpus" / "providers", tmp_path / "providers")
    monkeypatch.setenv("ASSISTANT_CORPUS_DIR", str(tmp_path))
    get_settings.cache_clear()
    yield tmp_path / "providers"
    get_settings.cache_clear()


def test_the_real_records_pass_the_strict_audit(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run("providers", "audit", "--strict") == 0
    out = capsys.readouterr().out
    assert "0 yes/no facts without a link" in out
    assert f"{11 * len(load_records(corpus))} yes/no facts:" in out


def test_a_fact_without_a_link_fails_the_audit(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = corpus / "aws.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["spot"]["sources"] = [{"title": "an AWS blog post", "read": "2026-12-03"}]
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert _run("providers", "audit", "--strict") == 1
    assert "aws.yaml: provider aws: field spot.sources.0.url" in capsys.readouterr().err


def test_unknown_facts_do_not_fail_the_audit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make_record: Callable[..., ProviderRecord]
) -> None:
    from assistant.providers.records import save_records

    (tmp_path / "providers").mkdir()
    save_records(tmp_path / "providers", [make_record("acme")])
    monkeypatch.setenv("ASSISTANT_CORPUS_DIR", str(tmp_path))
    get_settings.cache_clear()
    try:
        assert _run("providers", "audit", "--strict") == 0
    finally:
        get_settings.cache_clear()
