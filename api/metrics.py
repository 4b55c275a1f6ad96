"""Prometheus metrics of the service.

One process: the default registry, with its process_* gauges. Several workers (`serve --workers N` sets
PROMETHEUS_MULTIPROC_DIR before they start): each worker writes its counts to files there, and whichever
worker is scraped adds up all of them, so a scrape sees the whole server, not one worker picked at random.
"""

from __future__ import annotations

import os

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.multiprocess import MultiProcessCollector

from assistant.models import Answer

_LATENCY_BUCKETS = (0.005, 0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12)

REQUESTS = Counter(
    "assistant_http_requests_total",
    "HTTP requests by method, route template and status.",
    ["method", "route", "status"],
)
REQUEST_SECONDS = Histogram(
    "assistant_http_request_duration_seconds",
    "Time from request to the last byte of the response.",
    ["method", "route"],
    buckets=_LATENCY_BUCKETS,
)
ANSWER_SECONDS = Histogram(
    "assistant_answer_duration_seconds",
    "Time the assistant takes to compose one answer.",
    buckets=_LATENCY_BUCKETS,
)
ANSWERS = Counter("assistant_answers_total", "Answers given, refusals included, by language.", ["language"])
REFUSALS = Counter(
    "assistant_refusals_total", "Questions the guide does not cover, by language.", ["language"]
)


def observe_request(method: str, route: str, status: int, seconds: float) -> None:
    REQUESTS.labels(method, route, str(status)).inc()
    REQUEST_SECONDS.labels(method, route).observe(seconds)


def observe_answer(answer: Answer, seconds: float) -> None:
    ANSWER_SECONDS.observe(seconds)
    ANSWERS.labels(answer.language).inc()
    if answer.refused:
        REFUSALS.labels(answer.language).inc()


def exposition() -> tuple[bytes, str]:
    """The metrics in Prometheus text format, and its content type."""
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return generate_latest(), CONTENT_TYPE_LATEST
    registry = CollectorRegistry()
    MultiProcessCollector(registry)
    return generate_latest(registry), CONTENT_TYPE_LATEST
