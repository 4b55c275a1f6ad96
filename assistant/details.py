"""The details of a sentence a follow-up may ask about once its asker has read the sentence whole.

"does it work on older cards like a V100?" after the MIG item asks about one of its clauses, "supported on data
center cards from the Ampere generation onward"; the item again would repeat what the asker has just read. A
sentence's details are its clauses (split at "," and ";" outside parentheses, but not before a contrast, and what
a parenthesis that closes it holds, "no hard memory isolation"), without a list item's name, when both languages
split into as many and none is too short to say something. A follow-up singles a detail out by its own words: the
detail that holds the weightiest of the words no other detail holds ("memory" in "does that isolate memory
between the pods?" outweighs "pods", which the clause before it holds). Words alone: beside them, the
follow-up's vector was more often closest to the clause that describes the thing ("letting several pods share
it") than to the one asked about. A drawback asked for in words no detail holds ("and its downsides?") is the
detail that states what is missing. Details are quoted like any part of a sentence (`spans.py`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from assistant.knowledge import KnowledgeBase, ParagraphKey
from assistant.providers.documents import PROVIDER_KIND
from assistant.spans import Part, part_terms
from assistant.text import fold

# A clause boundary outside parentheses, not before a contrast: "eases this pain, but version mismatches are …"
# says one thing. A clause's opening "and" ("…, and fast shared storage …") joins it to the one before.
_BOUNDARY = re.compile(r"[;,](?![^()]*\))\s+(?!(?:but|maar)\s)(?:(?:and|en)\s+)?")
_CLOSING_ASIDE = re.compile(r"\s+\(([^()]*)\)\W*$")  # a parenthesis that ends the sentence
# A follow-up that asks for a drawback ("and its downsides?", "en wat is het nadeel daarvan?") holds no word of
# the clause that states it: the guide states one as what is missing ("no hard memory isolation").
_DRAWBACK = re.compile(
    r"\b(?:downsides?|drawbacks?|disadvantages?|catch|limitations?|weakness(?:es)?|pitfalls?"
    r"|nade(?:el|len)|keerzijde|addertjes?|minpunten?|beperkingen?)\b"
)
_LACKING = re.compile(r"(?:no|not|without|geen|niet|zonder)\s", re.IGNORECASE)
_SHORTEST = 20  # a shorter clause ("To share a card", "In practice") says nothing by itself
_COMPOUND = 5  # a word this long may be part of a compound ("kaarten" in "datacenterkaarten")

SentenceParts = Mapping[tuple[ParagraphKey, int], list[Part]]


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
    spans: SentenceParts,
    direct_answer: Callable[[ParagraphKey, int], bool],
) -> dict[tuple[ParagraphKey, int], list[Part]]:
    """The details of every guide sentence but an FAQ's direct answer, by (paragraph, sentence); their part
    numbers follow those of the sentence's `spans`, so a choice names either kind without doubt."""
    details: dict[tuple[ParagraphKey, int], list[Part]] = {}
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
                in_languages = dict(zip(languages, texts, strict=True))
                details.setdefault((key, index), []).append(
                    Part(key, index, number, in_languages, part_terms(in_languages))
                )
    return details


def asks_drawback(question: str) -> bool:
    """Whether a question asks for a drawback ("what's the catch?", "nadelen?")."""
    return _DRAWBACK.search(fold(question)) is not None


def singled_out(details: list[Part], asked: Mapping[str, float], drawback: bool) -> Part | None:
    """The detail holding the weightiest of the follow-up's own words (`asked`, by rarity) that no other detail
    holds; None when no detail or more than one holds that much. Asked for a `drawback` in words no detail
    holds, the one detail that states what is missing, if there is one."""
    held = [
        {term for term in asked if any(_same_word(term, word) for word in detail.terms)} for detail in details
    ]
    own = [
        words - set().union(*(other for j, other in enumerate(held) if j != i))
        for i, words in enumerate(held)
    ]
    weights = [sum(asked[term] for term in words) for words in own]
    best = max(weights)
    if best:
        return details[weights.index(best)] if weights.count(best) == 1 else None
    lacking = [detail for detail in details if all(_LACKING.match(text) for text in detail.texts.values())]
    return lacking[0] if drawback and len(lacking) == 1 else None


def _same_word(term: str, word: str) -> bool:
    """The same word, or one a compound holds at its start or end ("geheugen" in "geheugenisolatie")."""
    if term == word:
        return True
    shorter, longer = sorted((term, word), key=len)
    return len(shorter) >= _COMPOUND and (longer.startswith(shorter) or longer.endswith(shorter))
