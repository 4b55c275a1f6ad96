"""Real `python -m assistant serve` processes on 127.0.0.1, shared by the API, Slack and widget tiers."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from assistant.config import PROJECT_ROOT

_READY_TIMEOUT = 600  # the first start embeds the whole corpus


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    data_dir: Path
    log: Path

    def stop(self, sig: signal.Signals = signal.SIGTERM) -> None:
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(root: Path, data_dir: Path, workers: int = 1, **settings: str) -> Server:
    """A server on a free port with these settings (`rate_limit="5"` is ASSISTANT_RATE_LIMIT, upper-case
    names are taken as they are), nothing inherited from ASSISTANT_* or SLACK_*, ready to answer."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("ASSISTANT_", "SLACK_"))}
    env |= {"ASSISTANT_INDEX_DIR": str(root / "index"), "ASSISTANT_DATA_DIR": str(data_dir)}
    env |= {"ASSISTANT_RATE_LIMIT": "0"}
    env |= {key if key.isupper() else f"ASSISTANT_{key.upper()}": value for key, value in settings.items()}
    port = free_port()
    data_dir.mkdir(parents=True, exist_ok=True)
    log = data_dir / f"server-{port}.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "assistant", "serve", "--port", str(port), "--workers", str(workers)],
            cwd=PROJECT_ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    server = Server(f"http://127.0.0.1:{port}", process, data_dir, log)
    deadline = time.monotonic() + _READY_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the server exited with {process.returncode}:\n{log.read_text()[-3000:]}")
        try:
            if httpx.get(f"{server.url}/readyz", timeout=2).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    server.stop()
    pytest.fail(f"the server was not ready within {_READY_TIMEOUT} s:\n{log.read_text()[-3000:]}")
