"""`POST /slack/events` (contract §5): Slack's Events API, slash commands and interactivity on one URL.

No API key and no rate limit: every request must carry Slack's signature instead, checked before Bolt
sees the request (`api.slack.requests`).
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import APIRouter, Request, Response
from slack_bolt.adapter.starlette.async_handler import to_starlette_response
from slack_bolt.async_app import AsyncApp

from api.deps import RuntimeDep
from api.errors import ERROR_JSON, error_response
from api.runtime import Runtime
from api.slack.bolt import build_app
from api.slack.requests import verified_request

logger = logging.getLogger("api.slack")
router = APIRouter(tags=["slack"])

_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"description": "Acknowledged; the answer follows through Slack's Web API or the response_url."},
    400: {"description": "Signed, but not a body Slack sends; `detail` says why.", "content": ERROR_JSON},
    401: {
        "description": "The signature is missing, wrong, older than 5 minutes, or replayed; or the server has "
        "no SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN, so no request can be verified.",
        "content": ERROR_JSON,
    },
}


def _bot(request: Request, runtime: Runtime) -> tuple[AsyncApp, str] | None:
    """The process's Bolt app and the public URL for links, made on the first Slack request; None when
    Slack is not configured."""
    state = request.app.state
    if not hasattr(state, "slack_bot"):
        settings = runtime.settings
        bot = build_app(runtime, settings) if settings.slack_configured else None
        if bot is None:
            logger.warning("Slack request refused: SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN must both be set")
        state.slack_bot = (bot, settings.public_url)
    bot, public_url = state.slack_bot
    return None if bot is None else (bot, public_url or str(request.base_url))


@router.post("/slack/events", responses=_RESPONSES)
async def slack_events(request: Request, runtime: RuntimeDep) -> Response:
    """Slack's requests, verified and acknowledged at once; answers are posted after the acknowledgement."""
    found = _bot(request, runtime)
    if found is None:
        return error_response(401, "the Slack bot is not configured on this server")
    bot, public_url = found
    secret = runtime.settings.slack_signing_secret.get_secret_value()
    bolt_request = await verified_request(request, secret)
    bolt_request.context["public_url"] = public_url
    return to_starlette_response(await bot.async_dispatch(bolt_request))
