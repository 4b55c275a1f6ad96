"""A stand-in for Slack's side on 127.0.0.1: the Web API methods the bot calls, and response_url endpoints.

It records every call, keeps the messages the bot posts (as Slack stamps them: bot id, app id, metadata) so
`conversations.replies` returns real threads, and lets a test wait on a condition instead of sleeping.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

APP_ID = "A0GUIDE"
BOT_ID = "B0GUIDE"
BOT_USER = "U0GUIDEBOT"


@dataclass(frozen=True)
class Call:
    """One request to the stand-in: `/api/chat.postMessage`, `/response/<name>` …, with its parameters."""

    path: str
    params: dict[str, Any]
    authorization: str
    at: float  # time.monotonic() when it arrived

    @property
    def method(self) -> str:
        return self.path.removeprefix("/api/")


def _params(handler: BaseHTTPRequestHandler, body: bytes) -> dict[str, Any]:
    """GET query, form or JSON body, as Slack's Web API accepts them all; a form's `blocks` is JSON text."""
    query = {key: values[-1] for key, values in parse_qs(urlsplit(handler.path).query).items()}
    if not body:
        return query
    if handler.headers.get("content-type", "").startswith("application/json"):
        return query | json.loads(body)
    form = {key: values[-1] for key, values in parse_qs(body.decode()).items()}
    for key in ("blocks", "metadata"):
        if isinstance(form.get(key), str):
            form[key] = json.loads(form[key])
    return query | form


class FakeSlack:
    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.messages: dict[str, list[dict[str, Any]]] = {}  # channel -> messages
        self.unreadable: set[str] = set()  # channels whose history Slack refuses to the bot
        self._changed = threading.Condition()
        self._ts = itertools.count(1)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> FakeSlack:
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def new_ts(self) -> str:
        """A message timestamp later than any before it, as Slack's are."""
        return f"{1_800_000_000 + next(self._ts)}.000100"

    def add_message(self, channel: str, message: dict[str, Any]) -> dict[str, Any]:
        """A message people wrote (so that `conversations.replies` finds it), with a fresh ts if it has none."""
        stored = {"type": "message", "ts": self.new_ts()} | message
        with self._changed:
            self.messages.setdefault(channel, []).append(stored)
        return stored

    def wait_for(self, matches: Callable[[Call], bool], timeout: float = 60.0, count: int = 1) -> list[Call]:
        """The calls that match, once there are at least `count` of them; AssertionError after `timeout`."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while len(found := [call for call in self.calls if matches(call)]) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    seen = [f"{call.path} {str(call.params)[:120]}" for call in self.calls[-5:]]
                    raise AssertionError(f"{len(found)} of {count} calls within {timeout} s; last: {seen}")
                self._changed.wait(left)
        return found

    def wait_quiet(self, quiet: float = 0.5, timeout: float = 30.0) -> None:
        """Returns once no call has arrived for `quiet` seconds; AssertionError if calls go on past `timeout`."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while (left := (self.calls[-1].at if self.calls else 0.0) + quiet - time.monotonic()) > 0:
                if time.monotonic() > deadline:
                    raise AssertionError(f"calls kept arriving for {timeout} s")
                self._changed.wait(left)

    def matching(self, matches: Callable[[Call], bool]) -> list[Call]:
        with self._changed:
            return [call for call in self.calls if matches(call)]

    def _answer(self, call: Call) -> dict[str, Any]:
        params = call.params
        if call.method == "chat.postMessage":
            message = {
                "type": "message",
                "ts": self.new_ts(),
                "user": BOT_USER,
                "bot_id": BOT_ID,
                "app_id": APP_ID,
                "text": params.get("text", ""),
                "blocks": params.get("blocks", []),
            }
            message |= {key: params[key] for key in ("thread_ts", "metadata") if params.get(key)}
            self.messages.setdefault(params["channel"], []).append(message)
            return {"ok": True, "channel": params["channel"], "ts": message["ts"], "message": message}
        if call.method == "chat.postEphemeral":
            return {"ok": True, "message_ts": self.new_ts()}
        if call.method == "conversations.replies":
            if params["channel"] in self.unreadable:
                return {"ok": False, "error": "not_in_channel"}
            root = params["ts"]
            keep_metadata = str(params.get("include_all_metadata", "")).lower() in ("1", "true")
            thread = [
                {key: value for key, value in message.items() if keep_metadata or key != "metadata"}
                for message in self.messages.get(params["channel"], [])
                if root in (message["ts"], message.get("thread_ts"))
            ]
            return {"ok": True, "messages": sorted(thread, key=lambda message: float(message["ts"]))}
        if call.path.startswith("/response/"):
            return {"ok": True}
        return {"ok": False, "error": "unknown_method"}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_args: Any) -> None:
                pass

            def _serve(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                call = Call(
                    urlsplit(self.path).path,
                    _params(self, body),
                    self.headers.get("authorization", ""),
                    time.monotonic(),
                )
                with fake._changed:
                    out = json.dumps(fake._answer(call)).encode()
                    fake.calls.append(call)
                    fake._changed.notify_all()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

            do_GET = do_POST = _serve

        return Handler
