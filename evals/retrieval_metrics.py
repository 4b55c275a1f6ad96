"""Section-level retrieval metrics over a ranking of section ids and a case's relevance patterns.

Each relevance pattern is one target, credited at most once (at the first ranked section it matches that
no earlier target took), so `provider:*` counts once however many provider records are ranked.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fnmatch import fnmatchcase


def target_ranks(ranking: Sequence[str], patterns: Sequence[str]) -> list[int]:
    """The 1-based rank at which each target is first found; targets never found are left out."""
    open_patterns = list(dict.fromkeys(patterns))
    ranks: list[int] = []
    for rank, section_id in enumerate(dict.fromkeys(ranking), start=1):
        pattern = next((p for p in open_patterns if fnmatchcase(section_id, p)), None)
        if pattern is not None:
            open_patterns.remove(pattern)
            ranks.append(rank)
    return ranks


def hit_at(ranks: Sequence[int], k: int) -> float:
    return 1.0 if any(rank <= k for rank in ranks) else 0.0


def reciprocal_rank(ranks: Sequence[int]) -> float:
    return 1.0 / min(ranks) if ranks else 0.0


def ndcg_at(ranks: Sequence[int], targets: int, k: int) -> float:
    """Binary-relevance nDCG: found targets' discounted gains over the best possible for `targets`."""
    ideal = sum(1.0 / math.log2(position + 1) for position in range(1, min(targets, k) + 1))
    gained = sum(1.0 / math.log2(rank + 1) for rank in ranks if rank <= k)
    return gained / ideal if ideal else 0.0


def retrieval_scores(ranking: Sequence[str], patterns: Sequence[str]) -> dict[str, float]:
    """hit@1, hit@3, MRR and nDCG@10 of one ranking."""
    ranks = target_ranks(ranking, patterns)
    targets = len(set(patterns))
    return {
        "hit_at_1": hit_at(ranks, 1),
        "hit_at_3": hit_at(ranks, 3),
        "mrr": reciprocal_rank(ranks),
        "ndcg_at_10": ndcg_at(ranks, targets, 10),
    }
