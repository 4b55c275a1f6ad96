"""Record paragraphs: the same sentences in English and Dutch, each fact with its source, open facts said."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from langchain_core.documents import Document

from assistant.config import PROJECT_ROOT
from assistant.language import detect_language
from assistant.providers.documents import fact_sentences, record_documents
from assistant.providers.records import load_records
from assistant.providers.renderings import RenderingError, load_renderings
from assistant.providers.schema import ProviderRecord
from assistant.text import split_sentences
from tests.providers.conftest import price

RECORDS = PROJECT_ROOT / "corpus" / "providers"

# The corpus's sentence boundary: . ? or ! then whitespace then an uppercase letter, a digit or a quote.
BOUNDARY = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'“(])")


def _by_paragraph(documents: list[Document]) -> dict[tuple[str, int], dict[str, Document]]:
    paragraphs: dict[tuple[str, int], dict[str, Document]] = {}
    for document in documents:
        key = (document.metadata["section_id"], document.metadata["paragraph"])
        paragraphs.setdefault(key, {})[document.metadata["language"]] = document
    return paragraphs


def test_every_real_paragraph_has_the_same_sentences_in_both_languages() -> None:
    records = load_records(RECORDS)
    paragraphs = _by_paragraph(record_documents(records, load_renderings(RECORDS)))
    assert len(paragraphs) == 6 * len(records)
    for key, languages in paragraphs.items():
        assert set(languages) == {"en", "nl"}, key
        english = BOUNDARY.split(languages["en"].page_content)
        dutch = BOUNDARY.split(languages["nl"].page_content)
        assert len(english) == len(dutch), (key, english, dutch)


def test_metadata_cite_the_record(make_record: Callable[..., ProviderRecord]) -> None:
    documents = record_documents([make_record("acme", "Acme GPU", managed="yes")])
    assert {d.metadata["language"] for d in documents} == {"en", "nl"}
    first = documents[0].metadata
    assert first == {
        "section_id": "provider:acme",
        "kind": "provider",
        "language": "en",
        "title": "Acme GPU",
        "url": "https://docs.example.com/gpu",
        "paragraph": 0,
    }
    assert [d.metadata["paragraph"] for d in documents] == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]


def test_facts_are_stated_with_their_source_and_open_facts_as_open(
    make_record: Callable[..., ProviderRecord],
) -> None:
    record = make_record(
        "acme",
        "Acme GPU",
        interconnect="yes",
        spot="no",
        prices=[price("H100", 2.5, gpu_count=8, region="eu-1")],
    )
    text = {
        (d.metadata["language"], d.metadata["paragraph"]): d.page_content for d in record_documents([record])
    }
    assert "Acme GPU links GPU nodes with InfiniBand, according to docs.example.com." in text["en", 2]
    assert "Acme GPU verbindt GPU-nodes met InfiniBand, volgens docs.example.com." in text["nl", 2]
    assert (
        "Acme GPU offers no spot or preemptible GPU capacity, according to docs.example.com." in text["en", 3]
    )
    assert (
        "The sources read leave open for Acme GPU: autoscaling of GPU node pools and GPU node pools"
        in (text["en", 3])
    )
    assert (
        "De gelezen bronnen laten voor Acme GPU open: automatisch schalen van GPU-nodepools en"
        in text["nl", 3]
    )
    assert text["en", 5] == (
        "On 2026-11-01, prices.example.com listed the H100 (8 GPUs, eu-1) from Acme GPU at $2.50 per GPU-hour"
        " on demand."
    )
    assert (
        text["nl", 5]
        == "Op 2026-11-01 noemde prices.example.com voor de H100 (8 GPU’s, eu-1) van Acme GPU $2,50 per GPU-uur"
        " on demand."
    )


def test_source_text_cannot_break_a_sentence_in_two(make_record: Callable[..., ProviderRecord]) -> None:
    record = make_record("acme", "Acme GPU", gpu_models=["H100 (e.g. SXM). Also A100", "L4"])
    for document in record_documents([record]):
        if document.metadata["paragraph"] == 4:
            # one sentence for the models, one for the facts left open (AMD, the three areas)
            assert len(BOUNDARY.split(document.page_content)) == 2, document.page_content


def _network(record: ProviderRecord, language: str) -> str:
    return next(
        d.page_content
        for d in record_documents([record])
        if d.metadata["paragraph"] == 2 and d.metadata["language"] == language
    )


def test_an_rdma_fabric_is_named_and_not_called_infiniband(
    make_record: Callable[..., ProviderRecord],
) -> None:
    record = make_record("acme", "Acme GPU", interconnect="yes", fabric="rdma")
    assert _network(record, "en").startswith(
        "Acme GPU links GPU nodes with an RDMA-class fabric, RoCE v2, not InfiniBand, according to docs.example.com."
    )
    assert _network(record, "nl").startswith(
        "Acme GPU verbindt GPU-nodes met een RDMA-netwerk, RoCE v2, geen InfiniBand, volgens docs.example.com."
    )


def test_a_fabric_that_may_be_infiniband_is_not_said_to_be_otherwise(
    make_record: Callable[..., ProviderRecord],
) -> None:
    record = make_record("acme", "Acme GPU", interconnect="yes", fabric="rdma")
    either = record.interconnect.model_copy(update={"fabric_name": "RoCE or InfiniBand"})
    record = record.model_copy(update={"interconnect": either})
    assert _network(record, "en").startswith(
        "Acme GPU links GPU nodes with an RDMA-class fabric, RoCE or InfiniBand, according to docs.example.com."
    )
    assert "geen InfiniBand" not in _network(record, "nl")


def test_plain_ethernet_is_said_as_such(make_record: Callable[..., ProviderRecord]) -> None:
    record = make_record("acme", "Acme GPU", interconnect="no", fabric="ethernet")
    assert _network(record, "en").startswith(
        "Acme GPU links GPU nodes with Ethernet only, without InfiniBand or RDMA, according to docs.example.com."
    )


def test_a_third_party_source_is_marked(make_record: Callable[..., ProviderRecord]) -> None:
    data = make_record("acme", "Acme GPU", spot="yes").model_dump()
    data["spot"]["sources"] = [
        {
            "url": "https://github.com/someone/notes/blob/main/gpus.md",
            "read": "2026-10-01",
            "third_party": True,
        }
    ]
    record = ProviderRecord.model_validate(data)
    capacity = next(
        d.page_content
        for d in record_documents([record])
        if d.metadata["paragraph"] == 3 and d.metadata["language"] == "en"
    )
    assert (
        "Acme GPU offers spot or preemptible GPU capacity, according to the repository someone/notes (third party)."
        in capacity
    )


def test_every_dutch_record_sentence_reads_as_dutch() -> None:
    """A Dutch answer quotes one sentence at a time: the source texts inside it come in their Dutch rendering."""
    documents = record_documents(load_records(RECORDS), load_renderings(RECORDS))
    dutch = [
        sentence
        for d in documents
        if d.metadata["language"] == "nl"
        for sentence in BOUNDARY.split(d.page_content)
    ]
    assert len(dutch) > 200
    assert [sentence for sentence in dutch if detect_language(sentence) != "nl"] == []


def test_a_rendering_changes_the_dutch_sentence_only(make_record: Callable[..., ProviderRecord]) -> None:
    record = make_record("acme", "Acme GPU", managed="yes")
    service = record.kubernetes.managed_service.model_copy(update={"text": "Acme Kubernetes, free plan"})
    record = record.model_copy(
        update={"kubernetes": record.kubernetes.model_copy(update={"managed_service": service})}
    )
    texts = {
        d.metadata["language"]: d.page_content
        for d in record_documents([record], {"Acme Kubernetes, free plan": "Acme Kubernetes, gratis plan"})
        if d.metadata["paragraph"] == 0
    }
    assert "Acme Kubernetes, free plan" in texts["en"] and "gratis plan" not in texts["en"]
    assert "Acme Kubernetes, gratis plan" in texts["nl"]


def test_a_renderings_file_that_is_not_a_mapping_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "nl").mkdir()
    (tmp_path / "nl" / "renderings.yaml").write_text("- just a list\n", encoding="utf-8")
    with pytest.raises(RenderingError, match="renderings.yaml"):
        load_renderings(tmp_path)


def test_each_filter_key_points_at_the_sentences_that_state_its_fact(
    make_record: Callable[..., ProviderRecord],
) -> None:
    record = make_record("acme", "Acme GPU", drivers_preinstalled="yes", mig="yes", managed="yes")
    sentences = {
        d.metadata["paragraph"]: split_sentences(d.page_content)
        for d in record_documents([record])
        if d.metadata["language"] == "en"
    }
    facts = fact_sentences(record)

    def stated(key: str) -> list[str]:
        return [sentences[facts[key].paragraph][i] for i in facts[key].stated]

    assert [s.startswith("Acme GPU supports MIG") for s in stated("gpu_sharing")] == [True]
    assert stated("sharing_any") == stated("sharing") == stated("gpu_sharing")
    assert [s.startswith("Acme GPU installs the GPU drivers") for s in stated("drivers_preinstalled")] == [
        True
    ]
    assert [s.startswith("Acme GPU offers managed Kubernetes") for s in stated("kubernetes")] == [True]
    spot = facts["spot"]
    assert spot.stated == () and spot.left_open is not None
    assert "spot or preemptible capacity" in sentences[spot.paragraph][spot.left_open]


def test_each_kubernetes_model_has_its_own_sentence_beside_the_key_that_covers_both(
    make_record: Callable[..., ProviderRecord],
) -> None:
    """A filter on managed Kubernetes quotes the managed sentence of a record that offers both models."""
    record = make_record("acme", "Acme GPU", managed="yes", bring_your_own="yes")
    facts = fact_sentences(record)
    paragraph = next(
        split_sentences(d.page_content)
        for d in record_documents([record])
        if d.metadata["language"] == "en" and d.metadata["paragraph"] == facts["kubernetes"].paragraph
    )
    managed = [paragraph[i] for i in facts["kubernetes=managed"].stated]
    own = [paragraph[i] for i in facts["kubernetes=bring_your_own"].stated]
    assert [s.startswith("Acme GPU offers managed Kubernetes") for s in managed] == [True]
    assert [s.startswith("Acme GPU sells GPU machines that you join") for s in own] == [True]
    assert sorted(facts["kubernetes"].stated) == sorted(
        facts["kubernetes=managed"].stated + facts["kubernetes=bring_your_own"].stated
    )
