"""The part of a sentence that leans back which says something by itself, and can be quoted alone."""

from __future__ import annotations

import pytest

from assistant.sentences import leans_back
from assistant.spans import standalone_part
from assistant.text import split_clauses


@pytest.mark.parametrize(
    ("sentence", "part"),
    [
        # the main clause after "but" / "maar"
        (
            "The GPU Operator eases this pain, but version mismatches are the most common cause of crashes.",
            "version mismatches are the most common cause of crashes.",
        ),
        (
            "De GPU Operator vermindert deze pijn, maar versieverschillen zijn de meest voorkomende oorzaak.",
            "versieverschillen zijn de meest voorkomende oorzaak.",
        ),
        # a thing named with the relative clause that says what it does, from its article on
        (
            "Many providers package this via the NVIDIA GPU Operator, which installs drivers on every node.",
            "the NVIDIA GPU Operator, which installs drivers on every node.",
        ),
        (
            "Veel providers verpakken dit via de NVIDIA GPU Operator, die drivers op elke node installeert.",
            "de NVIDIA GPU Operator, die drivers op elke node installeert.",
        ),
    ],
)
def test_a_sentence_that_leans_back_offers_the_part_that_stands_alone(sentence: str, part: str) -> None:
    assert leans_back(sentence)
    assert standalone_part(sentence) == part
    assert not leans_back(part)


@pytest.mark.parametrize(
    "sentence",
    [
        "Without these, distributed jobs stall on network and storage bottlenecks.",
        "Zonder deze stagneren gedistribueerde jobs op netwerk- en opslagknelpunten.",
        "This is the strongest case for Kubernetes on GPUs.",
    ],
)
def test_a_sentence_with_no_main_clause_of_its_own_offers_no_part(sentence: str) -> None:
    """Dropping "Without these," would turn a condition into a claim: such a sentence is quoted whole or not."""
    assert standalone_part(sentence) == ""


@pytest.mark.parametrize(
    "sentence",
    [
        "It takes three parts working together: a scheduler that knows all of the cards and their memory limits; a "
        "runtime that lets every container see the driver it needs; and drivers that match your images.",
        "Er zijn drie onderdelen nodig die samenwerken: een scheduler die de kaarten en hun geheugen kent; een "
        "runtime die elke container de driver laat zien die hij nodig heeft; en drivers die passen bij uw images.",
    ],
)
def test_the_last_part_of_a_listing_sentence_is_quoted_without_the_and_that_joins_it(sentence: str) -> None:
    parts = split_clauses(sentence)
    assert len(parts) == 4
    assert parts[-1].startswith("drivers") and all(part in sentence for part in parts)
