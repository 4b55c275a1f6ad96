"""Sentence and word splitting shared by indexing, retrieval, answering and the evaluations."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import snowballstemmer
from wordfreq import zipf_frequency

# A sentence ends at . ? or ! followed by whitespace and a capital, digit, quote or parenthesis.
# The corpus avoids abbreviations with periods, so this rule splits both languages the same way.
_SENTENCE_BOUNDARY = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9“\"(])")
_WORD = re.compile(r"\w+", re.UNICODE)

STOPWORDS = frozenset(
    """
    a an and are as at be been but by can could do does did for from had has have how i if in into is it its
    me my of on or our should so such than that the their them then there these they this to was we were what
    when where which who why will with would you your yours am any about also just only get got use using
    de het een en van in is op te dat die voor met zijn niet aan er om ook als bij of door naar uit dan wat
    wordt worden kan kun kunnen ik je jij u uw we wij mijn hoe waar wie welke wanneer waarom moet moeten
    heb hebt heeft hebben zo nog al dit deze maar mag mogen zal zou zouden over tot toch wel geen meer
    need needs want wants several some many much lot lots let know like make good best way thing things
    really actually possible please tell explain anyone someone something me us our ours
    nodig wil wilt willen weet weten wat welk eigenlijk echt goed beste manier veel sommige paar iets
    iemand graag mogelijk vertel uitleg leg ons onze
    because although though unless whether while until omdat zodat terwijl hoewel indien tenzij totdat nadat
    voordat between among tussen
    """.split()
)


# White space as a JSON Schema pattern's `\S` means it (ECMAScript's `\s`): inputs are trimmed of exactly
# this, so that what a schema lets through is what the service accepts. Python's str.strip() would also
# strip "\x85" and "\x1c"–"\x1f", which the schema counts as characters.
SCHEMA_WHITE_SPACE = "\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff" + "".join(
    map(chr, range(0x2000, 0x200B))
)


# Shorthands people type for words the corpus spells out.
_ALIASES = {"k8s": "kubernetes", "gpus": "gpu"}


# A sentence this long that lists its parts after ":" or between ";" can be quoted one part at a time; the "and"
# before its last part joins it to the list and is no part of it ("…; and matching driver and CUDA versions …").
_LONG_SENTENCE = 200
_CLAUSE_BOUNDARY = re.compile(r"[;:]\s+(?:(?:and|en)\s+)?")


def split_clauses(sentence: str) -> list[str]:
    """The parts of a long listing sentence, each exactly as it appears in it; [] for any other sentence."""
    if len(sentence) < _LONG_SENTENCE:
        return []
    parts = [part.strip() for part in _CLAUSE_BOUNDARY.split(sentence)]
    return parts if len(parts) > 1 else []


def split_sentences(text: str) -> list[str]:
    """The sentences of one paragraph, exactly as they appear in it."""
    return [part for part in _SENTENCE_BOUNDARY.split(text.strip()) if part]


def fold(text: str) -> str:
    """Lowercase without accents, so 'geïnstalleerd' and 'geinstalleerd' compare equal."""
    if text.isascii():  # nothing to strip: most questions, at a fraction of the cost
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


# Snowball's Porter variant for Dutch: the newer "dutch" strips "ge-", so no compound keeps its written ends.
_DUTCH = snowballstemmer.stemmer("dutch_porter")
_ENGLISH = snowballstemmer.stemmer("english")


def spelling(word: str) -> str:
    """A meaningful word as it is spelled, a plural and its singular alike ("nodes", "node"): whether the corpus
    uses a question's word as such, where a stem would also join a verb to the corpus's noun ("isolate",
    "isolation")."""
    for suffix in ("en", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


@lru_cache(maxsize=1 << 16)  # bounded: the words come from whatever people type
def _stem(word: str) -> str:
    """The Snowball stem in the language that uses the word more (wordfreq), so that its forms meet
    ("isolated", "isolation"); a word neither uses, a compound or a name, only loses its plural ending: its
    start and end stay as they are written, where a compound is found ("geheugen" in "geheugenisolatie")."""
    dutch, english = zipf_frequency(word, "nl"), zipf_frequency(word, "en")
    if not (dutch or english):
        return spelling(word)
    return (_DUTCH if dutch > english else _ENGLISH).stemWord(word)


def content_terms(text: str) -> list[str]:
    """The words that carry meaning, folded and stemmed, for lexical scoring."""
    return [_stem(word) for word in meaningful_words(text)]


def meaningful_words(text: str) -> list[str]:
    """The text's words but stopwords, folded, shorthands written out ("k8s": "kubernetes")."""
    words = _WORD.findall(fold(text).replace("_", " "))
    return [_ALIASES.get(word, word) for word in words if word not in STOPWORDS]
