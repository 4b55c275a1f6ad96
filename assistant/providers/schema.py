"""The provider record: every fact is yes / no / unknown with the sources it rests on.

A fact that its sources leave open is "unknown", never a guess; "yes" and "no" must name at least one source,
and every source is a link, so a buyer can check what a shortlist rests on.
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
Fabric = Literal["infiniband", "rdma", "ethernet"]

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class Strict(BaseModel):
    """Unknown keys are typos in a hand-edited record, so they are errors."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Source(Strict):
    """Where a fact was read: a link a reader can open, what it is, and the date it was read.

    A URL is required because a buyer must be able to check the fact; `third_party` marks material that is
    not the provider's own (blogs, transcriptions, comparison tables), so answers can say so.
    """

    url: str = Field(description="The page, file or catalog the fact was read from.")
    title: str | None = Field(default=None, description="What the link is, where the URL alone does not say.")
    read: date = Field(description="The date the source was read, or the date it states for itself.")
    third_party: bool = Field(default=False, description="Not the provider's own material.")

    @field_validator("url")
    @classmethod
    def _http(cls, url: str) -> str:
        if not url.startswith(("https://", "http://")) or any(char.isspace() for char in url):
            raise ValueError("url must be one http:// or https:// link without spaces")
        return url

    @property
    def link(self) -> str:
        """Where a reader can open the source."""
        return self.url


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


class Interconnect(Sourced):
    """The network between GPU nodes: yes means InfiniBand or an RDMA-class fabric (contract §3).

    The contract counts both for its `infiniband` key, but a buyer planning multi-node training needs to know
    which one, so a confirmed fabric is named: `infiniband`, or `rdma` with the fabric's name (EFA, RoCE v2).
    "no" may say `ethernet` when the sources show plain Ethernet between nodes.
    """

    value: Tri
    fabric: Fabric | None = None
    fabric_name: str | None = Field(default=None, min_length=1, description="For example EFA or RoCE v2.")
    detail: str | None = None
    sources: Sources
    note: str | None = None

    @property
    def known(self) -> bool:
        return self.value != "unknown"

    @model_validator(mode="after")
    def _fabric_fits_value(self) -> Interconnect:
        allowed: dict[str, tuple[Fabric | None, ...]] = {
            "yes": ("infiniband", "rdma"),
            "no": (None, "ethernet"),
            "unknown": (None,),
        }
        if self.fabric not in allowed[self.value]:
            raise ValueError(f"interconnect {self.value} cannot have fabric {self.fabric}")
        if self.fabric == "rdma" and not self.fabric_name:
            raise ValueError("an rdma fabric needs its name (for example EFA or RoCE v2)")
        return self


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
    """A listed price for one GPU model, as of a date, from one source.

    The unit is always USD (or `currency`) per GPU-hour: instance prices are divided by their GPU count on
    entry, so prices of 1-GPU and 8-GPU instances compare directly. `on_demand` and `spot` keep the two
    markets apart; `region` is set when the source names one.
    """

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
    aliases: list[str] = Field(
        default_factory=list,
        description="Other names people type for the provider or its Kubernetes service (Oracle for Oracle Cloud "
        "Infrastructure), beside its name, slug and service acronym: how a question names it.",
    )
    website: str = Field(pattern=r"^https?://")
    kubernetes: Kubernetes
    drivers_preinstalled: Fact
    sharing: Sharing
    interconnect: Interconnect
    storage: Storage
    spot: Fact
    autoscaling: Fact
    scale_to_zero: Fact
    amd: Fact
    gpu_models: Names
    regions: Regions
    prices: list[Price] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    own_sites: list[str] = Field(
        default_factory=list,
        description="Sites besides the website's domain where the provider publishes (docs.x.com, github.com/x/).",
    )

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

    def yes_no(self) -> Iterator[tuple[str, Fact | Interconnect]]:
        """The yes / no / unknown facts, the ones a filter decides on and the audit counts."""
        for name, fact in self.facts():
            if isinstance(fact, Fact | Interconnect):
                yield name, fact
