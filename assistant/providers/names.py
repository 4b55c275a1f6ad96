"""Which providers a question names: by name, slug, the short name of their managed Kubernetes service or
another name the record gives (`aliases`)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from assistant.providers.schema import ProviderRecord
from assistant.text import content_terms, fold

_PARENTHESES = re.compile(r"\s*\(([^)]*)\)")
_SERVICE_ACRONYM = re.compile(r"\b[A-Z]{0,3}K[A-Z]{0,2}\b")  # EKS, GKE, AKS, OKE, CKS, LKE, DOKS
_COMMON_WORDS = frozenset({"together", "cloud"})  # too common in questions to name a provider alone


def _aliases(record: ProviderRecord, names: set[str]) -> set[str]:
    plain_name = _PARENTHESES.sub("", record.name)
    aliases = {fold(plain_name), fold(record.slug.replace("-", " "))}
    aliases |= {fold(inner) for inner in _PARENTHESES.findall(record.name) if fold(inner) not in names}
    service = record.kubernetes.managed_service.text or ""
    aliases |= {fold(acronym) for acronym in _SERVICE_ACRONYM.findall(service)}
    aliases = {alias for alias in aliases if alias not in _COMMON_WORDS}
    return aliases | {fold(alias) for alias in record.aliases}


class ProviderNames:
    """The names people use for each provider, compiled once: which providers a question names."""

    def __init__(self, records: Iterable[ProviderRecord]) -> None:
        records = list(records)
        names = {fold(_PARENTHESES.sub("", record.name)) for record in records}
        aliases = {record.slug: _aliases(record, names) for record in records}
        self._patterns = {
            slug: re.compile("|".join(rf"\b{re.escape(alias)}\b" for alias in sorted(found)))
            for slug, found in aliases.items()
            if found
        }
        # Every word that names a provider or its Kubernetes service: a question's subject, not its focus.
        self.terms = frozenset(
            term for found in aliases.values() for alias in found for term in content_terms(alias)
        )

    def named(self, question: str) -> frozenset[str]:
        """The slugs of the providers the question mentions."""
        return frozenset(self.in_order(question))

    def in_order(self, text: str) -> list[str]:
        """The slugs of the providers a text mentions, in the order of their first mention."""
        folded = fold(text)
        found = {
            slug: match.start()
            for slug, pattern in self._patterns.items()
            if (match := pattern.search(folded))
        }
        return sorted(found, key=found.__getitem__)
