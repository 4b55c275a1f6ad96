"""The two ways a case reaches the assistant, with stand-ins for the core and the server."""

import json
from dataclasses import dataclass

import httpx
import pytest

from evals.runners import HttpRunner, InProcessRunner
from tests.evals.helpers import cited_answer, make_case

FOLLOW_UP = make_case(
    id="fu",
    category="follow-up",
    question="and with MIG?",
    relevant_sections=["gpu-sharing"],
    history=[{"role": "user", "content": "Which providers offer managed Kubernetes?"}],
)


def test_http_runner_posts_the_contract_request_and_ranks_by_citation_order():
    seen = {}

    def server(request: httpx.Request) -> httpx.Response:
        seen["path"], seen["body"] = request.url.path, json.loads(request.content)
        body = cited_answer().model_dump()
        body["citations"] = [
            {**body["citations"][0], "n": 1, "section_id": "tradeoffs"},
            {**body["citations"][0], "n": 2, "section_id": "gpu-sharing"},
            {**body["citations"][0], "n": 3, "section_id": "tradeoffs"},
        ]
        return httpx.Response(200, json=body)

    client = httpx.Client(transport=httpx.MockTransport(server), base_url="http://assistant")
    observation = HttpRunner("http://assistant", client).observe(FOLLOW_UP)
    assert seen["path"] == "/v1/ask"
    assert seen["body"] == {
        "question": "and with MIG?",
        "language": None,
        "history": [{"role": "user", "content": "Which providers offer managed Kubernetes?"}],
    }
    assert observation.ranking == ["tradeoffs", "gpu-sharing"]
    assert observation.latency_ms >= 0


@dataclass
class Hit:
    section_id: str


class StandInCore:
    def __init__(self):
        self.calls = []

    def ask(self, question, language=None, history=None):
        self.calls.append(("ask", question, language, history))
        return cited_answer()

    def retrieve(self, question, language=None, history=None, k=10):
        self.calls.append(("retrieve", question, language, history, k))
        return [Hit("gpu-sharing"), Hit("faq-multiple-workloads")]


def test_in_process_runner_ranks_with_retrieve_and_passes_the_history():
    core = StandInCore()
    observation = InProcessRunner(core).observe(FOLLOW_UP)
    assert observation.ranking == ["gpu-sharing", "faq-multiple-workloads"]
    ask, retrieve = core.calls
    assert ask[1:3] == ("and with MIG?", None)
    assert [turn.content for turn in ask[3]] == ["Which providers offer managed Kubernetes?"]
    assert retrieve[-1] == 10


def test_http_runner_waits_out_rate_limits():
    replies = [
        httpx.Response(429, headers={"Retry-After": "2"}),
        httpx.Response(503, headers={"Retry-After": "1"}),
        httpx.Response(200, json=cited_answer().model_dump()),
    ]
    waits = []
    client = httpx.Client(transport=httpx.MockTransport(lambda _request: replies.pop(0)), base_url="http://a")
    observation = HttpRunner("http://a", client, sleep=waits.append).observe(FOLLOW_UP)
    assert waits == [2.0, 1.0]
    assert observation.ranking == ["gpu-sharing"]


def test_http_runner_raises_on_other_errors():
    client = httpx.Client(
        transport=httpx.MockTransport(lambda _request: httpx.Response(500)), base_url="http://a"
    )
    with pytest.raises(httpx.HTTPStatusError, match="500"):
        HttpRunner("http://a", client, sleep=lambda _seconds: None).observe(FOLLOW_UP)
