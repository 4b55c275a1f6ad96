"""Scores one case from its observation: every per-case metric, and the problems a reader should see."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from assistant.models import Answer
from evals.answer_metrics import filter_matches, key_fact_recall, text_language
from evals.cases import Case
from evals.citations import QuoteBook, Splitter, citation_precision, citation_validity, faithfulness
from evals.reading import SentenceBook, reading_scores
from evals.record_metrics import applicable as record_metrics_for
from evals.record_metrics import score_records
from evals.retrieval_metrics import retrieval_scores
from evals.runners import Observation
from evals.text import strip_markers, without_questions

RETRIEVAL = ("hit_at_1", "hit_at_3", "mrr", "ndcg_at_10")
# The per-case checks whose mean orders the report worst first (similarity is a graded signal, not a check).
CHECKS = (
    "ndcg_at_10",
    "key_fact_recall",
    "citation_precision",
    "citation_validity",
    "faithfulness",
    "language_accuracy",
    "refusal_correct",
    "filter_exact_match",
    "intent_accuracy",
    "lead_accuracy",
    "sentence_precision",
    "match_precision",
    "match_recall",
    "cheapest_correct",
)

Metrics = dict[str, float | None]


@dataclass
class CaseResult:
    case: Case
    metrics: Metrics
    problems: list[str] = field(default_factory=list)
    answer: Answer | None = None
    ranking: list[str] = field(default_factory=list)
    latency_ms: float | None = None
    error: str | None = None

    @property
    def score(self) -> float:
        values = [value for name in CHECKS if (value := self.metrics.get(name)) is not None]
        return sum(values) / len(values) if values else 1.0

    @property
    def refused(self) -> bool:
        return bool(self.answer and self.answer.refused)


def _applicable(case: Case) -> dict[str, bool]:
    """Which metrics a case is scored on."""
    answerable = not case.must_refuse
    return {
        **{name: answerable and bool(case.relevant_sections) for name in RETRIEVAL},
        "key_fact_recall": answerable and bool(case.key_facts),
        "similarity": answerable and case.reference is not None,
        "filter_exact_match": case.checks_filter,
    }


@dataclass(frozen=True)
class Judge:
    """Everything needed to score answers offline: the corpus quotes, the sentence splitter, the scorers."""

    book: QuoteBook
    sentences: SentenceBook
    split: Splitter
    similarity: Callable[[str, str], float]
    detect_language: Callable[[str], str | None] = text_language

    def score(self, case: Case, observation: Observation) -> CaseResult:
        metrics: Metrics = {}
        problems: list[str] = []
        for part in (
            self._retrieval,
            self._content,
            self._reading,
            self._citations,
            self._behaviour,
            score_records,
        ):
            part(case, observation, metrics, problems)
        return CaseResult(
            case, metrics, problems, observation.answer, observation.ranking, observation.latency_ms
        )

    def _retrieval(self, case: Case, observation: Observation, metrics: Metrics, problems: list[str]) -> None:
        if _applicable(case)["hit_at_1"]:
            metrics.update(retrieval_scores(observation.ranking, case.relevant_sections))
            if not metrics["hit_at_3"]:
                problems.append(f"no relevant section in the top 3: {observation.ranking[:3]}")

    def _content(self, case: Case, observation: Observation, metrics: Metrics, problems: list[str]) -> None:
        """What the answer says: its key facts and how close it comes to the reference."""
        applies, answer = _applicable(case), observation.answer
        if applies["key_fact_recall"]:
            metrics["key_fact_recall"], missing = key_fact_recall(
                without_questions(answer.answer), case.key_facts
            )
            problems += [f"missing fact: {fact}" for fact in missing]
        if applies["similarity"]:
            metrics["similarity"] = self.similarity(strip_markers(answer.answer), case.reference or "")

    def _reading(self, case: Case, observation: Observation, metrics: Metrics, problems: list[str]) -> None:
        """Whether the answer leads with the answer, fits the question's form and quotes coherently."""
        if not case.must_refuse:
            found, noticed = reading_scores(case, observation.answer, self.sentences)
            metrics.update(found)
            problems += noticed

    def _citations(self, case: Case, observation: Observation, metrics: Metrics, problems: list[str]) -> None:
        """Whether the citations are relevant, keep the contract's rules, and carry every sentence."""
        answer = observation.answer
        if case.relevant_sections:
            metrics["citation_precision"] = citation_precision(answer.citations, case)
            problems += [
                f"irrelevant citation [{c.n}] {c.section_id}"
                for c in answer.citations
                if not case.is_relevant(c.section_id)
            ]
        validity = citation_validity(answer, self.book, self.split)
        metrics["citation_validity"] = float(validity.valid)
        problems += validity.problems()
        metrics["faithfulness"], unsupported = faithfulness(answer, self.split)
        problems += [f"unsupported sentence: {sentence}" for sentence in unsupported]

    def _behaviour(self, case: Case, observation: Observation, metrics: Metrics, problems: list[str]) -> None:
        """The answer's language, whether it refused, and the provider filter it applied."""
        answer = observation.answer
        written = self.detect_language(strip_markers(answer.answer))
        language_ok = answer.language == case.language and written in (None, case.language)
        metrics["language_accuracy"] = float(language_ok)
        if not language_ok:
            problems.append(f"language {answer.language} (text reads as {written}), expected {case.language}")

        metrics["refusal_correct"] = float(answer.refused == case.must_refuse)
        if answer.refused != case.must_refuse:
            problems.append(
                "refused an answerable question" if answer.refused else "answered instead of refusing"
            )

        if answer.intents:
            metrics["intent_accuracy"] = float(frozenset(answer.intents) == case.gold_intents)
            if not metrics["intent_accuracy"]:
                problems.append(f"intents {answer.intents}, expected {sorted(case.gold_intents)}")
        if case.gold_intents == {"guide"}:
            metrics["false_filter"] = float(answer.providers is not None)
            if answer.providers is not None:
                problems.append(f"a guide question got the filter {answer.providers.filter}")
        if not case.must_refuse:
            metrics["in_scope_refused"] = float(answer.refused)

        if case.checks_filter:
            actual = answer.providers.filter if answer.providers else None
            metrics["filter_exact_match"] = float(filter_matches(actual, case.expected_filter))
            if not metrics["filter_exact_match"]:
                problems.append(f"filter {actual}, expected {case.expected_filter}")

    def score_error(self, case: Case, error: str) -> CaseResult:
        """A case whose question could not be asked fails every check that applies to it."""
        applies = _applicable(case)
        metrics: Metrics = {name: 0.0 for name, applicable in applies.items() if applicable}
        metrics.update(citation_validity=0.0, language_accuracy=0.0, refusal_correct=0.0)
        metrics.update({name: 0.0 for name in record_metrics_for(case)})
        return CaseResult(case, metrics, [f"error: {error}"], error=error)
