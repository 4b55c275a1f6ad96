"""What a question sets aside as known: "besides the GPU nodes, what else do I pay for?" asks about the rest.

General grammar, not rules for particular questions: "besides", "apart from", "aside from", "other than",
"except", "in addition to", "naast", "behalve" and "afgezien van" put a phrase aside. The phrase runs to the next
comma or question mark, or to the word that opens the main clause ("besides networking should I check …", "naast
de gpu nodes nog andere kosten"). Dutch "naast" puts something aside only in a question that asks for more of it
("nog", "ook", "meer", "andere", "extra", "verder"); otherwise it is a place ("naast elkaar", "naast de node").
The phrase is left out of what chooses the passages and sentences of the answer: read whole, the question finds
the very thing it has already (the network item for "what do I need besides fast networking?").
"""

from __future__ import annotations

import re

from assistant.text import content_terms

_ASIDE = re.compile(
    r"\b(?:besides|apart from|aside from|other than|except(?: for)?|in addition to|naast|behalve|afgezien van)\s+",
    re.IGNORECASE,
)
_WORD = re.compile(r"[^\s,?.!;:]+")
_CLAUSE_END = re.compile(r"\s*[,?.!;:]")
# Words that open the main clause after the phrase: auxiliaries, question words and subjects in English, the
# adverbs of addition and finite verbs that follow a Dutch phrase ("is" and "we" are in both languages, listed once).
_PHRASE_END = frozenset(
    "what which who how why where when do does did is are can could should would will must may have has "
    "i we you they it there anything something "
    "wat welke wie hoe waarom waar wanneer nog ook meer andere extra verder moet moeten kan kunnen zijn "
    "heb heeft hebben betaal betaalt ik wij je u er".split()
)
_MORE_ASKED = re.compile(r"\b(?:nog|ook|meer|andere|extra|verder)\b", re.IGNORECASE)
_RECIPROCAL = frozenset({"elkaar", "each"})  # "naast elkaar", "besides each other": side by side, not aside
_LONGEST = 6  # words; a longer phrase is a clause of its own, not a thing put aside


def set_aside(question: str) -> str:
    """The words of the question that put something aside, from the marker to the end of its phrase, or ""."""
    for marker in _ASIDE.finditer(question):
        end, words = marker.end(), []
        for word in _WORD.finditer(question, marker.end()):
            between = question[end : word.start()]
            if (
                word.group().lower() in _PHRASE_END
                or _CLAUSE_END.match(between)
                or len(words) == _LONGEST + 1
            ):
                break
            words.append(word.group())
            end = word.end()
        if len(words) > _LONGEST or not content_terms(" ".join(words)) or words[0].lower() in _RECIPROCAL:
            continue
        if marker.group().strip().lower() == "naast" and not _MORE_ASKED.search(question):
            continue
        return question[marker.start() : end]
    return ""
