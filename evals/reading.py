"""Whether an answer reads as an answer (the reader's view, independent of how answers are composed).

- lead accuracy: the first sentence comes from a relevant section and states a key fact; an FAQ's direct yes/no
  answer ("Usually not.") leads when a key fact states it, for it answers the FAQ's question, which the asker's
  may ask the other way round ("is k8s overkill for one notebook?"); a first sentence that introduces a list
  (it ends in a colon, as the guide's "… can mean two substantially different things, …:") is read with the
  list's first item, the two being one sentence of the guide;
- sentence precision: the share of answer sentences whose citation is a relevant section;
- yes/no misuse: an open question (what, which, how, why …) answered with an FAQ's yes/no opener;
- unexpected opener: a yes/no question answered with an FAQ's yes/no opener that none of its key facts states:
  its writer's answer is another, for the FAQ asks another question or asks it the other way round ("Usually
  not." to "is k8s overkill for one notebook?"); read over the yes/no questions with key facts;
- dangling references: a sentence that leans on the one before it ("This is …", "Beide …") quoted without it;
  a follow-up's answer may open with it when the answer just before it in the conversation quoted what it leans
  on ("Without these, distributed jobs stall …" after the checklist it leans on);
- repeated answer: a follow-up answered with just what the answer before it said, statement for statement (read
  over follow-ups whose history holds an answer): the asker learns nothing from it.

An FAQ's question restated before its direct answer is read past: the first statement is the direct answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from langchain_core.documents import Document

from assistant.models import Answer
from evals.answer_metrics import key_fact_recall
from evals.cases import Case
from evals.text import core, segments, without_questions

# Words that refer back to the previous sentence when they open one ("This is", "Without these,", "In
# practice, this"), a demonstrative in its first clause ("The GPU Operator eases this pain, but …") and "of
# these" ("confirm which of these", "welke van deze"), unless a colon spells them out at once ("X offers these
# GPU models: H100, …" points forward).
_NOT_SPELLED_OUT = r"(?!(?:\s+[\w-]+){1,3}:\s+\S)"
_LEANING = re.compile(
    r"^(?:(?:\S+\s+){0,2}?(?:this|these|those|both|others|such|they|dit|deze|beide|andere|zulke|ze)"
    r"|[^,;:—]*?\b(?:this|these|those|dit|deze)"
    r"|.*?\b(?:of|van)\s+(?:these|those|deze))\b" + _NOT_SPELLED_OUT,
    re.IGNORECASE,
)
_OPEN_QUESTION = re.compile(
    r"^\s*(?:what|what's|which|how|why|when|where|who|explain|list|wat|welke|welk|hoe|waarom|wanneer|waar|"
    r"wie|leg|noem)\b",
    re.IGNORECASE,
)
_OPENER_CHARS = 60  # an FAQ answer's short first sentence ("Often yes, but not always.")


@dataclass(frozen=True)
class SentenceBook:
    """The corpus sentences in order per section and language, and the FAQs' yes/no openers."""

    previous: dict[str, str | None]  # a sentence (core form) -> the sentence before it in its section
    openers: frozenset[str]

    @classmethod
    def from_documents(cls, documents: Iterable[Document]) -> SentenceBook:
        ordered: dict[tuple[str, str], list[tuple[int, int, str]]] = {}
        openers = set()
        for document in documents:
            metadata = document.metadata
            if metadata.get("granularity") != "sentence":
                continue
            key = (metadata["section_id"], metadata["language"])
            ordered.setdefault(key, []).append(
                (metadata["paragraph"], metadata["sentence"], document.page_content)
            )
            first = metadata["paragraph"] == 0 and metadata["sentence"] == 0
            if metadata["kind"] == "faq" and first and len(document.page_content) <= _OPENER_CHARS:
                openers.add(core(document.page_content))
        previous: dict[str, str | None] = {}
        for entries in ordered.values():
            entries.sort()
            texts = [core(text) for _, _, text in entries]
            previous.update(zip(texts, [None, *texts[:-1]], strict=True))
        return cls(previous, frozenset(openers))


def question_form(case: Case) -> str | None:
    """The labelled form; unlabelled, a question opening with a question word is open."""
    if case.form:
        return case.form
    return "open" if _OPEN_QUESTION.match(case.question) else None


def reading_scores(case: Case, answer: Answer, book: SentenceBook) -> tuple[dict[str, float], list[str]]:
    """The five measures for one answered case, and what a reader would notice."""
    parts = segments(without_questions(answer.answer))
    if answer.refused or not parts:
        return {}, []
    sections = {citation.n: citation.section_id for citation in answer.citations}
    relevant = [any(case.is_relevant(sections.get(n, "")) for n in part.numbers) for part in parts]
    texts = [core(part.text) for part in parts]
    metrics: dict[str, float] = {}
    problems: list[str] = []
    opens = texts[0] in book.openers  # with an FAQ's direct yes/no answer
    if case.relevant_sections:
        metrics["sentence_precision"] = sum(relevant) / len(relevant)
        lead = " ".join(part.text for part in parts[: 2 if _introduces_list(parts[0].text) else 1])
        states_fact = not case.key_facts or bool(key_fact_recall(lead, case.key_facts)[0])
        metrics["lead_accuracy"] = float(relevant[0] and states_fact)
        if not metrics["lead_accuracy"]:
            problems.append(f"the answer does not lead with the answer: {parts[0].text.strip()[:80]}")
    if question_form(case) == "yes_no" and case.key_facts:
        metrics["unexpected_opener"] = float(opens and not key_fact_recall(parts[0].text, case.key_facts)[0])
        if metrics["unexpected_opener"]:
            problems.append(f"a yes/no opener that no key fact states: {parts[0].text.strip()}")
    if question_form(case) == "open":
        metrics["yes_no_misuse"] = float(opens)
        if metrics["yes_no_misuse"]:
            problems.append(f"an open question answered with a yes/no opener: {parts[0].text.strip()}")
    said = _said_before(case)
    read = core(_last_answer(case))
    dangling = [
        part.text.strip()
        for index, (part, text) in enumerate(zip(parts, texts, strict=True))
        if _LEANING.match(part.text.strip())
        and book.previous.get(text)
        and (texts[index - 1] != book.previous[text] if index else book.previous[text] not in read)
    ]
    metrics["dangling_references"] = float(bool(dangling))
    problems += [f"quoted without what it refers to: {sentence[:80]}" for sentence in dangling]
    if said:
        metrics["repeated_answer"] = float(set(texts) == said)
        if metrics["repeated_answer"]:
            problems.append("the answer says again just what the answer before it said")
    return metrics, problems


def _said_before(case: Case) -> frozenset[str]:
    """The statements (core form) of the last answer in a follow-up's history: what the asker just read."""
    return frozenset(core(part.text) for part in segments(without_questions(_last_answer(case))))


def _last_answer(case: Case) -> str:
    """The last answer in a follow-up's history, whole: a sentence in it was read, though its citation marker
    follows the next sentence ("Often yes, but not always. Providers that ship … for you. [1]")."""
    return next((turn.content for turn in reversed(case.history) if turn.role == "assistant"), "")


def _introduces_list(sentence: str) -> bool:
    return sentence.rstrip().endswith(":")
