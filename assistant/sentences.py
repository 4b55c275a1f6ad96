"""What the answer composer needs to know of each corpus sentence besides its vector.

- its words, in both languages, to see how much of a question's focus it states;
- whether it can be quoted alone: a lead-in ending in ":" cannot, and an FAQ's short first sentence
  ("Usually not.") only as the direct answer to a yes/no question;
- whether it leans on the sentence before it: its subject refers back ("This is …", "Both are …",
  "Without these, …", "In practice, this …"; "Dit …", "Beide …"), a demonstrative in its first clause does
  ("The GPU Operator eases this pain, but …"), or "of these" does ("confirm which of these …", "welke van
  deze"), so quoted alone it would not be understood; "these" spelled out after a colon ("offers these GPU
  models: …") points forward and stands alone. Later in a sentence a demonstrative mostly points to what the
  sentence itself has just named ("MIG — supported on …, this partitions one GPU").
"""

from __future__ import annotations

import math
import re
from collections import Counter

import numpy as np

from assistant.knowledge import KnowledgeBase, ParagraphKey
from assistant.providers.documents import PROVIDER_KIND
from assistant.text import content_terms

_NONE = np.empty(0, dtype=np.intp)  # no sentence numbers
_DIRECT_ANSWER_CHARS = 60  # "Often yes, but not always.": an FAQ's short first sentence answers by itself
_LEANS_BACK = re.compile(
    r"^(?:\S+\s+){0,2}?(?:this|these|those|both|others|such|they|dit|deze|beide|andere|zulke|ze)\b",
    re.IGNORECASE,
)
_IN_FIRST_CLAUSE = re.compile(r"^[^,;:—]*?\b(?:this|these|those|dit|deze)\b", re.IGNORECASE)
_OF_THESE = re.compile(r"\b(?:of|van)\s+(?:these|those|deze)\b", re.IGNORECASE)
_SPELLED_OUT = re.compile(r"(?:\s+[\w-]+){1,3}:\s+\S")  # "these GPU models: H100", "deze GPU-modellen: H100"


def leans_back(text: str) -> bool:
    """Whether the text refers back to something said before it. A demonstrative whose noun a colon then
    spells out refers forward ("Nebius offers these GPU models: H100, …"), not back."""
    for pattern in (_LEANS_BACK.match, _IN_FIRST_CLAUSE.match, _OF_THESE.search):
        match = pattern(text)
        if match and not _SPELLED_OUT.match(text, match.end()):
            return True
    return False


class SentenceFacts:
    """Per sentence of every paragraph: its words, whether it leans back, whether it can stand alone."""

    def __init__(self, knowledge: KnowledgeBase) -> None:
        self._terms: dict[tuple[ParagraphKey, int], frozenset[str]] = {}
        self._leans: set[tuple[ParagraphKey, int]] = set()
        self._lead_ins: set[tuple[ParagraphKey, int]] = set()
        self._direct_answers: set[ParagraphKey] = set()
        self.guide_sentences: list[tuple[ParagraphKey, int]] = []  # every guide sentence, in corpus order
        # word -> the numbers (in `guide_sentences`) of the guide's quotable sentences that use it
        quotable_with: dict[str, list[int]] = {}
        guide_documents: Counter[str] = Counter()
        guide_paragraphs = 0
        for key, paragraph in knowledge.paragraphs.items():
            renderings = list(paragraph.sentences.values())
            for index, sentences in enumerate(zip(*renderings, strict=True)):
                self._terms[key, index] = frozenset(
                    t for sentence in sentences for t in content_terms(sentence)
                )
                if any(leans_back(sentence) for sentence in sentences):
                    self._leans.add((key, index))
                if sentences[0].endswith(":"):
                    self._lead_ins.add((key, index))
            first = paragraph.sentences["nl"][0]
            if paragraph.kind == "faq" and key[1] == 0 and len(first) <= _DIRECT_ANSWER_CHARS:
                self._direct_answers.add(key)
            if paragraph.kind != PROVIDER_KIND:
                for index in range(len(renderings[0])):
                    if self.quotable(key, index):
                        for term in self._terms[key, index]:
                            quotable_with.setdefault(term, []).append(len(self.guide_sentences))
                    self.guide_sentences.append((key, index))
                guide_paragraphs += 1
                guide_documents.update(set().union(*(self._terms[key, i] for i in range(len(renderings[0])))))

        self._quotable_with = {term: np.asarray(numbers) for term, numbers in quotable_with.items()}
        self._lists = self._bulleted_lists(knowledge)
        self._guide_paragraphs = guide_paragraphs
        self._guide_documents = guide_documents

    def _bulleted_lists(self, knowledge: KnowledgeBase) -> dict[ParagraphKey, tuple[ParagraphKey, ...]]:
        """Per paragraph, the items of the bulleted list it is an item of, or introduces with a lead-in."""
        lists: dict[ParagraphKey, tuple[ParagraphKey, ...]] = {}
        keys = sorted(key for key, paragraph in knowledge.paragraphs.items() if paragraph.bullet)
        runs: list[list[ParagraphKey]] = []
        for key in keys:
            if runs and runs[-1][-1] == (key[0], key[1] - 1):
                runs[-1].append(key)
            else:
                runs.append([key])
        for run in runs:
            items = tuple(run)
            lists.update(dict.fromkeys(items, items))
            before = (run[0][0], run[0][1] - 1)
            if before in knowledge.paragraphs:
                last = len(knowledge.paragraphs[before].sentences["nl"]) - 1
                if (before, last) in self._lead_ins:
                    lists[before] = items
        return lists

    def list_before(self, key: ParagraphKey) -> tuple[ParagraphKey, ...]:
        """The items of the bulleted list that ends just before the paragraph; () when none does."""
        items = self._lists.get((key[0], key[1] - 1), ())
        return items if items and items[-1] == (key[0], key[1] - 1) else ()

    def list_items(self, key: ParagraphKey) -> tuple[ParagraphKey, ...]:
        """The items of the bulleted list the paragraph is an item of or introduces; () for any other."""
        return self._lists.get(key, ())

    def rarity(self, term: str) -> float:
        """How distinctive a word is in the guide's paragraphs (the records repeat every fact word for every
        provider, so they would make "spot" look common); a word only the records use is the rarest."""
        return math.log((self._guide_paragraphs + 1) / (self._guide_documents.get(term, 0) + 0.5))

    def terms(self, key: ParagraphKey, index: int) -> frozenset[str]:
        return self._terms[key, index]

    def quotable_guide_sentences_with(self, term: str) -> np.ndarray:
        """The numbers (in `guide_sentences`) of the guide's quotable sentences that use the word, in corpus
        order: found without reading every sentence."""
        return self._quotable_with.get(term, _NONE)

    def leans(self, key: ParagraphKey, index: int) -> bool:
        return (key, index) in self._leans

    def is_direct_answer(self, key: ParagraphKey, index: int) -> bool:
        """The FAQ's short yes/no answer that opens its paragraph."""
        return index == 0 and key in self._direct_answers

    def introduces_list(self, key: ParagraphKey, index: int) -> bool:
        """Whether the sentence is the lead-in of the bulleted list after its paragraph ("Providers and
        clusters differ in how finely they let you split GPUs:"): it can be quoted with the list."""
        return (key, index) in self._lead_ins and key in self._lists and key not in self._lists[key]

    def quotable(self, key: ParagraphKey, index: int) -> bool:
        """Whether the sentence says something by itself, wherever the question's form."""
        return (key, index) not in self._lead_ins and not self.is_direct_answer(key, index)
