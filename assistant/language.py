"""English or Dutch, from the whole question, for questions as short as "and with MIG?".

Two kinds of evidence: words that belong to one language only (never words both languages use, such as
"of", "providers", "run", "is", "de" or technical terms), and lingua's statistical confidence. Words of one
language alone decide; when a question mixes both ("Which providers hebben MIG?"), their balance and lingua's
confidence decide together; when neither tells, the conversation's language does.
"""

from __future__ import annotations

import math
from functools import cache

from lingua import Language, LanguageDetector, LanguageDetectorBuilder

from assistant.models import Language as LanguageCode
from assistant.text import fold

_DUTCH_ONLY = frozenset(
    "wat hoe welke welk waarom wanneer waar wie hoeveel ik het een en niet voor bij zijn heb hebt heeft "
    "hebben moet moeten mijn jij uw dit deze ook wel geen meer naar nodig als wordt worden kun kunnen kan "
    "mogen goedkoopste aanbieders draaien delen tussen beheerde eigen onderbreekbare waarmee zonder "
    "bieden biedt ondersteunt ondersteunen gebruiken gebruik kost kosten zelf veel alle maar dan nog "
    "werkt werken betekent precies echt iets met op".split()
)
_ENGLISH_ONLY = frozenset(
    "what how which why when where who the a an and not with for does do my you your that this these also "
    "more to need it are can should cheapest between own without about any there have has offer offers "
    "support supports use using get much many all but than still works work means really something".split()
)
_UNSURE = 0.6  # below this confidence lingua's verdict is a guess
_WORD_WEIGHT = 1.5  # log-odds one language-specific word adds when a question mixes both languages


@cache
def _detector() -> LanguageDetector:
    return LanguageDetectorBuilder.from_languages(Language.ENGLISH, Language.DUTCH).build()


def _words(text: str) -> list[str]:
    return "".join(ch if ch.isalnum() or ch == "'" else " " for ch in fold(text)).split()


def _dutch_confidence(text: str) -> float:
    values = _detector().compute_language_confidence_values(text)
    return next((value.value for value in values if value.language == Language.DUTCH), 0.0)


def detect_language(text: str, fallback: LanguageCode | None = None) -> LanguageCode:
    """The language of a question; `fallback` (the conversation's language) decides what cannot be told."""
    words = _words(text)
    dutch = sum(word in _DUTCH_ONLY for word in words)
    english = sum(word in _ENGLISH_ONLY for word in words)
    if dutch and not english:
        return "nl"
    if english and not dutch:
        return "en"
    confidence = min(max(_dutch_confidence(text), 0.01), 0.99)
    if not dutch and max(confidence, 1 - confidence) < _UNSURE:
        return fallback or "en"
    evidence = math.log(confidence / (1 - confidence)) + _WORD_WEIGHT * (dutch - english)
    if abs(evidence) < math.log(_UNSURE / (1 - _UNSURE)) and fallback:
        return fallback
    return "nl" if evidence > 0 else "en"
