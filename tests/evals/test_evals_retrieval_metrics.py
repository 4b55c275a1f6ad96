"""Section retrieval metrics on rankings small enough to score by hand."""

import math

import pytest

from evals.retrieval_metrics import hit_at, ndcg_at, reciprocal_rank, retrieval_scores, target_ranks


def test_one_target_at_rank_two():
    scores = retrieval_scores(["tradeoffs", "gpu-sharing", "faq-drivers"], ["gpu-sharing"])
    assert scores["hit_at_1"] == 0.0
    assert scores["hit_at_3"] == 1.0
    assert scores["mrr"] == 0.5
    # DCG = 1/log2(3); the ideal ranking puts the single target first: 1/log2(2) = 1.
    assert scores["ndcg_at_10"] == pytest.approx(1 / math.log2(3))


def test_two_targets_at_ranks_one_and_three():
    ranks = target_ranks(["a", "x", "c"], ["a", "c"])
    assert ranks == [1, 3]
    expected = (1 + 1 / math.log2(4)) / (1 + 1 / math.log2(3))
    assert ndcg_at(ranks, targets=2, k=10) == pytest.approx(expected)
    assert reciprocal_rank(ranks) == 1.0


def test_a_wildcard_target_is_credited_once():
    ranking = ["provider:coreweave", "provider:nebius", "gpu-sharing"]
    assert target_ranks(ranking, ["provider:*", "gpu-sharing"]) == [1, 3]


def test_a_named_provider_only_matches_its_record():
    assert target_ranks(["provider:nebius", "provider:coreweave"], ["provider:coreweave"]) == [2]


def test_repeated_sections_count_at_their_first_rank():
    assert target_ranks(["a", "a", "b"], ["b"]) == [2]


def test_nothing_found_scores_zero():
    scores = retrieval_scores(["x", "y"], ["a"])
    assert scores == {"hit_at_1": 0.0, "hit_at_3": 0.0, "mrr": 0.0, "ndcg_at_10": 0.0}


def test_targets_past_the_cutoff_gain_nothing():
    ranks = target_ranks([f"s{i}" for i in range(12)], ["s11"])
    assert ranks == [12]
    assert ndcg_at(ranks, targets=1, k=10) == 0.0
    assert hit_at(ranks, 3) == 0.0
    assert reciprocal_rank(ranks) == pytest.approx(1 / 12)
