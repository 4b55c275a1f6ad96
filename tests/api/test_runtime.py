"""In-process tier: readiness while the assistant loads, and a failed load, with a stand-in assistant."""

from __future__ import annotations

import threading
from pathlib import Path

from fastapi.testclient import TestClient

from api.app import create_app
from assistant.config import Settings
from assistant.models import Answer


class StandIn:
    """Answers every question with one cited sentence; loading waits for the test's signal."""

    records: list = []

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def ask(self, question: str, language: str | None = None, history: list | None = None) -> Answer:
        return Answer(
            answer="Yes. [1]", language=language or "en", refused=False, citations=[], providers=None, id="x"
        )


def test_not_ready_until_loaded_and_requests_wait_for_the_load(tmp_path: Path) -> None:
    release = threading.Event()

    def slow_loader(settings: Settings) -> StandIn:
        release.wait(10)
        return StandIn(settings)

    app = create_app(Settings(data_dir=tmp_path), loader=slow_loader)
    with TestClient(app) as client:
        assert client.get("/healthz").json() == {"status": "loading"}
        loading = client.get("/readyz")
        assert loading.status_code == 503 and loading.json() == {"status": "loading"}
        release.set()
        assert client.post("/v1/ask", json={"question": "MIG?"}).status_code == 200
        assert client.get("/readyz").status_code == 200


def test_failed_load_fails_health_and_answers_503(tmp_path: Path) -> None:
    def broken_loader(settings: Settings) -> StandIn:
        raise RuntimeError("index is corrupt")

    app = create_app(Settings(data_dir=tmp_path), loader=broken_loader)
    with TestClient(app) as client:
        response = client.post("/v1/ask", json={"question": "MIG?"})
        assert response.status_code == 503
        assert response.json()["detail"] == "the assistant failed to load"
        assert "corrupt" not in response.text
        assert client.get("/healthz").status_code == 503
        assert client.get("/readyz").json() == {"status": "failed"}


def test_an_unexpected_error_is_a_json_500_without_a_traceback(tmp_path: Path) -> None:
    class Failing(StandIn):
        def ask(self, question: str, language: str | None = None, history: list | None = None) -> Answer:
            raise ZeroDivisionError("secret detail")

    app = create_app(Settings(data_dir=tmp_path), loader=Failing)
    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.post("/v1/ask", json={"question": "MIG?"})
    assert response.status_code == 500
    body = response.json()
    assert body["request_id"] == response.headers["x-request-id"]
    assert "secret" not in response.text and "Traceback" not in response.text
