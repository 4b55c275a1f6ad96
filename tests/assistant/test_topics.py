"""The things the guide names, in both languages, and the words of its whole subject left out."""

from assistant.text import content_terms
from assistant.topics import named_things


def test_list_items_and_described_things_are_named_in_both_languages(assistant) -> None:
    named = named_things(assistant.knowledge)
    # List items by their name: "Time-slicing — …", "Storage — …" / "Opslag — …".
    assert set(content_terms("slicing MIG MPS storage opslag billing facturatiemodel")) <= named
    # A thing a clause describes: "the NVIDIA device plugin (or an AMD equivalent), which exposes …".
    assert set(content_terms("device plugin")) <= named
    # What a description says of it is no name: "… which exposes GPUs to the kubelet".
    assert not set(content_terms("kubelet")) & named


def test_the_words_every_section_uses_name_no_one_thing(assistant) -> None:
    named = named_things(assistant.knowledge)
    assert not set(content_terms("GPU Kubernetes")) & named
