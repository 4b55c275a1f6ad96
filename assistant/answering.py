"""Extractive answers: the sentences of the corpus that answer the question, each with its citation.

No language model is involved. Every candidate sentence inside the best paragraphs earns its place on its
own: its embedding similarity to the question (the better of its two languages), how much of the question's
focus it states (the question's distinctive words, weighted by their rarity in the guide), whether it answers
the bank's questions most like this one (`answered.py`), and its paragraph's similarity and rank. The best
sentence leads with the rest of its list item (an item makes one point), or an FAQ's answer as written, from
the sentence that answers on (a yes/no question gets it whole); others join when they are likely to answer.
A question for the members of a kind gets the guide's list of them, a list's lead-in is quoted only leading
its list, and a list quoted whole in its order ends with the sentence after it that speaks of all its items
("Both are legitimate forms …", `lists.py`). A sentence that says again what one already chosen says does not join.
A yes/no question may open with the FAQ's direct answer ("Usually not."), after the FAQ's question it answers,
when it asks that question as the FAQ asks it (by the bank's labels); other questions never do. A sentence that
leans on the one before it comes with it or not at all (`coherence.py`), or offers the part of it that stands
alone ("version mismatches are the most common cause …", `spans.py`), which may lead with its list item after it.
A follow-up's answer does not quote again, to lead up to the sentence that answers, what the answer before it
quoted and its asker has just read ("The GPU Operator eases this pain, …" after the driver and CUDA item), and
one about a detail of the sentence its asker has just read gets that detail (`details.py`); one that turns to
another thing of the guide ("and what storage do they need?" after the batch jobs item) opens with what states it.
A question about providers leads with what each record says of the asked facts (`record_quotes.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

import numpy as np
from langchain_core.documents import Document

from assistant.answered import AnsweredQuestions
from assistant.choice import Choice, stated_share, stated_terms
from assistant.coherence import Coherence, Said
from assistant.details import asks_drawback, load_details, singled_out
from assistant.fitted import StartCache
from assistant.followup import chooses
from assistant.knowledge import KnowledgeBase, ParagraphKey, paragraph_key
from assistant.lists import GuideLists
from assistant.models import Citation, Language
from assistant.providers.documents import PROVIDER_KIND, FactSentences
from assistant.record_quotes import RecordQuotes
from assistant.retrieval import HybridRetriever
from assistant.sentences import SentenceFacts
from assistant.spans import Part, load_spans
from assistant.text import content_terms, fold
from assistant.topics import name_terms
from assistant.understanding.analysis import QuestionAnalysis
from assistant.understanding.form import comparison_terms

MAX_SENTENCES = 3
_CANDIDATE_PARAGRAPHS = 5
_GUIDE_PART = 2  # a question that asks the guide and for providers: the guide's answer in this many sentences
# A logistic regression over FEATURES, fitted on the tuning sets' answerable questions (a sentence answers
# when its section is relevant and it states a key fact): `python -m evals.sentence_weights` prints these.
FEATURES = (
    "sentence similarity",
    "paragraph similarity",
    "paragraph rank",
    "focus stated",
    "best paragraph",
    "answers similar questions",  # `assistant/answered.py`
    "leads for similar questions",
)
WEIGHTS = np.array([2.11, 11.92, 4.00, 0.69, -1.28, 3.09, 1.51])
BIAS = -16.25
# The probability at which a sentence joins the lead. On the tuning sets, lowering it from 0.5 to 0.3 raised key
# facts on 13 of 18 sets (by up to 2.5 points, on none fewer) with sentence precision within a point; at 0.2
# sentence precision fell 1.8 points, at 0.1 ten: below 0.3 the sentences that join are padding.
JOINS = 0.3
# A follow-up's other reading's share of the vector its sentences are scored against (`Composer._query`): the
# tuning sets' 135 follow-ups with key facts lead with the answer in 0.73 to 0.75 of cases from 0.2 to 0.5, and
# in 0.70 at 0 (their key facts: 0.80 to 0.81 against 0.78).
_OTHER_READING = 0.3
# A sentence that joins must say something the answer has not said: one whose words overlap this much (Jaccard,
# both languages) with a sentence already quoted repeats it. Set on the guide itself, not on questions: its one
# near-verbatim repeat (the single-notebook advice, in the body and again in its FAQ) overlaps 0.52; the next
# most alike pair of sentences, which say different things, 0.28.
_REPEATS = 0.4
# The probability (`AnsweredQuestions.leads`) from which an FAQ's direct answer is taken to answer a yes/no
# question as asked. On the tuning sets' 1,203 yes/no questions with key facts, from 0.003 to 0.012 the openers no
# key fact states fall from 125 to 50-57 and those a key fact states stay at 128-130 of 133; from 0.02 on, more of
# these are lost (124 at 0.02, 107 at 0.4).
VERDICT_FITS = 0.01
# The share of the question's focus stated by a leaning sentence that the part of it that stands alone must state
# too, to open the answer in its place (`Composer._opening`): the part may leave out a word as common in the guide
# as "GPU", not the thing asked about ("The GPU Operator eases this pain, but …", asked whether it fixes that).
_PART_KEEPS = 0.9


class Composer:
    """Chooses sentences and numbers their citations; the best support comes first."""

    def __init__(
        self,
        knowledge: KnowledgeBase,
        retriever: HybridRetriever,
        answered: AnsweredQuestions,
        answered_follow_ups: AnsweredQuestions,  # fitted with the bank's follow-ups too (`answered.py`)
        sentence_selection: bool,
        subject_terms: frozenset[str],
        record_facts: Mapping[str, Mapping[str, FactSentences]],
        cache: StartCache,
    ) -> None:
        self._knowledge = knowledge
        self._retriever = retriever
        self._sentence_selection = sentence_selection
        self._facts = SentenceFacts(knowledge)
        self._answered = answered
        self._answered_follow_ups = answered_follow_ups
        self._spans = load_spans(
            knowledge, partial(cache.passages, retriever.embeddings), self._facts.is_direct_answer
        )
        self._details = load_details(knowledge, self._spans, self._facts.is_direct_answer)
        self._subject_terms = subject_terms  # provider names: what a question is about, not what it asks
        self._coherence = Coherence(knowledge, self._facts, MAX_SENTENCES)
        self._lists = GuideLists(knowledge, self._facts, self._spans)
        self._records = RecordQuotes(knowledge, self._facts, self._coherence, record_facts)
        # The guide's sentences in each language, as `_read` looks for them.
        self._folded: dict[str, dict[tuple[ParagraphKey, int], str]] = {}
        for key, paragraph in knowledge.paragraphs.items():
            if paragraph.kind == PROVIDER_KIND:
                continue
            for language, sentences in paragraph.sentences.items():
                for index, sentence in enumerate(sentences):
                    self._folded.setdefault(language, {})[key, index] = fold(sentence)

    def _query(self, analysis: QuestionAnalysis) -> np.ndarray:
        """The vector sentences are scored against: the question's reading (`QuestionAnalysis.reading`). A
        follow-up's mixes in its other reading: its words with the question before them when it is read on its
        own ("and for distributed training?" still continues the topic), else its own words, which say what it
        adds to the topic it points back to ("and how is MPS different from it?" after "What is MIG?")."""
        reading = self._retriever.query_vector(analysis.reading)
        if analysis.context is None:
            return reading
        other = analysis.search_text if analysis.reading == analysis.asked else analysis.asked
        mixed = (1 - _OTHER_READING) * reading + _OTHER_READING * self._retriever.query_vector(other)
        return (mixed / np.linalg.norm(mixed)).astype(np.float32)

    def _focus(self, analysis: QuestionAnalysis) -> dict[str, float]:
        """The question's words that the corpus knows, each weighted by its rarity in the guide."""
        return self._weighed(analysis.reading)

    def _weighed(self, text: str) -> dict[str, float]:
        """The words of `text` that the corpus knows, but provider names, each by its rarity in the guide."""
        terms = set(content_terms(text)) - self._subject_terms
        # A lone letter is what is left of a clitic split off at its apostrophe ("gpu's", "don't").
        return {
            term: self._facts.rarity(term) for term in terms if len(term) > 1 and self._retriever.knows(term)
        }

    def candidates(self, hits: list[Document], analysis: QuestionAnalysis) -> list[tuple[Choice, np.ndarray]]:
        """Every quotable sentence of the best paragraphs with its FEATURES (score 0 until weighed)."""
        vector, focus = self._query(analysis), self._focus(analysis)
        answers, leads = self._answered.support(vector, analysis.reading)
        if analysis.context:  # and what the bank's follow-ups say is asked next (`answered.py`)
            next_answers, next_leads = self._answered_follow_ups.support(vector, analysis.asked)
            answers, leads = answers.blend(next_answers), leads.blend(next_leads)
        found = []
        for rank, hit in enumerate(hits[:_CANDIDATE_PARAGRAPHS], start=1):
            key = paragraph_key(hit.metadata)
            similarity = self._knowledge.paragraphs[key].similarities(vector)
            for index in range(len(similarity)):
                spans = self._spans.get((key, index), [])
                quotable = self._facts.quotable(key, index) or self._facts.introduces_list(key, index)
                if not (quotable or spans):
                    continue
                context = [hit.metadata["dense"], 1.0 / rank, float(rank == 1)]
                units = [(span.part, float(np.max(span.vectors @ vector)), span.terms) for span in spans]
                covered = any(span.covers_sentence for span in spans)
                if quotable and not (covered and self._facts.leans(key, index)):  # parts stand alone for it
                    units.append((None, similarity[index], self._facts.terms(key, index)))
                for part, unit_similarity, terms in units:
                    stated = stated_share(terms, focus)
                    votes = [answers.get(key, index, part), leads.get(key, index, part)]
                    features = [unit_similarity, context[0], context[1], stated, context[2], *votes]
                    found.append((Choice(key, index, 0.0, part), np.array(features)))
        return found

    def _score(self, hits: list[Document], analysis: QuestionAnalysis) -> list[Choice]:
        """Every quotable sentence of the best paragraphs with the probability that it answers, best first."""
        choices = [
            Choice(
                choice.key, choice.index, float(1 / (1 + np.exp(-(features @ WEIGHTS + BIAS)))), choice.part
            )
            for choice, features in self.candidates(hits, analysis)
        ]
        return sorted(choices, key=lambda choice: -choice.score)

    def _select(
        self,
        hits: list[Document],
        analysis: QuestionAnalysis,
        records: list[str],
        price_sentences: Mapping[str, int],
    ) -> list[Choice]:
        if not self._sentence_selection:  # the whole best paragraph, for the ablation
            key = paragraph_key(hits[0].metadata)
            return [Choice(key, i, 0.0) for i in range(len(self._knowledge.paragraphs[key].sentences["nl"]))]
        if records:
            vector, focus = self._query(analysis), self._focus(analysis)
            chosen = self._records.choose(analysis, records, price_sentences, vector, focus)
            asks_both = {"guide", "providers"} <= analysis.intents
            guide_hits = [hit for hit in hits if self._kind_of(hit) != PROVIDER_KIND] if asks_both else []
            if guide_hits:
                # It asks both: the guide's answer leads, then the records that match. A bare "Often yes"
                # answers neither half, so no FAQ's direct yes/no answer opens it.
                guide = self._guide_answer(guide_hits, analysis, direct_answer=False)
                # A lead-in keeps its whole list: cut short, it would promise items it does not give.
                kept = len(guide) if any(self._lists.lead_in(choice) for choice in guide) else _GUIDE_PART
                return guide[:kept] + self._coherence.coherent(chosen)
            if "providers" in analysis.intents or "guide" in analysis.intents:  # a list, or a "what is"
                chosen += self._records.guide_on_facts(chosen, vector, focus)
            return self._coherence.coherent(chosen)
        return self._guide_answer(hits, analysis)

    def _guide_answer(
        self, hits: list[Document], analysis: QuestionAnalysis, direct_answer: bool = True
    ) -> list[Choice]:
        """The sentences that answer from the guide: an FAQ's answer as written, or the best sentence and
        those likely to answer with it; a yes/no question that asks the FAQ's question as asked opens with its
        direct answer, if `direct_answer`."""
        scored, focus = self._score(hits, analysis), self._focus(analysis)
        verdicts = self._verdicts(analysis) if direct_answer else frozenset()
        others = self._other_items(scored, analysis)
        if others:  # the earlier question's item is known: the others are what is asked
            return self._coherence.coherent(others[:1]) + others[1:]
        read = self._read(analysis)
        picked = self._picked(scored, analysis, read)
        if picked:  # the choice is among what the answer before named
            return self._coherence.coherent([picked, *self._rest_of_item(picked)])
        chosen = self._answer_from(
            scored, analysis, focus, verdicts, read, self._just_read(read, scored, analysis)
        )
        if not analysis.compares and self._turns_away(chosen, scored, read, analysis.turns_to):
            # It turns to another thing of the guide ("and what storage do they need?" after the batch jobs item):
            # the sentence that states it leads, and what its asker has just read is not quoted again unless it
            # states that thing too. One that sets what it read against another thing still needs both.
            scored = [c for c in scored if (c.key, c.index) not in read or self._terms(c) & analysis.turns_to]
            chosen = self._answer_from(
                scored, analysis, focus, verdicts, read, self._just_read(read, scored, analysis)
            )
        if read and all(choice.part is None and (choice.key, choice.index) in read for choice in chosen):
            # It would say again just what its asker has read: all of that is taken as read, so the sentence
            # that answers best may open without what it leans on ("Without these, distributed jobs stall …",
            # asked "what happens if I skip those?" after the checklist and it).
            chosen = self._answer_from(scored, analysis, focus, verdicts, read, read)
        return chosen

    def _picked(self, scored: list[Choice], analysis: QuestionAnalysis, read: Said) -> Choice | None:
        """For a follow-up that chooses among the list items the answer before it quoted ("which of those gives
        real isolation?" after the ways to share a GPU, "welke daarvan werkt alleen op nieuwere kaarten"): the
        item that answers it best, for the choice is one of them, not a sentence about them all ("To share a card,
        you need …"). None for any other question, or when that answer quoted fewer than two items."""
        if analysis.context is None or not chooses(analysis.asked):
            return None
        items = {key for key, _ in read if self._knowledge.paragraphs[key].bullet}
        if len(items) < 2:
            return None
        return next(
            (c for c in scored if c.part is None and c.key in items and (c.key, c.index) in read), None
        )

    def _turns_away(
        self, chosen: list[Choice], scored: list[Choice], read: Said, turns_to: frozenset[str]
    ) -> bool:
        """Whether an answer would quote again, whole, a sentence its asker has just read that does not state the
        thing of the guide the follow-up turns to (`turns_to`), though a sentence likely to answer (JOINS) and not
        yet read states it: as its lead, or beside a lead that states it. A detail that opens the answer is left
        alone."""
        if not turns_to or chosen[0].part is not None:
            return False
        again = any(
            (choice.key, choice.index) in read and choice.part is None and not self._terms(choice) & turns_to
            for choice in chosen
        )
        return again and any(
            choice.score >= JOINS
            and (choice.key, choice.index) not in read
            and self._terms(choice) & turns_to
            for choice in scored
        )

    def _answer_from(
        self,
        scored: list[Choice],
        analysis: QuestionAnalysis,
        focus: dict[str, float],
        verdicts: frozenset[ParagraphKey],
        read: Said,
        said: Said,
    ) -> list[Choice]:
        """The answer from the scored sentences: the best that can lead and those likely to answer with it,
        what the asker has `read` and is `said` to know taken into account."""
        # Only sentences that can be quoted coherently count. One leads when it needs at most the sentence
        # it leans on, so the answer comes by the second sentence, not after a chain of what it refers to.
        quotable = [choice for choice in scored if self._coherence.coherent([choice], said)] or scored
        best = next((c for c in quotable if self._coherence.can_lead(c, said)), quotable[0])
        lead = self._lists.through_lead_in(self._opening(best, quotable, said, focus))
        members = self._lists.members_asked(lead, analysis, focus)
        if not members and self._lists.lead_in(lead):  # what it says, then the list it introduces
            members = [lead, *self._lists.listed(lead.key)]
        if members:  # as the guide lists them: the parts of one sentence, or list items that open with a name
            members = self._coherence.coherent(members[:1]) + members[1:]
            return members + self._lists.closing(members)
        is_faq = self._kind(lead) == "faq"
        whole_faq = is_faq and lead.key in verdicts
        lead_with = self._faq_answer(lead, whole=whole_faq) if is_faq else [lead, *self._rest_of_item(lead)]
        # A yes/no question's FAQ answer is quoted whole, its direct answer first, however long it is: `lead_with`
        # holds the FAQ's other sentences (a direct answer is not quotable alone) and 1 counts the direct answer, so
        # nothing joins after a whole FAQ unless it is shorter than MAX_SENTENCES.
        length = max(MAX_SENTENCES, 1 + len(lead_with)) if whole_faq else MAX_SENTENCES
        chosen = lead_with[:length]
        if analysis.compares:  # both sides before any other sentence joins
            comparing = comparison_terms(analysis.question)
            sides = {term: weight for term, weight in focus.items() if term not in comparing}
            chosen += self._other_side(quotable, chosen, sides)
        quoted = {(choice.key, choice.index) for choice in chosen}
        joining: list[Choice] = []
        for c in quotable:
            eligible = (c.key, c.index) not in quoted and c.score >= JOINS and not self._lists.lead_in(c)
            if eligible and not self._repeats(c, chosen + joining):
                joining.append(c)
        chosen = self._coherence.coherent(_not_again(chosen + joining, lead, said)[:length], said)
        chosen = self._asked_detail(analysis, chosen, read)
        if analysis.compares and len({choice.key[0] for choice in chosen}) == 1:
            chosen = self._in_named_order(chosen, analysis)
        if chosen[0].key in verdicts:
            chosen = self._with_direct_answer(chosen, chosen[0].key, length)
        return chosen + self._lists.closing(chosen)

    def _opening(self, best: Choice, quotable: list[Choice], said: Said, focus: dict[str, float]) -> Choice:
        """What opens the answer: the best sentence, or the part of it that stands alone (`spans.py`) when the
        whole would open with the sentence it leans on, that sentence is less likely to answer than the part,
        and the part states nearly all of the question's focus that the whole states (`_PART_KEEPS`): asked why
        pods crash, "version mismatches are the most common cause of pods that schedule but then crash", not
        "Driver and CUDA alignment — …" before "The GPU Operator eases this pain, but …"; asked whether the GPU
        Operator fixes that, the whole. A sentence about the list before it ("Both are legitimate forms …, but
        the operational burden is very different") speaks of its items in every part; and a follow-up whose own
        words the sentence does not state ("how do I prevent that?") gives no reason to cut it."""
        opening = self._coherence.coherent([best], said)[0]
        if best.part is not None or best.index == 0 or (opening.key, opening.index) == (best.key, best.index):
            return best
        likely = {(c.key, c.index): c.score for c in quotable if c.part is None}
        asked = _PART_KEEPS * stated_share(self._terms(best), focus)
        parts = [
            c
            for c in quotable
            if (c.key, c.index) == (best.key, best.index)
            and c.part is not None
            and 0 < asked <= stated_share(self._terms(c), focus)
        ]
        part = max(parts, key=lambda c: c.score, default=None)
        if part is None or part.score <= likely.get((opening.key, opening.index), 0.0):
            return best
        return part

    def _read(self, analysis: QuestionAnalysis) -> Said:
        """The guide's sentences that the answer just before the question quoted whole, in the language this answer
        is given in: what its asker has just read, and what a sentence of this answer may point back to ("De GPU
        Operator vermindert deze pijn" does not point back to the driver item read in English)."""
        if not analysis.answered_before:
            return frozenset()
        answered = fold(analysis.answered_before)
        return frozenset(
            key for key, sentence in self._folded[analysis.language].items() if sentence in answered
        )

    def _just_read(self, read: Said, scored: list[Choice], analysis: QuestionAnalysis) -> Said:
        """Of what the asker has just `read`, what is unlikely (under JOINS) to answer the follow-up itself:
        context. One that answers it too stays quotable ("which of those is the strongest case?" needs the item
        "This is …" is about), but for the sentence the answer before ended with: the conversation goes on from
        it, so what leans on it need not quote it again ("Others give you bare GPU nodes …", asked "and if they
        don't?" after "Providers that ship the NVIDIA GPU Operator … install the driver … for you.")."""
        answering = {
            (choice.key, choice.index) for choice in scored if choice.score >= JOINS and choice.part is None
        }
        return (read - answering) | self._last_read(read, analysis)

    def _last_read(self, read: Said, analysis: QuestionAnalysis) -> Said:
        """Of what the asker has just `read`, the sentence that ended the answer before the question."""
        if not read or not analysis.answered_before:
            return frozenset()
        answered, sentences = fold(analysis.answered_before), self._folded[analysis.language]
        return frozenset({max(read, key=lambda key: answered.rfind(sentences[key]) + len(sentences[key]))})

    def _asked_detail(self, analysis: QuestionAnalysis, chosen: list[Choice], read: Said) -> list[Choice]:
        """A follow-up that asks about a detail of the sentence its answer would open with again, which its
        asker has just read whole ("does it work on older cards like a V100?" after the MIG item): that detail
        (`details.py`) opens it instead, and nothing else the asker has read is quoted again. One that sets the
        thing against another ("how does it compare with time-slicing?") or chooses it among others ("which one's
        less work?") asks about all of it. An answer that would open with a part of a listing sentence read whole
        opens with the part the follow-up's words single out ("whats the point of the toolkit?" after the
        components sentence: not the device plugin's part)."""
        lead = chosen[0]
        where = (lead.key, lead.index)
        if lead.part is None:
            details = self._details.get(where, [])
        else:
            details = [span for span in self._spans.get(where, []) if span.covers_sentence]
        if analysis.compares or chooses(analysis.asked) or where not in read or not details:
            return chosen
        asked = self._weighed(analysis.asked)
        detail = singled_out(details, asked, asks_drawback(analysis.asked))
        if detail is None or detail.part == lead.part:
            return chosen
        rest = [choice for choice in chosen[1:] if (choice.key, choice.index) not in read]
        return self._coherence.coherent([Choice(lead.key, lead.index, lead.score, detail.part), *rest])

    def _verdicts(self, analysis: QuestionAnalysis) -> frozenset[ParagraphKey]:
        """The FAQs whose direct answer ("Usually not.") answers the question as asked: a yes/no question that,
        by the bank's labels (`answered.py`), may be answered first by it. "Is k8s overkill for one notebook?"
        reads nearly as "is it worth it?" to the scorer, yet "Usually not" would say it is not overkill; and
        "can one pod get two GPUs?" is no question of whether pods share one."""
        if analysis.form != "yes_no":
            return frozenset()
        leads = self._answered.leads(self._query(analysis), analysis.reading)
        return frozenset(
            key
            for (key, index), probability in leads.items()
            if probability >= VERDICT_FITS and self._facts.is_direct_answer(key, index)
        )

    def _other_items(self, scored: list[Choice], analysis: QuestionAnalysis) -> list[Choice]:
        """For a follow-up that asks for another than the earlier one ("and with the other option?" after "who
        runs the control plane with managed k8s?", "what should i use instead?" after time-slicing): the other
        items of the list, in its order, when the earlier question was about an item of a list (of the candidate
        paragraphs, the one most like it). None otherwise."""
        if not analysis.sets_against or analysis.context is None:
            return []
        earlier = self._retriever.query_vector(analysis.context)
        paragraphs = self._knowledge.paragraphs
        about = max(
            {choice.key for choice in scored},
            key=lambda key: float(np.max(paragraphs[key].similarities(earlier))),
        )
        if not paragraphs[about].bullet:
            return []
        return [choice for choice in self._lists.listed(about) if choice.key != about]

    def _repeats(self, choice: Choice, chosen: list[Choice]) -> bool:
        """Whether a guide sentence says again what another one already chosen says (`_REPEATS`). A part and
        its own sentence are left to the rule that quotes a sentence once; records are not compared: two records
        word a fact alike, each about its own provider."""
        if self._kind(choice) == PROVIDER_KIND:
            return False
        words = self._terms(choice)
        others = (
            self._terms(other)
            for other in chosen
            if self._kind(other) != PROVIDER_KIND and (other.key, other.index) != (choice.key, choice.index)
        )
        return any(len(words & other) >= _REPEATS * len(words | other) for other in others)

    def _rest_of_item(self, lead: Choice) -> list[Choice]:
        """The rest of the lead's list item: an item of the guide's lists makes one point, whole ("Billing model —
        you still pay for the nodes … Idle GPU nodes are the silent cost; …"). After a later sentence of it
        ("Idle GPU nodes are the silent cost …" for "how do I stop paying for idle nodes?"), the sentence that
        opens it follows, for it names the item and states its point; after a part of one of its sentences, the
        item's other sentences."""
        if not self._knowledge.paragraphs[lead.key].bullet:
            return []
        item = self._quotable_from(lead.key, 0, lead.score)
        if lead.part is None:  # its later sentences, then the earlier ones, which name the item and its point
            return [c for c in item if c.index > lead.index] + [c for c in item if c.index < lead.index]
        # A part that stands alone leads ("Version mismatches are the most common cause …"); the item follows.
        return [choice for choice in item if choice.index != lead.index]

    def _quotable_from(self, key: ParagraphKey, first: int, score: float) -> list[Choice]:
        """The paragraph's quotable sentences from position `first` on, in order."""
        count = len(self._knowledge.paragraphs[key].sentences["nl"])
        return [Choice(key, i, score) for i in range(first, count) if self._facts.quotable(key, i)]

    def _other_side(
        self, scored: list[Choice], chosen: list[Choice], focus: dict[str, float]
    ) -> list[Choice]:
        """For a question that sets things side by side, the best sentence about a word of the question that
        the chosen ones are not about: the other side ("managed Kubernetes versus VMs in my own cluster" quotes
        both), when the chosen ones leave room for it. Beside an item of a list, the item of another list is
        no other side (MPS is not compared with the item on one's own cluster for their shared word "GPU"), and
        the items of its own list are sides though retrieval did not reach them. The list item named for it comes
        before any sentence that mentions it ("time-slicing and MPS": the time-slicing item, not "such as
        time-slicing, MPS or MIG")."""
        if len(chosen) >= MAX_SENTENCES:
            return []
        stated = set().union(*(self._about(choice, focus) for choice in chosen))
        lists = {item for choice in chosen for item in self._facts.list_items(choice.key)}
        reached = {(c.key, c.index) for c in [*scored, *chosen]}
        listed = {item for choice in chosen for item in self._lists.listed(choice.key)}
        unreached = sorted(
            (item for item in listed if (item.key, item.index) not in reached), key=lambda c: c.key
        )
        sides = [
            c
            for c in [*scored, *unreached]
            if c not in chosen
            and not self._lists.lead_in(c)
            and not (lists and self._lists.opens_item(c) and c.key not in lists)
            and self._about(c, focus) - stated
        ]
        return sorted(sides, key=lambda choice: not self._lists.opens_item(choice))[:1]

    def _in_named_order(self, chosen: list[Choice], analysis: QuestionAnalysis) -> list[Choice]:
        """Things set side by side in the order the question names them ("how does MPS compare to
        time-slicing?" quotes MPS first), each by the words only it is about, then as the guide has them; what
        the question does not name (a follow-up's "it") comes after what it names. With a sentence that leans on
        what comes before it ("Both are legitimate forms …"), all stay in the guide's order, which it relies on."""
        if any(choice.part is None and self._facts.leans(choice.key, choice.index) for choice in chosen):
            return sorted(chosen, key=lambda choice: (choice.key[1], choice.index))
        named_at: dict[str, int] = {}
        for position, word in enumerate(content_terms(analysis.question)):
            named_at.setdefault(word, position)
        focus = self._focus(analysis)
        about = [self._about(choice, focus) for choice in chosen]

        def order(i: int) -> tuple[int, int, int]:
            others = set().union(*(words for j, words in enumerate(about) if j != i))
            own = (about[i] - others or about[i]) & named_at.keys()
            first = min((named_at[word] for word in own), default=len(named_at))
            return first, chosen[i].key[1], chosen[i].index

        return [chosen[i] for i in sorted(range(len(chosen)), key=order)]

    def _about(self, choice: Choice, focus: dict[str, float]) -> set[str]:
        """The words of the question that a sentence is about: a list item's name when it opens the item
        ("MPS (Multi-Process Service) — … less overhead than time-slicing" is about MPS, and time-slicing is
        the other side), else every word of the question it states."""
        if self._lists.opens_item(choice):
            return name_terms(self._knowledge.paragraphs[choice.key]) & focus.keys()
        return stated_terms(self._terms(choice), focus)

    def _faq_answer(self, lead: Choice, whole: bool) -> list[Choice]:
        """An FAQ's answer is written as one: its sentences in order. A yes/no question gets it `whole` after
        its direct answer; another question gets it from the sentence that answers best on ("When does
        Kubernetes pay off?" starts at "Kubernetes pays off once …", not at the single-task case before it),
        with what that sentence leans on."""
        if whole:
            return self._quotable_from(lead.key, 0, 1.0)
        sentences = self._quotable_from(lead.key, lead.index, 1.0)
        reason = [lead] if lead.part is not None else []  # the part that answers, before its whole sentence
        return (reason + sentences)[:MAX_SENTENCES]

    def _kind(self, choice: Choice) -> str:
        return self._knowledge.paragraphs[choice.key].kind

    def _kind_of(self, hit: Document) -> str:
        return self._knowledge.paragraphs[paragraph_key(hit.metadata)].kind

    def _terms(self, choice: Choice) -> frozenset[str]:
        if choice.part is None:
            return self._facts.terms(choice.key, choice.index)
        return self._part(choice).terms

    def _with_direct_answer(self, chosen: list[Choice], best: ParagraphKey, length: int) -> list[Choice]:
        """A yes/no question whose answer leads with an FAQ opens with that FAQ's direct answer, whole; the
        answer stays within `length` sentences."""
        rest = [choice for choice in chosen if (choice.key, choice.index) != (best, 0)]
        return [Choice(best, 0, chosen[0].score), *rest[: length - 1]]

    def _asks(self, choice: Choice, language: Language) -> str:
        """Before an FAQ's direct answer, the FAQ's question it answers: "Often yes" is right for "are the
        drivers preinstalled?" and wrong for "do I still have to bake them into my images?", and a question
        asked the other way round reads nearly the same to the scorer, so the answer says which it answers."""
        if choice.part is None and self._facts.is_direct_answer(choice.key, choice.index):
            return f"{self._knowledge.paragraphs[choice.key].titles[language]} "
        return ""

    def _sentence(self, choice: Choice, language: Language) -> str:
        return self._knowledge.paragraphs[choice.key].sentences[language][choice.index]

    def _quote(self, choice: Choice, language: Language) -> str:
        """The corpus text quoted for a choice, word for word: its sentence, or the part of it."""
        if choice.part is None:
            return self._sentence(choice, language)
        return self._part(choice).texts[language]

    def _part(self, choice: Choice) -> Part:
        """The part of its sentence a choice quotes: one scored for every question, or a detail."""
        where = (choice.key, choice.index)
        return next(
            s for s in [*self._spans.get(where, []), *self._details.get(where, [])] if s.part == choice.part
        )

    def compose(
        self,
        hits: list[Document],
        analysis: QuestionAnalysis,
        records: list[str],
        price_sentences: Mapping[str, int],
    ) -> tuple[str, list[Citation]]:
        """The answer text with [n] markers, and its citations in order of relevance.

        `records` are the slugs of the provider records the answer quotes first: those the question names,
        else the best matches of its filter; empty for a question about the guide alone. `price_sentences`
        names, per record, the price sentence to quote when the question asks a price.
        """
        language: Language = analysis.language
        chosen = self._select(hits, analysis, records, price_sentences)
        lead_in_paragraphs = {choice.key for choice in chosen if self._lists.lead_in(choice)}
        groups: dict[tuple[str, tuple[int, ...]], list[Choice]] = {}
        for choice in chosen:
            groups.setdefault(_citation_group(choice, lead_in_paragraphs), []).append(choice)
        parts, citations = [], []
        for n, ((section_id, _), choices) in enumerate(groups.items(), start=1):
            choices = self._in_quoting_order(choices, chosen[0])
            paragraph = self._knowledge.paragraphs[choices[0].key]
            quoted = [self._quote(choice, language) for choice in choices]
            parts.extend(
                f"{self._asks(choice, language)}{quote if self._lists.lead_in(choice) else _as_sentence(quote)} [{n}]"
                for choice, quote in zip(choices, quoted, strict=True)
            )
            span = choices[0].part is not None
            citations.append(
                Citation(
                    n=n,
                    section_id=section_id,
                    title=paragraph.titles[language],
                    quote=" ".join(quoted),
                    url=paragraph.urls[language],
                    original=" ".join(self._quote(c, "nl") for c in choices) if language != "nl" else None,
                    context=self._sentence(choices[0], language) if span else None,
                )
            )
        return " ".join(parts), citations

    def _in_quoting_order(self, choices: list[Choice], lead: Choice) -> list[Choice]:
        """One citation's sentences: a paragraph's together and in the guide's order, the paragraphs in the
        order chosen; but a paragraph's first sentence that leans on the list before it stays after the list's
        items, where `Coherence.coherent` put it ("Both are legitimate forms …" after the two kinds), and the
        lead's list item is read from the lead on, its earlier sentences after (`_rest_of_item`)."""
        order = list(dict.fromkeys(choice.key for choice in choices))
        item_before_lead = lead.part is None and self._knowledge.paragraphs[lead.key].bullet

        def place(choice: Choice) -> tuple[int, int, int]:
            if choice.index == 0 and choice.part is None and self._facts.leans(choice.key, 0):
                items = [order.index(key) for key in self._facts.list_before(choice.key) if key in order]
                if items:
                    return max(items), 1, 0
            if item_before_lead and choice.key == lead.key and choice.index < lead.index:
                return order.index(choice.key), 1, choice.index
            return order.index(choice.key), 0, choice.index

        return sorted(choices, key=place)


