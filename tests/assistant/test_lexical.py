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
    assert set(ranked) == {0, 1, 4}  # only passages that share a term with the query ("isolation" is one)


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


def test_the_forms_of_one_word_share_a_term_in_either_language() -> None:
    # A question's "isolated" finds the guide's "isolation", and Dutch "trainen" its "training".
    assert content_terms("isolated billing scheduling nodes") == content_terms(
        "isolation billed scheduler node"
    )
    assert content_terms("trainen gedeelde kosten") == content_terms("training gedeeld kost")
    # A compound no word list knows keeps its parts as written, where a part of it is found.
    assert content_terms("geheugenisolatie") == ["geheugenisolatie"]
    assert content_terms("k8s GPUs") == content_terms("Kubernetes gpu")


def test_a_query_finds_a_passage_that_uses_another_form_of_its_words() -> None:
    ranked = _index().top(content_terms("isolated memory"), np.ones(len(PASSAGES), dtype=bool), depth=1)
    assert ranked == [0]
