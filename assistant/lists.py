"""The guide's lists in answers: a question for the members of a kind ("what are the trade-offs?") gets the
guide's list of them, the items of a bulleted list or the parts of a listing sentence; a list's lead-in is
quoted only leading its list, and the sentence after a list that speaks of all its items only after all of
them; a list item is named by its first words ("Time-slicing — …")."""

from __future__ import annotations

from collections.abc import Mapping

from assistant.choice import Choice
from assistant.knowledge import KnowledgeBase, Paragraph, ParagraphKey
from assistant.sentences import SentenceFacts
from assistant.spans import Span
from assistant.text import content_terms
from assistant.topics import name_terms
from assistant.understanding.analysis import QuestionAnalysis
from assistant.understanding.form import without_goal


class GuideLists:
    def __init__(
        self,
        knowledge: KnowledgeBase,
        facts: SentenceFacts,
        spans: Mapping[tuple[ParagraphKey, int], list[Span]],
    ) -> None:
        self._knowledge = knowledge
        self._facts = facts
        self._spans = spans

    def opens_item(self, choice: Choice) -> bool:
        """Whether the sentence opens a list item, whose name says what it is about."""
        return self._knowledge.paragraphs[choice.key].bullet and choice.index == 0 and choice.part is None

    def lead_in(self, choice: Choice) -> bool:
        """A list's lead-in, which is quoted only leading its list."""
        return choice.part is None and self._facts.introduces_list(choice.key, choice.index)

    def listed(self, key: ParagraphKey) -> list[Choice]:
        """The first sentence of each item of the list the paragraph is an item of or introduces, but of an
        item that opens leaning on what comes before it."""
        return [
            Choice(item, 0, 1.0) for item in self._facts.list_items(key) if not self._facts.leans(item, 0)
        ]

    def closing(self, chosen: list[Choice]) -> list[Choice]:
        """The sentence after a list that speaks of all its items ("Both are legitimate forms of Kubernetes
        support, but the operational burden is very different." after the two kinds), when the answer quotes
        the list as the guide has it, every item in its order, and not yet that sentence: it is what the list
        adds up to. An answer that puts a later item first is about that item. [] otherwise."""
        quoted = list(dict.fromkeys(choice.key for choice in chosen))
        items = next(
            (self._facts.list_items(key) for key in quoted if key in self._facts.list_items(key)), ()
        )
        after = (items[-1][0], items[-1][1] + 1) if items else None
        if (
            after is None
            or after in quoted
            or [key for key in quoted if key in items] != list(items)
            or self._facts.list_before(after) != items
            or not self._facts.leans(after, 0)
        ):
            return []
        return [Choice(after, 0, min(choice.score for choice in chosen if choice.key in items))]

    def through_lead_in(self, lead: Choice) -> Choice:
        """The lead, or the list's lead-in after it that leans on it: the sentence is then about that list
        ("Kubernetes adds capabilities but also moving parts. Weigh them against a simpler rented instance:"),
        and alone it names what only the list spells out. Leading through the lead-in quotes both and the list."""
        after = Choice(lead.key, lead.index + 1, lead.score)
        if lead.part is None and self.lead_in(after) and self._facts.leans(after.key, after.index):
            return after
        return lead

    def members_asked(
        self, lead: Choice, analysis: QuestionAnalysis, focus: dict[str, float]
    ) -> list[Choice]:
        """For a question that asks for the members of a kind ("what are the trade-offs?", "which components
        are needed?"): every part of the listing sentence the lead is a part of, or the items of the list the
        lead is an item of or introduces, in the guide's order. None when the question is a follow-up about the
        thing before it, or singles the lead's member out ("what are the downsides of time-slicing?"): by the
        words of what it asks, not of what the members serve ("… before a pod can see the GPU", `without_goal`)."""
        if analysis.context is not None:
            return []
        asked = set(content_terms(without_goal(analysis.asked)))
        parts = self._spans.get((lead.key, lead.index), []) if lead.part is not None else []
        if not (analysis.enumerates or self._names_kind(lead, parts, asked)):
            return []
        focus = {term: weight for term, weight in focus.items() if term in asked}
        if any(span.covers_sentence for span in parts):  # a part of a listing sentence
            position = next(i for i, span in enumerate(parts) if span.part == lead.part)
            if _singled_out(
                [set(span.terms) for span in parts], position, self._title_terms(lead.key), focus
            ):
                return []
            return [Choice(lead.key, lead.index, lead.score, span.part) for span in parts]
        items = self._facts.list_items(lead.key)
        if lead.key in items and self._names_item(lead.key, items, focus):
            return []
        listed = self.listed(lead.key)
        return (([] if lead.key in items else [lead]) + listed) if listed else []

    def _names_kind(self, lead: Choice, parts: list[Span], asked: set[str]) -> bool:
        """Whether the question names the kind whose members the listing sentence the lead is a part of (with
        its `parts`) lists: by a word of what comes before its list ("a small stack of components working
        together") that none of its parts and not the section's title holds ("what stack of components do I
        need?", "welke onderdelen moeten samenwerken?"), though it has no form of a question for members."""
        if not any(span.covers_sentence for span in parts):
            return False
        sentences = self._knowledge.paragraphs[lead.key].sentences.values()
        kind = {term for texts in sentences for term in content_terms(texts[lead.index].partition(":")[0])}
        members = set().union(*(span.terms for span in parts))
        return bool((kind - members - self._title_terms(lead.key)) & asked)

    def _names_item(
        self, key: ParagraphKey, items: tuple[ParagraphKey, ...], focus: dict[str, float]
    ) -> bool:
        """Whether the question singles the item out by its name (its first sentence up to the dash: "the
        downsides of time-slicing", though MPS is said to beat time-slicing) or by any word of it ("the silent
        costs" are the billing item's)."""
        paragraphs = [self._knowledge.paragraphs[item] for item in items]
        position, title = items.index(key), self._title_terms(key)
        return any(
            _singled_out([words(paragraph) for paragraph in paragraphs], position, title, focus)
            for words in (name_terms, self._item_terms)
        )

    def _title_terms(self, key: ParagraphKey) -> set[str]:
        return {
            term for text in self._knowledge.paragraphs[key].titles.values() for term in content_terms(text)
        }

    def _item_terms(self, item: Paragraph) -> set[str]:
        return set().union(*(self._facts.terms(item.key, i) for i in range(len(item.sentences["nl"]))))


def _singled_out(members: list[set[str]], position: int, title: set[str], focus: dict[str, float]) -> bool:
    """Whether the question uses a word, not in the section's title, that of all the members' words only
    those of the one at `position` hold."""
    others = set().union(*(words for i, words in enumerate(members) if i != position))
    return bool((members[position] - others - title) & focus.keys())
