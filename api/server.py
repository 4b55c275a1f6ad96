"""`python -m assistant serve`: prepare the index and the database once, then serve with uvicorn."""

from __future__ import annotations

import logging
import logging.config
import subprocess
import sys

import uvicorn

from api.logs import log_config
from api.storage import Store
from assistant.config import get_settings

logger = logging.getLogger("api")


def build_index() -> None:
    """`python -m assistant index` in a child process: idempotent, and its memory is returned when done."""
    result = subprocess.run([sys.executable, "-m", "assistant", "index"], capture_output=True, text=True)
    if result.returncode != 0:
        logger.error("building the index failed", extra={"fields": {"output": result.stderr.strip()[-4000:]}})
        raise SystemExit(result.returncode)
    logger.info(result.stdout.strip())


def serve(host: str = "127.0.0.1", port: int = 8000, workers: int = 1) -> None:
    """Build the index when it is missing or stale and create the tables, before any worker starts (so
    workers only read and never race to build), then serve; each worker loads the model once. With a
    shared Chroma server, run `python -m assistant index` once before starting replicas."""
    config = log_config()
    logging.config.dictConfig(config)
    build_index()
    Store.from_settings(get_settings()).close()
    uvicorn.run(
        "api.app:create_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_config=config,
        access_log=False,  # api.middleware writes one access line per request, with its request id
        timeout_graceful_shutdown=10,
    )
