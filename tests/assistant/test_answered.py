"""Questions already answered: classifiers of the bank's labelled questions tell which sentences answer new ones."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

from assistant.answered import STRENGTH, TOLERANCE, AnsweredQuestions, Support, _fitted
from assistant.retrieval import HybridRetriever
from assistant.service import Assistant
from assistant.text import split_clauses


def test_labelled_questions_lead_to_the_section_of_questions_they_did_not_include(
    assistant: Assistant,
) -> None:
    """Fitted on four fifths of the bank: for the rest, the likeliest first answer comes from the section that
    the question's own label names first."""
    questions, vectors = assistant.knowledge.questions, assistant.knowledge.question_vectors
    order = np.random.default_rng(0).permutation(len(questions))
    held_out, kept = order[: len(order) // 5], order[len(order) // 5 :]
    answered = AnsweredQuestions([questions[i] for i in kept], vectors[kept])
    same_section = []
    for i in held_out:
        if not questions[i].answers:
            continue
        leads = answered.leads(vectors[i], questions[i].text)
        (section, _), _ = max(leads, key=leads.__getitem__)
        same_section.append(section == questions[i].answers[0][0])
    assert len(same_section) > 50
    assert np.mean(same_section) >= 0.7


def test_support_is_a_probability_over_labelled_sentences(assistant: Assistant) -> None:
    question = "how does a node tell the scheduler how many GPUs it has?"
    answers, leads = AnsweredQuestions.from_knowledge(
        assistant.knowledge, assistant.retriever.embeddings, assistant.cache
    ).support(assistant.retriever.query_vector(question), question)
    assert leads and answers
    for support in (answers, leads):
        assert all(0 <= share <= 1.0 for share in support.sentences.values())
        assert abs(sum(support.sentences.values()) - 1.0) < 1e-6
    for (key, index), _ in answers.sentences.items():  # every sentence named is one the index holds
        assert index < len(assistant.knowledge.paragraphs[key].sentences["en"])
    for (key, index), shares in answers.shares.items():  # and every part: the likeliest gets all of its vote
        assert max(shares.values()) == 1.0 and all(0 <= share <= 1.0 for share in shares.values())
        assert all(
            part < len(split_clauses(assistant.knowledge.paragraphs[key].sentences["en"][index]))
            for part in shares
        )


def test_the_likeliest_first_answer_ranks_sections_better_for_questions_it_was_not_fitted_on(
    assistant: Assistant,
) -> None:
    """The retriever with the classifier fitted on four fifths of the bank, against the retriever without it:
    on the other fifth's guide questions, the first section found is the one labelled more often."""
    questions, vectors = assistant.knowledge.questions, assistant.knowledge.question_vectors
    order = np.random.default_rng(1).permutation(len(questions))
    held_out, kept = order[: len(order) // 5], order[len(order) // 5 :]
    answered = AnsweredQuestions([questions[i] for i in kept], vectors[kept])
    plain, learned = (
        HybridRetriever(knowledge=assistant.knowledge, embeddings=assistant.retriever.embeddings, answered=a)
        for a in (None, answered)
    )
    firsts = {"plain": [], "learned": []}
    for i in held_out:
        if not questions[i].answers or "providers" in questions[i].intents:
            continue
        section = questions[i].answers[0][0]
        for name, retriever in (("plain", plain), ("learned", learned)):
            first = retriever.invoke(questions[i].text)[0].metadata["section_id"]
            firsts[name].append(first == section)
    assert len(firsts["plain"]) > 50
    assert np.mean(firsts["learned"]) > np.mean(firsts["plain"])


@pytest.mark.parametrize("classes", [2, 5])
def test_the_folded_classifier_gives_the_probabilities_of_the_fitted_one(classes: int) -> None:
    """The scaler and regression folded into matrices answer as sklearn's own pipeline does, over the
    standardized vector beside the spelling scaled to its length."""
    rng = np.random.default_rng(classes)
    vectors = rng.normal(size=(200, 8)).astype(np.float32)
    words = np.array(["gpu", "node", "pod", "driver", "share", "delen", "kosten", "spot"])
    texts = [" ".join(rng.choice(words, 4)) for _ in range(200)]
    spellings = TfidfVectorizer(analyzer="char_wb", ngram_range=(3, 5)).fit_transform(texts)
    labels = [int(label) for label in rng.integers(0, classes, 200)]
    folded = _fitted(vectors, spellings, labels)
    scaler = StandardScaler().fit(vectors)
    features = sparse.hstack([sparse.csr_matrix(scaler.transform(vectors)), spellings * np.sqrt(8)]).tocsr()
    fitted = LogisticRegression(C=STRENGTH, tol=TOLERANCE, max_iter=5000).fit(features, labels)
    for row in range(5):
        expected = fitted.predict_proba(features[row])[0]
        assert np.allclose(folded.probabilities(vectors[row], spellings[row]), expected, atol=1e-6)


def test_a_part_gets_its_sentences_support_by_its_share_and_the_sentence_keeps_all_of_it() -> None:
    stack, other = ("kubernetes-support", 0), ("gpu-sharing", 1)
    support = Support({(stack, 1): 0.8, (other, 0): 0.2}, {(stack, 1): {1: 1.0, 2: 0.25, 3: 0.1}})
    assert support.get(stack, 1) == pytest.approx(0.8)  # the sentence whole
    assert support.get(stack, 1, 1) == pytest.approx(0.8)  # its likeliest part
    assert support.get(stack, 1, 2) == pytest.approx(0.2)
    assert support.get(other, 0, 1) == pytest.approx(0.2)  # no part labelled: a part reads its sentence's
    assert support.get(other, 5) == 0.0


def test_one_writers_follow_ups_teach_which_sentence_answers_another_writers(assistant: Assistant) -> None:
    """Fitted with the bank's follow-ups of batch 18 beside its questions, the classifiers name the labelled first
    answer of batch 19's follow-ups (another writer's) more often than those fitted on its questions alone, each
    follow-up spelt in its own words (with them) or read after the question before it (alone)."""
    knowledge = assistant.knowledge
    follow_ups, vectors = knowledge.follow_ups, knowledge.follow_up_vectors
    assert follow_ups and not any(question.follows for question in knowledge.questions)
    fitted_on = [i for i, question in enumerate(follow_ups) if question.batch == "batch-18"]
    asked = [i for i, question in enumerate(follow_ups) if question.batch == "batch-19"]
    alone = AnsweredQuestions(knowledge.questions, knowledge.question_vectors)
    with_follow_ups = AnsweredQuestions(
        [*knowledge.questions, *(follow_ups[i] for i in fitted_on)],
        np.vstack([knowledge.question_vectors, vectors[fitted_on]]),
    )
    found: dict[str, list[bool]] = {"alone": [], "with follow-ups": []}
    for i in asked:
        question = follow_ups[i]
        for name, leads in (
            ("alone", alone.leads(vectors[i], f"{question.after} {question.text}")),
            ("with follow-ups", with_follow_ups.leads(vectors[i], question.text)),
        ):
            (key, index) = max(leads, key=leads.__getitem__)
            found[name].append((*key, index) == question.answers[0][:3])
    assert len(asked) > 300
    assert np.mean(found["with follow-ups"]) > np.mean(found["alone"]) + 0.03
