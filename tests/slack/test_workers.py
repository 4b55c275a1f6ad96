"""Two worker processes behind one port share the Slack bot's memory of what it has seen."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect

from tests.servers import Server, start_server
from tests.slack.conftest import SlackClient, slack_settings, unique
from tests.slack.fake_slack import BOT_USER, FakeSlack


@pytest.fixture(scope="module")
def two_workers(
    server_root: Path, tmp_path_factory: pytest.TempPathFactory, fake_slack: FakeSlack
) -> Iterator[Server]:
    server = start_server(
        server_root, tmp_path_factory.mktemp("two-workers"), workers=2, **slack_settings(fake_slack)
    )
    yield server
    server.stop()


def test_the_seen_keys_table_exists_before_any_worker_uses_it(two_workers: Server) -> None:
    engine = create_engine(f"sqlite:///{two_workers.data_dir / 'assistant.db'}")
    assert "slack_seen" in inspect(engine).get_table_names()
    engine.dispose()


def test_a_retried_event_is_answered_once_across_workers(two_workers: Server, fake_slack: FakeSlack) -> None:
    slack = SlackClient(two_workers.url, two_workers.data_dir, fake_slack)
    channel = unique("C")
    message = fake_slack.add_message(
        channel, {"user": "U0ASKER", "text": f"<@{BOT_USER}> Can I share one GPU?"}
    )
    event = message | {"type": "app_mention", "channel": channel, "event_ts": message["ts"]}
    body = slack.event_body(event, unique("Ev"))
    now = int(time.time())
    for attempt in range(4):  # Slack's retries, spread over both workers by the kernel
        headers = {"x-slack-retry-num": str(attempt)} if attempt else {}
        assert (
            slack.send(body, "application/json", timestamp=now + attempt, headers=headers).status_code == 200
        )
    slack.settle()
    assert len(fake_slack.matching(slack.posted(channel))) == 1
    slack.http.close()
