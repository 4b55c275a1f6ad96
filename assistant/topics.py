"""The things the guide names: the words a follow-up uses when it turns to another of them ("and the device
plugin then?"), rather than asking more about the earlier one ("en is het geheugen dan gescheiden?")."""

from __future__ import annotations

import re

from assistant.knowledge import KnowledgeBase, Paragraph
from assistant.text import content_terms

# A thing named with the clause that says what it is or does ("… the NVIDIA device plugin (or an AMD
# equivalent), which exposes GPUs …"): from its article to the comma.
_DESCRIBED = re.compile(
    r"\b(?:the|de|het|een|an?)\s+([^:;,—()]+(?:\([^()]*\))?),\s+(?:which|die|dat)\s", re.IGNORECASE
)


def named_things(knowledge: KnowledgeBase) -> frozenset[str]:
    """The words of the guide's names, in both languages: each list item's name (its first sentence up to the
    dash: "Time-slicing — …") and each thing a clause describes; not the words every section of the guide
    uses ("gpu", "kubernetes"), which name its whole subject."""
    named: set[str] = set()
    section_terms: dict[str, set[str]] = {}
    for (section_id, _), paragraph in knowledge.paragraphs.items():
        if paragraph.kind == "provider":
            continue
        if paragraph.bullet and all(" — " in sentences[0] for sentences in paragraph.sentences.values()):
            named |= name_terms(paragraph)
        terms = section_terms.setdefault(section_id, set())
        for sentences in paragraph.sentences.values():
            for sentence in sentences:
                named.update(
                    term for found in _DESCRIBED.finditer(sentence) for term in content_terms(found[1])
                )
            terms.update(content_terms(" ".join(sentences)))
        for title in paragraph.titles.values():
            terms.update(content_terms(title))
    return frozenset(named - set.intersection(*section_terms.values()))


def name_terms(item: Paragraph) -> set[str]:
    """The words of a list item's name, in both languages: "Time-slicing — the device plugin …" names
    time-slicing."""
    return {
        term
        for sentences in item.sentences.values()
        for term in content_terms(sentences[0].partition(" — ")[0])
    }
