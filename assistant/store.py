"""The Chroma store: a local folder by default, a Chroma server when ASSISTANT_CHROMA_HOST is set.

Each build writes a collection of its own; a pointer, kept in the metadata of a small collection, names the
active one per embedding model. Switching the pointer is a single metadata update, so readers see either the
old complete index or the new complete one.
"""

from __future__ import annotations

import chromadb
from chromadb.api import ClientAPI
from chromadb.config import Settings as ChromaSettings

from assistant.config import Settings

POINTER_COLLECTION = "assistant-active-index"
COLLECTION_PREFIX = "guide-"


def chroma_client(settings: Settings) -> ClientAPI:
    """A client for the configured store; telemetry off, never Chroma's default embedding function."""
    chroma_settings = ChromaSettings(anonymized_telemetry=False)
    if settings.chroma_host:
        return chromadb.HttpClient(
            host=settings.chroma_host, port=settings.chroma_port, settings=chroma_settings
        )
    settings.index_dir.mkdir(parents=True, exist_ok=True)
    return chromadb.PersistentClient(path=str(settings.index_dir), settings=chroma_settings)


def _pointer(client: ClientAPI):
    return client.get_or_create_collection(POINTER_COLLECTION, embedding_function=None)


def active_collection(client: ClientAPI, model: str) -> str | None:
    """The name of the complete index serving this embedding model, if any."""
    metadata = _pointer(client).metadata or {}
    return metadata.get(model)


def activate(client: ClientAPI, model: str, name: str) -> None:
    """Point readers of this model at a complete collection."""
    pointer = _pointer(client)
    pointer.modify(metadata={**(pointer.metadata or {}), model: name})


def collection_names(client: ClientAPI) -> list[str]:
    return [collection.name for collection in client.list_collections()]
