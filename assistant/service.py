"""The assistant: one object that holds the model and the index and answers questions.

The CLI, the API, the Slack bot and the evaluations all call `Assistant.ask`; nothing else composes answers.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from langchain_core.documents import Document

from assistant.answering import Composer
from assistant.config import Settings, get_settings
from assistant.embeddings import get_embeddings
from assistant.followup import contextualize, previous_question
from assistant.knowledge import KnowledgeBase, load_knowledge
from assistant.language import detect_language
from assistant.models import Answer, Language, ProviderResults, Turn
from assistant.providers.extract import extract_filter
from assistant.providers.filters import apply_filter
from assistant.providers.names import named_providers
from assistant.providers.records import load_records
from assistant.refusal import is_covered, no_matches_text, refusal_text
from assistant.retrieval import HybridRetriever

_QUOTED_MATCHES = 3  # the records an answer may quote when a question asks for a list of providers


@dataclass(frozen=True)
class Search:
    """What one question found: the text searched, the paragraphs in scope, the provider results."""

    text: str
    hits: list[Document]
    providers: ProviderResults | None
    named: set[str]


@dataclass(frozen=True)
class SectionHit:
    """One section found for a question, best first (used by the retrieval metrics)."""

    section_id: str
    score: float


class Assistant:
    def __init__(self, settings: Settings, knowledge: KnowledgeBase) -> None:
        self.settings = settings
        self.knowledge = knowledge
        self.retriever = HybridRetriever(
            knowledge=knowledge, embeddings=get_embeddings(settings), mode=settings.retrieval
        )
        self.composer = Composer(knowledge, self.retriever, settings.sentence_selection)
        self.records = load_records(settings.providers_dir)

    @classmethod
    def from_settings(cls, settings: Settings | None = None) -> Assistant:
        """Load the model and the index once; builds the index when there is none yet."""
        settings = settings or get_settings()
        assistant = cls(settings, load_knowledge(settings))
        assistant.ask("warm-up: can I share one GPU between pods?")  # loads lazy models before the first user
        return assistant

    def _language(self, question: str, language: Language | None, history: list[Turn] | None) -> Language:
        if language:
            return language
        earlier = previous_question(history)
        return detect_language(question, fallback=detect_language(earlier) if earlier else None)

    def _search(self, question: str, language: Language, history: list[Turn] | None) -> Search:
        """Provider records answer for the providers a question names, else for its best filter matches."""
        text = contextualize(question, history)
        providers = self._providers(text, language)
        named = named_providers(text, self.records)
        best_matches = [match["slug"] for match in providers.matches[:_QUOTED_MATCHES]] if providers else []
        scope = named or best_matches
        hits = self.retriever.invoke(text, providers=scope)
        if text != question:  # a follow-up: its own words decide within the earlier question's topic
            hits = self.retriever.fuse([self.retriever.invoke(question, providers=scope), hits])
        return Search(text, hits, providers, named)

    def retrieve(
        self, question: str, language: Language | None = None, history: list[Turn] | None = None, k: int = 10
    ) -> list[SectionHit]:
        """The sections that best support an answer, one entry per section, best first."""
        search = self._search(question, self._language(question, language, history), history)
        sections: dict[str, float] = {}
        for hit in search.hits:
            sections.setdefault(hit.metadata["section_id"], hit.metadata["score"])
        return [SectionHit(section_id, score) for section_id, score in sections.items()][:k]

    def _providers(self, search_text: str, language: Language) -> ProviderResults | None:
        extracted = extract_filter(search_text, language)
        if extracted is None:
            return None
        flt, cheapest = extracted
        return apply_filter(
            self.records, flt, cheapest=cheapest, max_age_days=self.settings.price_max_age_days
        )

    def ask(
        self, question: str, language: Language | None = None, history: list[Turn] | None = None
    ) -> Answer:
        """A cited answer in the question's language, or a plain refusal when the guide does not cover it."""
        language = self._language(question, language, history)
        search = self._search(question, language, history)
        answer_id = uuid.uuid4().hex
        asks_records = search.providers is not None or bool(search.named)
        if not search.hits or not (asks_records or is_covered(search.text, search.hits, self.retriever)):
            return Answer(
                answer=refusal_text(language),
                language=language,
                refused=True,
                citations=[],
                providers=None,
                id=answer_id,
            )
        if search.providers and not search.providers.matches and not search.named:
            text, citations = no_matches_text(language), []
        else:
            # Sentences are scored against the question itself: a follow-up's own words pick them.
            text, citations = self.composer.compose(search.hits, question, language)
        return Answer(
            answer=text,
            language=language,
            refused=False,
            citations=citations,
            providers=search.providers,
            id=answer_id,
        )
