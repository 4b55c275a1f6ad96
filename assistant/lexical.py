"""BM25 over the passages as a sparse term-by-document matrix (bm25s).

A query reads only the postings of its own terms, so its cost grows with how often those terms occur,
not with a Python loop over every passage (`benchmarks/lexical.py` compares it with rank-bm25 and
SQLite FTS5 on speed and ranking).
"""

from __future__ import annotations

import bm25s
import numpy as np


class LexicalIndex:
    """Okapi BM25 (Lucene's variant) over passages given as lists of content terms."""

    def __init__(self, documents: list[list[str]]) -> None:
        self._bm25 = bm25s.BM25()
        self._bm25.index(documents, show_progress=False)

    def knows(self, term: str) -> bool:
        """Whether any passage contains the term."""
        return bool(term) and term in self._bm25.vocab_dict

    def top(self, terms: list[str], allowed: np.ndarray, depth: int) -> list[int]:
        """Positions of the best-scoring passages among those `allowed` (a boolean mask), best first;
        only passages that share a term with the query."""
        ids = self._bm25.get_tokens_ids([term for term in terms if self.knows(term)])
        if not ids:
            return []
        scores = self._bm25.get_scores_from_ids(ids)
        return best_positions(np.where(allowed & (scores > 0), scores, -np.inf), depth)


def best_positions(scores: np.ndarray, depth: int) -> list[int]:
    """The positions of the `depth` highest finite scores, highest first, without sorting them all."""
    depth = min(depth, int(np.count_nonzero(np.isfinite(scores))))
    if depth == 0:
        return []
    candidates = np.argpartition(-scores, depth - 1)[:depth]
    return candidates[np.argsort(-scores[candidates], kind="stable")].tolist()
