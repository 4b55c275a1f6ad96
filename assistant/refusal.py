"""Whether the guide and the records cover a question at all, and how to say that they do not."""

from __future__ import annotations

from langchain_core.documents import Document

from assistant.models import Language
from assistant.retrieval import HybridRetriever
from assistant.text import content_terms

# Calibrated on the evaluation set's in-scope and out-of-scope questions (README, "Refusal"): the
# in-scope question scoring lowest reaches 0.962, the out-of-scope one scoring highest 0.957.
KNOWN_TERMS_WEIGHT = 0.2
MIN_COVERAGE = 0.945

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
    """Said instead of quoting the guide when a question asks only for providers and none match."""
    return _NO_MATCHES[language]


def is_covered(search_text: str, hits: list[Document], retriever: HybridRetriever) -> bool:
    """Covered: a passage is close in meaning, helped by how many of the question's words the corpus uses."""
    terms = content_terms(search_text)
    known = sum(retriever.knows(term) for term in terms) / len(terms) if terms else 0.0
    similarity = max(hit.metadata["dense"] for hit in hits)
    return similarity + KNOWN_TERMS_WEIGHT * known >= MIN_COVERAGE
