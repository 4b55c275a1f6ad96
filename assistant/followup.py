"""Short follow-ups ("and with MIG?", "en bij spot-nodes?") read in the light of the previous question, and
references to one provider of the previous answer ("that one", "die laatste")."""

from __future__ import annotations

import re
from collections.abc import Callable

from assistant.models import Turn
from assistant.text import content_terms, fold
from assistant.understanding.asked import picks_among
from assistant.understanding.form import opens_comparison

# Openings that lean on what was asked before.
_CONTINUATION = re.compile(
    r"^\s*(and|what about|how about|same|also|or|but|en|wat als|hoe zit het|hoe zit 't|ook|of|maar|"
    r"idem|en als|en bij|en met|en voor)\b",
    re.IGNORECASE,
)
_SHORT = 3  # a question with at most this many content words cannot stand on its own
# Pronouns that point back to what was asked before ("does it do monitoring too?", "en werkt dat ook op AMD?"):
# personal pronouns and pronominal adverbs always, a demonstrative when no known word follows it ("that one",
# "en als mijn provider die niet heeft?") or words that compare do ("how is that different from MIG?"); before
# any other known word it is a determiner ("die device plugin").
_PERSONAL = re.compile(
    r"\b(?:it|its|it's|them|they|their"
    # a Dutch pronominal adverb: "er", "daar" or "hier" with a preposition ("ervan", "daartegen", "hierover")
    r"|(?:er|daar|hier)(?:aan|achter|bij|door|in|mee|na|naast|om|onder|op|over|tegen|toe|tussen|uit|van|voor))\b"
)
# Words that set something against what was said before ("what should i use instead?", "en de andere variant?"):
# they point back as a pronoun does, to the thing they set it against. "other" does so alone or before a word for
# an alternative; before another noun it names something else ("does it work on other cards?"). "else" asks for
# more of the same ("anything else on the bill?"), not for another.
_CONTRASTING = re.compile(
    r"\b(?:(?:instead|anders|in plaats daarvan)\b"
    r"|(?:other|andere)(?:\s+(?:one|ones|option|options|variant|variants|type|types|kind|kinds|way|ways|method|"
    r"methods|choice|approach|model|optie|opties|varianten|soort|soorten|manier|manieren|vorm|vormen|methode|"
    r"methodes|keuze)\b|(?!\s+[a-z])))"
)
# "Which" standing for a noun, so asking to choose among things named before ("which one is less work?", "en welke
# is goedkoper?"): before "one(s)", or opening the question before a verb; not before the noun it would choose by
# ("which provider has MIG?"), nor as the relative pronoun after a noun ("the operator, which is on every node").
_WHICH_ONE = re.compile(
    r"\bwhich\s+ones?\b|^\s*(?:(?:and|so|ok|okay|but|en|oke|maar|dus)[\s,]+)*(?:which|welke)\s+"
    r"(?:is|are|has|have|gives|does|would|should|geeft|zijn|heeft|hebben|doet|kost|zou|moet)\b"
)
_DEMONSTRATIVE = re.compile(r"\b(?:that|this|those|these|dat|dit|die|deze)\b(?:\s+([\w-]+))?")


# Words that place a follow-up in the situation the question before it set up ("en is het geheugen dan
# gescheiden?", "why does the storage part matter there", "which of the two is less work?"). Not "there" as in
# "is there" or "there are", nor "dan" after a comparative ("sneller dan", "meer dan": "than").
_SITUATED = re.compile(
    r"\b(?:then|daar|of the two|of those two|van de twee|van die twee)\b"
    r"|(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\bwere )\bthere\b(?!'s|\s+(?:is|are|was|were|be)\b)"
)
_DAN = re.compile(r"(?:\b([\w-]+)\s+)?\bdan\b")


def situated(question: str) -> bool:
    """Whether a follow-up asks within the situation of the question before it (`_SITUATED`, "dan" as
    "then")."""
    text = fold(question)
    return bool(_SITUATED.search(text)) or any(
        not (found.group(1) or "").endswith(("er", "anders")) for found in _DAN.finditer(text)
    )


