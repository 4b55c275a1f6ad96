"""Load test of the HTTP API over loopback: throughput and p50/p95/p99 at 1, 8 and 32 concurrent clients.

Run: .venv/bin/python benchmarks/load.py [--url http://127.0.0.1:8000] [--requests 300] [--seconds 30]
     .venv/bin/python benchmarks/load.py --soak 300      (server memory sampled while 8 clients ask)

Without --url it starts `python -m assistant serve` on a free port, with no rate limit and a throwaway
question log. Every run is bounded by a request count and a time limit and talks to loopback only.
Targets on a 2-core machine: p50 < 40 ms at 1 client, >= 40 answers/s at 8 clients on unique questions,
no errors at 32 clients, steady memory over a 5-minute soak.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import httpx

ROOT = Path(__file__).resolve().parent.parent
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
CONCURRENCY = (1, 8, 32)
MAX_SOAK_SECONDS = 3600

QUESTIONS = [
    "Can I share one GPU between pods?",
    "Does Kubernetes support mean drivers are already installed on GPU nodes?",
    "Is Kubernetes worth it for a single GPU task?",
    "What should I check for multi-node distributed training on Kubernetes?",
    "What is MIG and which GPUs support it?",
    "Why do driver and CUDA versions have to match?",
    "What does the NVIDIA GPU Operator install?",
    "Which providers offer managed Kubernetes with spot GPU nodes?",
    "Kan ik één GPU delen tussen meerdere pods?",
    "Zijn de drivers al geïnstalleerd op GPU-nodes bij Kubernetes-ondersteuning?",
    "Is Kubernetes de moeite waard voor een enkele GPU-taak?",
    "Wat moet ik controleren voor gedistribueerde training over meerdere nodes?",
    "Wat is time-slicing van een GPU?",
    "Waarom moeten de driver en de CUDA-versie bij elkaar passen?",
    "Welke aanbieders hebben beheerde Kubernetes met InfiniBand?",
    "Wat doet de NVIDIA GPU Operator?",
]
# Phrasings around the same questions: every combination is a question the server has not seen, so no
# cache helps, while the words stay the guide's and the share of refusals stays that of the plain set.
_OPENERS = {
    "en": [
        "",
        "Quick question:",
        "For our cluster:",
        "Before we rent GPUs:",
        "In practice:",
        "Roughly:",
        "Hi!",
        "Q:",
    ],
    "nl": [
        "",
        "Korte vraag:",
        "Voor ons cluster:",
        "Voordat we GPU's huren:",
        "In de praktijk:",
        "Grofweg:",
        "Hoi!",
        "V:",
    ],
}
_CLOSERS = {
    "en": [
        "",
        "Thanks.",
        "On Kubernetes.",
        "For inference.",
        "For training.",
        "With GPU nodes.",
        "Briefly?",
        "!",
    ],
    "nl": [
        "",
        "Bedankt.",
        "Op Kubernetes.",
        "Voor inferentie.",
        "Voor training.",
        "Met GPU-nodes.",
        "Kort?",
        "!",
    ],
}


# Spellings that change the text the model embeds, not what is asked.
_SPELLINGS = (str, str.lower, lambda text: text.rstrip("?!."), lambda text: text.lower().rstrip("?!."))


def unique_questions() -> Iterator[str]:
    """4,096 distinct questions, four times the assistant's cache of query embeddings, cycling through the
    topics so every stretch of a run asks a mix of them."""
    variants = itertools.product(range(len(_OPENERS["en"])), range(len(_CLOSERS["en"])), _SPELLINGS)
    for opener, closer, spelling in variants:
        for number, question in enumerate(QUESTIONS):
            language = "en" if number < len(QUESTIONS) // 2 else "nl"
            parts = (_OPENERS[language][opener], question, _CLOSERS[language][closer])
            yield spelling(" ".join(part for part in parts if part))


@dataclass
class Run:
    """The outcome of one load level."""

    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    refused: int = 0
    seconds: float = 0.0

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1

    def line(self, label: str) -> str:
        done = len(self.latencies)
        if done < 2:
            return f"{label:<22} {done} answers, errors {self.errors or 0}"
        cuts = statistics.quantiles(self.latencies, n=100)
        return (
            f"{label:<22} {done:>5} answers {done / self.seconds:>7.1f}/s   p50 {cuts[49] * 1000:6.1f} ms"
            f"   p95 {cuts[94] * 1000:6.1f} ms   p99 {cuts[98] * 1000:6.1f} ms"
            f"   refused {self.refused / done:4.0%}   errors {sum(self.errors.values())}"
            + (f" {self.errors}" if self.errors else "")
        )


async def load(url: str, questions: Iterator[str], clients: int, requests: int, seconds: float) -> Run:
    """`clients` connections asking in a loop until `requests` answers or `seconds` have passed."""
    run = Run()
    budget = itertools.count()
    deadline = time.perf_counter() + seconds
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)

    async def client(http: httpx.AsyncClient) -> None:
        while next(budget) < requests and time.perf_counter() < deadline:
            started = time.perf_counter()
            try:
                response = await http.post("/v1/ask", json={"question": next(questions)})
            except httpx.HTTPError as error:
                run.error(type(error).__name__)
                continue
            if response.status_code != 200:
                run.error(str(response.status_code))
                continue
            run.latencies.append(time.perf_counter() - started)
            run.refused += response.json()["refused"]

    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as http:
        started = time.perf_counter()
        await asyncio.gather(*(client(http) for _ in range(clients)))
        run.seconds = time.perf_counter() - started
    return run


def resident_bytes(url: str) -> int:
    """The server's RSS, as its own /metrics reports it (works for a server this script did not start)."""
    text = httpx.get(f"{url}/metrics", timeout=10).text
    match = re.search(r"^process_resident_memory_bytes (\S+)$", text, re.MULTILINE)
    if not match:
        raise RuntimeError("the server's /metrics has no process_resident_memory_bytes")
    return int(float(match.group(1)))


