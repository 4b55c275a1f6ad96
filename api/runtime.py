"""What one server process shares between requests: the settings, one assistant, the store, the rate limit."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from anyio import to_thread

from api.ratelimit import RateLimiter
from api.storage import Store
from assistant.config import Settings

if TYPE_CHECKING:  # the model's libraries load with the assistant, not when this module is imported, so
    from assistant.service import Assistant  # `python -m assistant mcp` answers its client at once

logger = logging.getLogger("api")

Loader = Callable[[Settings], "Assistant"]
READY_WAIT_SECONDS = 30.0  # a request that arrives while the model loads waits rather than fails

# One question per language: loads the language detector's models and warms the caches before traffic.
_WARM_UP = ("Can I share one GPU between pods?", "Kan ik één GPU delen tussen pods?")


def load_assistant(settings: Settings) -> Assistant:
    """The model and the index, loaded once, already past the slow first answer."""
    from assistant.service import Assistant

    assistant = Assistant.from_settings(settings)
    for question in _WARM_UP:
        assistant.ask(question)
    return assistant


def split_list(value: str) -> list[str]:
    """A comma-separated setting as its items."""
    return [item.strip() for item in value.split(",") if item.strip()]


class Runtime:
    """Loads the assistant in the background so the process answers /healthz and /readyz meanwhile."""

    def __init__(self, settings: Settings, store: Store, loader: Loader = load_assistant) -> None:
        self.settings = settings
        self.store = store
        self.api_keys = frozenset(split_list(settings.api_keys))
        self.limiter = RateLimiter(settings.rate_limit) if settings.rate_limit else None
        self.assistant: Assistant | None = None
        self.failed = False
        self._loader = loader
        self._done = asyncio.Event()

    async def load(self) -> None:
        """Runs the loader in a worker thread; a failure is logged and leaves the process unready."""
        try:
            self.assistant = await to_thread.run_sync(self._loader, self.settings)
            logger.info("assistant loaded")
        except Exception:
            self.failed = True
            logger.exception("the assistant failed to load")
        finally:
            self._done.set()

    async def ready_assistant(self, timeout: float) -> Assistant | None:
        """The assistant, waiting up to `timeout` seconds for it to finish loading."""
        if self._done.is_set():
            return self.assistant
        try:
            await asyncio.wait_for(self._done.wait(), timeout)
        except TimeoutError:
            return None
        return self.assistant
