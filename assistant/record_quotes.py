"""A question about providers leads with what each record says of the facts asked ("Does GKE support MPS?"
quotes the sharing sentence, not the managed-Kubernetes one), then, where the guide says something of the
fact, the guide's sentence on it."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from assistant.choice import Choice, stated_share, stated_terms
from assistant.coherence import Coherence
from assistant.knowledge import KnowledgeBase, ParagraphKey
from assistant.providers.documents import (
    FACT_PARAGRAPHS,
    PRICE_PARAGRAPH,
    FactSentences,
    fact_value_key,
    provider_section,
)
from assistant.sentences import SentenceFacts
from assistant.understanding.analysis import QuestionAnalysis

_RECORDS_QUOTED = 3  # a question about providers quotes the sentences of this many records
_RECORD_SENTENCES = 2  # at most this many sentences of one record, each stating more of the question


class RecordQuotes:
    def __init__(
        self,
        knowledge: KnowledgeBase,
        facts: SentenceFacts,
        coherence: Coherence,
        record_facts: Mapping[str, Mapping[str, FactSentences]],
    ) -> None:
        self._knowledge = knowledge
        self._facts = facts
        self._coherence = coherence
        self._record_facts = record_facts  # per record slug and fact asked, its sentences
        # Every guide sentence's vectors in one array (sentence, language, dimension), in the order of
        # `SentenceFacts.guide_sentences`, so the sentences on one word are compared with a question in one
        # product however large the corpus grows.
        paragraphs = knowledge.paragraphs
        self._guide_vectors = np.stack(
            [
                np.stack(
                    [paragraphs[key].vectors[language][index] for language in sorted(paragraphs[key].vectors)]
                )
                for key, index in facts.guide_sentences
            ]
        )

    def choose(
        self,
        analysis: QuestionAnalysis,
        records: list[str],
        price_sentences: Mapping[str, int],
        vector: np.ndarray,
        focus: dict[str, float],
    ) -> list[Choice]:
        """Per record, the sentence that states each fact asked (of the value filtered on, when that value has
        a sentence of its own: "managed" quotes the managed sentence, not the bring-your-own one), the rarest
        first; when the question names no fact, the record's sentence most like the question. Of the prices,
        the one the record matched with (`price_sentences`)."""
        keys = [key for key in dict.fromkeys(analysis.facts_asked) if FACT_PARAGRAPHS[key] != PRICE_PARAGRAPH]
        asks_price = analysis.cheapest or len(keys) < len(analysis.facts_asked)
        asked = analysis.provider_filter.public() if analysis.provider_filter else {}
        chosen: list[Choice] = []
        for slug in records[:_RECORDS_QUOTED]:
            section = provider_section(slug)
            facts = self._record_facts[slug]
            stating = {
                key: self._stating(section, _on_fact(facts, key, asked.get(key)), vector, focus)
                for key in keys
            }
            best = [choice for key in keys for choice in stating[key]]
            # Where a provider has capacity qualifies what is asked of it ("spot gpu's in de VS"): it comes last.
            where = {(c.key, c.index) for c in stating.get("region", [])} - {
                (c.key, c.index) for key in keys if key != "region" for c in stating[key]
            }
            if asks_price:
                best.append(
                    Choice((section, PRICE_PARAGRAPH), price_sentences[slug], 1.0)
                    if slug in price_sentences
                    else self._best_of((section, PRICE_PARAGRAPH), vector, focus)
                )
            quoted = len(best) or 1
            if not best:
                positions = [key[1] for key in self._knowledge.paragraphs if key[0] == section]
                best = [self._best_of((section, p), vector, focus) for p in positions]
            best = list({(choice.key, choice.index): choice for choice in best}.values())
            # The paragraph stating the rarest word first; within a paragraph, the record's order.
            rank: dict[ParagraphKey, int] = {}
            for choice in sorted(best, key=lambda choice: self._rarest_stated(choice, focus), reverse=True):
                rank.setdefault(choice.key, len(rank))
            best.sort(
                key=lambda choice: ((choice.key, choice.index) in where, rank[choice.key], choice.index)
            )
            chosen += best[:quoted]
        return chosen[: _RECORDS_QUOTED * _RECORD_SENTENCES]

    def guide_on_facts(
        self, records: list[Choice], vector: np.ndarray, focus: dict[str, float]
    ) -> list[Choice]:
        """After the records, the guide's sentence on the rarest word that the question and the first quoted
        record sentence share ("spot", "MIG"): what the guide says of the fact asked, if it says anything. Only
        a sentence quoted coherently within a lead's reach (`Coherence.within_reach`): a longer chain would open
        the guide's part with what it refers to ("bij wie zijn de gpu drivers al voorgeïnstalleerd" quoted the
        guide's opening sentence)."""
        shared = set(focus).intersection(*(self._terms(choice) for choice in records[:1]))
        if not shared:
            return []
        rarest = max(shared, key=lambda term: (focus[term], term))
        about = [
            number
            for number in self._facts.quotable_guide_sentences_with(rarest)
            if self._coherence.within_reach(Choice(*self._facts.guide_sentences[number], 0.0))
        ]
        if not about:
            return []
        similarity = (self._guide_vectors[about] @ vector).max(axis=1)
        best = int(np.argmax(similarity))
        return [Choice(*self._facts.guide_sentences[about[best]], float(similarity[best]))]

    def _stating(
        self, section: str, fact: FactSentences, vector: np.ndarray, focus: dict[str, float]
    ) -> list[Choice]:
        """The record's sentence on a fact: of those that state it, the one that states most of the focus,
        then the most similar; with it the sentence listing what the sources leave open, when that one states
        a word of the focus the other does not ("Does Nebius support MPS?": MIG is supported, MPS left open),
        or alone when nothing is stated."""
        key = (section, fact.paragraph)
        left_open = [] if fact.left_open is None else [Choice(key, fact.left_open, 0.0)]
        if not fact.stated:
            return left_open or [self._best_of(key, vector, focus)]
        similarity = self._knowledge.paragraphs[key].similarities(vector)
        _, best, index = max(
            (stated_share(self._facts.terms(key, i), focus), float(similarity[i]), i) for i in fact.stated
        )
        stated = Choice(key, index, best)
        adds = left_open and stated_terms(self._terms(left_open[0]), focus) - stated_terms(
            self._terms(stated), focus
        )
        return [stated, *left_open] if adds else [stated]

    def _best_of(self, key: ParagraphKey, vector: np.ndarray, focus: dict[str, float]) -> Choice:
        """The paragraph's sentence that states most of the question's focus, then the most similar."""
        similarity = self._knowledge.paragraphs[key].similarities(vector)
        stated, best, index = max(
            (stated_share(self._facts.terms(key, i), focus), float(similarity[i]), i)
            for i in range(len(similarity))
        )
        return Choice(key, index, best)

    def _rarest_stated(self, choice: Choice, focus: dict[str, float]) -> tuple[float, float]:
        """For ordering a record's sentences: the rarest question word each states, then similarity."""
        return max((focus[term] for term in self._terms(choice) if term in focus), default=0.0), choice.score

    def _terms(self, choice: Choice) -> frozenset[str]:
        """A record sentence's words (records are quoted whole, never in parts)."""
        return self._facts.terms(choice.key, choice.index)


def _on_fact(facts: Mapping[str, FactSentences], key: str, value: object) -> FactSentences:
    """A record's sentences on a filter key, or on the value filtered on when that value has its own; a fact
    asked without a value ("Nebius regions?") by what the record has, where that has a sentence of its own."""
    own = facts.get(fact_value_key(key, "yes" if value is None else str(value)))
    return own if own is not None and own.stated else facts[key]
