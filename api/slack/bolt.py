"""The Bolt app of one service process: verified, deduplicated, and able to start without any network.

Bolt's default single-workspace setup calls Slack's `auth.test` on the first request; the app's own
`authorize` hands Bolt the configured bot token instead, so nothing calls Slack until there is an answer to
post.
"""

from __future__ import annotations

from slack_bolt.async_app import AsyncApp
from slack_bolt.authorization import AuthorizeResult
from slack_sdk.web.async_client import AsyncWebClient

from api.runtime import Runtime
from api.slack.answering import Answering
from api.slack.dedupe import Deduplicate, SeenKeys
from api.slack.listeners import Listeners
from assistant.config import Settings


def build_app(runtime: Runtime, settings: Settings) -> AsyncApp:
    """Bolt's signature check (5-minute window) runs first, then the deduplication, then the listeners."""
    token = settings.slack_bot_token.get_secret_value()

    async def authorize(enterprise_id: str | None, team_id: str | None) -> AuthorizeResult:
        return AuthorizeResult(enterprise_id=enterprise_id, team_id=team_id, bot_token=token)

    app = AsyncApp(
        name="gpu-guide",
        signing_secret=settings.slack_signing_secret.get_secret_value(),
        client=AsyncWebClient(base_url=settings.slack_api_url.rstrip("/") + "/"),
        authorize=authorize,
        before_authorize=Deduplicate(SeenKeys(runtime.store.engine)),
    )
    Listeners(Answering(runtime)).register(app)
    return app
