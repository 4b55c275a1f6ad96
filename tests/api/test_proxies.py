"""Whose address a request is: X-Forwarded-For counts only from a trusted proxy, so it cannot dodge the limit."""

from __future__ import annotations

import httpx

from tests.api.conftest import GUARDED_RATE_LIMIT, PROXY, client_from
from tests.servers import Server


def _guesses(http: httpx.Client, forwarded_for: list[str]) -> list[int]:
    """Wrong API-key guesses, one per X-Forwarded-For value: each counts against the client they come from."""
    return [
        http.get("/v1/providers", headers={"X-API-Key": "guess", "X-Forwarded-For": value}).status_code
        for value in forwarded_for
    ]


def test_forwarded_for_is_ignored_when_no_proxy_is_trusted(guarded_server: Server) -> None:
    # 127.0.0.1 is the address uvicorn would trust by default; here nothing is trusted.
    with client_from(guarded_server, "127.0.0.1") as http:
        statuses = _guesses(http, [f"203.0.113.{n}" for n in range(GUARDED_RATE_LIMIT + 1)])
    assert statuses == [401] * GUARDED_RATE_LIMIT + [429]


def test_forwarded_for_is_ignored_from_an_address_that_is_not_the_proxy(proxied_server: Server) -> None:
    with client_from(proxied_server, "127.0.0.1") as http:
        statuses = _guesses(http, [f"203.0.113.{n}" for n in range(GUARDED_RATE_LIMIT + 1)])
    assert statuses == [401] * GUARDED_RATE_LIMIT + [429]


def test_behind_the_proxy_each_forwarded_client_has_its_own_limit(proxied_server: Server) -> None:
    with client_from(proxied_server, PROXY) as http:
        statuses = _guesses(http, [f"198.51.100.{n}" for n in range(GUARDED_RATE_LIMIT + 1)])
    assert statuses == [401] * (GUARDED_RATE_LIMIT + 1)


def test_the_client_is_the_right_most_address_the_proxy_did_not_add(proxied_server: Server) -> None:
    """A client may put anything at the left of X-Forwarded-For; the proxy appends the address it saw."""
    with client_from(proxied_server, PROXY) as http:
        statuses = _guesses(
            http, [f"192.0.2.{n}, 203.0.113.77, {PROXY}" for n in range(GUARDED_RATE_LIMIT + 1)]
        )
        other = _guesses(http, ["203.0.113.78"])
    assert statuses == [401] * GUARDED_RATE_LIMIT + [429]
    assert other == [401]
