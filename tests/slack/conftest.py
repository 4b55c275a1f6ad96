"""The Slack tier: a real server (`tests.servers.start_server`) pointed at a local stand-in for Slack,
and a client that sends what Slack sends, signed as Slack signs it."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from api.storage import FeedbackRow
from tests.servers import Server, start_server
from tests.slack.fake_slack import APP_ID, BOT_USER, Call, FakeSlack

SECRET = "test-signing-secret-of-the-slack-tier"
TOKEN = "xoxb-test-token"
TEAM = "T0TEAM"
PUBLIC_URL = "https://guide.example/assistant"


def sign(body: bytes, timestamp: int, secret: str = SECRET) -> dict[str, str]:
    """Slack's v0 signature headers (written out here, not taken from the code under test)."""
    base = b"v0:" + str(timestamp).encode() + b":" + body
    digest = hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()
    return {"x-slack-request-timestamp": str(timestamp), "x-slack-signature": f"v0={digest}"}


def unique(prefix: str) -> str:
    """An id no other test uses, so tests sharing the stand-in never read each other's calls."""
    return f"{prefix}{uuid.uuid4().hex[:10].upper()}"


class SlackClient:
    """Sends signed requests to /slack/events and knows where the answers to them arrive."""

    def __init__(self, url: str, data_dir: Path, fake: FakeSlack) -> None:
        self.data_dir = data_dir
        self.fake = fake
        self.http = httpx.Client(base_url=url, timeout=30)

    def send(
        self,
        body: bytes,
        content_type: str,
        *,
        timestamp: int | None = None,
        secret: str = SECRET,
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        signed = sign(body, int(time.time()) if timestamp is None else timestamp, secret)
        all_headers = {"content-type": content_type} | signed | (headers or {})
        return self.http.post("/slack/events", content=body, headers=all_headers)

    def response_url(self) -> str:
        return f"{self.fake.url}/response/{unique('R')}"

    def command_body(
        self, text: str, response_url: str, channel: str = "C0GPU", user: str = "U0ASKER"
    ) -> bytes:
        fields = {
            "token": "unused",
            "team_id": TEAM,
            "team_domain": "team",
            "channel_id": channel,
            "channel_name": "gpu",
            "user_id": user,
            "user_name": "asker",
            "command": "/gpu-guide",
            "text": text,
            "api_app_id": APP_ID,
            "trigger_id": "1.2.3",
            "response_url": response_url,
        }
        return urlencode(fields).encode()

    def command(self, text: str, response_url: str, **fields: str) -> httpx.Response:
        return self.send(self.command_body(text, response_url, **fields), "application/x-www-form-urlencoded")

    def event_body(self, event: dict[str, Any], event_id: str | None = None) -> bytes:
        envelope = {
            "token": "unused",
            "team_id": TEAM,
            "api_app_id": APP_ID,
            "type": "event_callback",
            "event_id": event_id or unique("Ev"),
            "event_time": int(time.time()),
            "authorizations": [{"team_id": TEAM, "user_id": BOT_USER, "is_bot": True}],
            "event": event,
        }
        return json.dumps(envelope).encode()

    def event(self, event: dict[str, Any], event_id: str | None = None, **headers: str) -> httpx.Response:
        return self.send(self.event_body(event, event_id), "application/json", headers=headers)

    def click(
        self, action_id: str, value: str, response_url: str, *, channel: str = "C0GPU", ephemeral: bool = True
    ) -> httpx.Response:
        payload = {
            "type": "block_actions",
            "team": {"id": TEAM},
            "user": {"id": "U0CLICKER"},
            "api_app_id": APP_ID,
            "container": {"type": "message", "channel_id": channel, "is_ephemeral": ephemeral},
            "channel": {"id": channel},
            "response_url": response_url,
            "trigger_id": "1.2.3",
            "actions": [
                {"type": "button", "action_id": action_id, "block_id": "answer_actions", "value": value}
            ],
        }
        body = urlencode({"payload": json.dumps(payload)}).encode()
        return self.send(body, "application/x-www-form-urlencoded")

    def at(self, url_or_path: str) -> Any:
        """A condition on the stand-in's calls: those to this response_url or Web API method."""
        path = url_or_path.removeprefix(self.fake.url)
        return lambda call: call.path == path

    def posted(self, channel: str) -> Any:
        return lambda call: call.method == "chat.postMessage" and call.params.get("channel") == channel

    def direct_message(self, text: str, channel: str, **fields: Any) -> httpx.Response:
        event = {"type": "message", "channel_type": "im", "channel": channel, "user": "U0ASKER", "text": text}
        return self.event(event | {"ts": self.fake.new_ts()} | fields)

    def settle(self) -> None:
        """Returns once a question sent now is answered and nothing more has reached Slack for a moment:
        answers run side by side and may finish out of order, so waiting for the newest alone is not
        enough. A test can then tell that a rejected or repeated request did nothing."""
        channel = unique("D")
        assert self.direct_message("Can I share one GPU between pods?", channel).status_code == 200
        self.fake.wait_for(self.posted(channel))
        self.fake.wait_quiet()

    def feedback(self, answer_id: str) -> list[tuple[str, str | None]]:
        engine = create_engine(f"sqlite:///{self.data_dir / 'assistant.db'}")
        with Session(engine) as session:
            rows = session.scalars(select(FeedbackRow).where(FeedbackRow.answer_id == answer_id)).all()
        engine.dispose()
        return [(row.rating, row.comment) for row in rows]


def button(call: Call, action_id: str) -> dict[str, Any]:
    """The button with this action id in a posted message's blocks."""
    for block in call.params["blocks"]:
        for element in block.get("elements", []):
            if element.get("action_id") == action_id:
                return element
    raise AssertionError(f"no {action_id} button in {call.params['blocks']}")


def texts(call: Call) -> list[str]:
    """Every mrkdwn text of a message's blocks, in order."""
    out = []
    for block in call.params.get("blocks", []):
        if "text" in block:
            out.append(block["text"]["text"])
        out += [element["text"] for element in block.get("elements", []) if element.get("type") == "mrkdwn"]
    return out


def slack_settings(fake: FakeSlack) -> dict[str, str]:
    """The server settings that make it Slack's bot, with the stand-in as its Web API."""
    return {"SLACK_SIGNING_SECRET": SECRET, "SLACK_BOT_TOKEN": TOKEN, "slack_api_url": f"{fake.url}/api/"}


@pytest.fixture(scope="session")
def fake_slack() -> Iterator[FakeSlack]:
    fake = FakeSlack().start()
    yield fake
    fake.stop()


@pytest.fixture(scope="session")
def slack_server(
    server_root: Path, tmp_path_factory: pytest.TempPathFactory, fake_slack: FakeSlack
) -> Iterator[Server]:
    """A server with the Slack credentials, the stand-in as its Web API, and a public URL for links."""
    data_dir = tmp_path_factory.mktemp("slack-data")
    server = start_server(server_root, data_dir, **slack_settings(fake_slack), public_url=PUBLIC_URL)
    yield server
    server.stop()


@pytest.fixture
def slack(slack_server: Server, fake_slack: FakeSlack) -> Iterator[SlackClient]:
    client = SlackClient(slack_server.url, slack_server.data_dir, fake_slack)
    yield client
    client.http.close()
