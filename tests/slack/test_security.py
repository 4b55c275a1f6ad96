"""Only Slack's signed, fresh, first-time requests do anything: the rest get 401 and leave no trace."""

from __future__ import annotations

import json
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
