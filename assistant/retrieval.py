"""Hybrid retrieval: BM25 and dense search over both languages, fused by reciprocal rank per paragraph.

Ranks are counted per paragraph key, which is the same in English and Dutch, so a Dutch hit supports an
English question and the other way round.
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
from rank_bm25 import BM25Okapi

from assistant.knowledge import KnowledgeBase, ParagraphKey, paragraph_key
from assistant.providers.documents import PROVIDER_KIND, provider_section
from assistant.text import content_terms

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
    k: int = 12  # paragraphs returned: room for the guide beside the records of a provider question
    _bm25: BM25Okapi = PrivateAttr()
    _encode: object = PrivateAttr()
    _keys: dict[str, ParagraphKey] = PrivateAttr()  # passage id -> its paragraph
    _guide_ids: list[str] = PrivateAttr()  # the passages every query searches
    _provider_ids: dict[str, list[str]] = PrivateAttr()  # a provider record's section -> its passages

    def model_post_init(self, context: object) -> None:
        passages = self.knowledge.passages
        self._keys = {passage.id: paragraph_key(passage.metadata) for passage in passages}
        self._guide_ids, self._provider_ids = [], {}
        for passage in passages:
            if passage.metadata["kind"] == PROVIDER_KIND:
                self._provider_ids.setdefault(passage.metadata["section_id"], []).append(passage.id)
            else:
                self._guide_ids.append(passage.id)
        self._bm25 = BM25Okapi([content_terms(f"{p.metadata['title']} {p.page_content}") for p in passages])
        self._encode = lru_cache(maxsize=1024)(lambda text: np.asarray(self.embeddings.embed_query(text)))

    def knows(self, term: str) -> bool:
        """Whether any passage contains the term."""
        return term in self._bm25.idf

    def query_vector(self, query: str) -> np.ndarray:
        """The query's embedding, computed once per distinct query text."""
        return self._encode(query)

    def _dense(
        self, query: str, providers: Collection[str]
    ) -> tuple[dict[ParagraphKey, int], dict[ParagraphKey, float]]:
        scope = [*self._guide_ids]
        for slug in providers:
            scope.extend(self._provider_ids.get(provider_section(slug), ()))
        # Only ids and distances: the metadata is in memory, and fetching it costs Chroma more than the search.
        results = self.knowledge.store.query(
            query_embeddings=[self.query_vector(query)],
            ids=scope,
            n_results=min(_DEPTH, len(scope)),
            include=["distances"],
        )
        keys = [self._keys[passage_id] for passage_id in results["ids"][0]]
        similarity: dict[ParagraphKey, float] = {}
        for key, distance in zip(keys, results["distances"][0], strict=True):
            similarity.setdefault(key, 1.0 - distance)  # cosine distance -> similarity
        return _first_ranks(keys), similarity

    def _lexical(self, query: str, providers: Collection[str]) -> dict[ParagraphKey, int]:
        terms = content_terms(query)
        if not terms:
            return {}
        passages = self.knowledge.passages
        in_scope = {provider_section(slug) for slug in providers}
        scores = self._bm25.get_scores(terms)
        order = [
            i
            for i in np.argsort(-scores)
            if scores[i] > 0
            and (
                passages[i].metadata["kind"] != PROVIDER_KIND
                or passages[i].metadata["section_id"] in in_scope
            )
        ][:_DEPTH]
        return _first_ranks([paragraph_key(passages[i].metadata) for i in order])

    def _get_relevant_documents(
        self,
        query: str,
        *,
        run_manager: CallbackManagerForRetrieverRun | None = None,
        providers: Collection[str] = (),
    ) -> list[Document]:
        """The guide's paragraphs and those of the provider records named in `providers` (slugs)."""
        rankings: list[dict[ParagraphKey, int]] = []
        # Dense similarity also tells whether the corpus covers the query, so it runs in every mode.
        dense_ranks, similarity = self._dense(query, providers)
        if self.mode in ("hybrid", "dense"):
            rankings.append(dense_ranks)
        if self.mode in ("hybrid", "bm25"):
            rankings.append(self._lexical(query, providers))
        return self._results(reciprocal_rank_fusion(rankings), similarity)

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
