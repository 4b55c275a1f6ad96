"""`python -m assistant index`: build the vector index from the corpus, idempotent and atomic.

A new build embeds only the documents whose embedded text the active index does not hold already: a corrected
record or a refreshed price catalog costs seconds, not a re-embedding of the whole corpus and question bank.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass

from chromadb.api import ClientAPI
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from assistant.chunking import SENTENCE, build_documents, embedding_text
from assistant.config import Settings
from assistant.embeddings import embed_queries, get_embeddings, model_id
from assistant.store import COLLECTION_PREFIX, activate, active_collection, chroma_client, collection_names
from assistant.text import split_clauses
from assistant.understanding.bank import QUESTION, SentenceRef, bank_documents

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
    embedded: int = 0  # documents embedded by this build; the others kept their vectors from the active index


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
    corpus = build_documents(settings)
    sentences: dict[SentenceRef, int] = {}  # a part must be one in every language: the fewest parts count
    for d in corpus:
        if d.metadata["granularity"] == SENTENCE:
            ref = (d.metadata["section_id"], d.metadata["paragraph"], d.metadata["sentence"])
            parts = len(split_clauses(d.page_content))
            sentences[ref] = min(parts, sentences.get(ref, parts))
    return corpus + bank_documents(settings.corpus_dir, sentences)


EmbeddedAs = tuple[bool, str]  # (embedded as a query, the text embedded): what decides a document's vector


def _embedded_as(document: Document) -> EmbeddedAs:
    """Bank questions are embedded as queries, as users' questions are; passages and sentences as passages."""
    if document.metadata["granularity"] == QUESTION:
        return True, document.page_content
    return False, embedding_text(document)


def _known_vectors(client: ClientAPI, model: str) -> dict[EmbeddedAs, list[float]]:
    """The vectors of the active index of this model, by what was embedded to get them."""
    name = active_collection(client, model)
    if name is None or name not in collection_names(client):
        return {}
    rows = client.get_collection(name, embedding_function=None).get(
        include=["documents", "metadatas", "embeddings"]
    )
    return {
        _embedded_as(Document(page_content=text, metadata=metadata)): list(vector)
        for text, metadata, vector in zip(
            rows["documents"], rows["metadatas"], rows["embeddings"], strict=True
        )
    }


def _vectors(
    embeddings: Embeddings, documents: list[Document], known: dict[EmbeddedAs, list[float]]
) -> tuple[list[list[float]], int]:
    """One vector per document, embedding only what `known` lacks; and how many were embedded."""
    wanted = [_embedded_as(document) for document in documents]
    missing = list(dict.fromkeys(key for key in wanted if key not in known))
    questions = [text for as_query, text in missing if as_query]
    passages = [text for as_query, text in missing if not as_query]
    fresh = dict(zip([(True, text) for text in questions], embed_queries(embeddings, questions), strict=True))
    fresh.update(zip([(False, text) for text in passages], embeddings.embed_documents(passages), strict=True))
    return [fresh[key] if key in fresh else known[key] for key in wanted], len(missing)


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
    known = _known_vectors(client, model)
    collection = client.create_collection(name, embedding_function=None, metadata={"hnsw:space": "cosine"})
    embeddings = get_embeddings(settings)
    embedded = 0
    for start in range(0, len(documents), _BATCH):
        batch = documents[start : start + _BATCH]
        vectors, count = _vectors(embeddings, batch, known)
        embedded += count
        collection.add(
            ids=[document.id for document in batch],
            documents=[document.page_content for document in batch],
            metadatas=[document.metadata for document in batch],
            embeddings=vectors,
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
    return IndexReport("built", name, len(documents), time.perf_counter() - started, embedded)
