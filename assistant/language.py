"""English or Dutch, for questions as short as "and with MIG?".

lingua's statistical models decide most questions; on very short ones they can lean the wrong way
("wat is time-slicing"), so function words that belong to one language only get the first say.
"""

from __future__ import annotations

from functools import cache

from lingua import Language, LanguageDetector, LanguageDetectorBuilder

from assistant.models import Language as LanguageCode
from assistant.text import fold

_DUTCH_ONLY = frozenset(
    "wat hoe welke welk waarom wanneer waar ik het een de van en niet met voor bij zijn heb hebt heeft moet "
    "moeten mijn u uw dat die dit deze ook wel geen meer naar nodig zit als wordt kun kunnen mag er op "
    "goedkoopste aanbieders draaien delen tussen beheerde eigen onderbreekbare welke waarmee zonder".split()
)
_ENGLISH_ONLY = frozenset(
    "what how which why when where i the a an and not with for do does my you your that this these also no "
    "more to need of on it are can should cheapest providers run share between managed own without "
    "about any there have has".split()
)
_CONFIDENT = 0.6


@cache
def _detector() -> LanguageDetector:
    return LanguageDetectorBuilder.from_languages(Language.ENGLISH, Language.DUTCH).build()


def _function_word_vote(text: str) -> int:
    """Positive for Dutch, negative for English, zero when function words do not tell."""
    words = fold(text).replace("?", " ").split()
    return sum(word in _DUTCH_ONLY for word in words) - sum(word in _ENGLISH_ONLY for word in words)


def detect_language(text: str, fallback: LanguageCode | None = None) -> LanguageCode:
    """The language of a question; `fallback` (the conversation's language) decides what cannot be told."""
    vote = _function_word_vote(text)
    if vote:
        return "nl" if vote > 0 else "en"
    confidences = _detector().compute_language_confidence_values(text)
    best = confidences[0]
    if best.value < _CONFIDENT:
        return fallback or "en"
    return "nl" if best.language == Language.DUTCH else "en"
