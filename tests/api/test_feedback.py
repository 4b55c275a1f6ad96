"""POST /v1/feedback on a real server; what it stored survives a `kill -9`, and the question log, written
behind the answers, loses nothing on a clean shutdown."""

from __future__ import annotations

import signal
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from api.storage import FeedbackRow, QuestionRow
from tests.servers import Server


def _ask(http: httpx.Client, question: str = "Can I share one GPU between pods?") -> str:
    return http.post("/v1/ask", json={"question": question}).json()["id"]


def test_feedback_on_an_answer_is_created(http: httpx.Client) -> None:
    answer_id = _ask(http)
    response = http.post(
        "/v1/feedback", json={"answer_id": answer_id, "rating": "down", "comment": "too short"}
    )
    assert response.status_code == 201
    receipt = response.json()
    assert receipt["answer_id"] == answer_id and receipt["rating"] == "down" and receipt["id"] > 0


def test_feedback_on_an_unknown_answer_is_404(http: httpx.Client) -> None:
    response = http.post("/v1/feedback", json={"answer_id": "no-such-answer", "rating": "up"})
    assert response.status_code == 404
    assert "no-such-answer" in response.json()["detail"]


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        ({"answer_id": "x", "rating": "sideways"}, "rating"),
        ({"answer_id": "", "rating": "up"}, "answer_id"),
        ({"answer_id": "x", "rating": "up", "comment": "c" * 2001}, "comment"),
        ({"rating": "up"}, "answer_id"),
    ],
)
def test_bad_feedback_is_422_with_the_reason(http: httpx.Client, payload: dict, reason: str) -> None:
    response = http.post("/v1/feedback", json=payload)
    assert response.status_code == 422
    assert reason in response.json()["detail"]


def test_feedback_and_question_log_survive_kill_9(spawn: Callable[..., Server], tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    first = spawn(data_dir)
    try:
        with httpx.Client(base_url=first.url, timeout=30) as http:
            answer_id = _ask(http)
            stored = http.post(
                "/v1/feedback", json={"answer_id": answer_id, "rating": "up", "comment": "clear"}
            )
            assert stored.status_code == 201
    finally:
        first.stop(signal.SIGKILL)
    assert first.process.returncode == -signal.SIGKILL

    second = spawn(data_dir)
    try:
        with httpx.Client(base_url=second.url, timeout=30) as http:
            # The restarted server still knows the answer: the question log survived too.
            again = http.post("/v1/feedback", json={"answer_id": answer_id, "rating": "down"})
            assert again.status_code == 201
            # Asked right before a clean shutdown: still queued when the signal comes, written on the way out.
            last_id = _ask(http, "Wat doet de GPU Operator?")
    finally:
        second.stop()

    engine = create_engine(f"sqlite:///{data_dir / 'assistant.db'}")
    with Session(engine) as session:
        rows = session.scalars(select(FeedbackRow).where(FeedbackRow.answer_id == answer_id)).all()
        question = session.get(QuestionRow, answer_id)
        last = session.get(QuestionRow, last_id)
    engine.dispose()
    assert [(row.rating, row.comment) for row in rows] == [("up", "clear"), ("down", None)]
    assert question is not None and question.question == "Can I share one GPU between pods?"
    assert question.refused is False and question.cited_sections and question.latency_ms > 0
    assert last is not None and last.question == "Wat doet de GPU Operator?" and last.language == "nl"
