"""The labelled question bank (`corpus/question_bank/*.yaml`) that the intent classifier learns from.

Training data only: the evaluation sets under `evals/` are kept out of it, so what they measure is how the
classifier generalises. The bank's questions are embedded at index time, as queries, beside the corpus.
A question the guide answers may also name the guide's sentences that answer it, best first
(`answers: [gpu-sharing/1/0]`, section/paragraph/sentence): a new question close to it is likely answered
by the same sentences (`assistant/answered.py`). Where one sentence carries several facts, an answer may name the
part that answers (`kubernetes-support/0/1/1`: the device plugin of the sentence that also names the container
toolkit and the driver match; parts counted from 0 as `split_clauses` splits the sentence).
A follow-up names the question before it (`after: "wat is mps"`, `q: "en heeft elke provider dat?"`): it is
embedded as a follow-up is read, after that question, and teaches only which sentences answer, not the intents.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import yaml
from langchain_core.documents import Document
from pydantic import BaseModel, ConfigDict, ValidationError, ValidationInfo, field_validator

Intent = Literal["guide", "providers", "named_provider", "out_of_scope"]
INTENTS: tuple[Intent, ...] = ("guide", "providers", "named_provider", "out_of_scope")
QUESTION = "question"  # the granularity of a bank question in the index
BANK_DIR = "question_bank"
SentenceRef = tuple[str, int, int]  # a guide sentence: section id, paragraph, sentence (from 0)
AnswerRef = tuple[str, int, int, int | None]  # a sentence, or the part of it that answers
_ANSWER_REF = re.compile(r"^([a-z0-9-]+)/(\d+)/(\d+)(?:/(\d+))?$")


def answer_ref(text: str) -> AnswerRef:
    """`gpu-sharing/1/0` as (section id, paragraph, sentence, None); `kubernetes-support/0/1/1` with its part."""
    match = _ANSWER_REF.match(text)
    if not match:
        raise ValueError(f"'{text}' is not section/paragraph/sentence or section/paragraph/sentence/part")
    return match[1], int(match[2]), int(match[3]), None if match[4] is None else int(match[4])


class BankError(ValueError):
    """A fault in the bank file, naming the file and the entry."""


class LabelledQuestion(BaseModel):
    """One question as users type it, with its language and intents (out_of_scope stands alone)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    q: str
    lang: Literal["en", "nl"]
    intents: tuple[Intent, ...]
    answers: tuple[str, ...] = ()  # the guide's sentences that answer it, best first
    after: str | None = None  # for a follow-up, the question before it

    @property
    def read_as(self) -> str:
        """The text its query vector is embedded from: a follow-up's after the question before it."""
        return f"{self.after} {self.q}" if self.after else self.q

    @field_validator("answers")
    @classmethod
    def _sentence_refs(cls, answers: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        """Each names a sentence of the guide as it is now, and a part it has (`sentences` in the context,
        when given)."""
        sentences = (info.context or {}).get("sentences")
        for answer in answers:
            section, paragraph, index, part = answer_ref(answer)  # raises for anything but the two forms
            if sentences is None:
                continue
            if (section, paragraph, index) not in sentences:
                raise ValueError(f"the guide has no sentence {answer}")
            if part is not None and part >= sentences[section, paragraph, index]:
                raise ValueError(f"the guide's sentence has no part {answer}")
        return answers

    @field_validator("intents")
    @classmethod
    def _consistent(cls, intents: tuple[Intent, ...]) -> tuple[Intent, ...]:
        if not intents:
            raise ValueError("at least one intent")
        if "out_of_scope" in intents and len(intents) > 1:
            raise ValueError("out_of_scope is never combined with another intent")
        return intents

    @property
    def in_scope(self) -> bool:
        return "out_of_scope" not in self.intents


@dataclass(frozen=True)
class BankQuestion:
    """A bank question as the index holds it: its text, labels and query vector."""

    text: str
    language: str
    intents: frozenset[str]
    answers: tuple[AnswerRef, ...]
    batch: str = ""  # the file it came from: questions of one batch were written together
    after: str = ""  # for a follow-up, the question before it; `text` is the follow-up's own words

    @property
    def follows(self) -> bool:
        return bool(self.after)


Sentences = Mapping[SentenceRef, int]  # each guide sentence with its number of parts (0: it does not split)


def load_bank(corpus_dir: Path, sentences: Sentences | None = None) -> list[LabelledQuestion]:
    """Every entry of every batch file of the bank, in file order; with `sentences`, the guide's sentences,
    an answer that names none of them is a fault."""
    return [question for _, question in _load_batches(corpus_dir, sentences)]


def _load_batches(corpus_dir: Path, sentences: Sentences | None) -> list[tuple[str, LabelledQuestion]]:
    """`load_bank`, each question with the name of its batch."""
    paths = sorted((corpus_dir / BANK_DIR).glob("*.yaml"))
    if not paths:
        raise BankError(f"{corpus_dir / BANK_DIR}: no question batches (*.yaml)")
    return [(path.stem, question) for path in paths for question in _load_batch(path, sentences)]


def _load_batch(path: Path, sentences: Sentences | None) -> list[LabelledQuestion]:
    """One batch file; a fault names the file and the entry's position."""
    try:
        entries = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise BankError(f"{path}: {error}") from None
    if not isinstance(entries, list) or not entries:
        raise BankError(f"{path}: expected a non-empty list of questions")
    questions = []
    for number, entry in enumerate(entries, start=1):
        try:
            questions.append(LabelledQuestion.model_validate(entry, context={"sentences": sentences}))
        except ValidationError as error:
            fault = "; ".join(
                f"{'.'.join(map(str, e['loc'])) or 'entry'}: {e['msg']}" for e in error.errors()
            )
            raise BankError(f"{path}: entry {number}: {fault}") from None
    return questions


def bank_documents(corpus_dir: Path, sentences: Sentences) -> list[Document]:
    """The bank as index documents; their vectors are query embeddings, like the questions users ask."""
    return [
        Document(
            page_content=question.read_as,
            id=f"question:{number}",
            metadata={
                "granularity": QUESTION,
                "language": question.lang,
                "intents": ",".join(question.intents),
                "answers": ",".join(question.answers),
                "batch": batch,
                "after": question.after or "",
            },
        )
        for number, (batch, question) in enumerate(_load_batches(corpus_dir, sentences))
    ]


def bank_question(text: str, metadata: dict) -> BankQuestion:
    """A bank question from its index document (`text` as `LabelledQuestion.read_as` has it)."""
    answers = tuple(answer_ref(answer) for answer in metadata.get("answers", "").split(",") if answer)
    intents = frozenset(metadata["intents"].split(","))
    after = metadata.get("after", "")
    own_words = text.removeprefix(f"{after} ") if after else text
    return BankQuestion(own_words, metadata["language"], intents, answers, metadata.get("batch", ""), after)
