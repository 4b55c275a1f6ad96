"""Hybrid retrieval: BM25 and dense search over both languages, fused by reciprocal rank per paragraph, with
the paragraph that answers first the bank's questions most like the query (`answered.py`) as a third ranking.

Ranks are counted per paragraph key, which is the same in English and Dutch, so a Dutch hit supports an
English question and the other way round. Both rankers search the passages held in memory (the vectors
come from the Chroma index at load), limited by one boolean mask to the guide and the provider records
a question is about: an exact scan of unit vectors costs less than a round trip to Chroma with that scope
as a filter (0.1 ms against 3.5 ms for today's passages; about 11 ms for 100,000 random vectors). The
product of the query with every passage is made once per question: the question's scope features read it too.
The classifier of labelled questions votes third: words and vectors find the paragraphs that talk about a
question's subject, the labels know which of them people asking it wanted (the first section found answers
0.93 of blind set 11's questions with its vote, 0.79 without). Each paragraph gets the probability that one of
its sentences answers first, as a share of a first place: a sure classifier counts as a third ranker's first
place, an unsure one (0.34 against 0.31 for two paragraphs) no longer outvotes what both rankers put first
(the tuning sets' questions on the guide: the first section found answers 0.951 of them when the vote went
whole to the likeliest paragraph, 0.958 with this share).
"""

from __future__ import annotations

from collections.abc import Collection
from functools import lru_cache

import numpy as np
from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict, PrivateAttr

from assistant.answered import QUESTIONS_KEPT, AnsweredQuestions
from assistant.knowledge import KnowledgeBase, ParagraphKey, paragraph_key
from assistant.lexical import LexicalIndex, best_positions
from assistant.providers.documents import PROVIDER_KIND, provider_section
from assistant.text import content_terms, meaningful_words, spelling

RRF_K = 60  # the constant of reciprocal rank fusion; dampens the weight of the very first ranks
_DEPTH = 40  # how many passages each ranker contributes to the fusion


def _first_ranks(keys: list[ParagraphKey]) -> dict[ParagraphKey, int]:
    ranks: dict[ParagraphKey, int] = {}
    for key in keys:
        ranks.setdefault(key, len(ranks) + 1)
    return ranks


def reciprocal_rank_fusion(rankings: list[dict[ParagraphKey, int]]) -> dict[ParagraphKey, float]:
    """Each ranking adds 1 / (RRF_K + rank) to the paragraphs it ranks."""
    fused: dict[ParagraphKey, float] = {}
    for ranks in rankings:
        for key, rank in ranks.items():
            fused[key] = fused.get(key, 0.0) + 1.0 / (RRF_K + rank)
    return fused


