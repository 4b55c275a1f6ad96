"""Health, readiness, metrics and the OpenAPI documents of a real server."""

from __future__ import annotations

import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

from tests.servers import Server


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


def test_metrics_of_several_workers_add_up(spawn: Callable[..., Server], tmp_path: Path) -> None:
    server = spawn(tmp_path, workers=2)
    asked = 12

    def ask(number: int) -> int:  # a connection of its own, so either worker may take it
        return httpx.post(
            f"{server.url}/v1/ask", json={"question": f"Wat is MIG? ({number})"}, timeout=30
        ).status_code

    def answers_counted() -> float:
        scrape = httpx.get(f"{server.url}/metrics", timeout=30).text
        return float(re.search(r'^assistant_answers_total\{language="nl"\} (\S+)$', scrape, re.M).group(1))

    try:
        with ThreadPoolExecutor(6) as pool:  # concurrent, so both workers answer some
            assert list(pool.map(ask, range(asked))) == [200] * asked
        counts = [answers_counted() for _ in range(6)]
    finally:
        server.stop()
    assert counts == [asked] * len(counts)


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


def test_openapi_gives_the_bounds_and_the_error_shape_the_server_keeps(http: httpx.Client) -> None:
    document = http.get("/openapi.json").json()
    question = document["components"]["schemas"]["AskRequest"]["properties"]["question"]
    assert (question["minLength"], question["maxLength"], question["pattern"]) == (1, 2000, r"\S")
    assert "HTTPValidationError" not in document["components"]["schemas"]
    invalid = document["paths"]["/guide/{language}"]["get"]["responses"]["422"]
    assert invalid["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ErrorBody"}
    assert set(http.get("/guide/de").json()) == {"detail", "request_id"}
