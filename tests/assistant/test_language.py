"""Language detection on the short questions people actually type."""

from __future__ import annotations

import pytest

from assistant.language import detect_language

CASES = [
    ("can I share one GPU between pods?", "en"),
    ("and with MIG?", "en"),
    ("what is time-slicing", "en"),
    ("is k8s worth it for 1 gpu job", "en"),
    ("cheapest H100 with managed kubernetes", "en"),
    ("do I need InfiniBand for training", "en"),
    ("Does Kubernetes support mean drivers are already installed on GPU nodes?", "en"),
    ("Kan ik meer dan één werkbelasting per GPU draaien?", "nl"),
    ("en bij spot-nodes?", "nl"),
    ("wat is time-slicing", "nl"),
    ("goedkoopste H100", "nl"),
    ("drivers voorgeinstalleerd?", "nl"),
    ("hoe zit het met MPS?", "nl"),
    ("welke providers hebben MIG", "nl"),
    # Words both languages use ("of", "providers", "run", "de") decide nothing alone.
    ("Welke providers bieden MIG of MPS?", "nl"),
    ("providers met MIG of MPS", "nl"),
    ("run MIG of MPS op de nodes", "nl"),
    ("MIG or MPS providers", "en"),
    ("kan ik een GPU sharen tussen pods?", "nl"),
    ("Welke providers hebben managed Kubernetes met spot nodes?", "nl"),
    ("Betekent Kubernetes-ondersteuning dat drivers al geïnstalleerd zijn op GPU-nodes?", "nl"),
]


@pytest.mark.parametrize(("question", "language"), CASES)
def test_short_questions_get_their_language(question: str, language: str) -> None:
    assert detect_language(question) == language


def test_a_question_that_tells_nothing_follows_the_conversation() -> None:
    assert detect_language("MIG?", fallback="nl") == "nl"
    assert detect_language("MIG?", fallback="en") == "en"


def test_in_a_mixed_question_the_balance_of_words_and_the_statistics_decide() -> None:
    assert detect_language("Which providers hebben MIG met spot nodes?", fallback="en") == "nl"
    assert detect_language("Which providers have MIG en spot?", fallback="nl") == "en"


@pytest.mark.parametrize(
    ("question", "language"),
    [
        # No closed-class word at all: words far more frequent in one language's corpora tell.
        ("H100 prijs per uur", "nl"),
        ("A100 huur per maand", "nl"),
        ("price per hour H100", "en"),
    ],
)
def test_words_known_by_their_frequency_decide_when_no_frame_word_does(question: str, language: str) -> None:
    assert detect_language(question) == language


def test_in_a_mixed_question_the_grammatical_frame_outweighs_borrowed_nouns() -> None:
    assert detect_language("does the goedkoopste offer include storage?") == "en"
    assert detect_language("welke cloud heeft the best MIG support") == "nl"


@pytest.mark.parametrize(
    ("question", "language"),
    [
        # Mixed questions: the question comes first and carries the frame; a clause after it counts less.
        ("do we still pay for idle nodes als er niks draait", "en"),
        ("ik wil graag een cloud die time slicing supports in the eu", "nl"),
        ("welke providers hebben MIG, no matter which region", "nl"),
    ],
)
def test_in_a_mixed_question_the_words_that_come_first_weigh_more(question: str, language: str) -> None:
    assert detect_language(question) == language


@pytest.mark.parametrize(
    ("question", "language"),
    [
        # A remark that sets the scene comes first; the clause that asks carries the frame.
        ("our team rents bare gpu vms, moeten we de container toolkit zelf installeren", "nl"),
        ("wij hebben een eigen k3s cluster, does the operator install the drivers there", "en"),
        ("ik heb alleen een paar a100 kaarten, which providers offer mig on those", "en"),
    ],
)
def test_in_a_mixed_question_the_clause_that_asks_outweighs_a_remark_before_it(
    question: str, language: str
) -> None:
    assert detect_language(question) == language
