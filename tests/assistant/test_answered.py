"""Questions already answered: the bank's labelled questions vote for the sentences that answer new ones."""

from __future__ import annotations

import numpy as np

from assistant.answered import AnsweredQuestions
from assistant.service import Assistant


def test_labelled_questions_lead_to_the_section_of_questions_they_did_not_include(
    assistant: Assistant,
) -> None:
    """Built from four fifths of the bank: for the rest, the sentence with the most lead votes comes from the
    section that the question's own label names first."""
    questions, vectors = assistant.knowledge.questions, assistant.knowledge.question_vectors
    order = np.random.default_rng(0).permutation(len(questions))
    held_out, kept = order[: len(order) // 5], order[len(order) // 5 :]
    answered = AnsweredQuestions([questions[i] for i in kept], vectors[kept])
    same_section = []
    for i in held_out:
        if not questions[i].answers:
            continue
        _, leads = answered.support(vectors[i])
        (section, _), _ = max(leads, key=leads.__getitem__)
        same_section.append(section == questions[i].answers[0][0])
    assert len(same_section) > 50
    assert np.mean(same_section) >= 0.7


def test_support_is_a_share_of_the_votes(assistant: Assistant) -> None:
    vector = assistant.retriever.query_vector("how does a node tell the scheduler how many GPUs it has?")
    answers, leads = AnsweredQuestions.from_knowledge(
        assistant.knowledge, assistant.retriever.embeddings
    ).support(vector)
    assert leads and answers
    assert all(0 < share <= 1.0 + 1e-9 for share in answers.values())
    assert sum(leads.values()) <= 1.0 + 1e-9
    assert all(answers[sentence] >= share for sentence, share in leads.items())
    for (key, index), _ in answers.items():  # every vote names a sentence the index holds
        assert index < len(assistant.knowledge.paragraphs[key].sentences["en"])
