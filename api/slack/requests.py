"""A request to /slack/events, checked before Bolt sees it: signed by Slack, and shaped as Slack shapes them.

Bolt parses the body before it checks the signature and takes the body for what Slack sends: a timestamp that
is not a number, a body that is not UTF-8 or not a JSON object, or a field of another type raised inside Bolt
(500), some before the signature was checked. Here the headers are checked before the body is read (401),
then that the body is UTF-8 (400: Slack signs text), the signature (401), and the body's shape (400, with the
reason). Bolt checks the signature again; the headers' checks make that safe.
"""

from __future__ import annotations

import re
from typing import Any

from fastapi import HTTPException, Request
from pydantic import BaseModel, ConfigDict, ValidationError
from slack_bolt.async_app import AsyncBoltRequest
from slack_bolt.request.internals import parse_body
from slack_sdk.signature import SignatureVerifier

# ASCII digits only: int() also takes other scripts' digits, and fails on more than 4,300 of them.
_TIMESTAMP = re.compile(r"[0-9]{1,12}")
_SIGNATURE = re.compile(r"v0=[0-9a-f]{64}")

Ref = (
    str | dict[str, Any] | None
)  # Slack names a team, user, channel or enterprise by its id, or as an object


class _Part(BaseModel):
    """An object Bolt looks into to find who sent a request, and where from."""

    model_config = ConfigDict(extra="allow")

    type: str | None = None
    user: Ref = None
    team: Ref = None
    channel: Ref = None
    enterprise: Ref = None


class _Event(_Part):
    type: str
    text: str | None = None
    message: _Part | None = None
    previous_message: _Part | None = None
    item: _Part | None = None


class SlackBody(_Part):
    """The fields that Bolt and the listeners read, with the types Slack sends; other fields pass as they are."""

    authorizations: list[dict[str, Any]] | None = None
    event: _Event | None = None
    actions: list[dict[str, Any]] | None = None
    message: _Part | None = None
    container: dict[str, Any] | None = None
    view: dict[str, Any] | None = None


def _unsigned(reason: str) -> HTTPException:
    return HTTPException(401, f"not a request signed by Slack: {reason}")


def _malformed(reason: str) -> HTTPException:
    return HTTPException(400, f"not a request Slack sends: {reason}")


def _check_headers(request: Request) -> tuple[str, str]:
    timestamp = request.headers.get("x-slack-request-timestamp", "")
    signature = request.headers.get("x-slack-signature", "")
    if not _TIMESTAMP.fullmatch(timestamp):
        raise _unsigned("X-Slack-Request-Timestamp is not a Unix time in seconds")
    if not _SIGNATURE.fullmatch(signature):
        raise _unsigned("X-Slack-Signature is not v0= and 64 hexadecimal digits")
    return timestamp, signature


def _shape(text: str, content_type: str | None) -> None:
    """Raises 400 unless Bolt's parse of the body is an object with the fields it reads well typed."""
    try:
        parsed = parse_body(text, content_type)
    except RecursionError:
        raise _malformed("malformed JSON: nested too deeply") from None
    except ValueError as error:
        raise _malformed(f"malformed JSON: {error}") from None
    if not isinstance(parsed, dict):
        raise _malformed("the body (or its payload) is not a JSON object")
    try:
        SlackBody.model_validate(parsed)
    except ValidationError as error:
        fault = error.errors()[0]
        raise _malformed(f"{'.'.join(map(str, fault['loc']))}: {fault['msg']}") from None


async def verified_request(request: Request, signing_secret: str) -> AsyncBoltRequest:
    """The request as Bolt takes it, once it is shown to be Slack's, fresh and well formed."""
    timestamp, signature = _check_headers(request)  # before a byte of the body is read
    try:  # Slack signs UTF-8 text, and its SDK can check nothing else
        text = (await request.body()).decode()
    except UnicodeDecodeError:
        raise _malformed("the body is not UTF-8") from None
    if not SignatureVerifier(signing_secret).is_valid(text, timestamp, signature):
        raise _unsigned("the signature does not match, or it is more than 5 minutes old")
    _shape(text, request.headers.get("content-type", "").split(";")[0] or None)  # as Bolt reads it
    return AsyncBoltRequest(body=text, query=request.url.query, headers=dict(request.headers))
