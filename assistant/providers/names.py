"""Which providers a question names: by name, slug or the short name of their managed Kubernetes service."""

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
    return {alias for alias in aliases if alias not in _COMMON_WORDS}


def named_providers(question: str, records: Iterable[ProviderRecord]) -> set[str]:
    """The slugs of the providers the question mentions."""
    records = list(records)
    names = {fold(_PARENTHESES.sub("", record.name)) for record in records}
    text = fold(question)
    return {
        record.slug
        for record in records
        if any(re.search(rf"\b{re.escape(alias)}\b", text) for alias in _aliases(record, names))
    }


def name_terms(records: Iterable[ProviderRecord]) -> frozenset[str]:
    """Every word that names a provider or its Kubernetes service: a question's subject, not its focus."""
    records = list(records)
    names = {fold(_PARENTHESES.sub("", record.name)) for record in records}
    return frozenset(
        term for record in records for alias in _aliases(record, names) for term in content_terms(alias)
    )
