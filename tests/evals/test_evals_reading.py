"""The reader's view of an answer: a sentence that leans on the one before it, quoted without it, dangles."""

from __future__ import annotations

import pytest

from assistant.models import Answer, Citation
from evals.answer_metrics import key_fact_recall
from evals.reading import SentenceBook, reading_scores
from evals.text import core, without_questions
from tests.evals.helpers import make_case

SECTION = [
    "Nebius has GPU capacity in Europe.",
    "Nebius offers these GPU models: H200, H100.",
    "This makes it a good fit for training.",
    "Its scheduler eases this pain, but queues still form.",
    "If you train on many nodes, confirm which of these links the provider offers.",
    "MIG — supported on data center cards, this partitions one GPU.",
]
BOOK = SentenceBook(
    {
        core(sentence): core(before) if before else None
        for sentence, before in zip(SECTION, [None, *SECTION[:-1]], strict=True)
    },
    frozenset(),
)


def _answer(text: str, quote: str, section_id: str = "provider:nebius") -> Answer:
    """An answer whose text cites one quote as [1]."""
    citation = Citation(n=1, section_id=section_id, title="t", quote=quote, url="/guide/en")
    return Answer(
        answer=text,
        language="en",
        refused=False,
        citations=[citation],
        providers=None,
        id="a",
    )


@pytest.mark.parametrize(
    ("sentence", "dangles"),
    [
        ("This makes it a good fit for training.", 1.0),  # "This" refers to the sentence before it
        ("Nebius offers these GPU models: H200, H100.", 0.0),  # the colon spells out "these GPU models"
        ("Its scheduler eases this pain, but queues still form.", 1.0),  # a demonstrative in the first clause
        ("If you train on many nodes, confirm which of these links the provider offers.", 1.0),  # "of these"
        ("MIG — supported on data center cards, this partitions one GPU.", 0.0),  # "this": MIG
    ],
)
def test_a_sentence_dangles_only_when_it_refers_back(sentence: str, dangles: float) -> None:
    case = make_case(category="provider", relevant_sections=["provider:nebius"])
    metrics, _ = reading_scores(case, _answer(f"{sentence} [1]", sentence), BOOK)
    assert metrics["dangling_references"] == dangles


def test_a_follow_up_may_open_with_what_leans_on_the_answer_just_before_it() -> None:
    """What the earlier answer quoted is what its asker just read: a follow-up's answer may open with the
    sentence that refers to it, not quote it later without it."""
    before, leaning, other = SECTION[1], SECTION[2], SECTION[0]
    history = [
        {"role": "user", "content": "which models?"},
        {"role": "assistant", "content": f"{before} [1]"},
    ]
    case = make_case(category="follow-up", relevant_sections=["provider:nebius"], history=history)
    opening = reading_scores(case, _answer(f"{leaning} [1]", leaning), BOOK)[0]
    assert opening["dangling_references"] == 0.0
    later = reading_scores(case, _answer(f"{other} [1] {leaning} [1]", f"{other} {leaning}"), BOOK)[0]
    assert later["dangling_references"] == 1.0
    alone = make_case(category="section", relevant_sections=["provider:nebius"])
    assert reading_scores(alone, _answer(f"{leaning} [1]", leaning), BOOK)[0]["dangling_references"] == 1.0


def test_what_the_answer_before_quoted_was_read_though_its_marker_follows_another_sentence() -> None:
    """An earlier answer written as "Often yes. <sentence>. [1]" quoted the sentence the follow-up's answer
    leans on, though the marker covers both: the asker read it."""
    before, leaning = SECTION[1], SECTION[2]
    history = [
        {"role": "user", "content": "which models?"},
        {"role": "assistant", "content": f"Often yes. {before} [1]"},
    ]
    case = make_case(category="follow-up", relevant_sections=["provider:nebius"], history=history)
    assert reading_scores(case, _answer(f"{leaning} [1]", leaning), BOOK)[0]["dangling_references"] == 0.0


