"""Every error leaves as `{"detail": reason, "request_id": id}`; nothing of the server's insides goes with it."""

from __future__ import annotations

from typing import Any

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


def error_response(status: int, detail: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(
        {"detail": detail, "request_id": request_id.get()}, status_code=status, headers=headers
    )


def internal_error() -> JSONResponse:
    return error_response(500, "internal error; quote the request id when you report it")


def _reason(error: dict[str, Any]) -> str:
    if error["type"] == "json_invalid":
        return f"malformed JSON: {error.get('ctx', {}).get('error', 'cannot be parsed')}"
    location = ".".join(str(part) for part in error["loc"][1:]) or str(error["loc"][0])
    message = NOT_TEXT if error["type"] == "string_unicode" else error["msg"].removeprefix("Value error, ")
    return f"{location}: {message}"


async def _validation_error(_request: Request, error: RequestValidationError) -> JSONResponse:
    """400 for a body that is not JSON at all, 422 for JSON that breaks the schema; each fault named."""
    faults = error.errors()
    status = 400 if any(fault["type"] == "json_invalid" for fault in faults) else 422
    return error_response(status, "; ".join(_reason(fault) for fault in faults[:_REASONS_SHOWN]))


async def _http_error(_request: Request, error: HTTPException) -> JSONResponse:
    return error_response(error.status_code, str(error.detail), error.headers)


def register(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_error)
