"""`python -m assistant serve`: prepare the index and the database once, then serve with uvicorn."""

from __future__ import annotations

import atexit
import logging
import logging.config
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import uvicorn

from api.logs import log_config
from api.storage import Store
from assistant.config import Settings, get_settings
from assistant.embeddings import available_cores

logger = logging.getLogger("api")


def build_index() -> None:
    """`python -m assistant index` in a child process: idempotent, and its memory is returned when done."""
    result = subprocess.run([sys.executable, "-m", "assistant", "index"], capture_output=True, text=True)
    if result.returncode != 0:
        logger.error("building the index failed", extra={"fields": {"output": result.stderr.strip()[-4000:]}})
        raise SystemExit(result.returncode)
    logger.info(result.stdout.strip())


def _share_between_workers(workers: int, settings: Settings) -> None:
    """Settings the workers inherit: a share of the cores each, and one folder for their metrics."""
    if settings.embedding_threads is None:
        # Each worker runs an engine of its own: together they use the cores once, not once each.
        os.environ["ASSISTANT_EMBEDDING_THREADS"] = str(max(1, available_cores() // workers))
    metrics_dir = Path(tempfile.mkdtemp(prefix="assistant-metrics-"))
    atexit.register(shutil.rmtree, metrics_dir, ignore_errors=True)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(metrics_dir)


def serve(host: str = "127.0.0.1", port: int = 8000, workers: int = 1) -> None:
    """Build the index when it is missing or stale and create the tables, before any worker starts (so
    workers only read and never race to build), then serve; each worker loads the model once. With a
    shared Chroma server, run `python -m assistant index` once before starting replicas."""
    config = log_config()
    logging.config.dictConfig(config)
    build_index()
    settings = get_settings()
    Store.from_settings(settings).close()
    if workers > 1:
        _share_between_workers(workers, settings)
    uvicorn.run(
        "api.app:create_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_config=config,
        access_log=False,  # api.middleware writes one access line per request, with its request id
        # Forwarded headers only from the configured proxies: uvicorn's default trusts loopback, where anyone
        # on the host, or a client talking to a proxy that passes the header on, could pick their address.
        proxy_headers=bool(settings.trusted_proxies),
        forwarded_allow_ips=settings.trusted_proxies,
        # Slow or greedy clients: a deadline for headers (the protocol), a bound on their size, on idle
        # connections and on how much one process takes on; the body's deadline is the app's (api.bodies).
        http="api.protocol:GuardedHttpToolsProtocol",
        timeout_keep_alive=settings.keep_alive_seconds,
        limit_concurrency=settings.max_concurrency,
        timeout_graceful_shutdown=10,
    )
