"""Turns the guide and the provider records into LangChain Documents: passages to search, sentences to quote.

Every paragraph (a guide block or a provider record paragraph) becomes one or more passages, split at
sentence ends only, and one Document per sentence; the sentences are what answers quote word for word.
"""

from __future__ import annotations

from langchain_core.documents import Document
from langchain_text_splitters import RecursiveCharacterTextSplitter

from assistant.config import Settings
from assistant.corpus import load_guide, section_url
from assistant.providers.documents import record_documents
from assistant.providers.records import load_records
from assistant.providers.renderings import load_renderings
from assistant.text import split_sentences

PASSAGE, SENTENCE = "passage", "sentence"

# Short enough to keep a passage on one topic, long enough to hold most of the guide's paragraphs whole.
_passage_splitter = RecursiveCharacterTextSplitter(
    chunk_size=600, chunk_overlap=0, separators=[". ", "? ", "! "], keep_separator="end"
)


def guide_paragraphs(settings: Settings) -> list[Document]:
    """One Document per block of the guide, in both languages, with the metadata citations need."""
    paragraphs = []
    for language, guide in load_guide(settings.corpus_dir).items():
        for section in guide.sections:
            for block in section.blocks:
                metadata = {
                    "section_id": section.id,
                    "language": language,
                    "kind": section.kind,
                    "bullet": block.bullet,  # an item of a list: answers to "what are the …" quote the list
                    "title": section.title,
                    "paragraph": block.position,
                    "url": section_url(section.id, language),
                }
                paragraphs.append(Document(page_content=block.text, metadata=metadata))
    return paragraphs


def paragraphs(settings: Settings) -> list[Document]:
    """Every quotable paragraph: the guide's and the provider records'."""
    records = load_records(settings.providers_dir)
    return guide_paragraphs(settings) + record_documents(records, load_renderings(settings.providers_dir))


def _split(paragraph: Document) -> list[Document]:
    """The passages and the sentences of one paragraph; each keeps the paragraph's metadata."""
    base = paragraph.metadata
    stem = f"{base['language']}:{base['section_id']}:{base['paragraph']}"
    passages = [
        Document(
            page_content=text, id=f"{stem}:p{part}", metadata={**base, "granularity": PASSAGE, "part": part}
        )
        for part, text in enumerate(_passage_splitter.split_text(paragraph.page_content))
    ]
    sentences = [
        Document(
            page_content=text,
            id=f"{stem}:s{index}",
            metadata={**base, "granularity": SENTENCE, "sentence": index},
        )
        for index, text in enumerate(split_sentences(paragraph.page_content))
    ]
    return passages + sentences


def build_documents(settings: Settings) -> list[Document]:
    """All passages and sentences to index, in a stable order."""
    return [document for paragraph in paragraphs(settings) for document in _split(paragraph)]


def embedding_text(document: Document) -> str:
    """What gets embedded: passages carry their section title, which names the topic (or the FAQ question)."""
    if document.metadata["granularity"] == PASSAGE:
        return f"{document.metadata['title']}\n{document.page_content}"
    return document.page_content
