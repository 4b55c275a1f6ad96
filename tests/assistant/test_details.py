"""The details of a sentence a follow-up may ask about: its clauses, each word for word as in the sentence."""

from __future__ import annotations

import pytest

from assistant.details import asks_drawback, detail_parts, singled_out
from assistant.spans import Part


@pytest.mark.parametrize(
    ("sentence", "names_item", "parts"),
    [
        # a list item without its name; what a closing parenthesis holds, without the parentheses
        (
            "Time-slicing — the device plugin advertises one physical GPU as multiple schedulable units, letting"
            " several pods share it (no hard memory isolation).",
            True,
            [
                "the device plugin advertises one physical GPU as multiple schedulable units",
                "letting several pods share it",
                "no hard memory isolation",
            ],
        ),
        # a semicolon; the Dutch item alike
        (
            "Spot-/onderbreekbare nodes — goedkopere preëmptieve GPU-nodes passen goed bij Kubernetes als uw"
            " werkbelastingen verdragingen verdragen; zorg dat het cluster node drains afhandelt en opnieuw plant"
            " zonder problemen.",
            True,
            [
                "goedkopere preëmptieve GPU-nodes passen goed bij Kubernetes als uw werkbelastingen verdragingen"
                " verdragen",
                "zorg dat het cluster node drains afhandelt en opnieuw plant zonder problemen.",
            ],
        ),
        # a comma inside parentheses is no boundary; an opening "and" joins the clause to the one before
        (
            "Check for fast interconnect between GPU nodes (such as RDMA or InfiniBand), support for gang/queue"
            " scheduling so that all worker pods start at the same time, a training operator for your framework,"
            " and fast shared storage for datasets and checkpoints.",
            False,
            [
                "Check for fast interconnect between GPU nodes (such as RDMA or InfiniBand)",
                "support for gang/queue scheduling so that all worker pods start at the same time",
                "a training operator for your framework",
                "fast shared storage for datasets and checkpoints.",
            ],
        ),
    ],
)
def test_a_sentence_s_details_are_its_clauses_word_for_word(
    sentence: str, names_item: bool, parts: list[str]
) -> None:
    assert detail_parts(sentence, names_item) == parts
    assert all(part in sentence for part in parts)


@pytest.mark.parametrize(
    "sentence",
    [
        # a contrast says one thing: "eases this pain" alone would promise more than the sentence does
        "The GPU Operator eases this pain, but version mismatches are the most common cause of pods that crash.",
        # a clause too short to say anything by itself
        "To share a card, you need an explicitly enabled feature such as time-slicing, MPS or hardware MIG.",
        # one clause
        "Plain pod networking can cause bottlenecks in collective operations.",
    ],
)
def test_a_sentence_that_says_one_thing_has_no_details(sentence: str) -> None:
    assert detail_parts(sentence, names_item=False) == []


def _part(number: int, text: str) -> Part:
    return Part(("gpu-sharing", (1,)), 0, number, {"en": text}, frozenset(text.split()))


_CLAUSES = [
    _part(0, "the device plugin advertises one physical gpu"),
    _part(1, "letting several pods share it"),
    _part(2, "no hard memory isolation"),
]


def test_the_weightiest_word_no_other_detail_holds_singles_a_detail_out() -> None:
    assert singled_out(_CLAUSES, {"memory": 2.4, "pods": 1.3}, drawback=False) is _CLAUSES[2]
    assert singled_out(_CLAUSES, {"memory": 1.0, "pods": 1.3}, drawback=False) is _CLAUSES[1]


def test_no_detail_is_singled_out_without_a_word_of_one_or_between_equals() -> None:
    assert singled_out(_CLAUSES, {"downsides": 2.9}, drawback=False) is None
    assert singled_out(_CLAUSES, {"memory": 1.3, "pods": 1.3}, drawback=True) is None
    # a word two details hold singles out neither
    assert (
        singled_out([*_CLAUSES, _part(3, "memory for pods")], {"memory": 2.4, "pods": 1.3}, drawback=False)
        is None
    )


@pytest.mark.parametrize(
    ("question", "drawback"),
    [
        ("and what are its downsides?", True),
        ("so whats the catch with it", True),
        ("en wat is het nadeel daarvan?", True),
        ("zijn er beperkingen?", True),
        ("and how does it work?", False),
        ("en wat kost dat?", False),
    ],
)
def test_a_question_asking_for_a_drawback_is_recognised(question: str, drawback: bool) -> None:
    assert asks_drawback(question) is drawback


def test_asked_for_a_drawback_in_words_no_detail_holds_the_detail_that_states_what_is_missing() -> None:
    assert singled_out(_CLAUSES, {"downsides": 2.9}, drawback=True) is _CLAUSES[2]
    # words of a detail still decide
    assert singled_out(_CLAUSES, {"pods": 1.3}, drawback=True) is _CLAUSES[1]
    # no detail states what is missing
    assert singled_out(_CLAUSES[:2], {"downsides": 2.9}, drawback=True) is None
