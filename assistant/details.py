"""The details of a sentence a follow-up may ask about once its asker has read the sentence whole.

"does it work on older cards like a V100?" after the MIG item asks about one of its clauses, "supported on data
center cards from the Ampere generation onward"; the item again would repeat what the asker has just read. A
sentence's details are its clauses (split at "," and ";" outside parentheses, but not before a contrast, and what
a parenthesis that closes it holds, "no hard memory isolation"), without a list item's name, when both languages
split into as many and none is too short to say something. A follow-up singles a detail out when its own words
hold a word of that detail and of no other, and its meaning is closest to that detail too: the two must agree,
for a word alone ("pods") can sit in the wrong clause, and a vector alone cannot tell a downside from a
description. Details are embedded once, when the assistant loads, and quoted like any part of a sentence
(`spans.py`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

import numpy as np
from langchain_core.embeddings import Embeddings

from assistant.knowledge import KnowledgeBase, ParagraphKey
from assistant.providers.documents import PROVIDER_KIND
from assistant.spans import PartFound, Span, embedded_parts

# A clause boundary outside parentheses, not before a contrast: "eases this pain, but version mismatches are …"
# says one thing. A clause's opening "and" ("…, and fast shared storage …") joins it to the one before.
_BOUNDARY = re.compile(r"[;,](?![^()]*\))\s+(?!(?:but|maar)\s)(?:(?:and|en)\s+)?")
_CLOSING_ASIDE = re.compile(r"\s+\(([^()]*)\)\W*$")  # a parenthesis that ends the sentence
_SHORTEST = 20  # a shorter clause ("To share a card", "In practice") says nothing by itself
_COMPOUND = 5  # a word this long may be part of a compound ("kaarten" in "datacenterkaarten")

SentenceParts = Mapping[tuple[ParagraphKey, int], list[Span]]


def detail_parts(sentence: str, names_item: bool) -> list[str]:
    """The sentence's clauses, each exactly as it appears in it, without the name that opens a list item
    ("Time-slicing — …"); [] when it has one clause or a clause too short to stand."""
    body = sentence.partition(" — ")[2] if names_item and " — " in sentence else sentence
    parts = _BOUNDARY.split(body)
    aside = _CLOSING_ASIDE.search(parts[-1])
    if aside:  # what it holds, without its parentheses
        parts[-1:] = [parts[-1][: aside.start()], aside.group(1)]
    parts = [part.strip() for part in parts]
    return parts if len(parts) > 1 and min(map(len, parts)) >= _SHORTEST else []


def load_details(
    knowledge: KnowledgeBase,
    embeddings: Embeddings,
    spans: SentenceParts,
    direct_answer: Callable[[ParagraphKey, int], bool],
) -> dict[tuple[ParagraphKey, int], list[Span]]:
    """The details of every guide sentence but an FAQ's direct answer, by (paragraph, sentence); their part
    numbers follow those of the sentence's `spans`, so a choice names either kind without doubt."""
    found: list[PartFound] = []
    for key, paragraph in knowledge.paragraphs.items():
        if paragraph.kind == PROVIDER_KIND:
            continue
        languages = list(paragraph.sentences)
        for index, sentences in enumerate(zip(*paragraph.sentences.values(), strict=True)):
            if direct_answer(key, index):
                continue
            names_item = paragraph.bullet and index == 0
            parts = [detail_parts(sentence, names_item) for sentence in sentences]
            if not parts[0] or any(len(p) != len(parts[0]) for p in parts):
                continue
            first = max((span.part for span in spans.get((key, index), [])), default=-1) + 1
            for number, texts in enumerate(zip(*parts, strict=True), start=first):
                found.append((key, index, number, dict(zip(languages, texts, strict=True)), False))
    return embedded_parts(found, embeddings)


def singled_out(details: list[Span], asked: Mapping[str, float], vector: np.ndarray) -> Span | None:
    """The detail the follow-up's own words (`asked`, by rarity) and meaning (`vector`) both point to: the one
    holding the weightiest of the words no other detail holds, when it is also the closest in meaning."""
    held = [
        {term for term in asked if any(_same_word(term, word) for word in detail.terms)} for detail in details
    ]
    own = [
        words - set().union(*(other for j, other in enumerate(held) if j != i))
        for i, words in enumerate(held)
    ]
    weights = [sum(asked[term] for term in words) for words in own]
    if not any(weights):
        return None
    by_words = int(np.argmax(weights))
    by_meaning = int(np.argmax([float(np.max(detail.vectors @ vector)) for detail in details]))
    return details[by_words] if by_words == by_meaning else None


def _same_word(term: str, word: str) -> bool:
    """The same word, or one a compound holds at its start or end ("geheugen" in "geheugenisolatie")."""
    if term == word:
        return True
    shorter, longer = sorted((term, word), key=len)
    return len(shorter) >= _COMPOUND and (longer.startswith(shorter) or longer.endswith(shorter))
