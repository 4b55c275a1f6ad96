"""Several replicas on one PostgreSQL database (ASSISTANT_DATABASE_URL): what one logs, the other sees.

The database is a throwaway cluster of Debian's `postgresql` on a loopback port, started for this module.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from api.slack.dedupe import SeenKeys
from api.storage import FeedbackRow, QuestionRow, Store
from tests.servers import Server, free_port

POSTGRES_BINARIES = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    """A SQLAlchemy URL of an empty database that exists for this module only."""
    if not POSTGRES_BINARIES:
        pytest.fail("PostgreSQL is missing: `apt-get install -y postgresql` (see .ci/run)")
    binaries = POSTGRES_BINARIES[-1].parent
    folder = Path(tempfile.mkdtemp(prefix="assistant-postgres-"))
    # PostgreSQL refuses to run as root; Debian's package brings the `postgres` user for this.
    as_owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if as_owner:
        shutil.chown(folder, "postgres")
    data, port = folder / "data", free_port()
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1"
    subprocess.run(
        [*as_owner, binaries / "initdb", "-D", data, "-A", "trust", "-U", "assistant"],
        check=True,
        capture_output=True,
    )
    pg_ctl = [*as_owner, binaries / "pg_ctl", "-D", data, "-l", folder / "server.log"]
    subprocess.run([*pg_ctl, "-w", "-o", options, "start"], check=True, capture_output=True)
    try:
        yield f"postgresql+psycopg://assistant@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*pg_ctl, "-m", "fast", "stop"], check=False, capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def replicas(spawn: Callable[..., Server], postgres_url: str, tmp_path_factory) -> Iterator[list[Server]]:
    """Two servers with data folders of their own and one database."""
    folder = tmp_path_factory.mktemp("replicas")
    running = [spawn(folder / name, database_url=postgres_url) for name in ("a", "b")]
    yield running
    for server in running:
        server.stop()


def test_feedback_reaches_an_answer_given_by_another_replica(
    replicas: list[Server], postgres_url: str
) -> None:
    first, second = replicas
    question = "Kan ik één GPU delen tussen pods?"
    answer = httpx.post(f"{first.url}/v1/ask", json={"question": question}, timeout=30).json()
    receipt = httpx.post(
        f"{second.url}/v1/feedback",
        json={"answer_id": answer["id"], "rating": "up", "comment": "clear"},
        timeout=30,
    )
    assert receipt.status_code == 201, receipt.text
    unknown = httpx.post(f"{second.url}/v1/feedback", json={"answer_id": "nope", "rating": "up"}, timeout=30)
    assert unknown.status_code == 404

    with Session(create_engine(postgres_url)) as session:
        logged = session.get(QuestionRow, answer["id"])
        feedback = session.scalars(select(FeedbackRow).where(FeedbackRow.answer_id == answer["id"])).all()
    assert logged is not None and logged.question == question and logged.language == "nl"
    assert logged.cited_sections == list(dict.fromkeys(c["section_id"] for c in answer["citations"]))
    assert [(row.rating, row.comment) for row in feedback] == [("up", "clear")]


def test_a_slack_event_is_claimed_once_across_replicas(postgres_url: str) -> None:
    stores = [Store(postgres_url), Store(postgres_url)]  # two processes' worth of connection pools
    try:
        first, second = (SeenKeys(store.engine) for store in stores)
        assert first.first_time("event:Ev-postgres-1")
        assert not second.first_time("event:Ev-postgres-1")
        assert second.first_time("event:Ev-postgres-2")
    finally:
        for store in stores:
            store.close()
