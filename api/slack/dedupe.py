"""Nothing Slack sends is acted on twice: a retried or repeated event, or a replayed signed request.

Keys are kept in the service's database (`api.storage.SeenKey`, created with the other tables), so
every replica behind one database sees them and a restart forgets none. An insert that collides with a kept
key is the whole test, atomic in SQLite and PostgreSQL alike.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from anyio import to_thread
from slack_bolt.middleware.async_middleware import AsyncMiddleware
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_bolt.response import BoltResponse
from sqlalchemy import Engine, delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker

from api.storage import SeenKey

logger = logging.getLogger("api.slack")

# Slack retries an event three times within about five minutes, and signatures expire after five minutes.
KEEP = timedelta(hours=1)


class SeenKeys:
    def __init__(self, engine: Engine) -> None:
        self._session = sessionmaker(engine)

    def first_time(self, key: str) -> bool:
        """Records the key; False when it was already recorded. Keys older than KEEP are dropped on the way."""
        now = datetime.now(UTC)
        try:
            with self._session.begin() as session:
                session.execute(delete(SeenKey).where(SeenKey.seen < now - KEEP))
                session.add(SeenKey(key=key[:128], seen=now))
        except IntegrityError:
            return False
        return True


class Deduplicate(AsyncMiddleware):
    """Runs after Bolt verified the signature: a replayed request is refused with 401, like a forged one;
    a repeated event (Slack's retries carry the same `event_id`) is acknowledged with 200, so Slack stops
    retrying, and goes no further."""

    def __init__(self, seen: SeenKeys) -> None:
        self.seen = seen

    async def async_process(
        self,
        *,
        req: AsyncBoltRequest,
        resp: BoltResponse,
        next: Callable[[], Awaitable[BoltResponse]],  # Bolt passes it by this name
    ) -> BoltResponse:
        signature = req.headers.get("x-slack-signature", [""])[0]
        if not await to_thread.run_sync(self.seen.first_time, f"signature:{signature}"):
            logger.warning("replayed Slack request refused")
            return BoltResponse(status=401, body={"error": "replayed request"})
        event_id = req.body.get("event_id")
        if event_id and not await to_thread.run_sync(self.seen.first_time, f"event:{event_id}"):
            retry = req.headers.get("x-slack-retry-num", ["0"])[0]
            logger.info(
                "repeated Slack event ignored", extra={"fields": {"event_id": event_id, "retry": retry}}
            )
            return BoltResponse(status=200, body="")
        return await next()
