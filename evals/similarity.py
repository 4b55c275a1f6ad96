"""Semantic similarity of an answer to its reference: cosine of their embeddings.

Always scored with the multilingual e5 model, whatever model the assistant under test uses, so figures
stay comparable across runs and ablations (MiniLM knows no Dutch).
"""

from __future__ import annotations

import numpy as np
from langchain_core.embeddings import Embeddings

from assistant.config import Settings
from assistant.embeddings import get_embeddings


class Similarity:
    def __init__(self, embeddings: Embeddings) -> None:
        self._embeddings = embeddings

    @classmethod
    def default(cls) -> Similarity:
        return cls(get_embeddings(Settings(embedding_model="e5")))

    def __call__(self, answer: str, reference: str) -> float:
        first, second = (
            np.asarray(vector, dtype=np.float64)
            for vector in self._embeddings.embed_documents([answer, reference])
        )
        norms = float(np.linalg.norm(first) * np.linalg.norm(second))
        return float(first @ second / norms) if norms else 0.0
