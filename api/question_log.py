"""The question log, written behind the answers: a request queues its row and returns at once; one thread
writes what has gathered every `interval` seconds, in one transaction.

An answer's latency then holds no database write (with SQLite's `synchronous=FULL`, an fsync per row).
Whoever needs a logged row (feedback on an answer, Slack's "ask again") calls `flush` first, and closing the
log writes everything still queued, so a clean shutdown loses nothing. A crash can lose the last interval's
questions; feedback, which people wait for, is still written before its response.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from sqlalchemy import Engine, Table, insert

_log = logging.getLogger(__name__)


class QuestionLog:
    """Rows for one table, queued by any thread and written in batches by a thread of its own."""

    def __init__(self, engine: Engine, table: Table, interval: float = 0.25) -> None:
        self._engine = engine
        self._table = table
        self.interval = interval
        self._pending: list[dict[str, Any]] = []
        self._wake = threading.Condition()
        self._writing = threading.Lock()  # batches reach the table in the order they were taken
        self._closed = False
        self._writer = threading.Thread(target=self._write_behind, name="question-log", daemon=True)
        self._writer.start()

    def add(self, row: dict[str, Any]) -> None:
        with self._wake:
            self._pending.append(row)

    def flush(self) -> None:
        """Write every queued row now; on a database error they stay queued for the next attempt."""
        with self._writing:
            with self._wake:
                rows, self._pending = self._pending, []
            if not rows:
                return
            try:
                with self._engine.begin() as connection:
                    connection.execute(insert(self._table), rows)
            except Exception:
                with self._wake:
                    self._pending[:0] = rows
                raise

    def close(self) -> None:
        """Stop the writer and write what is left."""
        with self._wake:
            self._closed = True
            self._wake.notify()
        self._writer.join()
        self.flush()

    def _write_behind(self) -> None:
        while True:
            with self._wake:
                if not self._closed:
                    self._wake.wait(self.interval)
                closed = self._closed
            try:
                self.flush()
            except Exception:
                _log.exception("the question log could not be written; retrying in %.2f s", self.interval)
            if closed:
                return
