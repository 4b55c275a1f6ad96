"""Our service against the textbook pipeline, over HTTP, one client, the same new questions alternately.

Run: .venv/bin/python benchmarks/ratio.py [--questions 300] [--profile profile.txt]

Starts `python -m assistant serve` (as benchmarks/load.py does) and benchmarks/textbook.py (split, the same
e5 model, LangChain's Chroma `similarity_search(k=3)`, top chunk, Python's `http.server`), then sends each
question to one and the other in turn, so that both see the machine in the same state. Prints p50 and p95 of
both and their ratios (target: p50 ratio <= 1.00, p95 ratio <= 1.30). With --profile, py-spy samples the
service during the run (every thread, native frames off) and the busiest functions are printed with their
share of the samples; the raw stacks go to the file, for speedscope or flamegraph.pl.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
from load import ROOT, free_port, local_server, unique_questions, wait_until_ready

WARM_UP = 20


@contextlib.contextmanager
def textbook_server(workdir: Path) -> Iterator[str]:
    port = free_port()
    log = (workdir / "textbook.log").open("w")
    command = [sys.executable, str(ROOT / "benchmarks" / "textbook.py"), "--port", str(port)]
    server = subprocess.Popen(
        [*command, "--store", str(workdir / "textbook")], cwd=ROOT, stdout=log, stderr=log
    )
    url = f"http://127.0.0.1:{port}"

    def answers() -> None:
        httpx.post(f"{url}/v1/ask", json={"question": "warm up"}, timeout=5).raise_for_status()

    try:
        wait_until_ready(server, answers, 600, workdir / "textbook.log")
        yield url
    finally:
        server.terminate()
        server.wait(15)
        log.close()


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


@contextlib.contextmanager
def profiled(pid: int, output: Path | None) -> Iterator[None]:
    """py-spy on the service while the block runs; nothing when no output file is given."""
    if output is None:
        yield
        return
    spy = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "py-spy"),
            "record",
            "--pid",
            str(pid),
            "--format",
            "raw",
            "--rate",
            "250",
            "--output",
            str(output),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1.0)  # py-spy attaches before the first measured question
    try:
        yield
    finally:
        spy.send_signal(2)  # SIGINT: py-spy writes what it sampled and exits
        spy.wait(60)


def busiest_functions(stacks: Path, top: int = 25) -> list[tuple[str, float]]:
    """Each function's share of all samples in which it was on the stack (inclusive time)."""
    inclusive: Counter[str] = Counter()
    total = 0
    for line in stacks.read_text().splitlines():
        frames, _, count = line.rpartition(" ")
        if not frames:
            continue
        total += int(count)
        for frame in set(frames.split(";")):
            inclusive[frame] += int(count)
    return [(frame, count / total) for frame, count in inclusive.most_common(top)]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--questions", type=int, default=300, help="new questions asked of each (default 300)"
    )
    parser.add_argument("--profile", type=Path, help="sample the service with py-spy into this file")
    arguments = parser.parse_args()
    questions = itertools.islice(unique_questions(), WARM_UP + arguments.questions)
    timings: dict[str, list[float]] = {"service": [], "textbook": []}
    with tempfile.TemporaryDirectory(prefix="assistant-ratio-") as folder, contextlib.ExitStack() as stack:
        workdir = Path(folder)
        service = stack.enter_context(local_server(workdir, workers=1))
        urls = {"service": service.url, "textbook": stack.enter_context(textbook_server(workdir))}
        clients = {
            name: stack.enter_context(httpx.Client(base_url=url, timeout=30)) for name, url in urls.items()
        }
        print(f"{os.cpu_count()} CPUs; service {urls['service']}, textbook {urls['textbook']}", flush=True)
        for _ in range(WARM_UP):
            question = next(questions)
            for client in clients.values():
                client.post("/v1/ask", json={"question": question}).raise_for_status()
        with profiled(service.pid, arguments.profile):
            for question in questions:
                for name, client in clients.items():
                    started = time.perf_counter()
                    client.post("/v1/ask", json={"question": question}).raise_for_status()
                    timings[name].append((time.perf_counter() - started) * 1000)
    for name, values in timings.items():
        p50, p95 = statistics.median(values), _percentile(values, 0.95)
        print(f"{name:<9} p50 {p50:6.1f} ms   p95 {p95:6.1f} ms   ({len(values)} new questions)")
    ratio_p50 = statistics.median(timings["service"]) / statistics.median(timings["textbook"])
    ratio_p95 = _percentile(timings["service"], 0.95) / _percentile(timings["textbook"], 0.95)
    print(f"ratio     p50 {ratio_p50:.2f}   p95 {ratio_p95:.2f}   (targets <= 1.00 and <= 1.30)")
    if arguments.profile:
        print(
            f"Busiest functions in the service (share of samples on the stack; raw stacks: {arguments.profile}):"
        )
        for frame, share in busiest_functions(arguments.profile):
            print(f"  {share:6.1%}  {frame}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
