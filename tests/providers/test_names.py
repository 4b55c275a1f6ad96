"""Which providers a question names: the record's name, slug, service acronym and the aliases it lists."""

from __future__ import annotations

from typing import Any

import pytest

from assistant.providers.names import ProviderNames
from assistant.providers.schema import ProviderRecord
from assistant.text import content_terms
from tests.providers.conftest import SOURCE, record_data


def _record(slug: str, name: str, *, service: str | None = None, aliases: list[str] | None = None) -> Any:
    data = record_data(slug, name)
    if service:
        data["kubernetes"]["managed_service"] = {"text": service, "sources": [SOURCE]}
    if aliases:
        data["aliases"] = aliases
    return ProviderRecord.model_validate(data)


@pytest.fixture
def names() -> ProviderNames:
    return ProviderNames(
        [
            _record(
                "oci",
                "Oracle Cloud Infrastructure",
                service="Oracle Kubernetes Engine (OKE)",
                aliases=["Oracle"],
            ),
            _record("akamai-linode", "Akamai Cloud (Linode)", aliases=["Akamai"]),
            _record("together", "Together AI", aliases=["Together.ai"]),
        ]
    )


@pytest.mark.parametrize(
    ("question", "slugs"),
    [
        ("Does Oracle Cloud Infrastructure offer MIG?", {"oci"}),
        ("kan ik bij oracle gpu's in een managed cluster draaien", {"oci"}),
        ("does OKE preinstall drivers", {"oci"}),
        ("is akamai cheaper than together.ai", {"akamai-linode", "together"}),
        ("linode gpu kubernetes, hoe zit dat", {"akamai-linode"}),
        ("can two pods share a GPU together", set()),
        ("oracles and okes are not names", set()),
    ],
)
def test_a_question_names_a_provider_by_any_of_its_names(
    names: ProviderNames, question: str, slugs: set[str]
) -> None:
    assert names.named(question) == slugs


def test_an_alias_is_a_name_that_leaves_a_question_s_focus(names: ProviderNames) -> None:
    assert set(content_terms("Oracle Akamai")) <= names.terms
