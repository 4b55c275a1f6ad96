"""Three lexical indexes side by side: ranking quality on the evaluation sets, speed as the corpus grows.

Run: .venv/bin/python benchmarks/lexical.py [--sizes 1000 10000 100000]
     (needs the benchmark extra: pip install -e '.[bench]')

Contenders: bm25s (a sparse matrix, what the retriever uses), SQLite FTS5's `bm25()` (an inverted index on
disk or in memory) and rank-bm25 (scores every document in Python). All see the same terms
(`content_terms`: folded, stemmed, without stop words), and all keep to the same scope: the guide's passages.
Quality: hit@1 and MRR of the first relevant paragraph for every guide question of every evaluation set,
lexical ranking alone. Speed: the active index's passages inside a synthetic haystack of generated passages
whose terms follow the corpus's own term frequencies; per size, build time and query p50/p95.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from rank_bm25 import BM25Okapi

from assistant.config import Settings
from assistant.knowledge import load_knowledge
from assistant.lexical import LexicalIndex, best_positions
from assistant.providers.documents import PROVIDER_KIND
from assistant.text import content_terms
from evals.cases import load_cases

ROOT = Path(__file__).resolve().parent.parent
DEPTH = 40
Ranker = Callable[[list[str]], list[int]]  # query terms -> positions of in-scope documents, best first


def bm25s_ranker(documents: list[list[str]], in_scope: np.ndarray) -> Ranker:
    index = LexicalIndex(documents)
    return lambda terms: index.top(terms, in_scope, DEPTH)


def fts5_ranker(documents: list[list[str]], in_scope: np.ndarray) -> Ranker:
    connection = sqlite3.connect(":memory:", check_same_thread=False)
    connection.execute("CREATE VIRTUAL TABLE passages USING fts5(terms, in_scope UNINDEXED)")
    connection.executemany(
        "INSERT INTO passages(rowid, terms, in_scope) VALUES (?, ?, ?)",
        ((position, " ".join(terms), int(in_scope[position])) for position, terms in enumerate(documents)),
    )

    def rank(terms: list[str]) -> list[int]:
        if not terms:
            return []
        match = " OR ".join(f'"{term}"' for term in dict.fromkeys(terms))
        rows = connection.execute(
            "SELECT rowid FROM passages WHERE passages MATCH ? AND in_scope = 1 ORDER BY rank LIMIT ?",
            (match, DEPTH),
        )
        return [rowid for (rowid,) in rows]

    return rank


def rank_bm25_ranker(documents: list[list[str]], in_scope: np.ndarray) -> Ranker:
    index = BM25Okapi(documents)

    def rank(terms: list[str]) -> list[int]:
        scores = index.get_scores(terms)
        return best_positions(np.where(in_scope & (scores > 0), scores, -np.inf), DEPTH)

    return rank


CONTENDERS: dict[str, Callable[[list[list[str]], np.ndarray], Ranker]] = {
    "bm25s": bm25s_ranker,
    "SQLite FTS5": fts5_ranker,
    "rank-bm25": rank_bm25_ranker,
}


def guide_questions() -> list[tuple[list[str], set[str]]]:
    """Every guide question of every evaluation set: its terms and the sections that answer it."""
    found = []
    for folder in sorted(path for path in (ROOT / "evals").iterdir() if any(path.glob("*.yaml"))):
        for case in load_cases(folder):
            sections = {section for section in case.relevant_sections if not section.startswith("provider:")}
            about_records = {"providers", "named_provider"} & set(case.intents)
            if sections and not case.history and not about_records:
                found.append((content_terms(case.question), sections))
    return found


def quality(rank: Ranker, sections: Sequence[str], questions: list[tuple[list[str], set[str]]]) -> str:
    hits, reciprocal = 0, 0.0
    for terms, relevant in questions:
        ranked = list(dict.fromkeys(sections[position] for position in rank(terms)))
        hits += bool(ranked) and ranked[0] in relevant
        first = next((place for place, section in enumerate(ranked, 1) if section in relevant), None)
        reciprocal += 1 / first if first else 0.0
    return f"hit@1 {hits / len(questions):.3f}  MRR {reciprocal / len(questions):.3f}"


def haystack(real: list[list[str]], size: int, seed: int = 7) -> list[list[str]]:
    """The real passages plus generated ones, their terms drawn from the real term frequencies
    with a share of new terms (catalog names, numbers) so the vocabulary grows with the corpus."""
    counts = Counter(term for terms in real for term in terms)
    vocabulary, weights = zip(*counts.items(), strict=True)
    lengths = [len(terms) for terms in real]
    generator = random.Random(seed)
    generated = []
    for number in range(max(0, size - len(real))):
        terms = generator.choices(vocabulary, weights=weights, k=generator.choice(lengths))
        terms += [f"offer{generator.randrange(size)}", f"sku{number % 997}"]
        generated.append(terms)
    return real + generated


def speed(
    make: Callable[[list[list[str]], np.ndarray], Ranker],
    documents: list[list[str]],
    queries: list[list[str]],
) -> str:
    """Every passage in scope: the ranker must rank the whole haystack, as for a grown guide or catalog."""
    started = time.perf_counter()
    rank = make(documents, np.ones(len(documents), dtype=bool))
    build = time.perf_counter() - started
    timings = []
    for terms in queries:
        started = time.perf_counter()
        rank(terms)
        timings.append((time.perf_counter() - started) * 1000)
    timings.sort()
    p95 = timings[int(0.95 * (len(timings) - 1))]
    return f"build {build:7.2f} s  query p50 {statistics.median(timings):7.2f} ms  p95 {p95:7.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    arguments = parser.parse_args()

    knowledge = load_knowledge(Settings())
    passages = knowledge.passages
    documents = [content_terms(f"{p.metadata['title']} {p.page_content}") for p in passages]
    in_scope = np.asarray([p.metadata["kind"] != PROVIDER_KIND for p in passages], dtype=bool)
    sections = [p.metadata["section_id"] for p in passages]
    questions = guide_questions()

    print(
        f"Ranking quality: {len(questions)} guide questions, {len(passages)} passages, lexical ranking alone"
    )
    for name, make in CONTENDERS.items():
        print(f"  {name:<12} {quality(make(documents, in_scope), sections, questions)}")

    real = [terms for terms, scoped in zip(documents, in_scope, strict=True) if scoped]
    queries = [terms for terms, _ in questions]
    for size in arguments.sizes:
        corpus = haystack(real, size)
        print(f"{len(corpus):,} passages")
        for name, make in CONTENDERS.items():
            print(f"  {name:<12} {speed(make, corpus, queries)}")


if __name__ == "__main__":
    main()