def test_a_follow_up_answered_with_just_what_the_answer_before_it_said_is_a_repeat() -> None:
    said = f"{SECTION[0]} {SECTION[1]}"
    history = [
        {"role": "user", "content": "where?"},
        {"role": "assistant", "content": f"{SECTION[0]} [1] {SECTION[1]} [1]"},
    ]
    case = make_case(category="follow-up", relevant_sections=["provider:nebius"], history=history)
    same = _answer(f"{SECTION[0]} [1] {SECTION[1]} [1]", said)
    assert reading_scores(case, same, BOOK)[0]["repeated_answer"] == 1.0
    part = _answer(f"{SECTION[1]} [1]", SECTION[1])
    assert reading_scores(case, part, BOOK)[0]["repeated_answer"] == 0.0
    assert (
        "repeated_answer"
        not in reading_scores(make_case(relevant_sections=["provider:nebius"]), same, BOOK)[0]
    )


def test_an_faq_question_restated_before_its_direct_answer_is_read_past() -> None:
    """The restated question claims nothing: an open question answered "FAQ? Usually not." still misuses the
    yes/no opener, a yes/no question whose key facts state it still gets it as its lead, and the question's
    words state no key fact."""
    verdict, reason = "Usually not.", "For one notebook a single rented machine is simpler."
    book = SentenceBook({core(verdict): None, core(reason): core(verdict)}, frozenset({core(verdict)}))
    sections = ["faq-single-gpu-task"]
    text = f"Is Kubernetes worth it for a single GPU task? {verdict} [1] {reason} [1]"
    answer = _answer(text, f"{verdict} {reason}", sections[0])
    open_question = make_case(question="how do I run one notebook", form="open", relevant_sections=sections)
    assert reading_scores(open_question, answer, book)[0]["yes_no_misuse"] == 1.0
    yes_no = make_case(
        question="k8s for one task?",
        form="yes_no",
        relevant_sections=sections,
        key_facts=[["usually not"], ["rented machine"]],
    )
    assert reading_scores(yes_no, answer, book)[0]["lead_accuracy"] == 1.0  # the direct answer leads
    assert key_fact_recall(without_questions(answer.answer), [["worth it"]])[0] == 0.0


@pytest.mark.parametrize(
    ("lead_in", "lead"),
    [
        ("Support can mean two different things: [1] ", 1.0),  # one sentence of the guide with its first item
        ("Support can mean two different things. [1] ", 0.0),  # a statement of its own: the item comes second
    ],
)
def test_a_lead_in_is_read_with_the_first_item_of_its_list(lead_in: str, lead: float) -> None:
    case = make_case(relevant_sections=["kubernetes-support"], key_facts=[["managed kubernetes"]])
    text = f"{lead_in}Managed Kubernetes with GPU node pools. [1] GPU instances for your own cluster. [1]"
    answer = _answer(text, "Managed Kubernetes with GPU node pools.", "kubernetes-support")
    assert reading_scores(case, answer, BOOK)[0]["lead_accuracy"] == lead


@pytest.mark.parametrize(
    ("key_facts", "unexpected"),
    [
        # its writer answers with the verdict too
        ([["usually not"], ["rented machine"]], 0.0),
        # its writer's answer is the reason: the verdict answers another question
        ([["rented machine"]], 1.0),
    ],
)
def test_an_opener_no_key_fact_states_is_unexpected(key_facts: list[list[str]], unexpected: float) -> None:
    verdict, reason = "Usually not.", "For one notebook a single rented machine is simpler."
    book = SentenceBook({core(verdict): None, core(reason): core(verdict)}, frozenset({core(verdict)}))
    sections = ["faq-single-gpu-task"]
    case = make_case(
        question="k8s overkill for one task?", form="yes_no", relevant_sections=sections, key_facts=key_facts
    )
    with_verdict = _answer(f"{verdict} [1] {reason} [1]", f"{verdict} {reason}", sections[0])
    metrics = reading_scores(case, with_verdict, book)[0]
    assert metrics["unexpected_opener"] == unexpected
    assert metrics["lead_accuracy"] == 1.0 - unexpected  # an opener no key fact states does not lead
    without_verdict = _answer(f"{reason} [1]", reason, sections[0])
    assert reading_scores(case, without_verdict, book)[0]["unexpected_opener"] == 0.0
