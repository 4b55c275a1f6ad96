"""How to say that the guide and the records do not cover a question, or that no record matches."""

from __future__ import annotations

from assistant.models import Language

_REFUSALS: dict[str, str] = {
    "en": "The guide does not cover this question, so I cannot answer it from the guide or the provider records.",
    "nl": "De gids behandelt deze vraag niet, dus ik kan hem niet beantwoorden vanuit de gids of de providergegevens.",
}
_NO_MATCHES: dict[str, str] = {
    "en": "No provider record confirms everything this question asks for; the records whose sources leave it open are listed apart.",
    "nl": "Geen providergegeven bevestigt alles waar deze vraag om vraagt; de providers waarvan de bronnen het openlaten staan apart vermeld.",
}


def refusal_text(language: Language) -> str:
    return _REFUSALS[language]


def no_matches_text(language: Language) -> str:
    """Said when a question asks for providers and none match: alone, or after the guide's answer when
    the question also asks the guide."""
    return _NO_MATCHES[language]
