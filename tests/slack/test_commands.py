"""`/gpu-guide QUESTION`: acknowledged at once, answered to the asker through the response_url in Block Kit,
with the same citations and provider rows as `POST /v1/ask` gives for the question."""

from __future__ import annotations

import html
import re
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

import tests.servers as servers
from tests.servers import Server
from tests.slack.conftest import PUBLIC_URL, SlackClient, button, slack_settings, texts
from tests.slack.fake_slack import Call, FakeSlack

SHARING = "Can I share one GPU between pods?"
PROVIDERS = "Which providers offer managed Kubernetes with H100?"
_ANSWER_ID = re.compile(r"^(en|nl):[0-9a-f]{32}$")


def _api_answer(slack: SlackClient, question: str) -> dict[str, Any]:
    response = slack.http.post("/v1/ask", json={"question": question})
    assert response.status_code == 200
    return response.json()


def _answered(slack: SlackClient, question: str) -> Call:
    url = slack.response_url()
    assert slack.command(question, url).status_code == 200
    (call,) = slack.fake.wait_for(slack.at(url))
    return call


def _link(url: str, title: str) -> str:
    return f"<{PUBLIC_URL + url if url.startswith('/') else url}|{title}>"


def test_acknowledged_well_within_3_s_without_the_answer(slack: SlackClient) -> None:
    url = slack.response_url()
    started = time.monotonic()
    response = slack.command(SHARING, url)
    acknowledged = time.monotonic()
    assert response.status_code == 200
    assert acknowledged - started < 1.0
    assert "[1]" not in response.text, "the acknowledgement does not wait for the answer"
    (call,) = slack.fake.wait_for(slack.at(url))
    # A warm answer can be quicker than the ack's way back; the next test orders them with a slow answer.
    print(f"ack {acknowledged - started:.3f} s; answer {call.at - acknowledged:.3f} s after the ack")


def _wait_until_loading(http: httpx.Client, starting: Future[Server]) -> None:
    """Returns once the server answers while its model still loads (/healthz 200, /readyz 503)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not starting.done():
        try:
            if http.get("/healthz").status_code == 200:
                assert http.get("/readyz").status_code == 503, "the model loaded before the test could ask"
                return
        except httpx.TransportError:
            pass
        time.sleep(0.02)
    starting.result(timeout=0)  # raises why the server did not come up
    raise AssertionError("the server did not answer /healthz within 120 s")


def test_acknowledged_at_once_while_the_assistant_is_still_loading(
    slack_server: Server,
    server_root: Path,
    fake_slack: FakeSlack,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """The slowest case: a question reaches a server whose model is still loading. Slack hears back at once;
    the answer follows seconds later, once the model is in."""
    port = servers.free_port()
    monkeypatch.setattr(servers, "free_port", lambda: port)
    slack = SlackClient(f"http://127.0.0.1:{port}", tmp_path, fake_slack)
    with ThreadPoolExecutor(1) as pool:
        starting = pool.submit(servers.start_server, server_root, tmp_path, **slack_settings(fake_slack))
        try:
            _wait_until_loading(slack.http, starting)
            url = slack.response_url()
            started = time.monotonic()
            assert slack.command(SHARING, url).status_code == 200
            acknowledged = time.monotonic()
            (call,) = fake_slack.wait_for(slack.at(url))
        finally:
            slack.http.close()
            starting.result().stop()
    assert acknowledged - started < 1.0
    assert call.at - acknowledged > acknowledged - started
    print(
        f"while loading: ack {acknowledged - started:.3f} s; answer {call.at - acknowledged:.3f} s after it"
    )


def test_answer_is_ephemeral_with_the_apis_citations_as_links_with_their_quotes(slack: SlackClient) -> None:
    expected = _api_answer(slack, SHARING)
    call = _answered(slack, SHARING)
    assert call.params["response_type"] == "ephemeral"
    assert html.unescape(call.params["text"]) == expected["answer"]
    assert "MIG" in call.params["text"]
    shown = [html.unescape(text) for text in texts(call)]
    assert "*Sources*" in shown
    for citation in expected["citations"]:
        quote = " ".join(citation["quote"].split())
        line = f"*[{citation['n']}]* {_link(citation['url'], citation['title'])} — “{quote}”"
        assert line in shown
    lead = expected["citations"][0]["section_id"]
    assert any(f"{PUBLIC_URL}/guide/en#{lead}|" in text for text in shown)
    assert _ANSWER_ID.match(button(call, "feedback_up")["value"])
    assert button(call, "post_to_channel")["value"] == button(call, "feedback_down")["value"]


def test_provider_rows_show_name_facts_price_with_its_date_and_links(slack: SlackClient) -> None:
    expected = _api_answer(slack, PROVIDERS)["providers"]
    call = _answered(slack, PROVIDERS)
    shown = [html.unescape(text) for text in texts(call)]
    assert "*Providers*" in shown
    rows = [text for text in shown if text.startswith("*<")]
    assert len(rows) == min(5, expected["total"]) > 0
    for match, row in zip(expected["matches"], rows, strict=False):
        price = match["price"]
        assert row.startswith(f"*<{match['website']}|{match['name']}>*")
        assert "managed Kubernetes" in row
        model = price["gpu_model"] + (f" ×{price['gpu_count']}" if price["gpu_count"] else "")
        assert f"{model}: {price['per_gpu_hour']:.2f} {price['currency']} per GPU-hour" in row
        assert f"as of {price['as_of']}" in row
        assert f"<{price['source']}|source>" in row


def test_dutch_question_gets_dutch_labels_and_links_to_the_dutch_guide(slack: SlackClient) -> None:
    call = _answered(slack, "Kan ik één GPU delen tussen pods?")
    shown = texts(call)
    assert "*Bronnen*" in shown
    assert any(f"{PUBLIC_URL}/guide/nl#" in text for text in shown)
    assert button(call, "feedback_up")["text"]["text"] == "👍 Nuttig"
    assert button(call, "post_to_channel")["text"]["text"] == "In kanaal plaatsen"


def test_a_question_the_guide_does_not_cover_is_refused_plainly(slack: SlackClient) -> None:
    call = _answered(slack, "How do I configure PostgreSQL replication?")
    assert "The guide does not cover this question" in call.params["text"]
    shown = texts(call)
    assert "*Sources*" not in shown and "*Providers*" not in shown
    assert _ANSWER_ID.match(button(call, "feedback_down")["value"])


def test_an_empty_command_gets_how_to_ask_and_nothing_else(slack: SlackClient) -> None:
    url = slack.response_url()
    response = slack.command("   ", url)
    assert response.status_code == 200 and "Ask a question after the command" in response.text
    slack.settle()
    assert slack.fake.matching(slack.at(url)) == []
