"""Health, readiness, metrics and the OpenAPI documents of a real server."""

from __future__ import annotations

import re

import httpx


def test_health_and_readiness_once_loaded(http: httpx.Client) -> None:
    assert http.get("/healthz").json() == {"status": "ok"}
    assert http.get("/readyz").json() == {"status": "ok"}


def test_metrics_count_requests_answers_and_refusals(http: httpx.Client) -> None:
    http.post("/v1/ask", json={"question": "Wat is MIG?"})
    http.post("/v1/ask", json={"question": "How do I configure PostgreSQL replication?"})
    response = http.get("/metrics")
    assert response.headers["content-type"].startswith("text/plain")
    text = response.text
    assert re.search(
        r'assistant_http_requests_total\{method="POST",route="/v1/ask",status="200"\} [1-9]', text
    )
    assert 'assistant_http_request_duration_seconds_bucket{le="0.04",method="POST",route="/v1/ask"}' in text
    assert re.search(r'assistant_answers_total\{language="nl"\} [1-9]', text)
    assert re.search(r'assistant_refusals_total\{language="en"\} [1-9]', text)
    assert "assistant_answer_duration_seconds_count" in text
    assert "process_resident_memory_bytes" in text


def test_unmatched_paths_share_one_metric_label(http: httpx.Client) -> None:
    http.get("/no/such/page-123")
    assert "/no/such/page-123" not in http.get("/metrics").text


def test_openapi_documents_every_route(http: httpx.Client) -> None:
    paths = http.get("/openapi.json").json()["paths"]
    for path in [
        "/v1/ask",
        "/v1/ask/stream",
        "/v1/providers",
        "/v1/feedback",
        "/guide/{language}",
        "/healthz",
    ]:
        assert path in paths
    names = {parameter["name"] for parameter in paths["/v1/providers"]["get"]["parameters"]}
    assert {"kubernetes", "sharing", "gpu_model", "max_price_per_gpu_hour"} <= names
    assert http.get("/docs").status_code == 200
