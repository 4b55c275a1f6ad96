"""The assistant: one object that holds the model and the index and answers questions.

The CLI, the API, the Slack bot and the evaluations all call `Assistant.ask`; nothing else composes answers.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from langchain_core.documents import Document

from assistant.answered import AnsweredQuestions
from assistant.answering import Composer
from assistant.config import Settings, get_settings
from assistant.embeddings import get_embeddings
from assistant.fitted import StartCache
from assistant.knowledge import KnowledgeBase, load_knowledge
from assistant.models import Answer, Language, ProviderResults, Turn
from assistant.providers.documents import fact_sentences, price_sentence
from assistant.providers.filters import apply_filter, matching_price
from assistant.providers.records import load_records
from assistant.refusal import no_matches_text, refusal_text
from assistant.retrieval import HybridRetriever
from assistant.understanding.analysis import QuestionAnalysis, QuestionAnalyzer

_QUOTED_MATCHES = 3  # the records an answer may quote when a question asks for a list of providers


@dataclass(frozen=True)
class Search:
    """What one question found: its analysis, the paragraphs in scope, the provider results."""

    analysis: QuestionAnalysis
    hits: list[Document]
    providers: ProviderResults | None
    records: list[str]  # the provider records in scope: those named, else the best filter matches
    price_sentences: dict[
        str, int
    ]  # per matching record, its price sentence that meets the filter's price terms


@dataclass(frozen=True)
class SectionHit:
    """One section found for a question, best first (used by the retrieval metrics)."""

    section_id: str
    score: float


class Assistant:
    def __init__(self, settings: Settings, knowledge: KnowledgeBase) -> None:
        self.settings = settings
        self.knowledge = knowledge
        embeddings = get_embeddings(settings)
        self.cache = StartCache(settings)
        answered = AnsweredQuestions.from_knowledge(knowledge, embeddings, self.cache)
        self.retriever = HybridRetriever(
            knowledge=knowledge, embeddings=embeddings, mode=settings.retrieval, answered=answered
        )
        self.records = load_records(settings.providers_dir)
        self._records_by_slug = {record.slug: record for record in self.records}
        self.analyzer = QuestionAnalyzer(knowledge, self.retriever, self.records, self.cache)
        self.composer = Composer(
            knowledge,
            self.retriever,
            answered,
            AnsweredQuestions.from_knowledge(knowledge, embeddings, self.cache, with_follow_ups=True),
            settings.sentence_selection,
            subject_terms=self.analyzer.names.terms,
            record_facts={record.slug: fact_sentences(record) for record in self.records},
            cache=self.cache,
        )

    @classmethod
    def from_settings(cls, settings: Settings | None = None) -> Assistant:
        """Load the model and the index once; builds the index when there is none yet."""
        settings = settings or get_settings()
        assistant = cls(settings, load_knowledge(settings))
        assistant.ask("warm-up: can I share one GPU between pods?")  # loads lazy models before the first user
        return assistant

    def search(self, question: str, language: Language | None, history: list[Turn] | None) -> Search:
        """Provider records answer for the providers a question names, else for its best filter matches."""
        analysis = self.analyzer.analyze(question, language, history)
        if analysis.out_of_scope:
            return Search(analysis, [], None, [], {})
        providers = self._providers(analysis)
        best_matches = [match["slug"] for match in providers.matches[:_QUOTED_MATCHES]] if providers else []
        scope = sorted(analysis.named) or best_matches
        asks_guide = "guide" in analysis.intents
        hits = self.retriever.invoke(analysis.search_text, providers=scope, asks_guide=asks_guide)
        if (
            analysis.reading == analysis.asked != analysis.search_text
        ):  # a follow-up's own words, in the earlier topic
            own_words = self.retriever.invoke(analysis.asked, providers=scope, asks_guide=asks_guide)
            hits = self.retriever.fuse([own_words, hits])
        return Search(analysis, hits, providers, scope, self._price_sentences(analysis, best_matches))

    def retrieve(
        self, question: str, language: Language | None = None, history: list[Turn] | None = None, k: int = 10
    ) -> list[SectionHit]:
        """The sections that best support an answer, one entry per section, best first."""
        search = self.search(question, language, history)
        sections: dict[str, float] = {}
        for hit in search.hits:
            sections.setdefault(hit.metadata["section_id"], hit.metadata["score"])
        return [SectionHit(section_id, score) for section_id, score in sections.items()][:k]

    def _price_sentences(self, analysis: QuestionAnalysis, slugs: list[str]) -> dict[str, int]:
        """Where a question asks a price, a GPU model or the cheapest, the price a record matched with is the
        one to quote (not the record's price most like the question's words)."""
        flt = analysis.provider_filter
        if flt is None or not (analysis.cheapest or flt.gpu_model or flt.max_price_per_gpu_hour is not None):
            return {}
        found = {}
        for record in (self._records_by_slug[slug] for slug in slugs):
            price = matching_price(record, flt)
            if price is not None:
                found[record.slug] = price_sentence(record, price)
        return found

    def _providers(self, analysis: QuestionAnalysis) -> ProviderResults | None:
        if analysis.provider_filter is None:
            return None
        return apply_filter(
            self.records,
            analysis.provider_filter,
            cheapest=analysis.cheapest,
            max_age_days=self.settings.price_max_age_days,
        )

    def ask(
        self, question: str, language: Language | None = None, history: list[Turn] | None = None
    ) -> Answer:
        """A cited answer in the question's language, or a plain refusal when the guide does not cover it."""
        search = self.search(question, language, history)
        language = search.analysis.language
        answer_id = uuid.uuid4().hex
        if not search.hits:
            return Answer(
                answer=refusal_text(language),
                language=language,
                refused=True,
                citations=[],
                providers=None,
                id=answer_id,
                intents=sorted(search.analysis.intents),
            )
        if search.providers and not search.providers.matches and not search.analysis.named:
            text, citations = no_matches_text(language), []
            if "guide" in search.analysis.intents:  # it also asks the guide: that half is answered first
                guide, citations = self.composer.compose(search.hits, search.analysis, [], {})
                text = f"{guide} {text}"
        else:
            text, citations = self.composer.compose(
                search.hits, search.analysis, search.records, search.price_sentences
            )
        return Answer(
            answer=text,
            language=language,
            refused=False,
            citations=citations,
            providers=search.providers,
            id=answer_id,
            intents=sorted(search.analysis.intents),
        )