def _not_again(chosen: list[Choice], lead: Choice, said: Said) -> list[Choice]:
    """Without what the previous answer quoted of the lead's paragraph before the lead, which the asker has just
    read ("The GPU Operator eases this pain, …" answers "does the gpu operator help with that?" after the driver
    and CUDA item). A part of a sentence that leads keeps its item after it, which names what it is about."""
    if lead.part is not None:
        return chosen
    return [
        choice
        for choice in chosen
        if choice.key != lead.key or choice.index >= lead.index or (choice.key, choice.index) not in said
    ]


def _citation_group(choice: Choice, lead_in_paragraphs: set[ParagraphKey]) -> tuple[str, tuple[int, ...]]:
    """Which citation a sentence is quoted in: one per section; but a part of a sentence has its own, and so has a
    list's lead-in with what it leans on ("Kubernetes adds capabilities but also moving parts. Weigh them
    against …:"): with the list's first item after its colon, it would read as a sentence the corpus does not
    have, and it stays before its items."""
    if choice.part is not None:
        return choice.key[0], (choice.index, choice.part)
    if choice.key in lead_in_paragraphs:
        return choice.key[0], (choice.key[1],)
    return choice.key[0], ()


def _as_sentence(quote: str) -> str:
    """A part of a sentence reads as one in the answer: capital first, full stop last (the quote stays)."""
    quote = quote.rstrip(" ;:,")
    return quote[:1].upper() + quote[1:] + ("" if quote.endswith((".", "?", "!")) else ".")
