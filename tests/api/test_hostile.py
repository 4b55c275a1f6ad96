"""A corpus of hostile bodies against every route of a real server (keys set, Slack configured): no 5xx, and
nothing in the log at ERROR. Schemathesis (test_fuzz.py) explores the schema; this sends what it does not:
bytes that are not JSON, not UTF-8 or not what the content type says."""

from __future__ import annotations

import hashlib
import hmac
import time

import httpx
import pytest

from tests.api.conftest import API_KEYS, SLACK_SECRET
from tests.servers import Server

BODIES = {
    "lone-surrogate": rb'{"question": "GPU \ud800 sharing"}',
    "surrogate-key": rb'{"\udfff": 1, "question": "MIG?"}',
    "surrogates-everywhere": rb'{"answer_id": "\ud800", "rating": "up", "comment": "\udc00", "question": "\ud83d"}',
    "escaped-nul": rb'{"question": "GPU\u0000 sharing", "answer_id": "\u0000", "rating": "up"}',
    "raw-nul": b'{"question": "GPU\x00 sharing"}',
    "nul-bytes": b"\x00" * 1000,
    "deep-lists": b"[" * 30_000 + b"]" * 30_000,
    "deep-objects": b'{"question": ' * 5_000 + b'"x"' + b"}" * 5_000,
    "deep-history": b'{"question": "MIG?", "history": ' + b"[" * 3_000 + b"]" * 3_000 + b"}",
    "huge-integer": b'{"question": ' + b"9" * 20_000 + b"}",
    "huge-float": b'{"question": "MIG?", "answer_id": "x", "rating": "up", "comment": 1e999999}',
    "nan": b'{"question": NaN, "language": Infinity}',
    "long-history": b'{"question": "MIG?", "history": ['
    + b'{"role": "user", "content": "x"},' * 1_500
    + b"{}]}",
    "duplicate-keys": b'{"question": "MIG?", "question": {"question": "MIG?"}}',
    "byte-order-mark": b'\xef\xbb\xbf{"question": "MIG?"}',
    "utf-16": '{"question": "MIG?"}'.encode("utf-16"),
    "not-utf-8": b'{"question": "\xff\xfe GPU"}',
    "empty": b"",
    "white-space": b" \r\n\t ",
    "form": b"question=MIG%3F&payload=%7B%7D&command=%2Fgpu-guide",
    "multipart": b'--x\r\nContent-Disposition: form-data; name="question"\r\n\r\nMIG?\r\n--x--\r\n',
    "xml": b"<?xml version='1.0'?><!DOCTYPE x [<!ENTITY a 'a'>]><x>&a;</x>",
}
CONTENT_TYPES = [
    "application/json",
    "application/json; charset=utf-16",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    None,
]
ROUTES = [
    ("POST", "/v1/ask"),
    ("POST", "/v1/ask/stream"),
    ("POST", "/v1/feedback"),
    ("GET", "/v1/providers"),
    ("GET", "/"),
    ("GET", "/guide/en"),
    ("GET", "/widget.js"),
    ("GET", "/healthz"),
    ("GET", "/metrics"),
    ("GET", "/docs"),
    ("POST", "/slack/events"),
    ("POST", "/v1/chat/completions"),
    ("POST", "/mcp"),
]


def _slack_signature(body: bytes) -> dict[str, str]:
    timestamp = str(int(time.time()))
    digest = hmac.new(SLACK_SECRET.encode(), b"v0:" + timestamp.encode() + b":" + body, hashlib.sha256)
    return {"X-Slack-Request-Timestamp": timestamp, "X-Slack-Signature": f"v0={digest.hexdigest()}"}


@pytest.mark.parametrize(("method", "path"), ROUTES, ids=[f"{method} {path}" for method, path in ROUTES])
def test_no_hostile_body_makes_a_server_error(keyed_server: Server, method: str, path: str) -> None:
    logged = keyed_server.log.stat().st_size
    failures = []
    with httpx.Client(base_url=keyed_server.url, timeout=30) as http:
        for name, body in BODIES.items():
            for content_type in CONTENT_TYPES:
                headers = {"X-API-Key": API_KEYS[0]} | (
                    {"Content-Type": content_type} if content_type else {}
                )
                if path == "/mcp":  # else the MCP transport answers 406 before it reads the body
                    headers["Accept"] = "application/json, text/event-stream"
                signatures = [{}, _slack_signature(body)] if path == "/slack/events" else [{}]
                for signature in signatures:
                    response = http.request(method, path, content=body, headers=headers | signature)
                    if response.status_code >= 500:
                        failures.append(
                            f"{name} as {content_type}: {response.status_code} {response.text[:200]}"
                        )
    assert failures == []
    assert httpx.get(f"{keyed_server.url}/healthz").status_code == 200
    errors = [
        line for line in keyed_server.log.read_bytes()[logged:].decode().splitlines() if '"ERROR"' in line
    ]
    assert errors == []
