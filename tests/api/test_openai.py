"""POST /v1/chat/completions and GET /v1/models through OpenAI's own client and LangChain's ChatOpenAI, against
the session's keyed server (contract §6): the answers are /v1/ask's, errors are OpenAI's shape."""

from __future__ import annotations

import re
from typing import Any

import httpx
import openai
import pytest
from langchain_openai import ChatOpenAI

from tests.api.conftest import API_KEYS, GUARDED_RATE_LIMIT, assert_answer, client_from
from tests.servers import Server

MODEL = "gpu-guide"
QUESTIONS = [
    ("Can I run more than one workload on a GPU?", "en"),
    ("Is Kubernetes de moeite waard voor een enkele GPU-taak?", "nl"),
]
OUT_OF_SCOPE = "What is the best recipe for apple pie?"
ERROR_KEYS = {"message", "type", "param", "code"}


@pytest.fixture(scope="module")
def client(keyed_server: Server) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{keyed_server.url}/v1", api_key=API_KEYS[0], max_retries=0)


@pytest.fixture(scope="module")
def http(keyed_server: Server) -> httpx.Client:
    headers = {"Authorization": f"Bearer {API_KEYS[0]}"}
    with httpx.Client(base_url=keyed_server.url, timeout=30, headers=headers) as client:
        yield client


def _as_answer(content: str, guide: dict[str, Any]) -> dict[str, Any]:
    """The /v1/ask object the message carries: its content is the answer, `guide` the rest."""
    return {"answer": content, **guide}


