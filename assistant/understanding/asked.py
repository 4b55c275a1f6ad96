"""What a question word asks for: a provider ("who offers", "which clouds", "welke aanbieders") or something
else ("which cards", "which one is less work", "welke kaarten").

General grammar: "who"/"wie" asks for an agent, and "which"/"what"/"welke" with a noun asks for that noun. The
intent models see the answer as a marker word beside the question's own words, so the fit on the bank, not
this module, decides how much it counts; what it adds is that "which cards" and "which option" share one
feature, although the bank holds few of either pair.
"""

from __future__ import annotations

import re

from assistant.text import fold

ASKS_FOR_PROVIDER = "asksforprovider"
ASKS_FOR_OTHER = "asksforother"

# Nouns that name a seller of GPU capacity, singular and plural, in English and Dutch.
_PROVIDER_NOUNS = re.compile(
    r"^(?:providers?|clouds?|neoclouds?|hyperscalers?|hosts?|hosters?|hostings?|vendors?|compan(?:y|ies)|"
    r"platforms?|services?|suppliers?|sellers?|offerings?|aanbieders?|leveranciers?|partij(?:en)?|bedrij(?:f|ven)|"
    r"diensten?|hostingpartij(?:en)?|cloudproviders?|gpu ?clouds?)$"
)
_AGENT = re.compile(r"\b(?:who|whom|wie)\b")
# A determiner question word and up to three words after it; "of" after it is partitive ("which of the clouds").
_DETERMINER = re.compile(
    r"\b(?:which|what|welke|welk|wat voor)((?: (?:of|van) (?:the|de|die))?(?: [\w']+){1,3})"
)
# A request for a list, and the up to four words after it that say of what ("list the providers", "noem eens
# aanbieders", "een lijst van aanbieders"); a question that opens with a plural provider noun, after up to two
# words, and goes on to what they should offer or ends there ("providers met MIG", "spot gpu providers?"), not
# with providers as the subject ("verschillen providers in …").
_REQUEST = re.compile(
    r"\b(?:list|name|show|give|noem|geef|toon|lijst|overview|overzicht)\b(?=((?: [\w']+){1,4}))"
)
_OPENING_PLURAL = re.compile(
    r"^(?:[\w']+ ){0,2}(?:providers|clouds|neoclouds|hyperscalers|hosts|vendors|companies|platforms|aanbieders|"
    r"leveranciers|partijen|bedrijven|cloudproviders)(?: (?:with|where|that|which|who|offering|without|met|waar|die|"
    r"zonder)\b|\s*\??$)"
)
_WHERE_TO_GET = re.compile(
    r"\b(?:where can (?:i|we|you|one)(?! (?:find out|check|learn|read|see|look)\b)|"
    r"waar (?:kan|kun|kunnen) (?:ik|je|we|jij|men)(?! (?:nagaan|checken|controleren|zien|lezen|vinden of)\b)|"
    r"anywhere|somewhere|ergens|who (?:lets|allows|offers|sells|rents|has(?! to)|provides)|"
    r"wie (?:biedt|verhuurt|heeft|levert|verkoopt))\b"
)
# A question word that picks among things named before: "which of those", "which ones", "welke daarvan",
# "wie van hen".
_PICKS_AMONG = re.compile(
    r"\b(?:(?:which|what|any|how many)(?: ones)? of (?:those|these|them)|which ones|"
    r"(?:welke|wie|hoeveel) (?:daarvan|ervan|hiervan|van (?:die|deze|hen|hun)))\b"
)
# Words after "what"/"wat" that make it a pronoun, not a determiner: "what is MIG", "what does it cost".
_NOT_A_NOUN = frozenset(
    "is are was were does do did can could should would will has have about if when for to it i we you they "
    "the a an this that these those s".split()
)


def asked_for(question: str) -> str | None:
    """ASKS_FOR_PROVIDER, ASKS_FOR_OTHER, or None when no question word asks for a thing."""
    text = fold(question)
    return _determined(text) or (ASKS_FOR_PROVIDER if _AGENT.search(text) else None)


def asks_for_providers_by_name(question: str) -> bool:
    """Whether a question asks for providers with a noun that names them: after a question word ("which providers
    have that", "welke aanbieders"), after a request to list ("noem providers die …"), or opening it in the
    plural ("providers met MIG in Europa?"). "who" may ask for a person instead ("who installs the device plugin
    then?"), and a provider in the singular may be the subject ("provider says k8s support, so …")."""
    text = fold(question)
    if _determined(text) == ASKS_FOR_PROVIDER:
        return True
    requested = (word for match in _REQUEST.finditer(text) for word in match.group(1).split())
    return any(_PROVIDER_NOUNS.match(word) for word in requested) or bool(_OPENING_PLURAL.match(text))


def picks_among(question: str) -> bool:
    """Whether a question asks which of the things named before qualify ("and which of those also do MPS?",
    "en welke daarvan met managed k8s?"), not about them ("wat is het nadeel daarvan?")."""
    return bool(_PICKS_AMONG.search(fold(question)))


def asks_where_to_get(question: str) -> bool:
    """Whether a question asks where something is to be had: a place ("where can I share a GPU", "waar kan ik",
    "anywhere", "ergens") or who offers it ("who lets me", "wie verhuurt"). Not "where should datasets live",
    "waar moet ik op letten" or "where can I find out", which ask for advice, nor "who runs the control plane"
    or "who has to install them", which ask for a role."""
    return bool(_WHERE_TO_GET.search(fold(question)))


def _determined(text: str) -> str | None:
    """What the first determiner question word asks for ("which clouds", "welke kaarten"), if any."""
    for match in _DETERMINER.finditer(text):
        words = match.group(1).split()
        if words[0] in ("of", "van"):
            words = words[2:]
        if not words or words[0] in _NOT_A_NOUN:
            continue
        if any(_PROVIDER_NOUNS.match(word) for word in words):
            return ASKS_FOR_PROVIDER
        return ASKS_FOR_OTHER
    return None