async def soak(url: str, seconds: float) -> None:
    """8 clients on unique questions for `seconds`, the server's RSS sampled about 30 times; the questions
    cycle through a set larger than the cache of query embeddings, so every answer embeds its question."""
    interval = max(5.0, seconds / 30)
    questions = itertools.cycle(list(unique_questions()))
    samples: list[tuple[float, int]] = []
    started = time.perf_counter()
    task = asyncio.create_task(load(url, questions, 8, sys.maxsize, seconds))
    while not task.done():
        samples.append((time.perf_counter() - started, await asyncio.to_thread(resident_bytes, url)))
        print(f"  {samples[-1][0]:6.0f} s  RSS {samples[-1][1] / 2**20:7.1f} MiB", flush=True)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(task), interval)
    print(task.result().line("soak, 8 clients"))
    settled = samples[len(samples) // 5 :] or samples  # the first fifth is warm-up: caches fill, then stay
    growth = (settled[-1][1] - settled[0][1]) / 2**20
    print(
        f"RSS after warm-up {settled[0][1] / 2**20:.1f} MiB -> end {settled[-1][1] / 2**20:.1f} MiB "
        f"({growth:+.1f} MiB), peak {max(rss for _, rss in samples) / 2**20:.1f} MiB"
    )


async def levels(url: str, requests: int, seconds: float) -> None:
    """Warm the server up, then every concurrency level on unique and on repeated questions."""
    await load(url, itertools.cycle(QUESTIONS), 2, 40, seconds)
    unique = unique_questions()
    for mode in ("unique", "repeated"):
        for clients in CONCURRENCY:
            questions = unique if mode == "unique" else itertools.cycle(QUESTIONS)
            run = await load(url, questions, clients, requests, seconds)
            print(run.line(f"{mode}, {clients} clients"), flush=True)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_ready(
    process: subprocess.Popen[bytes], probe: Callable[[], object], seconds: float, log: Path
) -> None:
    """Until `probe` gets an answer without an HTTP error; a process that exits or takes too long is an error."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args[:4]} exited; see {log}")
        with contextlib.suppress(httpx.HTTPError):
            probe()
            return
        time.sleep(0.3)
    raise RuntimeError(f"{process.args[:4]} was not ready within {seconds:.0f} s; see {log}")


@dataclass
class LocalServer:
    url: str
    pid: int


@contextlib.contextmanager
def local_server(workdir: Path, workers: int) -> Iterator[LocalServer]:
    """`python -m assistant serve` on a free loopback port, stopped (by its own pid) on the way out."""
    port = free_port()
    env = os.environ | {"ASSISTANT_RATE_LIMIT": "0", "ASSISTANT_DATA_DIR": str(workdir / "data")}
    log = (workdir / "server.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "assistant", "serve", "--port", str(port), "--workers", str(workers)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=log,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_ready(
            server,
            lambda: httpx.get(f"{url}/readyz", timeout=2).raise_for_status(),
            300,
            workdir / "server.log",
        )
        yield LocalServer(url, server.pid)
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", help="a running server on loopback; default: start one")
    parser.add_argument("--requests", type=int, default=300, help="answers per level (default 300)")
    parser.add_argument("--seconds", type=float, default=30, help="time limit per level (default 30)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes of the server it starts")
    parser.add_argument(
        "--soak", type=float, metavar="SECONDS", help="instead of the levels, a soak this long"
    )
    args = parser.parse_args()
    if args.url and urlsplit(args.url).hostname not in LOOPBACK:
        parser.error("--url must be a loopback address (127.0.0.1, localhost or ::1)")
    if args.soak is not None and not 0 < args.soak <= MAX_SOAK_SECONDS:
        parser.error(f"--soak takes 1 to {MAX_SOAK_SECONDS} seconds")

    with tempfile.TemporaryDirectory(prefix="assistant-load-") as workdir, contextlib.ExitStack() as stack:
        url = (
            args.url.rstrip("/")
            if args.url
            else stack.enter_context(local_server(Path(workdir), args.workers)).url
        )
        print(f"server {url}, {os.cpu_count()} CPUs", flush=True)
        asyncio.run(soak(url, args.soak) if args.soak else levels(url, args.requests, args.seconds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
