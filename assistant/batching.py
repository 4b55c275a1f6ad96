"""Query embedding under concurrency: micro-batches on one engine lane per core, every core for a lone query.

- Questions that arrive while the lanes are busy are embedded together in a later call: one call for
  several queries costs less than one call each, and no query waits for a timer.
- A question that finds nothing else to do gets every core, on its own thread, for the lowest latency on an
  idle machine.
  Under load each call runs on one core and the lanes run side by side: a call spread over several cores
  while other work competes for them stalls, because its threads wait for each other at every layer.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future

EmbedMany = Callable[[list[str], int], list[list[float]]]  # (texts, threads) -> one vector per text
Pending = tuple[str, Future[list[float]]]

MAX_BATCH = 16  # bounds the wait of the first query in a batch behind the others


class QueryBatcher:
    """Serves `embed(text)` from many threads through `lanes` worker threads that call `embed_many`."""

    def __init__(self, embed_many: EmbedMany, lanes: int) -> None:
        self._embed_many = embed_many
        self._lanes = lanes
        self._pending: deque[Pending] = deque()
        self._busy = 0  # lanes inside `embed_many`, the caller embedding a lone query among them
        self._caller_embedding = False  # a lone query runs on its caller's thread: it stands in for lane 0
        self._changed = threading.Condition()
        for lane in range(lanes):
            threading.Thread(
                target=self._run, args=(lane,), name=f"query-embedder-{lane}", daemon=True
            ).start()

    def embed(self, text: str) -> list[float]:
        """The text's vector; blocks the calling thread (not the GIL) until its batch is done. A query that
        finds the engine idle is embedded on the calling thread, on every core: handing it to a lane and
        back cost a lone request two thread wake-ups."""
        answer: Future[list[float]] = Future()
        with self._changed:
            alone = self._busy == 0 and not self._pending
            if alone:
                self._busy += 1  # queries arriving meanwhile go to the other lanes, or wait for lane 0
                self._caller_embedding = True
            else:
                self._pending.append((text, answer))
                self._changed.notify_all()
        if not alone:
            return answer.result()
        try:
            return self._embed_many([text], self._lanes)[0]
        finally:
            with self._changed:
                self._busy -= 1
                self._caller_embedding = False
                self._changed.notify_all()

    def _take(self, lane: int) -> tuple[list[Pending], int]:
        """Waits for work this lane may take, and returns it with the threads to run it on. Lane 0 takes
        work whenever it is free (and no caller embeds in its place), the others only while some lane is busy."""
        with self._changed:
            while (
                not self._pending or (lane > 0 and self._busy == 0) or (lane == 0 and self._caller_embedding)
            ):
                self._changed.wait()
            batch = [self._pending.popleft() for _ in range(min(MAX_BATCH, len(self._pending)))]
            threads = self._lanes if self._busy == 0 and not self._pending else 1
            self._busy += 1
            self._changed.notify_all()  # the other lanes may now take what is left
        return batch, threads

    def _run(self, lane: int) -> None:
        while True:
            batch, threads = self._take(lane)
            try:
                vectors = self._embed_many([text for text, _ in batch], threads)
            except Exception as error:  # every waiting caller gets the engine's error, the lane goes on
                for _, answer in batch:
                    answer.set_exception(error)
            else:
                for (_, answer), vector in zip(batch, vectors, strict=True):
                    answer.set_result(vector)
            finally:
                with self._changed:
                    self._busy -= 1
                    self._changed.notify_all()
