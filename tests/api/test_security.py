"""Bad input, body size, API keys, the rate limit and CORS, each against a real server."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import httpx
import pytest

from tests.api.conftest import ALLOWED_ORIGIN, API_KEYS, GUARDED_RATE_LIMIT, client_from
from tests.servers import Server

HISTORY_TURN = {"role": "user", "content": "Kan ik één GPU delen?"}


@pytest.mark.parametrize(
    ("body", "status", "reason"),
    [
        ({"question": ""}, 422, "question: the question is empty"),
        ({"question": "   \n\t"}, 422, "question: the question is empty"),
        ({"question": "gpu " * 600}, 422, "more than 2,000"),
        ({"question": "MIG?", "language": "xx"}, 422, "language"),
        ({"question": 42}, 422, "question"),
        ({}, 422, "question: Field required"),
        ({"question": "MIG?", "history": [HISTORY_TURN] * 21}, 422, "history"),
        ({"question": "MIG?", "history": [{"role": "system", "content": "x"}]}, 422, "history.0.role"),
        ([1, 2], 422, "body"),
    ],
)
def test_bad_question_is_4xx_with_the_reason(
    http: httpx.Client, body: object, status: int, reason: str
) -> None:
    response = http.post("/v1/ask", json=body)
    assert response.status_code == status
    error = response.json()
    assert reason in error["detail"]
    assert error["request_id"] == response.headers["x-request-id"]


LONE_SURROGATE = rb"GPU \ud800 sharing"  # JSON may escape one; it is no character, and UTF-8 cannot hold it


@pytest.mark.parametrize(
    ("path", "body", "reason"),
    [
        ("/v1/ask", b'{"question": "%s"}' % LONE_SURROGATE, "question: "),
        ("/v1/ask/stream", b'{"question": "%s"}' % LONE_SURROGATE, "question: "),
        (
            "/v1/ask",
            b'{"question": "MIG?", "history": [{"role": "user", "content": "%s"}]}' % LONE_SURROGATE,
            "history.0.content: ",
        ),
        (
            "/v1/feedback",
            b'{"answer_id": "x", "rating": "up", "comment": "%s"}' % LONE_SURROGATE,
            "comment: ",
        ),
    ],
)
def test_a_lone_surrogate_is_422_with_the_reason(
    http: httpx.Client, path: str, body: bytes, reason: str
) -> None:
    response = http.post(path, content=body, headers={"content-type": "application/json"})
    assert response.status_code == 422
    assert response.json()["detail"] == reason + "a lone surrogate (\\ud800 to \\udfff) is not text"


def test_malformed_json_is_400(http: httpx.Client) -> None:
    response = http.post("/v1/ask", content=b'{"question": ', headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["detail"].startswith("malformed JSON")


def _chunked(body: bytes) -> Iterator[bytes]:
    """The body without a Content-Length: httpx sends a generator chunked."""
    yield from (body[start : start + 8192] for start in range(0, len(body), 8192))


@pytest.mark.parametrize("framing", ["content-length", "chunked"])
def test_body_over_the_limit_is_the_json_413_with_the_usual_headers(
    http: httpx.Client, server: Server, framing: str
) -> None:
    body = json.dumps({"question": "x" * 70_000}).encode()
    content = body if framing == "content-length" else _chunked(body)
    logged = server.log.stat().st_size
    response = http.post(
        "/v1/ask",
        content=content,
        headers={"content-type": "application/json", "Origin": ALLOWED_ORIGIN},
    )
    assert response.status_code == 413
    assert "65,536 bytes" in response.json()["detail"]
    assert response.json()["request_id"] == response.headers["x-request-id"]
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["access-control-allow-origin"] == ALLOWED_ORIGIN
    assert '"level": "ERROR"' not in server.log.read_bytes()[logged:].decode()


def test_key_and_rate_limit_come_before_the_body_is_parsed(guarded_server: Server) -> None:
    malformed = {"content": b'{"question": ', "headers": {"content-type": "application/json"}}
    with client_from(guarded_server, "127.0.0.3") as http:
        statuses = [http.post("/v1/ask", **malformed).status_code for _ in range(GUARDED_RATE_LIMIT + 1)]
    assert statuses == [401] * GUARDED_RATE_LIMIT + [429]


def test_request_id_is_echoed_when_safe_and_made_otherwise(http: httpx.Client) -> None:
    assert http.get("/healthz", headers={"X-Request-ID": "trace-42"}).headers["x-request-id"] == "trace-42"
    for unsafe in ("two words", "x" * 65, "<script>"):
        made = http.get("/healthz", headers={"X-Request-ID": unsafe}).headers["x-request-id"]
        assert re.fullmatch(r"[0-9a-f]{32}", made)


def test_unknown_route_is_json_404(http: httpx.Client) -> None:
    response = http.get("/v2/nothing")
    assert response.status_code == 404
    assert response.json()["detail"] == "Not Found"


@pytest.mark.parametrize("path", ["/guide/en/", "/v1/providers/", "/healthz/"])
def test_a_trailing_slash_is_404_not_a_redirect_to_the_host_the_client_named(
    http: httpx.Client, path: str
) -> None:
    response = http.get(path, headers={"Host": "evil.example"})
    assert response.status_code == 404
    assert "evil.example" not in str(response.headers)


def test_api_key_is_required_when_configured(guarded_server: Server) -> None:
    with client_from(guarded_server, "127.0.0.2") as http:
        missing = http.get("/v1/providers")
        assert missing.status_code == 401 and "X-API-Key" in missing.json()["detail"]
        wrong = http.get("/v1/providers", headers={"X-API-Key": "guess"})
        assert wrong.status_code == 401 and "not valid" in wrong.json()["detail"]
        assert http.get("/v1/providers", headers={"X-API-Key": API_KEYS[0]}).status_code == 200
        # Pages and operations stay open.
        assert http.get("/healthz").status_code == 200
        assert http.get("/guide/en").status_code == 200


def test_rate_limit_answers_429_with_retry_after_per_client(guarded_server: Server) -> None:
    with httpx.Client(base_url=guarded_server.url, timeout=30) as http:
        limited = {"X-API-Key": API_KEYS[1]}
        statuses = [http.get("/v1/providers", headers=limited).status_code for _ in range(GUARDED_RATE_LIMIT)]
        assert statuses == [200] * GUARDED_RATE_LIMIT
        over = http.get("/v1/providers", headers=limited)
        assert over.status_code == 429
        assert 1 <= int(over.headers["retry-after"]) <= 60
        assert "rate limit" in over.json()["detail"]
        # Another client (here: the other key) has its own window; unlimited routes stay open.
        assert http.get("/v1/providers", headers={"X-API-Key": API_KEYS[0]}).status_code == 200
        assert http.get("/healthz").status_code == 200


def test_cors_allows_the_configured_origin(http: httpx.Client) -> None:
    preflight = http.options(
        "/v1/ask",
        headers={
            "Origin": ALLOWED_ORIGIN,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type,x-api-key",
        },
    )
    assert preflight.status_code == 200
    assert preflight.headers["access-control-allow-origin"] == ALLOWED_ORIGIN
    response = http.post("/v1/ask", json={"question": "Wat is MIG?"}, headers={"Origin": ALLOWED_ORIGIN})
    assert response.headers["access-control-allow-origin"] == ALLOWED_ORIGIN
    assert "x-request-id" in response.headers["access-control-expose-headers"].lower()


def test_cors_denies_other_origins(http: httpx.Client) -> None:
    evil = "https://evil.example"
    preflight = http.options("/v1/ask", headers={"Origin": evil, "Access-Control-Request-Method": "POST"})
    assert preflight.status_code == 400
    assert "access-control-allow-origin" not in preflight.headers
    response = http.post("/v1/ask", json={"question": "Wat is MIG?"}, headers={"Origin": evil})
    assert "access-control-allow-origin" not in response.headers
