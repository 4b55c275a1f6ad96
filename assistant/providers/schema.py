"""The provider record: every fact is yes / no / unknown with the sources it rests on.

A fact that its sources leave open is "unknown", never a guess; "yes" and "no" must name at least one source.
Prices carry their as-of date and source, because a price without a date cannot be shown as current.
"""

from __future__ import annotations

import re
from abc import abstractmethod
from collections.abc import Iterator
from datetime import date
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator, model_validator


def _yaml_boolean(value: object) -> object:
    """YAML reads an unquoted yes/no as a boolean; take it as the word."""
    return {True: "yes", False: "no"}[value] if isinstance(value, bool) else value


Tri = Annotated[Literal["yes", "no", "unknown"], BeforeValidator(_yaml_boolean)]
Area = Literal["eu", "us", "apac"]
SharingMethod = Literal["time_slicing", "mig", "mps"]
Catalog = Literal["skypilot", "gpuhunt"]

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class Strict(BaseModel):
    """Unknown keys are typos in a hand-edited record, so they are errors."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Source(Strict):
    """Where a fact was read: a URL or a public repository path, and the date it was read."""

    ref: str = Field(min_length=3, description="The URL, or 'owner/repo path', with any qualifier.")
    url: str | None = Field(default=None, description="A link, where `ref` is not a bare URL but has one.")
    read: date = Field(description="The date the source was read, or the date it states for itself.")
    third_party: bool = Field(default=False, description="Not the provider's own material.")

    @field_validator("url")
    @classmethod
    def _http(cls, url: str | None) -> str | None:
        if url is not None and not url.startswith(("https://", "http://")):
            raise ValueError("url must start with http:// or https://")
        return url

    @property
    def link(self) -> str | None:
        """Where a reader can open the source, if anywhere."""
        if self.url:
            return self.url
        return self.ref if self.ref.startswith(("https://", "http://")) and " " not in self.ref else None


# Declared last in each model below, so a record reads value first and sources after.
Sources = Annotated[list[Source], Field(default_factory=list)]


class Sourced(Strict):
    """Anything stated from sources (`sources`, `note` on scope or caveats); known needs a source."""

    if TYPE_CHECKING:
        sources: list[Source]

    @property
    @abstractmethod
    def known(self) -> bool:
        """Whether the sources settle it."""

    @model_validator(mode="after")
    def _known_needs_source(self) -> Sourced:
        if self.known and not self.sources:
            raise ValueError("a known fact needs at least one source")
        return self


class Fact(Sourced):
    """A yes / no / unknown fact; `detail` says what exactly (for example which fabric)."""

    value: Tri
    detail: str | None = None
    sources: Sources
    note: str | None = None

    @property
    def known(self) -> bool:
        return self.value != "unknown"


class Names(Sourced):
    """A list of names (GPU models, storage drivers); empty means the sources do not say."""

    items: list[str] = Field(default_factory=list)
    sources: Sources
    note: str | None = None

    @field_validator("items")
    @classmethod
    def _no_blanks(cls, items: list[str]) -> list[str]:
        if any(not item.strip() for item in items):
            raise ValueError("names must not be blank")
        return items

    @property
    def known(self) -> bool:
        return bool(self.items)


class Text(Sourced):
    """A short statement, such as the managed service's name; None means the sources do not say."""

    text: str | None = None
    sources: Sources
    note: str | None = None

    @property
    def known(self) -> bool:
        return self.text is not None


class Fee(Sourced):
    """The managed control plane's fee, in words and, where stated, in USD per cluster-hour."""

    text: str | None = None
    usd_per_hour: float | None = Field(default=None, ge=0)
    sources: Sources
    note: str | None = None

    @property
    def known(self) -> bool:
        return self.text is not None

    @model_validator(mode="after")
    def _amount_needs_text(self) -> Fee:
        if self.usd_per_hour is not None and self.text is None:
            raise ValueError("an amount needs the fee's text")
        return self


class Kubernetes(Strict):
    managed: Fact
    bring_your_own: Fact
    managed_service: Text
    control_plane_fee: Fee


class Sharing(Strict):
    time_slicing: Fact
    mig: Fact
    mps: Fact

    def methods(self) -> dict[SharingMethod, Fact]:
        return {"time_slicing": self.time_slicing, "mig": self.mig, "mps": self.mps}


class Storage(Sourced):
    csi: list[str] = Field(default_factory=list)
    shared_filesystems: list[str] = Field(default_factory=list)
    sources: Sources
    note: str | None = None

    @property
    def known(self) -> bool:
        return bool(self.csi or self.shared_filesystems)


class Regions(Sourced):
    """GPU capacity per area, each yes / no / unknown, with the places the sources name."""

    eu: Tri
    us: Tri
    apac: Tri
    detail: str | None = None
    sources: Sources
    note: str | None = None

    @property
    def known(self) -> bool:
        return any(value != "unknown" for value in self.areas().values())

    def areas(self) -> dict[Area, Tri]:
        return {"eu": self.eu, "us": self.us, "apac": self.apac}


class Price(Strict):
    """A listed price per GPU-hour for one GPU model, as of a date, from one source."""

    gpu_model: str = Field(min_length=1)
    gpu_count: int | float = Field(gt=0, description="GPUs in the instance the price was listed for.")
    region: str | None = None
    on_demand: float | None = Field(default=None, ge=0, description="Per GPU-hour.")
    spot: float | None = Field(default=None, ge=0, description="Per GPU-hour.")
    currency: str = Field(pattern=r"^[A-Z]{3}$")
    as_of: date
    source: Source
    catalog: Catalog | None = Field(default=None, description="Set on prices a catalog import wrote.")
    note: str | None = None

    @model_validator(mode="after")
    def _has_a_price(self) -> Price:
        if self.on_demand is None and self.spot is None:
            raise ValueError("a price needs an on_demand or a spot amount")
        return self


class ProviderRecord(Strict):
    slug: str
    name: str = Field(min_length=1)
    website: str = Field(pattern=r"^https?://")
    kubernetes: Kubernetes
    drivers_preinstalled: Fact
    sharing: Sharing
    interconnect: Fact
    storage: Storage
    spot: Fact
    autoscaling: Fact
    scale_to_zero: Fact
    amd: Fact
    gpu_models: Names
    regions: Regions
    prices: list[Price] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)

    @field_validator("slug")
    @classmethod
    def _slug(cls, slug: str) -> str:
        if not SLUG.match(slug):
            raise ValueError("slug must be lowercase letters, digits and single hyphens")
        return slug

    def facts(self) -> Iterator[tuple[str, Sourced]]:
        """Every sourced statement with its dotted field name, for counts and checks."""
        yield from (
            ("kubernetes.managed", self.kubernetes.managed),
            ("kubernetes.bring_your_own", self.kubernetes.bring_your_own),
            ("kubernetes.managed_service", self.kubernetes.managed_service),
            ("kubernetes.control_plane_fee", self.kubernetes.control_plane_fee),
            ("drivers_preinstalled", self.drivers_preinstalled),
        )
        for method, fact in self.sharing.methods().items():
            yield f"sharing.{method}", fact
        yield from (
            ("interconnect", self.interconnect),
            ("storage", self.storage),
            ("spot", self.spot),
            ("autoscaling", self.autoscaling),
            ("scale_to_zero", self.scale_to_zero),
            ("amd", self.amd),
            ("gpu_models", self.gpu_models),
            ("regions", self.regions),
        )
