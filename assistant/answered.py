"""Questions already answered: the bank's questions about the guide, with the sentences that answer them.

People ask the same few things in many words. A new question close to labelled ones ("how does the kubelet
know a node has GPUs?" beside "how does a node tell the scheduler what it has?") is likely answered by the
sentences that answer them, even when it shares few words with those sentences. Two multinomial logistic
regressions learn this from the labels: which sentence answers first, and which sentences answer at all (each
labelled answer a sample). Their probabilities are a sentence's support. They read the question's query vector
and its spelling: the letter sequences of its words (tf-idf of 3- to 5-grams), which catch the cue words a
vector blurs ("downsides of Kubernetes against a plain instance" is near "when is a plain instance enough"),
Dutch compounds and typos; both parts weigh alike. Holding out each bank batch in turn, the spelling raised the
first sentence found from 0.726 to 0.748 and any answering sentence from 0.844 to 0.872.
A nearest-neighbour vote over the same labels found the answering sentence less often for the questions of a
batch the vote had not seen (the first sentence 0.69 against 0.73, any answering sentence 0.81 against 0.85,
holding out each bank batch in turn), and the composer leading with the right sentence less often on the
tuning sets (`evals/sentence_weights.py`).
Where the bank names the part of a long sentence that answers (the device plugin, of the sentence that also names
the container toolkit and the driver match), a third classifier per such sentence learns which part: it shares out
the sentence's support among its parts and leaves the sentence's own untouched, so the retrieval's vote and the
other sentences read as they did before parts were labelled (splitting the sentence into classes of its own lowered
its share against its neighbours, "and the container toolkit then, what's that for?" after a question on the GPU
Operator opened with the drivers FAQ).
The bank's follow-ups ("en heeft elke provider dat?" after "wat is mps") say which sentence answers what people
ask next. Classifiers fitted with them read a follow-up's vector after the question before it but spell only its own
words: fitted on one writer's follow-ups (batch 18), for another's (batch 19) they name the first answering sentence
for 0.687 against 0.616 for the classifiers without them, and 0.630 when they spell the question before it too;
fitted on three writers' batches, for the fourth's 0.652 to 0.711. A follow-up's support is the mean of theirs and
that of the classifiers without them for its reading: theirs alone lost what the question before gives a bare "and
what are its downsides?" (after time-slicing: the MPS item, not "No hard memory isolation."), and on the tuning sets'
follow-ups asked after the assistant's own answers the mean led with the answer in 0.882 against 0.863 (with batches
18 to 21; 0.861 without them). New questions' support is the classifiers' without them, which the sentence weights
were fitted on.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from langchain_core.embeddings import Embeddings
from scipy import sparse
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

from assistant.fitted import StartCache
from assistant.knowledge import KnowledgeBase, ParagraphKey
from assistant.understanding.bank import AnswerRef, BankQuestion

STRENGTH = 1.0  # sklearn's C, over standardized vectors: chosen holding out each bank batch (0.1 to 10 alike)
# sklearn's stopping tolerance: at its default (1e-4) the classifier of all answering sentences needs 138
# iterations, 9 s of loading; at 1e-3 it needs 26 and its probabilities move by 0.001 on average.
TOLERANCE = 1e-3
# A question's spelling: its words' letter sequences; a sequence in fewer than three questions says nothing.
_SPELLING = dict(
    analyzer="char_wb",
    ngram_range=(3, 5),
    strip_accents="unicode",
    sublinear_tf=True,
    min_df=3,
    max_features=5000,
)
# Recent questions whose spelling, and whose query vector (`HybridRetriever`), are kept for the next reading.
QUESTIONS_KEPT = 1024

SentenceKey = tuple[ParagraphKey, int]


class AnsweredQuestions:
    """The bank's guide questions and the guide's own FAQ questions, their query vectors and the sentences
    that answer them, as two fitted classifiers."""

    def __init__(
        self, questions: list[BankQuestion], vectors: np.ndarray, cache: StartCache | None = None
    ) -> None:
        """Fitted on the labelled guide questions, or read from `cache` when fitted on them before."""
        labelled = [
            i for i, question in enumerate(questions) if "guide" in question.intents and question.answers
        ]
        texts = [questions[i].text for i in labelled]
        labels = [questions[i].answers for i in labelled]
        arguments = (texts, labels, vectors[labelled])
        fitted = cache.computed(_fit, *arguments) if cache else _fit(*arguments)
        self._sentences = fitted.sentences
        self._leads, self._answers, self._parts = fitted.leads, fitted.answers, fitted.parts
        # The retrieval's vote and the composer both read a new question's spelling: it is computed once.
        self._spelled = lru_cache(maxsize=QUESTIONS_KEPT)(lambda text: fitted.spelling.transform([text]))

    @classmethod
    def from_knowledge(
        cls,
        knowledge: KnowledgeBase,
        embeddings: Embeddings,
        cache: StartCache,
        with_follow_ups: bool = False,
    ) -> AnsweredQuestions:
        """The bank, with its follow-ups if `with_follow_ups`, and each FAQ's question in each language answered by
        its paragraph, in order: the guide's own labelled questions (embedded here as queries, as the bank's were
        at index time)."""
        bank, bank_vectors = list(knowledge.questions), knowledge.question_vectors
        if with_follow_ups:
            bank, bank_vectors = (
                [*bank, *knowledge.follow_ups],
                np.vstack([bank_vectors, knowledge.follow_up_vectors]),
            )
        faq = [
            BankQuestion(
                title, language, frozenset({"guide"}), _whole_paragraph(key, len(paragraph.sentences["nl"]))
            )
            for key, paragraph in knowledge.paragraphs.items()
            if paragraph.kind == "faq" and key[1] == 0
            for language, title in paragraph.titles.items()
        ]
        if not faq:
            return cls(bank, bank_vectors, cache)
        vectors = cache.queries(embeddings, [question.text for question in faq])
        return cls([*bank, *faq], np.vstack([bank_vectors, vectors]), cache)

    def support(self, vector: np.ndarray, text: str) -> tuple[Support, Support]:
        """Per labelled sentence, the probability that it answers the question (its query vector and its
        words), and that it answers first; with each labelled part's share of its sentence's."""
        spelling = self._spelled(text)
        shares = {
            key: _shares(
                dict(zip(model.classes.tolist(), model.probabilities(vector, spelling), strict=True))
            )
            for key, model in self._parts.items()
        }
        answers, leads = (
            self._probabilities(model, vector, spelling) for model in (self._answers, self._leads)
        )
        return Support(answers, shares), Support(leads, shares)

    def leads(self, vector: np.ndarray, text: str) -> dict[SentenceKey, float]:
        """Per labelled sentence, the probability that it answers the question first."""
        return self._probabilities(self._leads, vector, self._spelled(text))

    def _probabilities(
        self, model: _Classifier | None, vector: np.ndarray, spelling: sparse.csr_matrix
    ) -> dict[SentenceKey, float]:
        if model is None:
            return {}
        probabilities = model.probabilities(vector, spelling)
        return {self._sentences[n]: float(p) for n, p in zip(model.classes, probabilities, strict=True)}


@dataclass(frozen=True)
class Support:
    """Per labelled sentence, the probability that it answers; a part of a sentence whose parts the bank labels
    (the device plugin of the sentence that also names the container toolkit and the driver match) gets it by its
    share: the likeliest part all of it, another in proportion to how likely it is to be the part that answers.
    A part of any other sentence, or the sentence whole, gets the sentence's."""

    sentences: dict[SentenceKey, float]
    shares: dict[SentenceKey, dict[int, float]]

    def blend(self, other: Support) -> Support:
        """The mean of two supports, sentence by sentence, with this one's shares of parts."""
        keys = self.sentences.keys() | other.sentences.keys()
        sentences = {key: (self.sentences.get(key, 0.0) + other.sentences.get(key, 0.0)) / 2 for key in keys}
        return Support(sentences, self.shares)

    def get(self, key: ParagraphKey, index: int, part: int | None = None) -> float:
        vote = self.sentences.get((key, index), 0.0)
        shares = self.shares.get((key, index))
        return vote if part is None or shares is None else vote * shares.get(part, 0.0)


