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
Intent = Literal["guide", "providers", "named_provider", "out_of_scope"]
Form = Literal["yes_no", "open"]

# Contract §1: the section ids citations may name; provider records are `provider:<slug>`.
GUIDE_SECTIONS = frozenset(SECTION_IDS)

# Contract §3: the keys a provider filter may hold.
FILTER_KEYS = frozenset(
    {
        "kubernetes",
        "gpu_sharing",
        "sharing",
        "sharing_any",
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

    The blind sets label `intents` and `form` and leave `category` and `must_refuse` to follow from them;
    in the older sets, which label a category, the intents follow from it (`_derived_intents`).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    question: str
    language: Literal["en", "nl"]
    category: Category
    intents: tuple[Intent, ...] = ()
    form: Form | None = None
    note: str | None = None
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
            data = {**data, "checks_filter": True}
        if isinstance(data, dict) and data.get("intents") and "category" not in data:
            data = {**data, **_labelled_category(data)}
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
        if not self.must_refuse and not self.relevant_sections and not self.asks_records:
            raise ValueError("an answerable case names its relevant sections")
        if (self.category == "follow-up") != bool(self.history):
            raise ValueError("follow-up cases, and only they, carry a history")
        return self

    @property
    def asks_records(self) -> bool:
        return bool({"providers", "named_provider"} & set(self.intents))

    @property
    def gold_intents(self) -> frozenset[str]:
        """The labelled intents, or those its category implies."""
        return frozenset(self.intents) or _derived_intents(self)

    def is_relevant(self, section_id: str) -> bool:
        """Whether a retrieved or cited section supports this case."""
        return any(fnmatchcase(section_id, pattern) for pattern in self.relevant_sections)


def _labelled_category(data: dict[str, Any]) -> dict[str, Any]:
    """The category and refusal a blind case's intents imply."""
    intents = set(data["intents"])
    refuse = intents == {"out_of_scope"}
    if data.get("history"):
        category = "follow-up"
    elif refuse:
        category = "out-of-scope"
    else:
        category = "provider" if intents & {"providers", "named_provider"} else "section"
    return {"category": category, "must_refuse": refuse}


def _derived_intents(case: Case) -> frozenset[str]:
    """Older cases: a refusal is out of scope; a filter asks for providers; a named record, for that one."""
    if case.must_refuse:
        return frozenset({"out_of_scope"})
    intents = set()
    if case.expected_filter:
        intents.add("providers")
    if any(pattern.startswith("provider:") and pattern != "provider:*" for pattern in case.relevant_sections):
        intents.add("named_provider")
    return frozenset(intents or {"guide"})


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
