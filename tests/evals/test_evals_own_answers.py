"""Follow-ups asked as people ask them: the history's answers are the assistant's own (`evals.own_answers`)."""

from __future__ import annotations

from assistant.models import Turn
from evals.own_answers import with_own_answers
from evals.runners import InProcessRunner
from tests.evals.helpers import make_case

FIRST, SECOND = "Which GPU sharing options should I look for?", "and what does MIG need?"


def test_each_written_answer_is_replaced_by_the_answer_to_the_question_before_it(assistant) -> None:
    written = [
        {"role": "user", "content": FIRST},
        {"role": "assistant", "content": "Time-slicing, MIG and MPS."},
        {"role": "user", "content": SECOND},
        {"role": "assistant", "content": "Ampere data center cards."},
    ]
    case = make_case(
        category="follow-up", question="and MPS?", relevant_sections=["gpu-sharing"], history=written
    )
    replayed = with_own_answers(case, InProcessRunner(assistant))
    first = assistant.ask(FIRST).answer
    second = assistant.ask(
        SECOND, history=[Turn(role="user", content=FIRST), Turn(role="assistant", content=first)]
    )
    assert [(turn.role, turn.content) for turn in replayed.history] == [
        ("user", FIRST),
        ("assistant", first),
        ("user", SECOND),
        ("assistant", second.answer),
    ]
    assert first != written[1]["content"] and replayed.question == case.question
