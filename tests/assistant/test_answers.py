"""Answers from the real model and a real Chroma store: right section, right facts, right language."""

from __future__ import annotations

import re

import pytest

from assistant.chunking import build_documents
from assistant.config import Settings
from assistant.corpus import SECTION_IDS
from assistant.models import Answer, Turn
from assistant.service import Assistant
from assistant.text import split_sentences

# (question, language, sections that may lead the citations, facts: each a set of accepted wordings)
FAQ_CASES = [
    (
        "Does Kubernetes support mean drivers are already installed on GPU nodes?",
        "en",
        {"faq-drivers"},
        [{"often yes"}, {"gpu operator"}],
    ),
    (
        "do k8s providers preinstall the gpu drivers on nodes?",
        "en",
        {"faq-drivers"},
        [{"gpu operator", "driver"}],
    ),
    (
        "Betekent Kubernetes-ondersteuning dat drivers al geïnstalleerd zijn op GPU-nodes?",
        "nl",
        {"faq-drivers"},
        [{"vaak wel"}, {"gpu operator"}],
    ),
    (
        "zijn de drivers al geinstalleerd als een provider kubernetes ondersteunt?",
        "nl",
        {"faq-drivers"},
        [{"gpu operator", "driver"}],
    ),
    (
        "Can I run more than one workload per GPU on Kubernetes?",
        "en",
        {"faq-multiple-workloads"},
        [{"whole gpus"}, {"time-slicing"}],
    ),
    (
        "can I share one GPU between pods?",
        "en",
        {"faq-multiple-workloads", "gpu-sharing"},
        [{"time-slicing"}],
    ),
    (
        "Kan ik meer dan één werkbelasting per GPU draaien op Kubernetes?",
        "nl",
        {"faq-multiple-workloads"},
        [{"hele gpu"}, {"time-slicing"}],
    ),
    (
        "kunnen meerdere pods samen 1 gpu gebruiken?",
        "nl",
        {"faq-multiple-workloads", "gpu-sharing"},
        [{"time-slicing"}],
    ),
    ("Is Kubernetes worth it for a single GPU task?", "en", {"faq-single-gpu-task"}, [{"usually not"}]),
    pytest.param(
        "is k8s overkill for just one gpu job?",
        "en",
        {"faq-single-gpu-task"},
        [{"ssh"}],
        # Neither model links "overkill" to "worth it": the multiple-workloads FAQ ranks first.
        marks=pytest.mark.xfail(strict=True, reason="known miss of the bundled embedding model"),
    ),
    (
        "Is Kubernetes de moeite waard voor een enkele GPU-taak?",
        "nl",
        {"faq-single-gpu-task"},
        [{"meestal niet"}],
    ),
    ("heeft kubernetes zin voor één fine-tuning run op 1 gpu?", "nl", {"faq-single-gpu-task"}, [{"ssh"}]),
    (
        "What should I check for multi-node distributed training on Kubernetes?",
        "en",
        {"faq-multi-node-training"},
        [{"infiniband"}, {"gang"}],
    ),
    (
        "what do i need for distributed training over several gpu nodes?",
        "en",
        {"faq-multi-node-training", "tradeoffs", "why-it-matters"},
        [{"infiniband", "rdma"}],
    ),
    (
        "Wat moet ik controleren voor multi-node gedistribueerde training op Kubernetes?",
        "nl",
        {"faq-multi-node-training"},
        [{"infiniband"}, {"gang"}],
    ),
    (
        "waar let ik op bij training over meerdere nodes?",
        "nl",
        {"faq-multi-node-training", "tradeoffs", "why-it-matters"},
        [{"infiniband", "rdma"}],
    ),
]

OUT_OF_SCOPE = [
    ("What is the capital of Australia?", "en"),
    ("How do I bake bread?", "en"),
    ("How do I configure PostgreSQL replication?", "en"),
    ("Hoe bak ik een appeltaart?", "nl"),
    ("Wie won het WK voetbal in 2010?", "nl"),
]


def _check_contract(answer: Answer) -> None:
    markers = {int(n) for n in re.findall(r"\[(\d+)\]", answer.answer)}
    assert markers == {citation.n for citation in answer.citations}
    assert [citation.n for citation in answer.citations] == list(range(1, len(answer.citations) + 1))
    assert len({citation.section_id for citation in answer.citations}) == len(answer.citations)
    for citation in answer.citations:
        assert citation.section_id in SECTION_IDS or citation.section_id.startswith("provider:")


@pytest.fixture(scope="session")
def corpus_sentences(settings: Settings) -> dict[tuple[str, str], set[str]]:
    sentences: dict[tuple[str, str], set[str]] = {}
    for document in build_documents(settings):
        key = (document.metadata["section_id"], document.metadata["language"])
        sentences.setdefault(key, set()).update(split_sentences(document.page_content))
    return sentences


@pytest.mark.parametrize(("question", "language", "sections", "facts"), FAQ_CASES)
def test_faq_questions_are_answered_from_their_section(
    assistant: Assistant, corpus_sentences, question: str, language: str, sections: set[str], facts
) -> None:
    answer = assistant.ask(question)
    assert not answer.refused
    assert answer.language == language
    assert answer.citations[0].section_id in sections
    for accepted in facts:
        assert any(wording in answer.answer.lower() for wording in accepted), (accepted, answer.answer)
    _check_contract(answer)
    for citation in answer.citations:
        for sentence in split_sentences(citation.quote):
            assert sentence in corpus_sentences[(citation.section_id, language)]
            assert f"{sentence} [{citation.n}]" in answer.answer
        if language == "en":
            originals = split_sentences(citation.original or "")
            assert len(originals) == len(split_sentences(citation.quote))
            assert all(s in corpus_sentences[(citation.section_id, "nl")] for s in originals)
        else:
            assert citation.original is None


@pytest.mark.parametrize(("question", "language"), OUT_OF_SCOPE)
def test_questions_the_guide_does_not_cover_are_refused(
    assistant: Assistant, question: str, language: str
) -> None:
    answer = assistant.ask(question)
    assert answer.refused
    assert answer.language == language
    assert answer.citations == [] and "[" not in answer.answer
    assert ("guide" if language == "en" else "gids") in answer.answer


def test_an_explicit_language_wins_over_the_question(assistant: Assistant) -> None:
    answer = assistant.ask("Kan ik meer dan één werkbelasting per GPU draaien op Kubernetes?", language="en")
    assert answer.language == "en"
    assert "whole GPUs" in answer.answer
    assert answer.citations[0].original and "hele GPU" in answer.citations[0].original


def test_a_short_follow_up_is_read_with_the_earlier_question(assistant: Assistant) -> None:
    history = [Turn(role="user", content="Which GPU sharing options should I look for?")]
    answer = assistant.ask("and MIG?", history=history)
    assert answer.language == "en"
    assert "Multi-Instance GPU" in answer.answer
    dutch = [Turn(role="user", content="Welke afwegingen moet ik maken voordat ik me vastleg?")]
    answer = assistant.ask("en bij spot-nodes?", history=dutch)
    assert answer.language == "nl"
    assert "onderbreekbare" in answer.answer or "preëmptieve" in answer.answer
