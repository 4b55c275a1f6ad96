"""`POST /slack/events` (contract §5): Slack's Events API, slash commands and interactivity on one URL.

No API key and no rate limit: every request must carry Slack's signature instead, which Bolt checks.
"""

from __future__ import annotations

import logging

from fastapi import APIRouter, Request, Response
from slack_bolt.adapter.fastapi.async_handler import AsyncSlackRequestHandler

from api.deps import RuntimeDep
from api.errors import error_response
from api.runtime import Runtime
from api.slack.bolt import build_handler

logger = logging.getLogger("api.slack")
router = APIRouter(tags=["slack"])

_RESPONSES: dict[int | str, dict[str, str]] = {
    200: {"description": "Acknowledged; the answer follows through Slack's Web API or the response_url."},
    401: {
        "description": "The signature is missing, wrong, older than 5 minutes, or replayed; or the server has "
        "no SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN, so no request can be verified."
    },
}


def _handler(request: Request, runtime: Runtime) -> tuple[AsyncSlackRequestHandler, str] | None:
    """The app's Bolt handler and the public URL for links, made on the first Slack request; None when
    Slack is not configured."""
    state = request.app.state
    if not hasattr(state, "slack_bot"):
        settings = runtime.settings
        handler = build_handler(runtime, settings) if settings.slack_configured else None
        if handler is None:
            logger.warning("Slack request refused: SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN must both be set")
        state.slack_bot = (handler, settings.public_url)
    handler, public_url = state.slack_bot
    return None if handler is None else (handler, public_url or str(request.base_url))


@router.post("/slack/events", responses=_RESPONSES)
async def slack_events(request: Request, runtime: RuntimeDep) -> Response:
    """Slack's requests, verified and acknowledged at once; answers are posted after the acknowledgement."""
    found = _handler(request, runtime)
    if found is None:
        return error_response(401, "the Slack bot is not configured on this server")
    handler, public_url = found
    return await handler.handle(request, addition_context_properties={"public_url": public_url})
