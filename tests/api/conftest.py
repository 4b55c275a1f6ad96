"""Real-server tier: `python -m assistant serve` processes on 127.0.0.1, reached over HTTP.

Every server of the test session shares the session's index (`server_root`): the first one to start builds it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from assistant.corpus import SECTION_IDS
from tests.servers import Server, free_port, start_server

ALLOWED_ORIGIN = "https://guide.example"
API_KEYS = ("key-one", "key-two")
GUARDED_RATE_LIMIT = 5
PROXY = "127.0.0.5"
SLACK_SECRET = "test-signing-secret"
_SLUG = re.compile(r"^provider:[a-z0-9]+(?:-[a-z0-9]+)*$")


@pytest.fixture(scope="session")
def server(server_root: Path) -> Iterator[Server]:
    """Open to every client, one CORS origin allowed, no rate limit; the Slack bot configured with
    credentials of its own and a Web API address where nothing listens, so nothing leaves the machine."""
    running = start_server(
        server_root,
        server_root / "open",
        cors_origins=ALLOWED_ORIGIN,
        SLACK_SIGNING_SECRET=SLACK_SECRET,
        SLACK_BOT_TOKEN="xoxb-test-token",
        slack_api_url=f"http://127.0.0.1:{free_port()}/api/",
    )
    yield running
    running.stop()


@pytest.fixture(scope="session")
def guarded_server(server: Server, server_root: Path) -> Iterator[Server]:
    """API keys required, a low rate limit, no API documentation (started after `server`, which builds the
    index)."""
    running = start_server(
        server_root,
        server_root / "guarded",
        api_keys=",".join(API_KEYS),
        rate_limit=str(GUARDED_RATE_LIMIT),
        docs="false",
    )
    yield running
    running.stop()


@pytest.fixture(scope="session")
def proxied_server(server: Server, server_root: Path) -> Iterator[Server]:
    """Behind a proxy at PROXY: forwarded addresses are trusted from it alone; keys and a low rate limit."""
    running = start_server(
        server_root,
        server_root / "proxied",
        api_keys=",".join(API_KEYS),
        rate_limit=str(GUARDED_RATE_LIMIT),
        trusted_proxies=PROXY,
    )
    yield running
    running.stop()


@pytest.fixture(scope="session")
def keyed_server(server: Server, server_root: Path) -> Iterator[Server]:
    """API keys required and no rate limit, so that a fuzzer's many requests are all answered; Slack
    configured as on `server`."""
    running = start_server(
        server_root,
        server_root / "keyed",
        api_keys=",".join(API_KEYS),
        SLACK_SIGNING_SECRET=SLACK_SECRET,
        SLACK_BOT_TOKEN="xoxb-test-token",
        slack_api_url=f"http://127.0.0.1:{free_port()}/api/",
    )
    yield running
    running.stop()


def client_from(server: Server, address: str) -> httpx.Client:
    """A client whose requests come from this loopback address (127.0.0.0/8): a client identity of its own."""
    transport = httpx.HTTPTransport(local_address=address)
    return httpx.Client(base_url=server.url, timeout=30, transport=transport)


@pytest.fixture(scope="session")
def spawn(server: Server, server_root: Path) -> Callable[..., Server]:
    """Starts servers of a test's own, on the session's index (`server` built it)."""
    return lambda data_dir, **settings: start_server(server_root, data_dir, **settings)


@pytest.fixture
def http(server: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=30) as client:
        yield client


def assert_answer(answer: dict[str, Any], language: str) -> None:
    """Contract §2's invariants of one answer."""
    assert answer["language"] == language
    assert answer["id"]
    markers = {int(n) for n in re.findall(r"\[(\d+)\]", answer["answer"])}
    numbers = [citation["n"] for citation in answer["citations"]]
    assert len(numbers) == len(set(numbers)), "a citation number is used twice"
    assert markers == set(numbers), "every [n] has a citation and every citation is used"
    for citation in answer["citations"]:
        section = citation["section_id"]
        assert section in SECTION_IDS or _SLUG.match(section), section
        assert citation["quote"].strip()
        if section in SECTION_IDS:
            assert citation["url"] == f"/guide/{language}#{section}"
    if answer["refused"]:
        assert answer["citations"] == []
    else:
        assert answer["citations"], "an answer that is not a refusal cites its support"