@dataclass(frozen=True)
class _Fitted:
    """What fitting learns: the labelled sentences, the spelling's vocabulary and the classifiers."""

    sentences: list[SentenceKey]
    spelling: TfidfVectorizer
    leads: _Classifier | None
    answers: _Classifier | None
    parts: dict[SentenceKey, _Classifier]


def _fit(texts: list[str], labels: list[tuple[AnswerRef, ...]], vectors: np.ndarray) -> _Fitted:
    """The classifiers of the sentences that answer each question first and at all, and of their parts."""
    # A label names a sentence, or the part of it that answers: the sentences are classified first.
    answers = [list(dict.fromkeys(((s, p), sentence) for s, p, sentence, _ in refs)) for refs in labels]
    sentences: list[SentenceKey] = sorted({key for keys in answers for key in keys})
    number = {key: n for n, key in enumerate(sentences)}
    spelling = TfidfVectorizer(**_SPELLING).fit(texts)
    spellings = spelling.transform(texts)
    samples = [(row, number[key]) for row, keys in enumerate(answers) for key in keys]
    return _Fitted(
        sentences,
        spelling,
        leads=_fitted(vectors, spellings, [number[keys[0]] for keys in answers]),
        answers=_fitted_on_samples(vectors, spellings, samples),
        parts=_part_classifiers(labels, vectors, spellings),
    )


