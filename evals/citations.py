"""Citation checks: every marker resolves, every citation is used, every quote is in the corpus verbatim;
which cited sections are relevant; and whether each answer sentence is carried by its cited quotes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from langchain_core.documents import Document

from assistant.models import Answer, Citation
from evals.cases import Case
from evals.text import core, fold, markers, segments, squash, without_questions

Splitter = Callable[[str], list[str]]


class QuoteBook:
    """The corpus text of each section id, to look quotes up in word for word."""

    def __init__(self, texts: Mapping[str, Iterable[str]]) -> None:
        self._texts = {
            section_id: [squash(text) for text in entries] for section_id, entries in texts.items()
        }

    @classmethod
    def from_documents(cls, documents: Iterable[Document]) -> QuoteBook:
        texts: dict[str, list[str]] = {}
        for document in documents:
            texts.setdefault(document.metadata["section_id"], []).append(document.page_content)
        return cls(texts)

    def contains(self, section_id: str, sentence: str) -> bool:
        needle = squash(sentence)
        return any(needle in text for text in self._texts.get(section_id, ()))


@dataclass(frozen=True)
class Validity:
    """What breaks the contract's citation rules in one answer; valid when nothing does."""

    dangling_markers: tuple[int, ...] = ()
    unused_citations: tuple[int, ...] = ()
    duplicate_numbers: tuple[int, ...] = ()
    unverified_quotes: tuple[str, ...] = ()
    cited_when_refused: bool = False

    @property
    def valid(self) -> bool:
        return not self.problems()

    def problems(self) -> list[str]:
        found = [f"marker [{n}] has no citation" for n in self.dangling_markers]
        found += [f"citation {n} is not used in the answer" for n in self.unused_citations]
        found += [f"citation number {n} appears twice" for n in self.duplicate_numbers]
        found += [f"quote not in the corpus: {quote}" for quote in self.unverified_quotes]
        if self.cited_when_refused:
            found.append("a refusal carries citations")
        return found


def citation_validity(answer: Answer, book: QuoteBook, split: Splitter) -> Validity:
    numbers = [citation.n for citation in answer.citations]
    used = set(markers(answer.answer))
    unverified = tuple(
        f"[{citation.n}] {citation.section_id}: {sentence}"
        for citation in answer.citations
        for sentence in split(citation.quote)
        if not book.contains(citation.section_id, sentence)
    )
    return Validity(
        dangling_markers=tuple(sorted(used - set(numbers))),
        unused_citations=tuple(sorted(set(numbers) - used)),
        duplicate_numbers=tuple(sorted(n for n, count in Counter(numbers).items() if count > 1)),
        unverified_quotes=unverified,
        cited_when_refused=answer.refused and bool(answer.citations),
    )


def citation_precision(citations: list[Citation], case: Case) -> float | None:
    """The share of citations whose section is relevant to the case; None without citations."""
    if not citations:
        return None
    return sum(case.is_relevant(citation.section_id) for citation in citations) / len(citations)


def _supported(sentence: str, quotes: list[str], split: Splitter) -> bool:
    """Extractive support: the sentence lies inside a cited quote, or contains a whole quote sentence."""
    claim = core(sentence)
    for quote in quotes:
        if claim in fold(quote):
            return True
        if any((part := core(quote_sentence)) and part in fold(sentence) for quote_sentence in split(quote)):
            return True
    return False


def faithfulness(answer: Answer, split: Splitter) -> tuple[float | None, list[str]]:
    """The share of answer sentences supported by the quotes their markers cite, and those that are not.

    None for a refusal or an empty answer: there is nothing to support.
    """
    if answer.refused:
        return None, []
    quotes = {citation.n: citation.quote for citation in answer.citations}
    total, unsupported = 0, []
    for segment in segments(without_questions(answer.answer)):
        cited = [quotes[n] for n in segment.numbers if n in quotes]
        for sentence in split(squash(segment.text)):
            if not any(ch.isalnum() for ch in sentence):
                continue
            total += 1
            if not _supported(sentence, cited, split):
                unsupported.append(squash(sentence))
    if not total:
        return None, []
    return (total - len(unsupported)) / total, unsupported
