"""The test cases: read from `evals/data/*.yaml` and checked, so a typo in a section id fails loudly."""

from __future__ import annotations

from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from assistant.corpus import SECTION_IDS

DATA_DIR = Path(__file__).resolve().parent / "data"

Category = Literal["faq", "faq-paraphrase", "section", "out-of-scope", "provider", "follow-up"]
CATEGORIES: tuple[str, ...] = Category.__args__

# Contract §1: the section ids citations may name; provider records are `provider:<slug>`.
GUIDE_SECTIONS = frozenset(SECTION_IDS)

# Contract §3: the keys a provider filter may hold.
FILTER_KEYS = frozenset(
    {
        "kubernetes",
        "gpu_sharing",
        "sharing",
        "interconnect",
        "spot",
        "scale_to_zero",
        "drivers_preinstalled",
        "amd",
        "gpu_model",
        "region",
        "max_price_per_gpu_hour",
    }
)


class HistoryTurn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    role: Literal["user", "assistant"]
    content: str


class Cheapest(BaseModel):
    """The provider a price question must rank first, and its on-demand USD price per GPU-hour."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    slug: str
    per_gpu_hour: float = Field(gt=0)


class Case(BaseModel):
    """One question with what a good answer must do.

    `relevant_sections` are patterns: a guide section id, `provider:<slug>`, or `provider:*` for any provider
    record. `key_facts` holds one list per fact, of accepted lowercase wordings in either language.
    `expected_filter` is scored only when the case sets it: a dict must equal `providers.filter` exactly,
    null means `providers` must be null.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    question: str
    language: Literal["en", "nl"]
    category: Category
    relevant_sections: tuple[str, ...] = ()
    reference: str | None = None
    key_facts: tuple[tuple[str, ...], ...] = ()
    must_refuse: bool = False
    expected_filter: dict[str, Any] | None = None
    history: tuple[HistoryTurn, ...] = ()
    expected_matches: frozenset[str] | None = Field(
        default=None,
        description="The slugs `providers.matches` must hold, as a set, read off the records by hand.",
    )
    expected_cheapest: Cheapest | None = None
    checks_filter: bool = Field(default=False, description="Set from whether the data names expected_filter.")

    @model_validator(mode="before")
    @classmethod
    def _note_filter(cls, data: Any) -> Any:
        if isinstance(data, dict) and "expected_filter" in data:
            return {**data, "checks_filter": True}
        return data

    @model_validator(mode="after")
    def _consistent(self) -> Case:
        for pattern in self.relevant_sections:
            if pattern not in GUIDE_SECTIONS and not pattern.startswith("provider:"):
                raise ValueError(f"unknown section id '{pattern}'")
        for fact in self.key_facts:
            if not fact or any(wording != wording.lower() for wording in fact):
                raise ValueError(f"key fact {list(fact)} must be non-empty lowercase wordings")
        if self.expected_filter and not set(self.expected_filter) <= FILTER_KEYS:
            raise ValueError(f"unknown filter keys {sorted(set(self.expected_filter) - FILTER_KEYS)}")
        if self.must_refuse and (self.relevant_sections or self.key_facts or self.expected_filter):
            raise ValueError("a case that must be refused has no relevant sections, facts or filter")
        if not self.must_refuse and not self.relevant_sections:
            raise ValueError("an answerable case names its relevant sections")
        if (self.category == "follow-up") != bool(self.history):
            raise ValueError("follow-up cases, and only they, carry a history")
        return self

    def is_relevant(self, section_id: str) -> bool:
        """Whether a retrieved or cited section supports this case."""
        return any(fnmatchcase(section_id, pattern) for pattern in self.relevant_sections)


class CaseFileError(ValueError):
    """A test-set file that does not parse or holds an invalid case; names the file and the case."""


def load_cases(data_dir: Path = DATA_DIR) -> list[Case]:
    """Every case of every YAML file in `data_dir`, in file order; ids are unique across files."""
    cases: list[Case] = []
    for path in sorted(data_dir.glob("*.yaml")):
        entries = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        for index, entry in enumerate(entries):
            try:
                cases.append(Case.model_validate(entry))
            except ValidationError as error:
                name = entry.get("id", f"#{index}") if isinstance(entry, dict) else f"#{index}"
                faults = "; ".join(
                    f"{'.'.join(map(str, e['loc'])) or 'case'}: {e['msg']}" for e in error.errors()
                )
                raise CaseFileError(f"{path.name}: case {name}: {faults}") from None
    seen: set[str] = set()
    for case in cases:
        if case.id in seen:
            raise CaseFileError(f"duplicate case id '{case.id}'")
        seen.add(case.id)
    return cases
