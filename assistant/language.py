"""English or Dutch, from the whole question, for questions as short as "and with MIG?".

Two kinds of evidence: words that belong to one language only (never words both languages use, such as
"of", "providers", "run", "is", "de" or technical terms), and lingua's statistical confidence. A word belongs
to one language when it is one of that language's closed-class words listed below (question words,
pronouns, articles, auxiliaries) or when wordfreq's corpora find it thousands of times more often in that
language ("onder", "kaart", "prijs"); loanwords and shared terms never get that far. Words of one language
alone decide; when a question mixes both ("Which providers hebben MIG?"), their balance and lingua's
confidence decide together, and a word counts the more the earlier it stands in the clause that asks: the
question itself carries the grammatical frame ("do i still pay for the gpu nodes als er geen pods op draaien"
is an English question with a Dutch clause after it). A remark that sets the scene before it counts as little
as a clause after it ("we run a managed cluster, zit de device plugin er dan al op" asks in Dutch). When
neither tells, the conversation's language does.
"""

from __future__ import annotations

import math
from functools import cache

from lingua import Language, LanguageDetector, LanguageDetectorBuilder
from wordfreq import zipf_frequency

from assistant.models import Language as LanguageCode
from assistant.text import fold
from assistant.understanding.form import asking_offset

# Closed-class words (pronouns, articles, prepositions, conjunctions, auxiliaries, question words) carry a
# sentence's grammatical frame, so in a mixed question they tell its language ("what's the beste videokaart
# for gaming?" is English with Dutch nouns); plus the verbs and adjectives of the domain. Words spelled alike
# in both languages ("of", "die", "we", "me", "is", "was", "had", "been", "toe", "in", "over", "door", "want",
# "men", "de", "per", "via") are in neither list.
_DUTCH_ONLY = frozenset(
    # pronouns, articles, question words
    "ik mij mijn jij je jou jouw uw hij zij ze hem haar wij ons onze jullie hun het een dit dat deze wie wat "
    "welke welk waar wanneer waarom hoe hoeveel waarmee waarin waarop iets niets iemand niemand elk elke "
    "ieder iedere alle sommige zelf "
    # prepositions and conjunctions
    "van voor op aan bij naar uit met om tot tegen tussen onder boven achter naast zonder tijdens sinds "
    "vanaf volgens binnen buiten te na en maar dus omdat als dan terwijl hoewel zodat toen indien ofwel "
    "zowel "
    # auxiliaries and adverbs
    "ben bent zijn waren heb hebt heeft hebben kan kun kunt kunnen kon moet moeten mag mogen wil wilt "
    "willen zal zult zullen zou zouden wordt worden werd gaat gaan doe doet doen niet geen ook wel nog meer "
    "veel erg zeer heel alleen echt hier daar er nu toch misschien precies nodig "
    # the domain's verbs and adjectives
    "goedkoopste aanbieders draaien delen beheerde eigen onderbreekbare bieden biedt ondersteunt "
    "ondersteunen gebruiken gebruik kost kosten werkt werken betekent".split()
)
_ENGLISH_ONLY = frozenset(
    # pronouns, articles, question words
    "i my mine you your yours he him his she her it its us our they them their this that these those what "
    "what's which where when why how who whom whose the a an each every some any both either neither "
    "another other something nothing it's i'm i've don't doesn't can't isn't "
    # prepositions and conjunctions
    "to from with without into onto about above below under between through during after before behind "
    "across against among around at by for since than until upon within on off out up and but or nor "
    "because if unless while whether though although "
    # auxiliaries and adverbs
    "are am were be being do does did done have has having can could will would shall should may "
    "might must need needs not also very too there here just only still more most much many all "
    # the domain's verbs and adjectives
    "cheapest own offer offers support supports use using get works work means really".split()
)
# A word outside the lists counts for one language when it is at least this many orders of magnitude more
# frequent there (3.5: "inference" or "managed", common loanwords in Dutch, stay below it) ...
_FREQUENCY_MARGIN = 3.5
# ... and is an ordinary word of that language, seen at least once per million words (Zipf 3).
_COMMON_WORD = 3.0
_FREQUENT_WORD_WEIGHT = 0.5  # a word known by its frequency alone tells less than a word of the frame
_UNSURE = 0.6  # below this confidence lingua's verdict is a guess
_WORD_WEIGHT = 1.5  # log-odds one language-specific word adds when a question mixes both languages
# A word's evidence weighs 1 + this at the question's first word, falling evenly to 1 - this at its last.
# Chosen on the mixed questions of every evaluation set but the newest blind one: errors 8 without it, 5 at
# 0.5, 3 from 0.65 to 0.8, 4 at 0.9.
_FRAME_POSITION = 0.7


@cache
def _detector() -> LanguageDetector:
    return LanguageDetectorBuilder.from_languages(Language.ENGLISH, Language.DUTCH).build()


def _words(text: str) -> list[str]:
    return "".join(ch if ch.isalnum() or ch == "'" else " " for ch in fold(text)).split()


@cache
def _frequencies(word: str) -> tuple[float, float]:
    """The word's Zipf frequency in Dutch and in English corpora (wordfreq)."""
    return zipf_frequency(word, "nl"), zipf_frequency(word, "en")


def is_common_word(word: str) -> bool:
    """An ordinary English or Dutch word, not a misspelling or a name."""
    return max(_frequencies(word)) >= _COMMON_WORD


@cache
def _word_evidence(word: str) -> float:
    """How much a word says for Dutch (positive) or English (negative); 0 when both languages use it."""
    if word in _DUTCH_ONLY:
        return 1.0
    if word in _ENGLISH_ONLY:
        return -1.0
    dutch, english = _frequencies(word)
    if not is_common_word(word) or abs(dutch - english) < _FREQUENCY_MARGIN:
        return 0.0
    return math.copysign(_FREQUENT_WORD_WEIGHT, dutch - english)


def _dutch_confidence(text: str) -> float:
    values = _detector().compute_language_confidence_values(text)
    return next((value.value for value in values if value.language == Language.DUTCH), 0.0)


def _frame_weight(position: int, remark: int, last: int) -> float:
    """1 + _FRAME_POSITION at the first word of the clause that asks, falling evenly to 1 - _FRAME_POSITION at
    the question's last word (`last` words on); a word of the remark before that clause weighs the least."""
    if position < remark:
        return 1 - _FRAME_POSITION
    return 1 + _FRAME_POSITION * (1 - 2 * (position - remark) / last)


def detect_language(text: str, fallback: LanguageCode | None = None) -> LanguageCode:
    """The language of a question; `fallback` (the conversation's language) decides what cannot be told."""
    folded = fold(text)
    words = _words(folded)
    remark = len(_words(folded[: asking_offset(folded)]))
    last = max(len(words) - remark - 1, 1)
    evidence = [
        _word_evidence(word) * _frame_weight(position, remark, last) for position, word in enumerate(words)
    ]
    dutch = sum(value for value in evidence if value > 0)
    english = -sum(value for value in evidence if value < 0)
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
