"""Every error leaves as `{"detail": reason, "request_id": id}`; nothing of the server's insides goes with it.

On the OpenAI-compatible routes (`/v1/chat/…`, `/v1/models`) the same errors take OpenAI's shape,
`{"error": {"message", "type", "param", "code"}}`, because OpenAI's client libraries read that and nothing else.
`RequestContext` sets the shape per request from its path, so the guard, the body limits, the validation
handlers and the JSON 500 all answer in it without knowing which route they refuse.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from api.logs import request_id
from api.schemas import NOT_TEXT

# Errors are JSON on every route, HTML pages and the event stream included; ErrorBody is in the schema's
# components because routes name it as a `model` (see api/routes/feedback.py).
ERROR_JSON = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
_REASONS_SHOWN = 5  # enough to fix a request; a long list of faults would only repeat itself

ErrorStyle = Literal["detail", "openai"]
error_style: ContextVar[ErrorStyle] = ContextVar("error_style", default="detail")
OPENAI_PATHS = ("/v1/chat/", "/v1/models")
_OPENAI_TYPES = {401: "authentication_error", 429: "rate_limit_error"}
_OPENAI_CODES = {
    401: "invalid_api_key",
    404: "not_found",
    408: "request_timeout",
    413: "request_too_large",
    429: "rate_limit_exceeded",
    503: "service_unavailable",
}


def style_for(path: str) -> ErrorStyle:
    return "openai" if path.startswith(OPENAI_PATHS) else "detail"


class ParamError(HTTPException):
    """A refusal that names the parameter it concerns (OpenAI's `param`) and a machine-readable `code`."""

    def __init__(
        self, status: int, detail: str, *, param: str | None = None, code: str | None = None
    ) -> None:
        super().__init__(status, detail)
        self.param, self.code = param, code


def _openai_body(status: int, detail: str, param: str | None, code: str | None) -> dict[str, Any]:
    kind = "server_error" if status >= 500 else _OPENAI_TYPES.get(status, "invalid_request_error")
    return {
        "error": {"message": detail, "type": kind, "param": param, "code": code or _OPENAI_CODES.get(status)}
    }


def error_response(
    status: int,
    detail: str,
    headers: dict[str, str] | None = None,
    *,
    param: str | None = None,
    code: str | None = None,
) -> JSONResponse:
    """The error in the shape of the request's route: the service's own, or OpenAI's (see the docstring)."""
    if error_style.get() == "openai":
        return JSONResponse(_openai_body(status, detail, param, code), status_code=status, headers=headers)
    return JSONResponse(
        {"detail": detail, "request_id": request_id.get()}, status_code=status, headers=headers
    )


def internal_error() -> JSONResponse:
    return error_response(500, "internal error; quote the request id when you report it")


def _param(error: dict[str, Any]) -> str | None:
    """A fault's place as OpenAI names parameters: `messages[0].content`; None for the body as a whole."""
    place = ""
    for part in error["loc"][1:]:
        place += f"[{part}]" if isinstance(part, int) else f".{part}"
    return place.lstrip(".") or None


def _reason(error: dict[str, Any]) -> str:
    if error["type"] == "json_invalid":
        return f"malformed JSON: {error.get('ctx', {}).get('error', 'cannot be parsed')}"
    location = ".".join(str(part) for part in error["loc"][1:]) or str(error["loc"][0])
    message = NOT_TEXT if error["type"] == "string_unicode" else error["msg"].removeprefix("Value error, ")
    return f"{location}: {message}"


async def _validation_error(_request: Request, error: RequestValidationError) -> JSONResponse:
    """400 for a body that is not JSON at all, 422 for JSON that breaks the schema; each fault named."""
    faults = error.errors()
    malformed = any(fault["type"] == "json_invalid" for fault in faults)
    reasons = "; ".join(_reason(fault) for fault in faults[:_REASONS_SHOWN])
    if malformed:
        return error_response(400, reasons, code="invalid_json")
    return error_response(422, reasons, param=_param(faults[0]) if faults else None, code="invalid_value")


async def _http_error(_request: Request, error: HTTPException) -> JSONResponse:
    param, code = (error.param, error.code) if isinstance(error, ParamError) else (None, None)
    return error_response(error.status_code, str(error.detail), error.headers, param=param, code=code)


def register(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_error)
