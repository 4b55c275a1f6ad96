"""Prints the core's figures: index build cold and unchanged, model load, answer latency, peak memory.

Run: .venv/bin/python benchmarks/answer.py   (index times include starting Python; targets on a 2-core machine: answer p50 < 30 ms warm,
cold build < 60 s, unchanged re-index < 2 s, RSS < 1.5 GB). A follow-up is timed after its earlier question's own
answer, as the widget sends it.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from langchain_chroma import Chroma

from assistant.config import Settings
from assistant.embeddings import get_embeddings
from assistant.models import Turn
from assistant.service import Assistant
from assistant.store import chroma_client

QUESTIONS = [
    "can I share one GPU between pods?",
    "Kan ik meer dan één werkbelasting per GPU draaien op Kubernetes?",
    "Does Kubernetes support mean drivers are already installed on GPU nodes?",
    "is kubernetes worth it for a single gpu job",
    "Wat moet ik controleren voor multi-node gedistribueerde training?",
    "why do idle GPU nodes cost money?",
    "what is MIG?",
    "wat doet de GPU Operator?",
    "which providers offer managed Kubernetes with MIG?",
    "How do I configure PostgreSQL replication?",
]
# Conversations as the widget sends them: the follow-up comes with the question before it and its answer.
FOLLOW_UPS = [
    ("why do my gpu pods crash right after they get scheduled", "can the gpu operator help with that?"),
    ("wat moet ik controleren voor multi-node training?", "en wat gebeurt er als ik dat niet heb?"),
    ("what is time-slicing?", "and what are its downsides?"),
    ("which providers offer managed Kubernetes with MIG?", "and which of those have spot nodes?"),
    ("is k8s worth it for one notebook", "and when is it worth it?"),
]
ROUNDS = 20


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def _timed(call) -> float:
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000


def _index_seconds(index_dir: Path) -> float:
    """`python -m assistant index` as a person runs it, in a process of its own."""
    environment = {**os.environ, "ASSISTANT_INDEX_DIR": str(index_dir)}
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "assistant", "index"], env=environment, check=True, capture_output=True
    )
    return time.perf_counter() - started


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(index_dir=Path(folder) / "index")
        cold = _index_seconds(settings.index_dir)
        unchanged = _index_seconds(settings.index_dir)
        load_ms = _timed(lambda: get_embeddings(settings).embed_query("warm up"))
        assistant = Assistant.from_settings(settings)
        for question in QUESTIONS:  # warm the caches a server would have warm
            assistant.ask(question)
        answer_ms = [_timed(lambda q=q: assistant.ask(q)) for _ in range(ROUNDS) for q in QUESTIONS]
        unique_ms = [
            _timed(lambda i=i, q=q: assistant.ask(f"{q} ({i})")) for i in range(3) for q in QUESTIONS
        ]
        follow_up_ms = []
        for earlier, follow_up in FOLLOW_UPS:
            history = [
                Turn(role="user", content=earlier),
                Turn(role="assistant", content=assistant.ask(earlier).answer),
            ]
            follow_up_ms += [
                _timed(lambda q=f"{follow_up} ({i})", h=history: assistant.ask(q, history=h))
                for i in range(3)
            ]
        store = Chroma(
            client=chroma_client(settings),
            collection_name=assistant.knowledge.collection,
            embedding_function=get_embeddings(settings),
        )
        plain_ms = [
            _timed(lambda i=i, q=q: store.similarity_search(f"{q} ({i})", k=3))
            for i in range(3)
            for q in QUESTIONS
        ]

    p50 = statistics.median(answer_ms)
    print(f"model load            {load_ms:8.1f} ms")
    documents = len(assistant.knowledge.passages)
    print(f"index build, cold     {cold:8.2f} s   (python -m assistant index; {documents} passages)")
    print(f"index build, unchanged{unchanged:8.2f} s")
    print(f"answer, warm          p50 {p50:6.1f} ms   p95 {_percentile(answer_ms, 0.95):6.1f} ms")
    print(
        f"answer, new question  p50 {statistics.median(unique_ms):6.1f} ms   p95 {_percentile(unique_ms, 0.95):6.1f} ms"
    )
    print(
        f"follow-up, new, after its answer  p50 {statistics.median(follow_up_ms):6.1f} ms"
        f"   p95 {_percentile(follow_up_ms, 0.95):6.1f} ms"
    )
    plain = statistics.median(plain_ms)
    print(f"Chroma similarity_search(k=3), new query  p50 {plain:6.1f} ms")
    print(f"ratio new-question answer / similarity_search  {statistics.median(unique_ms) / plain:5.2f}")
    print(f"peak RSS              {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:8.0f} MB")


if __name__ == "__main__":
    main()
