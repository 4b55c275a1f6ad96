"""The active index, read once into memory: passages for lexical search, sentences with their vectors.

Everything a question needs is held here: the passages' text, metadata and unit vectors for both
searches, and the sentences an answer is composed from, so answering makes no round trip to the store.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from chromadb.api.models.Collection import Collection
from langchain_core.documents import Document

from assistant.chunking import PASSAGE, SENTENCE
from assistant.config import Settings
from assistant.embeddings import unit_vectors
from assistant.indexer import build_index
from assistant.store import active_collection, chroma_client
from assistant.understanding.bank import QUESTION, BankQuestion, bank_question

ParagraphKey = tuple[str, int]  # (section_id, paragraph position): the same in both languages


def paragraph_key(metadata: Mapping[str, Any]) -> ParagraphKey:
    return metadata["section_id"], metadata["paragraph"]


@dataclass
class Paragraph:
    """One paragraph in both languages, with the sentences an answer may quote."""

    key: ParagraphKey
    kind: str
    bullet: bool = False  # an item of a bulleted list
    titles: dict[str, str] = field(default_factory=dict)
    urls: dict[str, str] = field(default_factory=dict)
    sentences: dict[str, list[str]] = field(default_factory=dict)
    vectors: dict[str, np.ndarray] = field(default_factory=dict)

    def text(self, language: str = "en") -> str:
        """The paragraph in one language (the Dutch original where no rendering exists)."""
        return " ".join(self.sentences.get(language) or self.sentences.get("nl", []))

    def similarities(self, vector: np.ndarray) -> np.ndarray:
        """Each sentence's similarity to a query vector: the better of its two languages."""
        return np.max(np.stack([vectors @ vector for vectors in self.vectors.values()]), axis=0)


@dataclass
class KnowledgeBase:
    store: Collection  # the active Chroma collection, which everything below was read from
    passages: list[Document]  # every passage, with its Chroma id
    paragraphs: dict[ParagraphKey, Paragraph]
    passage_vectors: np.ndarray  # one unit vector per passage, in the order of `passages`
    questions: list[BankQuestion]  # the labelled question bank the intent classifier learns from
    question_vectors: np.ndarray  # their query vectors, in the same order
    follow_ups: list[BankQuestion]  # the bank's follow-ups, each read after the question before it
    follow_up_vectors: np.ndarray  # their query vectors, in the same order

    @property
    def collection(self) -> str:
        """The active collection's name."""
        return self.store.name


class IndexMissingError(RuntimeError):
    """No complete index for the configured model; `python -m assistant index` builds one."""


def load_knowledge(settings: Settings, build_if_missing: bool = True) -> KnowledgeBase:
    """Open the active index of the configured model, building it first when there is none."""
    client = chroma_client(settings)
    name = active_collection(client, settings.embedding_model)
    if name is None:
        if not build_if_missing:
            raise IndexMissingError(f"no index for model '{settings.embedding_model}'")
        name = build_index(settings).collection
    store = client.get_collection(name, embedding_function=None)
    rows = store.get(include=["documents", "metadatas", "embeddings"])
    passages: list[Document] = []
    vectors_by_id: dict[str, np.ndarray] = {}
    questions: list[tuple[BankQuestion, np.ndarray]] = []
    paragraphs: dict[ParagraphKey, Paragraph] = {}
    sentence_rows: dict[tuple[ParagraphKey, str], list[tuple[int, str, np.ndarray]]] = {}
    for row_id, text, metadata, vector in zip(
        rows["ids"], rows["documents"], rows["metadatas"], rows["embeddings"], strict=True
    ):
        if metadata["granularity"] == QUESTION:
            questions.append((bank_question(text, metadata), vector))
            continue
        key = paragraph_key(metadata)
        language = metadata["language"]
        paragraph = paragraphs.setdefault(
            key, Paragraph(key, metadata["kind"], metadata.get("bullet", False))
        )
        paragraph.titles[language] = metadata["title"]
        paragraph.urls[language] = metadata["url"]
        if metadata["granularity"] == PASSAGE:
            passages.append(Document(page_content=text, metadata=metadata, id=row_id))
            vectors_by_id[row_id] = vector
        elif metadata["granularity"] == SENTENCE:
            sentence_rows.setdefault((key, language), []).append((metadata["sentence"], text, vector))
    for (key, language), entries in sentence_rows.items():
        entries.sort(key=lambda entry: entry[0])
        paragraphs[key].sentences[language] = [text for _, text, _ in entries]
        paragraphs[key].vectors[language] = np.asarray([vector for _, _, vector in entries], dtype=np.float32)
    passages.sort(key=lambda document: (document.metadata["language"], document.metadata["section_id"]))
    dimensions = len(rows["embeddings"][0])
    standalone = [(question, vector) for question, vector in questions if not question.follows]
    follow_ups = [(question, vector) for question, vector in questions if question.follows]
    return KnowledgeBase(
        store,
        passages,
        paragraphs,
        passage_vectors=unit_vectors(np.asarray([vectors_by_id[passage.id] for passage in passages])),
        questions=[question for question, _ in standalone],
        question_vectors=unit_vectors(
            np.asarray([vector for _, vector in standalone]).reshape(-1, dimensions)
        ),
        follow_ups=[question for question, _ in follow_ups],
        follow_up_vectors=unit_vectors(
            np.asarray([vector for _, vector in follow_ups]).reshape(-1, dimensions)
        ),
    )