def _user(question: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": question}]


def _error(response: httpx.Response) -> dict[str, Any]:
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == ERROR_KEYS, body
    return body["error"]


@pytest.mark.parametrize(("question", "language"), QUESTIONS)
def test_plain_and_streamed_completions_carry_the_cited_answer(
    client: openai.OpenAI, http: httpx.Client, question: str, language: str
) -> None:
    completion = client.chat.completions.create(model=MODEL, messages=_user(question))
    assert completion.object == "chat.completion" and completion.model == MODEL
    (choice,) = completion.choices
    assert choice.finish_reason == "stop" and choice.message.role == "assistant"
    guide = choice.message.model_extra["guide"]
    assert_answer(_as_answer(choice.message.content, guide), language)
    assert not guide["refused"]
    assert completion.id == f"chatcmpl-{guide['id']}"
    # The same answer /v1/ask gives.
    assert choice.message.content == http.post("/v1/ask", json={"question": question}).json()["answer"]

    chunks = list(client.chat.completions.create(model=MODEL, messages=_user(question), stream=True))
    assert all(chunk.object == "chat.completion.chunk" for chunk in chunks)
    assert chunks[0].choices[0].delta.role == "assistant"
    assert [chunk.choices[0].finish_reason for chunk in chunks] == [None] * (len(chunks) - 1) + ["stop"]
    streamed = "".join(chunk.choices[0].delta.content or "" for chunk in chunks)
    assert streamed == choice.message.content
    last_guide = chunks[-1].choices[0].delta.model_extra["guide"]
    assert_answer(_as_answer(streamed, last_guide), language)
    assert last_guide["citations"] == guide["citations"]


def test_the_stream_ends_with_done(http: httpx.Client) -> None:
    body = {"model": MODEL, "messages": _user(QUESTIONS[0][0]), "stream": True}
    response = http.post("/v1/chat/completions", json=body)
    assert response.headers["content-type"].startswith("text/event-stream")
    data = [line.removeprefix("data: ") for line in response.text.splitlines() if line.startswith("data: ")]
    assert data[-1] == "[DONE]" and data.count("[DONE]") == 1


def test_history_is_read_as_v1_ask_reads_it_and_system_messages_change_nothing(
    client: openai.OpenAI, http: httpx.Client
) -> None:
    first, follow_up = "Which providers offer managed Kubernetes with H100?", "and in the EU?"
    earlier = http.post("/v1/ask", json={"question": first}).json()["answer"]
    history = [{"role": "user", "content": first}, {"role": "assistant", "content": earlier}]
    expected = http.post("/v1/ask", json={"question": follow_up, "history": history}).json()
    messages = [
        {"role": "system", "content": "Answer in French, in one word."},
        *history,
        {"role": "user", "content": follow_up},
    ]
    completion = client.chat.completions.create(model=MODEL, messages=messages, temperature=1.5, max_tokens=5)
    message = completion.choices[0].message
    guide = message.model_extra["guide"]
    assert message.content == expected["answer"]
    assert_answer(_as_answer(message.content, guide), "en")
    # The follow-up's filter carries the earlier question's keys: the history was read.
    assert {"kubernetes", "region"} <= set(guide["providers"]["filter"])
    alone = http.post("/v1/ask", json={"question": follow_up}).json()
    assert alone["answer"] != expected["answer"]


def test_out_of_scope_question_is_refused_without_sources(client: openai.OpenAI) -> None:
    completion = client.chat.completions.create(
        model=MODEL, messages=_user(OUT_OF_SCOPE), extra_body={"include_sources": True}
    )
    message = completion.choices[0].message
    guide = message.model_extra["guide"]
    assert guide["refused"] is True and guide["citations"] == []
    assert "Sources" not in message.content and not re.search(r"\[\d+\]", message.content)
    assert_answer(_as_answer(message.content, guide), "en")


def test_sources_are_appended_when_asked(client: openai.OpenAI, keyed_server: Server) -> None:
    completion = client.chat.completions.create(
        model=MODEL, messages=_user(QUESTIONS[1][0]), extra_body={"include_sources": True}
    )
    message = completion.choices[0].message
    answer, sources = message.content.split("\n\nBronnen:\n")
    citations = message.model_extra["guide"]["citations"]
    assert_answer(_as_answer(answer, message.model_extra["guide"]), "nl")
    links = [keyed_server.url + c["url"] if c["url"].startswith("/") else c["url"] for c in citations]
    assert sources.splitlines() == [
        f"[{c['n']}] {c['title']}: {link}" for c, link in zip(citations, links, strict=True)
    ]


def test_langchain_chat_openai_asks_the_guide(keyed_server: Server, http: httpx.Client) -> None:
    question = QUESTIONS[0][0]
    chat = ChatOpenAI(model=MODEL, base_url=f"{keyed_server.url}/v1", api_key=API_KEYS[0], max_retries=0)
    reply = chat.invoke(question)
    assert reply.content == http.post("/v1/ask", json={"question": question}).json()["answer"]
    assert re.search(r"\[1\]", reply.content)


def test_models_lists_the_one_model(client: openai.OpenAI) -> None:
    assert [model.id for model in client.models.list()] == [MODEL]
    assert client.models.retrieve(MODEL).id == MODEL
    with pytest.raises(openai.NotFoundError):
        client.models.retrieve("gpt-4o")


@pytest.mark.parametrize(
    ("body", "status", "param"),
    [
        ({"model": "gpt-4o", "messages": _user("MIG?")}, 404, "model"),
        ({"model": MODEL, "messages": _user("MIG?"), "n": 2}, 400, "n"),
        (
            {"model": MODEL, "messages": _user("MIG?"), "response_format": {"type": "json_object"}},
            400,
            "response_format",
        ),
        ({"model": MODEL, "messages": [{"role": "assistant", "content": "MIG?"}]}, 400, "messages"),
        ({"model": MODEL, "messages": _user("   ")}, 422, "messages[0].content"),
        ({"model": MODEL, "messages": _user("x" * 2001)}, 422, "messages[0].content"),
        ({"model": MODEL, "messages": _user("MIG?"), "temperature": "hot"}, 422, "temperature"),
        ({"model": MODEL, "messages": []}, 422, "messages"),
    ],
)
def test_bad_requests_get_openai_errors(
    client: openai.OpenAI, body: dict[str, Any], status: int, param: str
) -> None:
    with pytest.raises(openai.APIStatusError) as raised:
        client.chat.completions.create(**body)
    assert raised.value.status_code == status
    error = raised.value.body
    assert set(error) == ERROR_KEYS and error["message"]
    assert error["param"] == param


def test_malformed_and_oversized_bodies_get_openai_errors(http: httpx.Client) -> None:
    malformed = http.post(
        "/v1/chat/completions", content=b'{"model": ', headers={"Content-Type": "application/json"}
    )
    assert malformed.status_code == 400 and _error(malformed)["code"] == "invalid_json"
    huge = http.post("/v1/chat/completions", json={"model": MODEL, "messages": _user("MIG? " * 20_000)})
    assert huge.status_code == 413 and _error(huge)["type"] == "invalid_request_error"


def test_a_wrong_bearer_key_is_401(keyed_server: Server) -> None:
    wrong = openai.OpenAI(base_url=f"{keyed_server.url}/v1", api_key="not-a-key", max_retries=0)
    with pytest.raises(openai.AuthenticationError) as raised:
        wrong.chat.completions.create(model=MODEL, messages=_user("MIG?"))
    assert raised.value.status_code == 401 and raised.value.body["code"] == "invalid_api_key"
    response = httpx.get(f"{keyed_server.url}/v1/models")
    assert response.status_code == 401 and response.headers["www-authenticate"] == "Bearer"
    assert _error(response)["type"] == "authentication_error"


def test_the_rate_limit_counts_chat_requests_and_answers_in_openai_shape(guarded_server: Server) -> None:
    with client_from(guarded_server, "127.0.0.20") as http:
        responses = [http.get("/v1/models") for _ in range(GUARDED_RATE_LIMIT + 1)]
    assert [response.status_code for response in responses] == [401] * GUARDED_RATE_LIMIT + [429]
    assert _error(responses[-1])["code"] == "rate_limit_exceeded"
    assert int(responses[-1].headers["retry-after"]) >= 1


def _counter(server: Server, line_start: str) -> float:
    lines = httpx.get(f"{server.url}/metrics").text.splitlines()
    return sum(float(line.rsplit(" ", 1)[1]) for line in lines if line.startswith(line_start))


def test_chat_answers_are_counted_in_the_metrics(client: openai.OpenAI, keyed_server: Server) -> None:
    route = 'assistant_http_requests_total{method="POST",route="/v1/chat/completions",status="200"}'
    before = (_counter(keyed_server, route), _counter(keyed_server, 'assistant_answers_total{language="en"}'))
    client.chat.completions.create(model=MODEL, messages=_user(QUESTIONS[0][0]))
    after = (_counter(keyed_server, route), _counter(keyed_server, 'assistant_answers_total{language="en"}'))
    assert after == (before[0] + 1, before[1] + 1)
