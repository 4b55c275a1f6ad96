"""`python -m assistant index`: build the vector index from the corpus, idempotent and atomic."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from assistant.chunking import build_documents, embedding_text
from assistant.config import Settings
from assistant.embeddings import embed_queries, get_embeddings, model_id
from assistant.store import COLLECTION_PREFIX, activate, active_collection, chroma_client, collection_names
from assistant.understanding.bank import QUESTION, bank_documents

# Bump when chunking or embedded text changes, so an old index is rebuilt.
INDEX_FORMAT = "3"
_BATCH = 64

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class IndexReport:
    status: str  # "built" or "unchanged"
    collection: str
    documents: int
    seconds: float


def fingerprint(documents: list[Document], model: str) -> str:
    """Changes whenever the indexed text, its metadata, the model or the index format changes."""
    digest = hashlib.sha256(f"{INDEX_FORMAT}\n{model}\n".encode())
    for document in documents:
        digest.update(
            json.dumps([document.id, document.page_content, document.metadata], sort_keys=True).encode()
        )
    return digest.hexdigest()


def index_documents(settings: Settings) -> list[Document]:
    """The corpus's passages and sentences, and the labelled questions the intent classifier learns from."""
    return build_documents(settings) + bank_documents(settings.corpus_dir)


def _vectors(embeddings: Embeddings, documents: list[Document]) -> list[list[float]]:
    """Passages and sentences embedded as passages; bank questions as queries, as users' questions are."""
    is_question = [document.metadata["granularity"] == QUESTION for document in documents]
    questions = [d.page_content for d, question in zip(documents, is_question, strict=True) if question]
    passages = [embedding_text(d) for d, question in zip(documents, is_question, strict=True) if not question]
    question_vectors = iter(embed_queries(embeddings, questions))
    passage_vectors = iter(embeddings.embed_documents(passages))
    return [next(question_vectors) if question else next(passage_vectors) for question in is_question]


def collection_name(settings: Settings, documents: list[Document]) -> str:
    return f"{COLLECTION_PREFIX}{settings.embedding_model}-{fingerprint(documents, model_id(settings))[:24]}"


def build_index(settings: Settings, progress: Progress | None = None) -> IndexReport:
    """Index the corpus unless the active index already holds exactly it.

    The corpus is read and validated before the store is touched; a new collection is written in full and
    only then activated, so a failure at any point leaves the previous index serving.
    """
    started = time.perf_counter()
    documents = index_documents(settings)
    name = collection_name(settings, documents)
    client = chroma_client(settings)
    model = settings.embedding_model
    complete = name in collection_names(client) and client.get_collection(
        name, embedding_function=None
    ).count() == len(documents)
    if complete and active_collection(client, model) == name:
        return IndexReport("unchanged", name, len(documents), time.perf_counter() - started)

    if name in collection_names(client):
        client.delete_collection(name)  # left over from a build that did not finish
    collection = client.create_collection(name, embedding_function=None, metadata={"hnsw:space": "cosine"})
    embeddings = get_embeddings(settings)
    for start in range(0, len(documents), _BATCH):
        batch = documents[start : start + _BATCH]
        collection.add(
            ids=[document.id for document in batch],
            documents=[document.page_content for document in batch],
            metadatas=[document.metadata for document in batch],
            embeddings=_vectors(embeddings, batch),
        )
        if progress:
            progress(start + len(batch), len(documents))
    if collection.count() != len(documents):
        raise RuntimeError(f"index {name} holds {collection.count()} of {len(documents)} documents")

    previous = active_collection(client, model)
    activate(client, model, name)
    # The previous generation stays one build longer: a running server may still be reading it.
    for stale in collection_names(client):
        if stale.startswith(f"{COLLECTION_PREFIX}{model}-") and stale not in (name, previous):
            client.delete_collection(stale)
    return IndexReport("built", name, len(documents), time.perf_counter() - started)
