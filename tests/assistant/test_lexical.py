"""The lexical index ranks by BM25, keeps to the passages in scope and knows its vocabulary."""

from __future__ import annotations

import numpy as np

from assistant.lexical import LexicalIndex, best_positions
from assistant.text import content_terms

PASSAGES = [
    "Time-slicing shares one GPU between pods without memory isolation.",
    "MIG splits an A100 or H100 into hardware-isolated instances.",
    "MPS runs kernels of several processes on one GPU at the same time.",
    "Spot nodes are cheaper and can be taken back at any moment.",
    "Provider record: managed Kubernetes with MIG on H100 node pools.",
]


def _index() -> LexicalIndex:
    return LexicalIndex([content_terms(text) for text in PASSAGES])


def test_the_passage_holding_the_rare_terms_ranks_first() -> None:
    everything = np.ones(len(PASSAGES), dtype=bool)
    ranked = _index().top(content_terms("hardware-isolated MIG instances"), everything, depth=3)
    assert ranked[0] == 1
    assert set(ranked) == {1, 4}  # only passages that share a term with the query


def test_passages_out_of_scope_are_never_returned() -> None:
    scope = np.array([True, True, True, True, False])
    assert 4 not in _index().top(content_terms("managed kubernetes mig"), scope, depth=5)


def test_a_query_of_unknown_words_finds_nothing() -> None:
    index = _index()
    assert index.top(content_terms("postgres replication"), np.ones(len(PASSAGES), dtype=bool), 5) == []
    assert index.knows("spot") and not index.knows("postgres") and not index.knows("")


def test_best_positions_orders_the_highest_finite_scores() -> None:
    scores = np.array([0.2, -np.inf, 0.9, 0.5, -np.inf])
    assert best_positions(scores, 2) == [2, 3]
    assert best_positions(scores, 10) == [2, 3, 0]
    assert best_positions(np.full(3, -np.inf), 2) == []
