"""Answering one request: the assistant's answer, logged with its latency before it is returned.

Run in a worker thread: the assistant's work is CPU-bound and would stall the event loop. The Slack
adapter calls `answer_and_log` too, so its questions land in the same log.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from api import metrics
from api.storage import Store
from assistant.models import Answer, Language, Turn

if TYPE_CHECKING:
    from assistant.service import Assistant


def answer_and_log(
    assistant: Assistant, store: Store, question: str, language: Language | None, history: list[Turn] | None
) -> Answer:
    started = time.perf_counter()
    answer = assistant.ask(question, language=language, history=history)
    seconds = time.perf_counter() - started
    store.log_question(question, answer, seconds * 1000)
    metrics.observe_answer(answer, seconds)
    return answer
