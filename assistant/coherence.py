"""Coherent quotes: a sentence that leans on the one before it ("This is …", "Beide …") comes with what it
leans on or not at all, and the lead's paragraph keeps the guide's order from the lead on (an earlier sentence
comes after it only in a list item, or as a part quoted on its own). A follow-up's answer may open with a
sentence that leans on one the answer just before it quoted (`said`): the asker has just read what it refers to
("Without these, distributed jobs stall …" after the checklist, asked "what happens if we skip those?")."""

from __future__ import annotations

from assistant.choice import Choice
from assistant.knowledge import KnowledgeBase, ParagraphKey
from assistant.sentences import SentenceFacts

_LEAD_REACH = 2  # sentences up to and including the one that answers, when it leans on the one before
Said = frozenset[tuple[ParagraphKey, int]]  # what a follow-up's asker has just read (`Composer._just_read`)


class Coherence:
    def __init__(self, knowledge: KnowledgeBase, facts: SentenceFacts, max_sentences: int) -> None:
        self._knowledge = knowledge
        self._facts = facts
        self._max_sentences = max_sentences  # an answer quotes no more sentences than this

    def coherent(self, chosen: list[Choice], said: Said = frozenset()) -> list[Choice]:
        """A sentence that leans on its predecessor brings it along, or goes when that cannot be done well.

        The lead's paragraph keeps the guide's order from the lead on: its earlier sentences are left out
        unless the lead leans on them or they may follow it (`_may_follow`). A
        sentence about the list before it follows the whole list in the guide's order, an item quoted earlier
        too ("Both are legitimate forms …" after the two kinds, not after the second kind, then the first).
        """
        lead = chosen[0]
        spans = {(choice.key, choice.index) for choice in chosen if choice.part is not None}
        kept: list[Choice] = []
        for choice in chosen:
            if choice.part is None and self._facts.leans(choice.key, choice.index):
                leaned_on = self._leaned_on(choice, spans, said if choice is lead else frozenset())
                if leaned_on is None:
                    continue
                if choice.index == 0:  # the list before it
                    items = {(item.key, item.index) for item in leaned_on}
                    kept = [earlier for earlier in kept if (earlier.key, earlier.index) not in items]
                kept += leaned_on
            elif choice.key == lead.key and choice.index < lead.index and not self._may_follow(choice, lead):
                continue
            kept.append(choice)
        unique: dict[tuple[ParagraphKey, int], Choice] = {}
        for choice in kept:  # a sentence is quoted once: whole, or the part of it that scored first
            unique.setdefault((choice.key, choice.index), choice)
        return list(unique.values())

    def _may_follow(self, earlier: Choice, lead: Choice) -> bool:
        """Whether an earlier sentence of the lead's paragraph may follow it: in a list item, which the lead
        leads whole (`Composer._rest_of_item`), or as a part quoted on its own ("Kubernetes allocates whole GPUs
        to pods", the reason in an FAQ's direct answer, after "To share a card, you need …")."""
        return self._knowledge.paragraphs[lead.key].bullet or earlier.part is not None

    def within_reach(self, choice: Choice, said: Said = frozenset()) -> bool:
        """Whether the sentence, quoted coherently, needs at most the sentence it leans on: led by it, the answer
        comes by the second sentence, not after a chain of what it refers to."""
        return len(self.coherent([choice], said)) <= _LEAD_REACH

    def can_lead(self, choice: Choice, said: Said = frozenset()) -> bool:
        """Whether the answer comes by the second sentence when this one leads (`within_reach`), or it leans on
        the list before it, whose items it is about ("Both are legitimate forms of Kubernetes support, but …"
        after the two kinds)."""
        if choice.part is None and choice.index == 0 and self._facts.leans(choice.key, 0):
            return bool(self._facts.list_before(choice.key)) and bool(self.coherent([choice], said))
        return self.within_reach(choice, said)

    def _leaned_on(
        self, choice: Choice, spans: set[tuple[ParagraphKey, int]], said: Said
    ) -> list[Choice] | None:
        """The sentences before `choice` that it needs, in order: back to the first that does not lean
        itself, as long as the quote stays within the answer's sentences, or, for a paragraph's first sentence,
        the list just before it ("Both are legitimate forms …" after the two kinds of support); None when what
        it leans on is only partly quoted, a lead-in, too far back, or another paragraph that is no list. What
        was `said` just before is not quoted again: the sentences after it, or none."""
        if choice.index == 0:
            items = self._facts.list_before(choice.key)
            if items and all((item, 0) in said for item in items):
                return []
            listed = [Choice(item, 0, choice.score) for item in items if not self._facts.leans(item, 0)]
            return listed if items and len(listed) == len(items) else None
        index = choice.index
        while index > 0 and choice.index - index < self._max_sentences - 1:
            index -= 1
            if (choice.key, index) in said:
                return [Choice(choice.key, i, choice.score) for i in range(index + 1, choice.index)]
            if (choice.key, index) in spans or not self._facts.quotable(choice.key, index):
                return None
            if not self._facts.leans(choice.key, index):
                return [Choice(choice.key, i, choice.score) for i in range(index, choice.index)]
        return None