class HybridRetriever(BaseRetriever):
    """Finds the paragraphs that answer a query; each result's metadata carries its fused and dense scores."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    knowledge: KnowledgeBase
    embeddings: Embeddings
    mode: str = "hybrid"  # "hybrid", "dense" or "bm25"
    answered: AnsweredQuestions | None = None  # ranks the likeliest first answer's paragraph, in hybrid mode
    k: int = 12  # paragraphs returned: room for the guide beside the records of a provider question
    _lexical_index: LexicalIndex = PrivateAttr()
    _encode: object = PrivateAttr()
    _keys: list[ParagraphKey] = PrivateAttr()  # each passage's paragraph, in the order of the passages
    _is_guide: np.ndarray = PrivateAttr()  # which passages every query searches
    _provider_rows: dict[str, np.ndarray] = PrivateAttr()  # a provider record's section -> its passages
    _spellings: frozenset[str] = PrivateAttr()  # the `spelling` of every meaningful word of the passages

    def model_post_init(self, context: object) -> None:
        passages = self.knowledge.passages
        self._keys = [paragraph_key(passage.metadata) for passage in passages]
        is_record = np.asarray(
            [passage.metadata["kind"] == PROVIDER_KIND for passage in passages], dtype=bool
        )
        self._is_guide = ~is_record
        rows: dict[str, list[int]] = {}
        for position in np.flatnonzero(is_record):
            rows.setdefault(passages[position].metadata["section_id"], []).append(int(position))
        self._provider_rows = {section: np.asarray(found) for section, found in rows.items()}
        self._lexical_index = LexicalIndex(
            [content_terms(f"{p.metadata['title']} {p.page_content}") for p in passages]
        )
        self._spellings = frozenset(
            spelling(word)
            for p in passages
            for word in meaningful_words(f"{p.metadata['title']} {p.page_content}")
        )
        self._encode = lru_cache(maxsize=QUESTIONS_KEPT)(self._unit_query_vector)
        # Few entries: each holds a float per passage. A question reads its own text's twice (scope, search).
        self._similarities = lru_cache(maxsize=4)(self._passage_similarities)

    @property
    def is_guide(self) -> np.ndarray:
        """Per passage: whether it is the guide's (else a provider record's)."""
        return self._is_guide

    def knows(self, term: str) -> bool:
        """Whether any passage contains the term."""
        return self._lexical_index.knows(term)

    def uses(self, word: str) -> bool:
        """Whether the word is meaningful and a passage has it as it is spelled (or its plural or singular):
        "node", not "isolate" for "isolation"."""
        return any(spelling(found) in self._spellings for found in meaningful_words(word))

    def query_vector(self, query: str) -> np.ndarray:
        """The query's unit embedding, computed once per distinct query text."""
        return self._encode(query)

    def _unit_query_vector(self, query: str) -> np.ndarray:
        # float32 like the corpus's vectors: a float64 query would make every product copy them to float64.
        vector = np.asarray(self.embeddings.embed_query(query), dtype=np.float32)
        return vector / np.linalg.norm(vector)

    def similarities(self, query: str) -> np.ndarray:
        """Every passage's cosine similarity to the query (read-only), computed once per distinct query
        text: the question's scope and its dense search read the same product."""
        return self._similarities(query)

    def _passage_similarities(self, query: str) -> np.ndarray:
        cosine = self.knowledge.passage_vectors @ self.query_vector(query)
        cosine.flags.writeable = False
        return cosine

    def _scope(self, providers: Collection[str]) -> np.ndarray:
        """The passages a query searches: the guide's, and those of the records named in `providers`."""
        allowed = self._is_guide.copy()
        for slug in providers:
            allowed[self._provider_rows.get(provider_section(slug), [])] = True
        return allowed

    def _dense(
        self, query: str, allowed: np.ndarray
    ) -> tuple[dict[ParagraphKey, int], dict[ParagraphKey, float]]:
        cosine = self.similarities(query)
        best = best_positions(np.where(allowed, cosine, -np.inf), _DEPTH)
        paragraph_of = self._keys  # once: each read of a private attribute goes through pydantic
        keys = [paragraph_of[position] for position in best]
        similarity: dict[ParagraphKey, float] = {}
        for key, position in zip(keys, best, strict=True):
            similarity.setdefault(key, float(cosine[position]))
        return _first_ranks(keys), similarity

    def _lexical(self, query: str, allowed: np.ndarray) -> dict[ParagraphKey, int]:
        best = self._lexical_index.top(content_terms(query), allowed, _DEPTH)
        paragraph_of = self._keys
        return _first_ranks([paragraph_of[position] for position in best])

    def _answered_first(self, query: str) -> dict[ParagraphKey, float]:
        """Per paragraph, the probability that one of its sentences answers the query first, as a share of
        the fused score of a first place."""
        votes: dict[ParagraphKey, float] = {}
        for (key, _), probability in self.answered.leads(self.query_vector(query), query).items():
            votes[key] = votes.get(key, 0.0) + probability / (RRF_K + 1)
        return votes

    def _get_relevant_documents(
        self,
        query: str,
        *,
        run_manager: CallbackManagerForRetrieverRun | None = None,
        providers: Collection[str] = (),
        asks_guide: bool = True,
    ) -> list[Document]:
        """The guide's paragraphs and those of the provider records named in `providers` (slugs). The
        labelled questions rank a paragraph only for a question that asks the guide: they are all about it."""
        rankings: list[dict[ParagraphKey, int]] = []
        allowed = self._scope(providers)
        # Dense similarity also tells whether the corpus covers the query, so it runs in every mode.
        dense_ranks, similarity = self._dense(query, allowed)
        if self.mode in ("hybrid", "dense"):
            rankings.append(dense_ranks)
        if self.mode in ("hybrid", "bm25"):
            rankings.append(self._lexical(query, allowed))
        fused = reciprocal_rank_fusion(rankings)
        if self.mode == "hybrid" and self.answered is not None and asks_guide:
            for key, vote in self._answered_first(query).items():
                fused[key] = fused.get(key, 0.0) + vote
        return self._results(fused, similarity)

    def _results(
        self, fused: dict[ParagraphKey, float], similarity: dict[ParagraphKey, float]
    ) -> list[Document]:
        best = sorted(fused, key=lambda key: -fused[key])[: self.k]
        return [
            Document(
                page_content=self.knowledge.paragraphs[key].text(),
                metadata={
                    "section_id": key[0],
                    "paragraph": key[1],
                    "score": fused[key],
                    "dense": similarity.get(key, 0.0),
                },
            )
            for key in best
        ]

    def fuse(self, results: list[list[Document]]) -> list[Document]:
        """One ranking from the results of several queries (a follow-up alone and with its context)."""
        rankings = [_first_ranks([paragraph_key(hit.metadata) for hit in hits]) for hits in results]
        similarity: dict[ParagraphKey, float] = {}
        for hit in (hit for hits in results for hit in hits):
            key = paragraph_key(hit.metadata)
            similarity[key] = max(similarity.get(key, 0.0), hit.metadata["dense"])
        return self._results(reciprocal_rank_fusion(rankings), similarity)
