"""Loading the records: every problem names the file, the provider and the field; the real set is valid."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from assistant.config import PROJECT_ROOT
from assistant.providers.records import RecordError, dump_record, load_records, save_records
from tests.providers.conftest import record_data

REAL = PROJECT_ROOT / "corpus" / "providers"


def _write(directory: Path, name: str, data: object) -> None:
    (directory / name).write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


def test_records_load_sorted_by_name(tmp_path: Path) -> None:
    _write(tmp_path, "zeta.yaml", record_data("zeta", "Zeta Cloud"))
    _write(tmp_path, "alpha.yaml", record_data("alpha", "alpha GPUs"))
    _write(tmp_path, "mid.yaml", record_data("mid", "Middle"))
    assert [record.slug for record in load_records(tmp_path)] == ["alpha", "mid", "zeta"]


def test_every_bad_file_is_reported_with_file_provider_and_field(tmp_path: Path) -> None:
    good = record_data("good")
    bad_value = record_data("acme", managed="yes")
    bad_value["kubernetes"]["managed"]["value"] = "sometimes"
    unsourced = record_data("beta")
    unsourced["amd"] = {"value": "yes"}
    _write(tmp_path, "good.yaml", good)
    _write(tmp_path, "acme.yaml", bad_value)
    _write(tmp_path, "beta.yaml", unsourced)
    with pytest.raises(RecordError) as error:
        load_records(tmp_path)
    found = {(problem.file, problem.provider, problem.field) for problem in error.value.problems}
    assert found == {("acme.yaml", "acme", "kubernetes.managed.value"), ("beta.yaml", "beta", "amd")}
    assert "acme.yaml: provider acme: field kubernetes.managed.value" in str(error.value)


def test_a_file_must_be_named_after_its_slug(tmp_path: Path) -> None:
    _write(tmp_path, "acme-cloud.yaml", record_data("acme"))
    with pytest.raises(RecordError, match=r"acme-cloud.yaml: provider acme: field slug"):
        load_records(tmp_path)


def test_broken_yaml_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "acme.yaml").write_text("slug: acme\nname: [unclosed\n", encoding="utf-8")
    with pytest.raises(RecordError) as error:
        load_records(tmp_path)
    assert error.value.problems[0].file == "acme.yaml"
    assert error.value.problems[0].field == "(yaml)"


def test_a_missing_directory_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="does not exist"):
        load_records(tmp_path / "nowhere")


def test_saving_writes_what_loading_reads(tmp_path: Path) -> None:
    record = load_records(REAL)[0]
    save_records(tmp_path, [record])
    assert load_records(tmp_path) == [record]
    assert (tmp_path / f"{record.slug}.yaml").read_text(encoding="utf-8") == dump_record(record)
    assert [path.name for path in tmp_path.iterdir()] == [f"{record.slug}.yaml"]


def test_the_real_records_are_valid_and_written_as_the_dumper_writes_them() -> None:
    records = load_records(REAL)
    assert len(records) >= 20
    for record in records:
        assert (REAL / f"{record.slug}.yaml").read_text(encoding="utf-8") == dump_record(record), record.slug


def test_the_real_records_keep_what_the_notes_leave_open_unknown() -> None:
    records = {record.slug: record for record in load_records(REAL)}
    assert records["coreweave"].sharing.mig.value == "unknown"
    assert records["coreweave"].interconnect.value == "yes"
    assert (records["aws"].interconnect.fabric, records["aws"].interconnect.fabric_name) == ("rdma", "EFA")
    assert records["coreweave"].interconnect.fabric == "infiniband"
    assert records["scaleway"].regions.us == "no"
    assert records["civo"].amd.value == "unknown"
    assert records["runpod"].interconnect.value == "unknown"
    assert all(price.as_of for record in records.values() for price in record.prices)


def test_the_errors_of_issue_13_stay_fixed() -> None:
    """AWS rents AMD GPUs (G4ad), AWS and Google Cloud have GPU capacity in Europe and Asia-Pacific."""
    records = {record.slug: record for record in load_records(REAL)}
    aws, gcp = records["aws"], records["gcp"]
    assert aws.amd.value == "yes"
    assert any("accelerated-computing-instances" in source.url for source in aws.amd.sources)
    assert (aws.regions.eu, aws.regions.apac, gcp.regions.eu, gcp.regions.apac) == ("yes",) * 4
    assert not any("jiralog" in source.url for source in aws.interconnect.sources)


def test_bring_your_own_is_open_only_where_no_machine_rental_was_found() -> None:
    """The two providers whose sources show no GPU machines outside their own clusters (see their notes)."""
    records = load_records(REAL)
    open_ = {record.slug for record in records if record.kubernetes.bring_your_own.value == "unknown"}
    assert open_ == {"coreweave", "together"}
    for record in records:
        if record.slug in open_:
            assert record.kubernetes.bring_your_own.note, record.slug
