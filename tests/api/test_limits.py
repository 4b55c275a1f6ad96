"""Slow and oversized requests: time limits on headers and bodies, a header size limit, a concurrency limit."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable, Iterator

import httpx
import pytest

from tests.servers import Server

TIMEOUT = 2  # seconds, for headers and for a body
SLOW_CLIENTS = 30
MAX_CONCURRENCY = 40


@pytest.fixture(scope="module")
def limited(spawn: Callable[..., Server], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = spawn(
        tmp_path_factory.mktemp("limited"),
        header_timeout_seconds=str(TIMEOUT),
        body_timeout_seconds=str(TIMEOUT),
        max_header_bytes="4096",
        max_concurrency=str(MAX_CONCURRENCY),
    )
    yield server
    server.stop()


def _connect(server: Server, start: bytes) -> socket.socket:
    url = httpx.URL(server.url)
    connection = socket.create_connection((url.host, url.port), timeout=TIMEOUT + 8)
    connection.sendall(start)
    return connection


def _answer(connection: socket.socket) -> bytes:
    """All the server sends until it closes the connection (a timeout of the socket fails the test)."""
    received = b""
    while chunk := connection.recv(65536):
        received += chunk
    return received


def test_a_request_whose_headers_never_end_is_closed(limited: Server) -> None:
    started = time.monotonic()
    connections = [_connect(limited, b"POST /v1/ask HTTP/1.1\r\nHost: x\r\n") for _ in range(SLOW_CLIENTS)]
    try:
        answers = [_answer(connection) for connection in connections]
    finally:
        for connection in connections:
            connection.close()
    assert answers == [b""] * SLOW_CLIENTS
    assert time.monotonic() - started < TIMEOUT + 5


def test_a_body_that_never_ends_is_408_and_closed(limited: Server) -> None:
    start = (
        b"POST /v1/ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
        b'{"question": "GPU'
    )
    started = time.monotonic()
    connections = [_connect(limited, start) for _ in range(SLOW_CLIENTS)]
    try:
        answers = [_answer(connection) for connection in connections]
    finally:
        for connection in connections:
            connection.close()
    assert time.monotonic() - started < TIMEOUT + 5
    for answer in answers:
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408"), head
        assert f"{TIMEOUT} s" in json.loads(body)["detail"]


def test_headers_over_the_size_limit_are_refused(limited: Server) -> None:
    """What arrives before the headers are complete is bounded: 200 kB cannot arrive in one read."""
    try:
        status = httpx.get(f"{limited.url}/healthz", headers={"X-Padding": "x" * 200_000}).status_code
    except httpx.TransportError:  # refused and closed while the client was still sending
        status = 400
    assert status in (400, 431)
    assert httpx.get(f"{limited.url}/healthz").status_code == 200


def test_requests_over_the_concurrency_limit_get_503(limited: Server) -> None:
    idle = [_connect(limited, b"") for _ in range(MAX_CONCURRENCY)]
    try:
        assert httpx.get(f"{limited.url}/healthz").status_code == 503
    finally:
        for connection in idle:
            connection.close()
    time.sleep(0.5)
    assert httpx.get(f"{limited.url}/healthz").status_code == 200


def test_the_limits_leave_a_normal_request_alone(limited: Server) -> None:
    response = httpx.post(f"{limited.url}/v1/ask", json={"question": "Can I share one GPU between pods?"})
    assert response.status_code == 200
