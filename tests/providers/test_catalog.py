"""Price catalog import: SkyPilot and gpuhunt CSVs merge per GPU-hour; a broken file changes nothing."""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

import pytest

from assistant.providers.catalog import CatalogError, import_catalog, read_catalog
from assistant.providers.records import load_records
from tests.providers.conftest import FIXTURES, snapshot

AS_OF = date(2026, 12, 1)


def _prices(directory: Path, slug: str) -> list[tuple]:
    record = {record.slug: record for record in load_records(directory)}[slug]
    return [(p.gpu_model, p.gpu_count, p.region, p.on_demand, p.spot, p.catalog) for p in record.prices]


def test_skypilot_lambda_prices_are_per_gpu_hour_and_hand_prices_stay(records_dir: Path) -> None:
    before = snapshot(records_dir)
    summary = import_catalog(FIXTURES / "skypilot" / "lambda" / "vms.csv", records_dir, as_of=AS_OF)
    assert _prices(records_dir, "lambda") == [
        ("H100 SXM", 8, None, 3.99, None, None),  # entered by hand, kept
        ("A10", 1, "us-west-1", 0.75, None, "skypilot"),
        ("H100", 1, "us-east-1", 3.29, None, "skypilot"),
        ("H100", 8, "europe-central-1", 3.04, None, "skypilot"),  # 24.32 / 8
        ("H100", 8, "us-east-1", 2.99, None, "skypilot"),  # 23.92 / 8
    ]
    record = {r.slug: r for r in load_records(records_dir)}["lambda"]
    assert {(p.as_of, p.source.title, p.source.url) for p in record.prices[1:]} == {
        (AS_OF, "SkyPilot catalog lambda/vms.csv", "https://github.com/skypilot-org/skypilot-catalog")
    }
    after = snapshot(records_dir)
    assert {name for name in after if after[name] != before.get(name)} == {"lambda.yaml"}
    assert (summary.rows, summary.skipped, summary.written) == (4, 1, ["lambda"])
    assert "lambda: 4 added, 0 removed, 0 changed, 0 unchanged" in str(summary)


def test_skypilot_columns_are_read_by_header_not_position(records_dir: Path) -> None:
    import_catalog(FIXTURES / "skypilot" / "runpod" / "vms.csv", records_dir, as_of=AS_OF)
    assert _prices(records_dir, "runpod") == [
        (
            "A100-80GB",
            1,
            "CA",
            1.64,
            1.09,
            "skypilot",
        ),  # lowest of two zones: 1.64/1.74 on demand, 1.19/1.09 spot
        ("A100-80GB", 2, "CA", 1.64, 1.19, "skypilot"),  # 3.28 / 2 and 2.38 / 2
        ("RTX4090", 1, "SE", 0.69, None, "skypilot"),
    ]


def test_gpuhunt_provider_column_maps_catalog_names_to_slugs(records_dir: Path) -> None:
    summary = import_catalog(FIXTURES / "gpuhunt" / "offers.csv", records_dir, as_of=AS_OF)
    assert _prices(records_dir, "nebius") == [
        ("H100", 8, "eu-north1", 2.95, 1.25, "gpuhunt"),  # 23.6 / 8 on demand, 10.0 / 8 spot
        ("L40S", 1, "eu-north1", 1.55, None, "gpuhunt"),
    ]
    assert _prices(records_dir, "lambda")[-1] == ("A10", 1, "us-west-1", 0.75, None, "gpuhunt")  # lambdalabs
    assert summary.written == ["lambda", "nebius"]


def test_gpuhunt_without_provider_column_needs_the_provider_option(records_dir: Path) -> None:
    path = FIXTURES / "gpuhunt" / "runpod.csv"
    with pytest.raises(CatalogError, match="pass --provider"):
        import_catalog(path, records_dir, as_of=AS_OF)
    import_catalog(path, records_dir, provider="runpod", as_of=AS_OF)
    assert _prices(records_dir, "runpod") == [("A100", 1, "CA-MTL-1", 1.64, 1.19, "gpuhunt")]


@pytest.mark.parametrize(
    ("path", "reasons"),
    [
        (
            FIXTURES / "skypilot_broken" / "lambda" / "vms.csv",
            [
                "row 2 (line 3): Price is not a number: 'twenty'",
                "row 3 (line 4): AcceleratorCount must be above zero",
            ],
        ),
        (
            FIXTURES / "gpuhunt" / "broken.csv",
            [
                "row 2 (line 3): spot must be True or False: 'maybe'",
                "row 3 (line 4): has 12 fields, the header has 13",
            ],
        ),
        (FIXTURES / "skypilot" / "verda" / "vms.csv", ["no provider record for verda"]),
    ],
)
def test_a_broken_file_is_rejected_whole_and_changes_nothing(
    records_dir: Path, path: Path, reasons: list[str]
) -> None:
    before = snapshot(records_dir)
    with pytest.raises(CatalogError) as error:
        import_catalog(path, records_dir, as_of=AS_OF)
    for reason in reasons:
        assert reason in str(error.value)
    assert snapshot(records_dir) == before


def test_an_unknown_header_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "prices.csv"
    path.write_text("gpu,price\nH100,2.5\n", encoding="utf-8")
    with pytest.raises(CatalogError, match="neither SkyPilot vms.csv"):
        read_catalog(path)


def test_a_skypilot_file_not_named_vms_csv_needs_the_provider(tmp_path: Path) -> None:
    path = tmp_path / "lambda.csv"
    shutil.copy(FIXTURES / "skypilot" / "lambda" / "vms.csv", path)
    with pytest.raises(CatalogError, match="pass --provider"):
        read_catalog(path)
    assert {row.slug for row in read_catalog(path, provider="lambda").rows} == {"lambda"}


def test_importing_the_same_catalog_again_writes_nothing(records_dir: Path) -> None:
    path = FIXTURES / "skypilot" / "lambda" / "vms.csv"
    import_catalog(path, records_dir, as_of=AS_OF)
    before = snapshot(records_dir)
    summary = import_catalog(path, records_dir, as_of=AS_OF)
    assert summary.written == []
    assert snapshot(records_dir) == before


def test_a_new_catalog_replaces_the_old_prices_and_reports_changes(records_dir: Path, tmp_path: Path) -> None:
    import_catalog(FIXTURES / "skypilot" / "lambda" / "vms.csv", records_dir, as_of=AS_OF)
    newer = tmp_path / "lambda" / "vms.csv"
    newer.parent.mkdir()
    newer.write_text(
        "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n"
        "gpu_8x_h100_sxm5,H100,8.0,208.0,1800.0,25.52,us-east-1,,\n",
        encoding="utf-8",
    )
    summary = import_catalog(newer, records_dir, as_of=date(2026, 12, 2))
    assert [p[:4] for p in _prices(records_dir, "lambda")] == [
        ("H100 SXM", 8, None, 3.99),
        ("H100", 8, "us-east-1", 3.19),
    ]
    assert "lambda: 0 added, 3 removed, 1 changed, 0 unchanged" in str(summary)
    assert "H100 x8 us-east-1: on demand $2.99 -> $3.19" in str(summary)
