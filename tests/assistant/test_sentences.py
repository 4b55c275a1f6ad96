"""Which sentences lean on the one before them: quoted alone, they would not be understood."""

from __future__ import annotations

import pytest

from assistant.sentences import leans_back


@pytest.mark.parametrize(
    "sentence",
    [
        "This is the strongest case for Kubernetes on GPUs.",
        "Both need the device plugin.",
        "In practice, this depends on a small stack of components working together: the device plugin, the toolkit.",
        "Dit is het sterkste argument voor Kubernetes op GPU's.",
        "Beide hebben de device plugin nodig.",
        # a demonstrative in the first clause, or "of these", anywhere
        "The GPU Operator eases this pain, but version mismatches are the most common cause of crashes.",
        "De GPU Operator vermindert deze pijn, maar versieverschillen zijn de meest voorkomende oorzaak.",
        "If you plan to pack many small models onto fewer cards, confirm which of these the provider offers.",
        "Controleer of de provider een van deze aanbiedt voordat u meerdere modellen op één GPU plaatst.",
    ],
)
def test_a_sentence_whose_subject_refers_back_leans_on_the_one_before(sentence: str) -> None:
    assert leans_back(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Nebius offers these GPU models: H200, H100, L40S.",
        "Civo biedt deze GPU-modellen: A100-80GB, H100.",
        "Time-slicing advertises one GPU as several schedulable units.",
        # later in the sentence, a demonstrative points to what the sentence itself named
        "Multi-Instance GPU (MIG) — supported on data center cards, this partitions one GPU into instances.",
        "If your inference models don't fully utilize a card, that is waste.",
    ],
)
def test_a_sentence_that_spells_out_its_demonstrative_stands_alone(sentence: str) -> None:
    assert not leans_back(sentence)
