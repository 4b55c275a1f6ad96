"""The things the guide names: the words a follow-up uses when it turns to another of them ("and the device
plugin then?"), rather than asking more about the earlier one ("en is het geheugen dan gescheiden?")."""

from __future__ import annotations

import re

from assistant.knowledge import KnowledgeBase
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
    names: list[str] = []
    section_terms: dict[str, set[str]] = {}
    for (section_id, _), paragraph in knowledge.paragraphs.items():
        if paragraph.kind == "provider":
            continue
        terms = section_terms.setdefault(section_id, set())
        for sentences in paragraph.sentences.values():
            if paragraph.bullet and " — " in sentences[0]:
                names.append(sentences[0].partition(" — ")[0])
            names += [found[1] for sentence in sentences for found in _DESCRIBED.finditer(sentence)]
            terms.update(content_terms(" ".join(sentences)))
        for title in paragraph.titles.values():
            terms.update(content_terms(title))
    subject = set.intersection(*section_terms.values())
    return frozenset(term for name in names for term in content_terms(name)) - subject
