"""Citation validity, precision and faithfulness on hand-made answers and a two-section corpus."""

import pytest

from assistant.models import Answer, Citation
from evals.cases import Case
from evals.citations import QuoteBook, citation_precision, citation_validity, faithfulness

SHARING = "Plain Kubernetes treats a GPU as an indivisible integer resource. If a model idles, that is waste."
BOOK = QuoteBook({"gpu-sharing": [SHARING], "provider:coreweave": ["CoreWeave offers InfiniBand."]})


def split(text: str) -> list[str]:
    """A splitter at '. ' good enough for these inputs."""
    parts = [part.strip() for part in text.replace(". ", ".\n").splitlines()]
    return [part for part in parts if part]


def cite(n: int, section_id: str, quote: str) -> Citation:
    return Citation(n=n, section_id=section_id, title="t", quote=quote, url="/guide/en#x")


def answer(text: str, citations: list[Citation], refused: bool = False) -> Answer:
    return Answer(answer=text, language="en", refused=refused, citations=citations, providers=None, id="a")


def case(relevant: list[str], category: str = "section") -> Case:
    return Case(id="c", question="q", language="en", category=category, relevant_sections=relevant)


def test_a_clean_answer_is_valid():
    quote = "Plain Kubernetes treats a GPU as an indivisible integer resource."
    result = citation_validity(answer(f"{quote} [1]", [cite(1, "gpu-sharing", quote)]), BOOK, split)
    assert result.valid
    assert result.problems() == []


def test_quotes_may_differ_in_line_breaks_only():
    quote = "Plain Kubernetes treats a GPU\nas an indivisible integer resource."
    assert citation_validity(answer("x [1]", [cite(1, "gpu-sharing", quote)]), BOOK, split).valid


def test_each_rule_is_reported():
    citations = [
        cite(1, "gpu-sharing", "If a model idles, that is waste."),
        cite(2, "gpu-sharing", "Plain Kubernetes treats a GPU as a divisible resource."),  # not verbatim
        cite(2, "gpu-sharing", "If a model idles, that is waste."),  # duplicate number
        cite(4, "gpu-sharing", "If a model idles, that is waste."),  # never used
    ]
    result = citation_validity(answer("A [1]. B [2]. C [3].", citations), BOOK, split)
    assert not result.valid
    assert result.dangling_markers == (3,)
    assert result.unused_citations == (4,)
    assert result.duplicate_numbers == (2,)
    assert len(result.unverified_quotes) == 1


def test_a_quote_must_be_in_the_cited_section():
    quote = "CoreWeave offers InfiniBand."
    assert not citation_validity(answer("x [1]", [cite(1, "gpu-sharing", quote)]), BOOK, split).valid


def test_a_refusal_with_citations_is_invalid():
    refusal = answer(
        "The guide does not cover this.", [cite(1, "gpu-sharing", "If a model idles, that is waste.")], True
    )
    assert citation_validity(refusal, BOOK, split).cited_when_refused


def test_precision_counts_relevant_citations():
    citations = [cite(1, "gpu-sharing", "q"), cite(2, "tradeoffs", "q"), cite(3, "provider:nebius", "q")]
    assert citation_precision(citations, case(["gpu-sharing"])) == pytest.approx(1 / 3)
    assert citation_precision(citations, case(["gpu-sharing", "provider:*"], "provider")) == pytest.approx(
        2 / 3
    )
    assert citation_precision([], case(["gpu-sharing"])) is None


def test_faithfulness_extractive_sentences_are_supported():
    quote = (
        "Plain Kubernetes treats a GPU as an indivisible integer resource. If a model idles, that is waste."
    )
    text = "Plain Kubernetes treats a GPU as an indivisible integer resource. [1] That is waste. [1]"
    assert faithfulness(answer(text, [cite(1, "gpu-sharing", quote)]), split) == (1.0, [])


def test_faithfulness_accepts_a_lead_in_around_a_whole_quote_sentence():
    quote = "If a model idles, that is waste."
    assert (
        faithfulness(answer("In short: if a model idles, that is waste. [1]", [cite(1, "s", quote)]), split)[
            0
        ]
        == 1.0
    )


def test_faithfulness_flags_invented_and_unmarked_sentences():
    quote = "If a model idles, that is waste."
    text = "GPUs are cheap. [1] If a model idles, that is waste. [1] Buy more GPUs."
    score, unsupported = faithfulness(answer(text, [cite(1, "gpu-sharing", quote)]), split)
    assert score == pytest.approx(1 / 3)
    assert unsupported == ["GPUs are cheap.", "Buy more GPUs."]


def test_faithfulness_uses_only_the_quotes_a_sentence_cites():
    text = "If a model idles, that is waste. [2]"
    citations = [cite(1, "gpu-sharing", "If a model idles, that is waste."), cite(2, "tradeoffs", "Other.")]
    assert faithfulness(answer(text, citations), split)[0] == 0.0


def test_refusals_are_not_scored_for_faithfulness():
    assert faithfulness(answer("Not covered.", [], refused=True), split) == (None, [])


def test_faithfulness_asks_no_support_for_a_question_the_answer_restates():
    text = "Is an idle model waste? If a model idles, that is waste. [1]"
    assert (
        faithfulness(answer(text, [cite(1, "gpu-sharing", "If a model idles, that is waste.")]), split)[0]
        == 1.0
    )