@dataclass(frozen=True)
class _Classifier:
    """A fitted scaler and multinomial logistic regression folded into one matrix: a question's probabilities
    are one product and a softmax, without sklearn's checks on every call (a millisecond per question)."""

    weights: np.ndarray  # (classes, dimensions)
    spelling_weights: np.ndarray  # (classes, letter sequences)
    bias: np.ndarray  # (classes,)
    classes: np.ndarray  # the label of each row: a sentence's number, or a part

    def probabilities(self, vector: np.ndarray, spelling: sparse.csr_matrix) -> np.ndarray:
        logits = (
            self.weights @ vector + self.spelling_weights[:, spelling.indices] @ spelling.data + self.bias
        )
        exponentials = np.exp(logits - logits.max())
        return exponentials / exponentials.sum()


def _fitted(vectors: np.ndarray, spellings: sparse.csr_matrix, labels: list[int]) -> _Classifier | None:
    """A classifier of the sentence numbers, or None when the labels name fewer than two sentences. A
    standardized vector's length is about the square root of its dimensions; each spelling (of length 1) is
    scaled to it, so that the two parts weigh alike."""
    if len(set(labels)) < 2:
        return None
    scaler = StandardScaler().fit(vectors)
    balance = np.sqrt(vectors.shape[1])
    features = sparse.hstack([sparse.csr_matrix(scaler.transform(vectors)), spellings * balance]).tocsr()
    regression = LogisticRegression(C=STRENGTH, tol=TOLERANCE, max_iter=5000).fit(features, labels)
    coefficients, intercepts = regression.coef_, regression.intercept_
    if len(regression.classes_) == 2:  # sklearn keeps one row for two classes: the second's logit against 0
        coefficients = np.vstack([np.zeros_like(coefficients), coefficients])
        intercepts = np.concatenate([[0.0], intercepts])
    dimensions = vectors.shape[1]
    weights = coefficients[:, :dimensions] / scaler.scale_
    spelling_weights = (coefficients[:, dimensions:] * balance).astype(np.float32)
    return _Classifier(weights, spelling_weights, intercepts - weights @ scaler.mean_, regression.classes_)


def _part_classifiers(
    labels: list[tuple[AnswerRef, ...]], vectors: np.ndarray, spellings: sparse.csr_matrix
) -> dict[SentenceKey, _Classifier]:
    """Per sentence whose parts the labels name, a classifier of which part answers, fitted on the questions
    that name one (each named part a sample; a label on the whole sentence says nothing of its parts)."""
    samples: dict[SentenceKey, list[tuple[int, int]]] = {}
    for row, refs in enumerate(labels):
        for s, p, sentence, part in refs:
            if part is not None:
                samples.setdefault(((s, p), sentence), []).append((row, part))
    found = {}
    for key, pairs in samples.items():
        model = _fitted_on_samples(vectors, spellings, pairs)
        if model is not None:
            found[key] = model
    return found


def _fitted_on_samples(
    vectors: np.ndarray, spellings: sparse.csr_matrix, samples: list[tuple[int, int]]
) -> _Classifier | None:
    """`_fitted` on (question row, label) samples: a question with several labels is a sample for each."""
    rows = [row for row, _ in samples]
    return _fitted(vectors[rows], spellings[rows], [label for _, label in samples])


def _shares(probabilities: dict[int, float]) -> dict[int, float]:
    """Each part's probability against the likeliest part's."""
    best = max(probabilities.values())
    return {part: float(p / best) for part, p in probabilities.items()}


def _whole_paragraph(key: ParagraphKey, sentences: int) -> tuple[AnswerRef, ...]:
    """Every sentence of a paragraph, in order (both languages have the same sentences; the corpus checks it)."""
    return tuple((*key, index, None) for index in range(sentences))
