"""What a question asks, decided before anything is retrieved or composed.

Scope and intent come from the learned models (`intent.py`); which providers it names, which record facts it
asks for and its form come from the words; its language from the whole question and the conversation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import numpy as np

from assistant.fitted import StartCache
from assistant.followup import (
    continues,
    is_follow_up,
    naming,
    previous_answer,
    previous_question,
    referred_one,
    refers_back,
    sets_against,
    situated,
)
from assistant.knowledge import KnowledgeBase
from assistant.language import detect_language
from assistant.models import Language, Turn
from assistant.providers.extract import extract_filter, extract_follow_up_filter
from assistant.providers.filters import ProviderFilter
from assistant.providers.names import ProviderNames
from assistant.providers.schema import ProviderRecord
from assistant.retrieval import HybridRetriever
from assistant.text import content_terms
from assistant.topics import named_things
from assistant.understanding.aside import set_aside
from assistant.understanding.asked import asks_for_providers_by_name, asks_where_to_get, picks_among
from assistant.understanding.form import Form, asks_for_list, compares, question_form, questions_asked
from assistant.understanding.intent import BankNeighbours, CorpusEvidence, IntentModel, IntentScores

_BANK_BLOCK = 64  # bank questions per product with the passages' vectors
_UNASKED = 0.25  # a follow-up whose own words give an intent less than this does not ask it


@dataclass(frozen=True)
class QuestionAnalysis:
    """Everything later steps need to know about one question."""

    question: str  # as asked
    asked: str  # the question without what it sets aside as known (`aside.py`)
    context: str | None  # the earlier question a follow-up is read with
    answered_before: str | None  # the answer just before it, as the asker read it (quoted sentences, [n])
    reading: str  # the words that choose passages and sentences (see `QuestionAnalyzer.reading`)
    language: Language
    form: Form
    compares: bool  # it sets things side by side ("managed vs your own cluster")
    enumerates: bool  # it asks for the members of a kind ("what are the trade-offs?")
    sets_against: bool  # a follow-up that asks for another than the earlier one ("and the other option?")
    turns_to: frozenset[str]  # the guide's things a follow-up turns to (`_turns_to`)
    intents: frozenset[str]  # guide, providers, named_provider; or out_of_scope alone
    scores: IntentScores
    named: frozenset[str]  # slugs of the providers the question names
    facts_asked: tuple[str, ...]  # the record facts its words name (filter keys), whatever its intent
    provider_filter: ProviderFilter | None  # only when it asks to choose, list or compare providers
    cheapest: bool

    @property
    def search_text(self) -> str:
        """What retrieval reads: a follow-up together with the question before it."""
        return f"{self.context} {self.asked}" if self.context else self.asked

    @property
    def out_of_scope(self) -> bool:
        return "out_of_scope" in self.intents


class QuestionAnalyzer:
    """Fits the intent models on the indexed question bank once; then analyses questions."""

    def __init__(
        self,
        knowledge: KnowledgeBase,
        retriever: HybridRetriever,
        records: list[ProviderRecord],
        cache: StartCache,
    ) -> None:
        self._evidence = CorpusEvidence(is_record=~retriever.is_guide, uses=retriever.uses)
        self._neighbours = BankNeighbours(
            in_scope=np.array(["out_of_scope" not in question.intents for question in knowledge.questions]),
            batches=np.array([question.batch for question in knowledge.questions]),
            languages=np.array([question.language for question in knowledge.questions]),
        )
        self._question_vectors = knowledge.question_vectors
        self._retriever = retriever
        self.names = ProviderNames(records)
        self._named_things = named_things(knowledge)
        self.bank_features, self.bank_neighbours, self.model = cache.of_index(
            knowledge.collection, "intent models", lambda: self._fitted(knowledge)
        )

    def _fitted(self, knowledge: KnowledgeBase) -> tuple[np.ndarray, np.ndarray, IntentModel]:
        """The bank questions' features and nearest other bank questions, and the intent models fitted on them."""
        features, neighbours = self._bank_features(knowledge)
        model = IntentModel.fit(
            features,
            neighbours,
            [question.text for question in knowledge.questions],
            [question.intents for question in knowledge.questions],
        )
        return features, neighbours, model

    def _bank_features(self, knowledge: KnowledgeBase) -> tuple[np.ndarray, np.ndarray]:
        """The bank questions' features and nearest other bank questions; their similarities to the passages
        and to the bank a block at a time, in one product each, which keeps the start quick and its memory
        small however many passages there are."""
        features, neighbours = [], []
        for start in range(0, len(knowledge.questions), _BANK_BLOCK):
            questions = knowledge.questions[start : start + _BANK_BLOCK]
            vectors = knowledge.question_vectors[start : start + _BANK_BLOCK]
            passages = vectors @ knowledge.passage_vectors.T
            bank = vectors @ knowledge.question_vectors.T
            for question, vector, to_passages, to_bank in zip(
                questions, vectors, passages, bank, strict=True
            ):
                features.append(self._evidence.features(question.text, vector, to_passages))
                neighbours.append(self._neighbours.features(to_bank, question.language, question.batch))
        return np.stack(features), np.stack(neighbours)

    def scores(self, text: str, language: Language) -> IntentScores:
        vector = self._retriever.query_vector(text)
        features = self._evidence.features(text, vector, self._retriever.similarities(text))
        neighbours = self._neighbours.features(self._question_vectors @ vector, language)
        return self.model.scores(features, neighbours, text)

    def analyze(
        self, question: str, language: Language | None = None, history: list[Turn] | None = None
    ) -> QuestionAnalysis:
        earlier = previous_question(history)
        written = detect_language(question, fallback=detect_language(earlier) if earlier else None)
        language = language or written
        context = earlier if earlier and is_follow_up(question, self._retriever.uses) else None
        rest = self._without_aside(question, context)
        search_text = f"{context} {rest}" if context else rest
        answered_before = previous_answer(history)
        referred = referred_one(question, lambda: self.names.in_order(answered_before or ""))
        own_names = self.names.named(question)
        named = frozenset({referred}) if referred else self._named(question, own_names, context)
        about = referred or self._pointed_at(own_names, context, named)
        stands_for = naming(question, about) if about else None
        scores = self._scope(stands_for or question, None if stands_for else context, written)
        asked, cheapest, facts = (
            extract_follow_up_filter(context, question, language)
            if context
            else extract_filter(question, language)
        )
        intents = (
            self._about_referred(scores)
            if referred
            else self._intents(scores, named, filters=bool(asked.public()))
        )
        if not (referred or context or scores.out_of_scope):
            parts = questions_asked(question)
            intents |= self._asked_apart(parts, written)
            if asked.public():
                intents = _with_providers_asked_for(parts, intents)
        lists_providers = "providers" in intents
        if context and named and not lists_providers:  # a list filters by the facts of both turns
            facts = self._follow_up_facts(question, language, facts)
        return QuestionAnalysis(
            question=question,
            asked=rest,
            context=context,
            answered_before=answered_before,
            reading=self.reading(rest, search_text) if context else rest,
            language=language,
            form=question_form(question, written),
            compares=compares(question),
            enumerates=asks_for_list(question),
            sets_against=context is not None and sets_against(question),
            turns_to=self._turns_to(rest, context, answered_before),
            intents=intents,
            scores=scores,
            named=named,
            facts_asked=facts,
            provider_filter=asked if lists_providers else None,
            cheapest=cheapest and lists_providers,
        )

    def _scope(self, question: str, context: str | None, language: Language) -> IntentScores:
        """The scores of the question, read with the one before it when it is a follow-up. One that is a
        follow-up only by a pronoun has words enough to be judged by them: it is out of scope when they are
        ("how do I upgrade that without downtime?" after "what is the GPU Operator?"). One too short to be in
        scope alone still says what it asks ("what is that exactly?" after "which providers have MPS?" asks the
        guide). Read together, the two turns often ask for both the guide and the providers; a follow-up asks
        only what its own words make likely ("en wat is dat precies, infiniband?" after "welke aanbieders
        hebben infiniband?" asks the guide, not for the providers again), and one that asks for providers by
        name or who offers it asks for them alone ("welke providers hebben dat?", "who offers it?" after "wat
        is mig?": the guide's answer came with the turn before), as does one that picks among the providers the
        turn before asked for ("en welke daarvan met managed k8s?")."""
        if context is None:
            return self.scores(question, language)
        scores = self.scores(f"{context} {question}", language)
        if scores.out_of_scope:
            return scores
        own = self.scores(question, language)
        if own.out_of_scope and not continues(question):
            return own
        if (
            "providers" in scores.likeliest
            and len(questions_asked(question)) < 2
            and (
                asks_for_providers_by_name(question)
                or asks_where_to_get(question)
                or self._picks_providers(question, context, language)
            )
        ):
            return replace(scores, likeliest=frozenset({"providers"}))
        likelihood = {"guide": own.guide, "providers": own.providers}
        unasked = all(likelihood[intent] < _UNASKED for intent in scores.likeliest - own.likeliest)
        return (
            replace(scores, likeliest=own.likeliest)
            if own.likeliest < scores.likeliest and unasked
            else scores
        )

    def _picks_providers(self, question: str, context: str, language: Language) -> bool:
        """Whether a follow-up picks among the providers the turn before asked for ("and which of those also
        do MPS?" after "who has MIG?"): it narrows that list, and asks the guide nothing."""
        return picks_among(question) and "providers" in self.scores(context, language).likeliest

    def _without_aside(self, question: str, context: str | None) -> str:
        """The question without the phrase it sets aside ("besides the GPU nodes, what else do I pay for?"),
        when what is left, or the question before it, has words the corpus knows; read whole, it would find
        what it already has."""
        aside = set_aside(question)
        if not aside:
            return question
        before, _, after = question.partition(aside)
        rest = f"{before.rstrip()} {after.lstrip(' ,')}".strip(" ,")
        known = any(self._retriever.knows(term) for term in content_terms(rest))
        return rest if known or context else question

    def _follow_up_facts(
        self, question: str, language: Language, earlier: tuple[str, ...]
    ) -> tuple[str, ...]:
        """The record facts a follow-up about named providers asks: those it names itself ("and its control
        plane fee?" after "does google cloud have managed kubernetes?" asks the fee alone); none when it asks in
        other words of its own (the record's sentence most like it answers); the turn before's (`earlier`) when
        it only names another provider ("en bij nebius?") or asks the same again ("same question for oracle")."""
        own = extract_filter(question, language).facts
        if own or _SAME.search(question):
            return own or earlier
        words = set(content_terms(question)) - self.names.terms
        asks_anew = any(len(term) > 1 and self._retriever.knows(term) for term in words)
        return () if asks_anew else earlier

    def reading(self, question: str, search_text: str) -> str:
        """A follow-up's own words when the corpus knows any of them ("and MIG?"), else, or when it points
        back with a pronoun ("and what are its downsides?", "does it do monitoring too?") or sets something
        beside the earlier topic ("how does MPS compare?"), or asks within the earlier situation without naming
        another thing of the guide ("en is het geheugen dan gescheiden?" after "wat is time-slicing?"; not "en
        wat doet die device plugin dan?"), the follow-up read with the question before it: its own words would
        leave out what it is about, or one of the sides, or find the same words said of another thing."""
        own = set(content_terms(question)) - self.names.terms
        knows_own = any(self._retriever.knows(term) for term in own)
        within_earlier = situated(question) and not own & self._named_things
        if (
            refers_back(question, self._retriever.uses)
            or compares(question)
            or within_earlier
            or not knows_own
        ):
            return search_text
        return question

    def _turns_to(self, asked: str, context: str | None, answered_before: str | None) -> frozenset[str]:
        """The words of the things of the guide (`named_things`) that a follow-up names and neither the question
        before it nor the answer to it did: what it turns to ("storage" in "and what storage do they need?" after
        the batch jobs item, "spot" in "kan dat ook met spot nodes?")."""
        if context is None or not answered_before:
            return frozenset()
        earlier = set(content_terms(f"{context} {answered_before}"))
        return frozenset(set(content_terms(asked)) & self._named_things - earlier)

    def _named(self, question: str, own: frozenset[str], context: str | None) -> frozenset[str]:
        """The providers a question is about, given those it names itself (`own`). A follow-up that names
        providers of its own ("en bij nebius?" after "heeft coreweave infiniband?") asks the same of those
        instead, unless it compares them with the earlier ones ("how does nebius compare?"); one that names none
        is about the earlier ones."""
        if context is None or (own and not compares(question)):
            return own
        return self.names.named(f"{context} {question}")

    @staticmethod
    def _pointed_at(own: frozenset[str], context: str | None, named: frozenset[str]) -> str | None:
        """The one provider a follow-up is about when only the turn before names it ("does it have MIG?" after
        "tell me about nebius"): one whose pronoun stands for it is read as the question it stands for ("does
        nebius have MIG?"), which asks the record, where read with the turn before it looked like a question
        about MIG."""
        if context is None or len(named) != 1 or own:
            return None
        return next(iter(named))

    def _asked_apart(self, parts: list[str], language: Language) -> frozenset[str]:
        """What the questions of a compound question (`parts`, from `questions_asked`) ask, each read on its own
        ("who has InfiniBand and why do I need it for training?" asks for the records and the guide); nothing
        for a simple question. Not for a follow-up, whose questions lean on the one before ("do they have H100s
        there and what does it cost"): read apart, they would be about nothing."""
        if len(parts) < 2:
            return frozenset()
        return frozenset().union(*(self.scores(part, language).likeliest for part in parts))

    def _about_referred(self, scores: IntentScores) -> frozenset[str]:
        """A question about one provider of the previous answer ("what regions is that one in") asks about
        that provider, not for a list, and about the guide only when its words, with the provider named, do."""
        if scores.out_of_scope:
            return frozenset({"out_of_scope"})
        return frozenset({"named_provider"} | (scores.likeliest & {"guide"}))

    @staticmethod
    def _intents(scores: IntentScores, named: frozenset[str], filters: bool) -> frozenset[str]:
        """The likeliest reading; when that is "only a named provider's record" and none is named, the
        likelier of guide and providers, and providers only when the question names something to choose them
        by ("preemptible gpu nodes in APAC")."""
        if scores.out_of_scope:
            return frozenset({"out_of_scope"})
        intents = {"named_provider"} if named else set()
        intents |= scores.likeliest
        if not intents:
            intents.add("providers" if filters and scores.providers > scores.guide else "guide")
        return frozenset(intents)


# Words that ask again what was asked before.
_SAME = re.compile(r"\b(?:same|zelfde|dezelfde|hetzelfde|idem)\b", re.IGNORECASE)


def _with_providers_asked_for(parts: list[str], intents: frozenset[str]) -> frozenset[str]:
    """A question (its `parts`, from `questions_asked`) that names record facts and asks for providers by a
    noun that names them ("which providers let me split a gpu", "noem aanbieders met spot") or asks where to
    get them ("waar kan ik een gpu delen") asks for providers, however much its topic is the guide's. What else
    it asks stays: the words around it often ask the guide too ("idle nodes kosten geld, welke providers
    schalen naar nul?")."""
    if any(asks_for_providers_by_name(part) or asks_where_to_get(part) for part in parts):
        return intents | {"providers"}
    return intents
