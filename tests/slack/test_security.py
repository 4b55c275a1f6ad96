"""Only Slack's signed, fresh, first-time requests do anything: the rest get 401 and leave no trace."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable

import httpx
import pytest

from tests.slack.conftest import SlackClient, sign

QUESTION = "Can I share one GPU between pods?"
FORM = "application/x-www-form-urlencoded"


def _unsigned(slack: SlackClient, body: bytes) -> httpx.Response:
    return slack.http.post("/slack/events", content=body, headers={"content-type": FORM})


def _wrong_secret(slack: SlackClient, body: bytes) -> httpx.Response:
    return slack.send(body, FORM, secret="not-the-signing-secret")


def _stale(slack: SlackClient, body: bytes) -> httpx.Response:
    return slack.send(body, FORM, timestamp=int(time.time()) - 6 * 60)


def _from_the_future(slack: SlackClient, body: bytes) -> httpx.Response:
    return slack.send(body, FORM, timestamp=int(time.time()) + 6 * 60)


def _tampered(slack: SlackClient, body: bytes) -> httpx.Response:
    headers = {"content-type": FORM} | sign(body.replace(b"share", b"split"), int(time.time()))
    return slack.http.post("/slack/events", content=body, headers=headers)


@pytest.mark.parametrize("send", [_unsigned, _wrong_secret, _stale, _from_the_future, _tampered])
def test_a_request_slack_did_not_sign_now_is_401_and_does_nothing(
    slack: SlackClient, send: Callable[[SlackClient, bytes], httpx.Response]
) -> None:
    url = slack.response_url()
    response = send(slack, slack.command_body(QUESTION, url))
    assert response.status_code == 401
    slack.settle()
    assert slack.fake.matching(slack.at(url)) == []


def test_a_signature_four_minutes_old_is_still_accepted(slack: SlackClient) -> None:
    url = slack.response_url()
    response = slack.send(slack.command_body(QUESTION, url), FORM, timestamp=int(time.time()) - 4 * 60)
    assert response.status_code == 200
    slack.fake.wait_for(slack.at(url))


def test_a_replayed_request_is_401_and_answered_once(slack: SlackClient) -> None:
    url = slack.response_url()
    body = slack.command_body(QUESTION, url)
    headers = {"content-type": FORM} | sign(body, int(time.time()))
    assert slack.http.post("/slack/events", content=body, headers=headers).status_code == 200
    assert slack.http.post("/slack/events", content=body, headers=headers).status_code == 401
    slack.settle()
    assert len(slack.fake.matching(slack.at(url))) == 1


def test_url_verification_is_answered_only_when_signed(slack: SlackClient) -> None:
    body = json.dumps({"type": "url_verification", "challenge": "the-challenge", "token": "x"}).encode()
    signed = slack.send(body, "application/json")
    assert signed.status_code == 200 and "the-challenge" in signed.text
    unsigned = slack.http.post("/slack/events", content=body, headers={"content-type": "application/json"})
    assert unsigned.status_code == 401 and "the-challenge" not in unsigned.text


def test_the_bot_never_calls_slack_to_authorize(slack: SlackClient) -> None:
    """Bolt's default calls auth.test on the first request; the bot's own authorize needs no network."""
    slack.settle()
    assert slack.fake.matching(lambda call: call.method == "auth.test") == []


def _raw_post(
    slack: SlackClient, headers: dict[str, str], body_start: bytes, length: int
) -> tuple[bytes, float]:
    """Sends the headers and only the start of a body `length` bytes long; the first line of the answer, and
    how long it took. An answer without the rest of the body shows the body was never waited for."""
    url = httpx.URL(str(slack.http.base_url))
    lines = ["POST /slack/events HTTP/1.1", f"Host: {url.host}", f"Content-Length: {length}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    started = time.monotonic()
    with socket.create_connection((url.host, url.port), timeout=10) as connection:
        connection.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body_start)
        status_line = connection.makefile("rb").readline()
    return status_line, time.monotonic() - started


@pytest.mark.parametrize(
    "timestamp",
    ["abc", "", "12.5", "-60", "١٧٠٠٠٠٠٠٠٠", "9" * 5000],
    ids=["letters", "empty", "fraction", "negative", "arabic-digits", "5000-digits"],
)
def test_a_timestamp_that_is_not_unix_seconds_is_401_before_the_body_is_read(
    slack: SlackClient, timestamp: str
) -> None:
    headers = {"X-Slack-Request-Timestamp": timestamp, "X-Slack-Signature": "v0=" + "ab" * 32}
    status_line, seconds = _raw_post(slack, headers | {"Content-Type": "application/json"}, b"{}", 100)
    assert status_line.startswith(b"HTTP/1.1 401"), status_line
    assert seconds < 5


def test_a_malformed_signature_header_is_401_before_the_body_is_read(slack: SlackClient) -> None:
    headers = {"X-Slack-Request-Timestamp": str(int(time.time())), "X-Slack-Signature": "v0=deadbeef"}
    status_line, seconds = _raw_post(slack, headers | {"Content-Type": "application/json"}, b"{}", 100)
    assert status_line.startswith(b"HTTP/1.1 401"), status_line
    assert seconds < 5


JSON = "application/json"
MALFORMED = [
    pytest.param(b'{"type": ', JSON, "malformed JSON", id="cut-short"),
    pytest.param(b"[1, 2]", JSON, "not a JSON object", id="list"),
    pytest.param(b"null", JSON, "not a JSON object", id="null"),
    pytest.param(b'"event_callback"', JSON, "not a JSON object", id="string"),
    pytest.param(b"\xff\xfe{}", JSON, "not UTF-8", id="not-utf-8"),
    pytest.param(b"[" * 20_000 + b"]" * 20_000, JSON, "malformed JSON", id="deep-lists"),
    pytest.param(b'{"a": ' * 5_000 + b"1" + b"}" * 5_000, JSON, "malformed JSON", id="deep-objects"),
    pytest.param(b"payload=%7Bnot+json", FORM, "malformed JSON", id="payload-cut-short"),
    pytest.param(b"payload=%5B%5D", FORM, "not a JSON object", id="payload-list"),
    pytest.param(b'{"type": "event_callback", "event": "x"}', JSON, "event", id="event-string"),
    pytest.param(
        b'{"type": "event_callback", "authorizations": "x", "event": {"type": "message"}}',
        JSON,
        "authorizations",
        id="authorizations-string",
    ),
    pytest.param(b'{"type": ["event_callback"]}', JSON, "type", id="type-list"),
    pytest.param(b'{"type": "block_actions", "team": 5}', JSON, "team", id="team-number"),
    pytest.param(
        b"payload=%7B%22type%22%3A%22block_actions%22%2C%22actions%22%3A5%7D",
        FORM,
        "actions",
        id="actions-number",
    ),
]


@pytest.mark.parametrize(("body", "content_type", "reason"), MALFORMED)
def test_a_signed_body_slack_would_never_send_is_400_with_the_reason(
    slack: SlackClient, body: bytes, content_type: str, reason: str
) -> None:
    response = slack.send(body, content_type)
    assert response.status_code == 400
    assert reason in response.json()["detail"]
    assert response.json()["request_id"] == response.headers["x-request-id"]
