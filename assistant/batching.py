"""Micro-batching of query embeddings: the queries that arrive while the engine is busy go in its next call.

One call for several queries reads the model's weights once for all of them, and no query waits for a timer:
a query that finds the engine idle is embedded at once, alone.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future

Embed = Callable[[list[str]], list[list[float]]]

MAX_BATCH = 16  # bounds the wait of the first query in a batch behind the others


class QueryBatcher:
    """Serves `embed(text)` from many threads through one worker thread that calls `embed_many` per batch."""

    def __init__(self, embed_many: Embed) -> None:
        self._embed_many = embed_many
        self._pending: queue.SimpleQueue[tuple[str, Future[list[float]]]] = queue.SimpleQueue()
        self._worker = threading.Thread(target=self._run, name="query-embedder", daemon=True)
        self._worker.start()

    def embed(self, text: str) -> list[float]:
        """The text's vector; blocks the calling thread (not the GIL) until its batch is done."""
        answer: Future[list[float]] = Future()
        self._pending.put((text, answer))
        return answer.result()

    def _next_batch(self) -> list[tuple[str, Future[list[float]]]]:
        batch = [self._pending.get()]
        while len(batch) < MAX_BATCH:
            try:
                batch.append(self._pending.get_nowait())
            except queue.Empty:
                break
        return batch

    def _run(self) -> None:
        while True:
            batch = self._next_batch()
            try:
                vectors = self._embed_many([text for text, _ in batch])
            except Exception as error:  # every waiting caller gets the engine's error, the worker goes on
                for _, answer in batch:
                    answer.set_exception(error)
                continue
            for (_, answer), vector in zip(batch, vectors, strict=True):
                answer.set_result(vector)
