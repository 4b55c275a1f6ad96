"""Unit tier: how an answer's text is cut into streamed sentences."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from api.events import sentences

_WORDS = st.text(alphabet=st.characters(blacklist_characters="[]", blacklist_categories=("Cs",)), min_size=1)
_MARKERS = st.lists(st.integers(1, 12), min_size=1, max_size=3)


def test_each_sentence_keeps_its_markers() -> None:
    cut = sentences("Time-slicing shares a GPU. [1] MIG isolates it. [1] [2] Ask the provider. [3]")
    assert [(s["text"], s["markers"]) for s in cut] == [
        ("Time-slicing shares a GPU. [1]", [1]),
        ("MIG isolates it. [1] [2]", [1, 2]),
        ("Ask the provider. [3]", [3]),
    ]
    assert [s["index"] for s in cut] == [0, 1, 2]


def test_a_refusal_is_one_sentence_without_markers() -> None:
    assert sentences("The guide does not cover this question.") == [
        {"index": 0, "text": "The guide does not cover this question.", "markers": []}
    ]


@given(st.lists(st.tuples(_WORDS, _MARKERS), max_size=6))
def test_sentences_put_together_again_give_the_answer(parts: list[tuple[str, list[int]]]) -> None:
    """As the composer writes answers: each sentence followed by its markers, joined by spaces."""
    answer = " ".join(
        f"{text.strip() or 'x'} " + " ".join(f"[{n}]" for n in markers) for text, markers in parts
    )
    cut = sentences(answer)
    assert " ".join(s["text"] for s in cut).split() == answer.split()
    assert [n for s in cut for n in s["markers"]] == [int(n) for n in re.findall(r"\[(\d+)\]", answer)]
