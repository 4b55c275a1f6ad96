"""POST /v1/ask and /v1/ask/stream on a real server: contract §2's invariants in both languages."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from tests.api.conftest import assert_answer
from tests.servers import Server

IN_SCOPE = [
    ("Can I run more than one workload on a GPU?", "en"),
    ("Does Kubernetes support mean drivers are already installed on GPU nodes?", "en"),
    ("Kan ik meer dan één werkbelasting per GPU draaien op Kubernetes?", "nl"),
    ("Is Kubernetes de moeite waard voor een enkele GPU-taak?", "nl"),
]
PROVIDER_QUESTION = "Which providers offer managed Kubernetes with H100 in the EU?"  # a long stream


@pytest.mark.parametrize(("question", "language"), IN_SCOPE)
def test_answer_in_the_questions_language_with_its_citations(
    http: httpx.Client, question: str, language: str
) -> None:
    response = http.post("/v1/ask", json={"question": question})
    assert response.status_code == 200
    answer = response.json()
    assert_answer(answer, language)
    assert not answer["refused"]
    assert response.headers["x-request-id"]


def test_language_asked_for_wins_over_the_questions(http: httpx.Client) -> None:
    answer = http.post(
        "/v1/ask", json={"question": "Can I share one GPU between pods?", "language": "nl"}
    ).json()
    assert_answer(answer, "nl")


def test_follow_up_reads_the_history(http: httpx.Client) -> None:
    history = [{"role": "user", "content": "Kan ik één GPU delen tussen pods?"}]
    answer = http.post("/v1/ask", json={"question": "en met MIG?", "history": history}).json()
    assert_answer(answer, "nl")


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("How do I configure PostgreSQL replication?", "en"),
        ("Wat is het beste recept voor appeltaart?", "nl"),
    ],
)
def test_out_of_scope_question_is_refused_without_citations(
    http: httpx.Client, question: str, language: str
) -> None:
    answer = http.post("/v1/ask", json={"question": question}).json()
    assert answer["refused"] is True
    assert answer["citations"] == []
    assert_answer(answer, language)


def test_provider_question_cites_records(http: httpx.Client) -> None:
    answer = http.post(
        "/v1/ask", json={"question": "Which providers offer managed Kubernetes with MIG?"}
    ).json()
    assert_answer(answer, "en")
    assert answer["providers"]["filter"]["kubernetes"] == "managed"
    assert answer["providers"]["total"] == len(answer["providers"]["matches"])


def _events(body: str) -> list[tuple[str, Any]]:
    events = []
    for block in body.strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if not line.startswith(":"))
        events.append((fields["event"], json.loads(fields["data"])))
    return events


@pytest.mark.parametrize(("question", "language"), [IN_SCOPE[0], IN_SCOPE[2]])
def test_stream_sends_sentences_then_citations_providers_done(
    http: httpx.Client, question: str, language: str
) -> None:
    plain = http.post("/v1/ask", json={"question": question}).json()
    response = http.post("/v1/ask/stream", json={"question": question})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    events = _events(response.text)

    names = [name for name, _ in events]
    sentences = names.count("sentence")
    assert sentences >= 1
    assert names == ["sentence"] * sentences + ["citations", "providers", "done"]
    texts = [data for name, data in events if name == "sentence"]
    assert [sentence["index"] for sentence in texts] == list(range(sentences))
    assert " ".join(sentence["text"] for sentence in texts) == plain["answer"]
    assert all(sentence["markers"] for sentence in texts), "every sentence of an answer carries its marker"
    assert events[-3][1] == plain["citations"]
    assert events[-2][1] == plain["providers"]
    done = events[-1][1]
    assert done["language"] == language and done["refused"] is False and done["id"]
    assert done["id"] != plain["id"]
    # The streamed answer was logged like any other: feedback on it is accepted.
    assert http.post("/v1/feedback", json={"answer_id": done["id"], "rating": "up"}).status_code == 201


def test_stream_of_a_refusal_has_one_sentence_and_no_citations(http: httpx.Client) -> None:
    response = http.post("/v1/ask/stream", json={"question": "How do I configure PostgreSQL replication?"})
    events = _events(response.text)
    assert [name for name, _ in events] == ["sentence", "citations", "providers", "done"]
    assert events[0][1]["markers"] == [] and events[1][1] == [] and events[3][1]["refused"] is True


def test_stream_rejects_bad_input_before_streaming(http: httpx.Client) -> None:
    response = http.post("/v1/ask/stream", json={"question": "  "})
    assert response.status_code == 422
    assert "empty" in response.json()["detail"]


def test_client_that_leaves_mid_stream_does_not_disturb_the_server(
    http: httpx.Client, server: Server
) -> None:
    question = {"question": IN_SCOPE[0][0]}
    with (
        httpx.Client(base_url=server.url, timeout=30) as leaving,
        leaving.stream("POST", "/v1/ask/stream", json=question) as response,
    ):
        next(response.iter_raw())
    assert http.get("/healthz").status_code == 200
    assert http.post("/v1/ask", json={"question": IN_SCOPE[0][0]}).status_code == 200


def test_clients_that_leave_mid_stream_are_no_error_in_the_log(server: Server) -> None:
    """Leaving is normal: at most an INFO line, never an ERROR traceback (it raced, so twenty tries)."""
    logged = server.log.stat().st_size
    for _ in range(20):
        with (
            httpx.Client(base_url=server.url, timeout=30) as leaving,
            leaving.stream("POST", "/v1/ask/stream", json={"question": PROVIDER_QUESTION}) as response,
        ):
            next(response.iter_lines())
    assert httpx.get(f"{server.url}/healthz").status_code == 200
    log = server.log.read_bytes()[logged:].decode()
    assert '"level": "ERROR"' not in log
