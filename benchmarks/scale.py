"""How the answer path grows with the corpus: the guide inside a haystack of 1k, 10k and 100k passages.

Run: .venv/bin/python benchmarks/scale.py [--sizes 1000 10000 100000]

The haystack is the active index plus generated price-catalog passages in both languages (providers, GPU
models, regions, prices and features in the guide's own words, so they compete with the guide for its
questions), searched like the guide's own passages. Per size it prints: the build (embedding the generated
passages and writing them to a Chroma collection), the load (the retriever's indexes and the question
classifiers), `Assistant.ask` p50/p95 on new questions, the process's RSS, and the hit@1 of the guide's
FAQ questions (the first citation of the answer is the FAQ's section), which must not fall as it grows.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import chromadb
import numpy as np
from langchain_core.documents import Document

from assistant.chunking import PASSAGE
from assistant.config import Settings
from assistant.embeddings import get_embeddings
from assistant.knowledge import KnowledgeBase, Paragraph, load_knowledge
from assistant.service import Assistant
from evals.cases import DATA_DIR, load_cases

QUESTIONS = [
    "can I share one GPU between pods?",
    "Kan ik meer dan één werkbelasting per GPU draaien op Kubernetes?",
    "is kubernetes worth it for a single gpu job",
    "why do idle GPU nodes cost money?",
    "what is MIG?",
    "wat doet de GPU Operator?",
    "which providers offer managed Kubernetes with MIG?",
    "How do I configure PostgreSQL replication?",
]
EMBED_BATCH = 64
CHROMA_BATCH = 4096

_PROVIDERS = ["Acme Cloud", "Nimbus GPU", "Polder Compute", "Fjord AI", "Kumo", "Helix", "Tundra", "Sirocco"]
_GPUS = ["H100", "H200", "A100 80GB", "L4", "L40S", "A10", "MI300X", "RTX 6000 Ada", "B200"]
_REGIONS = ["eu-west", "eu-central", "us-east", "us-west", "ap-southeast", "ap-northeast"]
_FEATURES = {
    "en": [
        "managed Kubernetes with GPU node pools",
        "bare GPU VMs for your own cluster",
        "spot capacity that can be reclaimed",
        "MIG partitions",
        "time-slicing through the device plugin",
        "InfiniBand between nodes",
        "drivers preinstalled by the GPU Operator",
        "node pools that scale to zero",
        "NVMe local storage",
        "per-second billing",
    ],
    "nl": [
        "beheerde Kubernetes met GPU-nodepools",
        "kale GPU-VM's voor uw eigen cluster",
        "spotcapaciteit die kan worden teruggenomen",
        "MIG-partities",
        "time-slicing via de device plugin",
        "InfiniBand tussen nodes",
        "drivers vooraf geïnstalleerd door de GPU Operator",
        "nodepools die naar nul schalen",
        "lokale NVMe-opslag",
        "facturering per seconde",
    ],
}
_TEMPLATES = {
    "en": "{provider} offer {number}: {count}x {gpu} in {region} at {price} USD per GPU-hour, with {a} and {b}.",
    "nl": "{provider} aanbod {number}: {count}x {gpu} in {region} voor {price} USD per GPU-uur, met {a} en {b}.",
}


def catalog_offers(count: int, seed: int = 11) -> list[dict[str, str]]:
    """`count` generated offers, each in English and in Dutch (one paragraph, two passages)."""
    generator = random.Random(seed)
    offers = []
    for number in range(count):
        first, second = generator.sample(range(len(_FEATURES["en"])), 2)
        facts = {
            "provider": generator.choice(_PROVIDERS),
            "number": number,
            "count": generator.choice((1, 2, 4, 8)),
            "gpu": generator.choice(_GPUS),
            "region": generator.choice(_REGIONS),
            "price": f"{generator.uniform(0.3, 9.0):.2f}",
        }
        offers.append(
            {
                language: template.format(
                    **facts, a=_FEATURES[language][first], b=_FEATURES[language][second]
                )
                for language, template in _TEMPLATES.items()
            }
        )
    return offers


def build(texts: list[str], settings: Settings, folder: Path, dimensions: int) -> np.ndarray:
    """Embed the passages and write them to a Chroma collection, as an index build does."""
    if not texts:
        return np.empty((0, dimensions), dtype=np.float32)
    embeddings = get_embeddings(settings)
    vectors = np.asarray(
        [
            v
            for start in range(0, len(texts), EMBED_BATCH)
            for v in embeddings.embed_documents(texts[start : start + EMBED_BATCH])
        ],
        dtype=np.float32,
    )
    collection = chromadb.PersistentClient(path=str(folder)).create_collection(
        "haystack", metadata={"hnsw:space": "cosine"}, embedding_function=None
    )
    for start in range(0, len(texts), CHROMA_BATCH):
        end = start + CHROMA_BATCH
        collection.add(
            ids=[f"passage-{number}" for number in range(start, min(end, len(texts)))],
            documents=texts[start:end],
            embeddings=vectors[start:end],
        )
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def grown(knowledge: KnowledgeBase, offers: list[dict[str, str]], vectors: np.ndarray) -> KnowledgeBase:
    """The knowledge base with the offers added, each a one-sentence paragraph of its own section;
    `vectors` holds their passages in the order of `passages_of(offers)`."""
    documents, paragraphs = list(knowledge.passages), dict(knowledge.paragraphs)
    rows = iter(vectors)
    for number, offer in enumerate(offers):
        section = f"catalog-{number}"
        paragraph = paragraphs[(section, 0)] = Paragraph((section, 0), "section")
        for language, text in offer.items():
            metadata = {
                "granularity": PASSAGE,
                "kind": "section",
                "section_id": section,
                "paragraph": 0,
                "language": language,
                "title": "Price catalog",
                "url": f"/catalog/{language}#{section}",
            }
            documents.append(Document(page_content=text, metadata=metadata, id=f"{section}-{language}"))
            paragraph.titles[language] = metadata["title"]
            paragraph.urls[language] = metadata["url"]
            paragraph.sentences[language] = [text]
            paragraph.vectors[language] = next(rows)[None, :]
    return replace(
        knowledge,
        passages=documents,
        paragraphs=paragraphs,
        passage_vectors=np.vstack([knowledge.passage_vectors, vectors]),
    )


def passages_of(offers: list[dict[str, str]]) -> list[str]:
    return [text for offer in offers for text in offer.values()]


def resident_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def faq_hit_at_1(assistant: Assistant) -> float:
    faqs = [case for case in load_cases(DATA_DIR) if case.category == "faq"]
    hits = 0
    for case in faqs:
        citations = assistant.ask(case.question).citations
        hits += bool(citations) and citations[0].section_id in case.relevant_sections
    return hits / len(faqs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument(
        "--cache",
        type=Path,
        help="a folder that keeps the generated passages' vectors: a later run with the same sizes skips the"
        " build (printed as 'cached') and measures the load and the questions alone",
    )
    arguments = parser.parse_args()
    settings = Settings()
    base = load_knowledge(settings)
    print(f"the index: {len(base.passages)} passages; RSS {resident_mb():.0f} MB")
    print(
        f"{'passages':>9} {'build':>9} {'load':>7} {'ask p50':>9} {'ask p95':>9} {'RSS':>8} {'FAQ hit@1':>10}"
    )
    for size in arguments.sizes:
        offers = catalog_offers(max(0, size - len(base.passages)) // 2)
        cached = arguments.cache / f"vectors-{size}.npy" if arguments.cache else None
        if cached and cached.exists():
            vectors, built = np.load(cached), None
        else:
            with tempfile.TemporaryDirectory(prefix="assistant-scale-") as folder:
                started = time.perf_counter()
                vectors = build(passages_of(offers), settings, Path(folder), base.passage_vectors.shape[1])
                built = time.perf_counter() - started
            if cached:
                cached.parent.mkdir(parents=True, exist_ok=True)
                np.save(cached, vectors)
        started = time.perf_counter()
        assistant = Assistant(settings, grown(base, offers, vectors))
        loaded = time.perf_counter() - started
        hit_at_1 = faq_hit_at_1(assistant)
        timings = []
        for round_number in range(5):
            for question in QUESTIONS:
                started = time.perf_counter()
                assistant.ask(f"{question} ({size}.{round_number})")
                timings.append((time.perf_counter() - started) * 1000)
        timings.sort()
        print(
            f"{len(assistant.knowledge.passages):>9,} {'cached' if built is None else f'{built:.1f}s':>9}"
            f" {loaded:>6.1f}s"
            f" {statistics.median(timings):>7.1f}ms {timings[int(0.95 * (len(timings) - 1))]:>7.1f}ms"
            f" {resident_mb():>6.0f}MB {hit_at_1:>10.2f}",
            flush=True,
        )
        del assistant


if __name__ == "__main__":
    main()