def previous_question(history: list[Turn] | None) -> str | None:
    for turn in reversed(history or []):
        if turn.role == "user" and turn.content.strip():
            return turn.content.strip()
    return None


def is_follow_up(question: str, known: Callable[[str], bool]) -> bool:
    """Whether a question is read with the one before it: it `continues` it, or points back with a pronoun
    ("what's its control plane fee?", "does that change it?"), however long it is; `known` as for
    `refers_back`."""
    return continues(question) or refers_back(question, known)


def continues(question: str) -> bool:
    """Whether a question is a follow-up by its form alone: it opens as one ("and with MIG?", "en bij
    spot-nodes?") or is too short to stand on its own."""
    return bool(_CONTINUATION.match(question)) or len(content_terms(question)) <= _SHORT


def chooses(question: str) -> bool:
    """Whether a follow-up chooses among the things the answer before it named ("which one's less work?", "en
    welke is minder werk?", "which of those gives real isolation?"): its answer names the one it chooses."""
    return bool(_WHICH_ONE.search(fold(question))) or picks_among(question)


def sets_against(question: str) -> bool:
    """Whether a follow-up asks for another thing than the one before it ("and with the other option?", "what
    should i use instead?")."""
    return bool(_CONTRASTING.search(fold(question)))


def refers_back(question: str, known: Callable[[str], bool]) -> bool:
    """Whether a follow-up points back with a pronoun, so that its own words leave out what it is about;
    `known` tells whether a word is one the corpus uses (then a demonstrative before it is a determiner)."""
    text = fold(question)
    if _PERSONAL.search(text) or _WHICH_ONE.search(text) or sets_against(text):
        return True
    return any(
        not found.group(1) or not known(found.group(1)) or opens_comparison(text[found.start(1) :])
        for found in _DEMONSTRATIVE.finditer(text)
    )


# A reference to one thing of the previous answer, by its place in it or as the one meant ("that one").
_ORDINALS = {
    "first": 0,
    "former": 0,
    "eerste": 0,
    "second": 1,
    "tweede": 1,
    "third": 2,
    "derde": 2,
    "last": -1,
    "latter": -1,
    "laatste": -1,
}
_REFERENCE = re.compile(
    r"\b(?:the|that|this|de|die|deze) (?P<place>first|former|second|third|last|latter|eerste|tweede|derde|"
    r"laatste)\b(?! (?:time|step|thing|keer|stap)\b)"
    r"|\b(?:that|this) (?:one|provider|company|cloud)\b|\b(?:die|deze) (?:ene|provider|aanbieder|partij|cloud)\b"
)


def previous_answer(history: list[Turn] | None) -> str | None:
    for turn in reversed(history or []):
        if turn.role == "assistant" and turn.content.strip():
            return turn.content.strip()
    return None


def referred_one(question: str, mentions: Callable[[], list[str]]) -> str | None:
    """Which of the things the previous answer mentioned (`mentions`, in order; read only when the question
    refers to one) a question refers to: by its place ("the last one", "die eerste"), or the only one there
    was ("what regions is that one in")."""
    match = _REFERENCE.search(fold(question))
    if match is None:
        return None
    mentioned = mentions()
    if not mentioned:
        return None
    place = match.group("place")
    if place is None:
        return mentioned[0] if len(mentioned) == 1 else None
    index = _ORDINALS[place]
    return mentioned[index] if -len(mentioned) <= index < len(mentioned) else None


def naming(question: str, slug: str) -> str | None:
    """A follow-up about one provider as the question it stands for: its pronouns and references ("it", "that
    one", "die laatste") replaced by the provider's name ("does it have MIG?" → "does nebius have mig?"); None
    when it has none to replace ("en wat kost dat?" leans on the whole turn before, not on the provider)."""
    text = fold(question)
    name = slug.replace("-", " ")
    named = _PERSONAL.sub(name, _REFERENCE.sub(name, text))
    return named if named != text else None
