"""The provider records as plain sentences, in English and Dutch, to be indexed and quoted like the guide.

Each record gives the same paragraphs in both languages, built sentence by sentence from (English, Dutch)
pairs, so sentence i of one language says what sentence i of the other says. Every stated fact names its
source; the facts the sources leave open are listed as open in one sentence per paragraph.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from urllib.parse import urlparse

from langchain_core.documents import Document

from assistant.models import Language
from assistant.providers.renderings import rendered
from assistant.providers.schema import Area, Fact, Interconnect, Price, ProviderRecord, Source, Sourced

Pair = tuple[str, str]

_ABBREVIATIONS = {
    "e.g.": "for example",
    "i.e.": "that is",
    "incl.": "including",
    "excl.": "excluding",
    "approx.": "about",
}
_INNER_BOUNDARY = re.compile(r"[.!?]\s+(?=[A-Z0-9“\"(])")
_AREA_NAMES: dict[Area, Pair] = {
    "eu": ("Europe", "Europa"),
    "us": ("the US", "de VS"),
    "apac": ("Asia-Pacific", "Azië-Pacific"),
}


def _inline(text: str) -> str:
    """Source text made safe inside one sentence: no abbreviation dots, no sentence end, no final period."""
    for short, long in _ABBREVIATIONS.items():
        text = text.replace(short, long)
    return _INNER_BOUNDARY.sub("; ", text.strip()).rstrip(".")


def _join(items: list[str], word: str) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {word} {items[-1]}"


def _joined(items: list[Pair], words: Pair = ("and", "en")) -> Pair:
    return _join([en for en, _ in items], words[0]), _join([nl for _, nl in items], words[1])


def _source_words(source: Source) -> Pair:
    """'according to docs.coreweave.com' / 'volgens docs.coreweave.com', with a third-party mark."""
    parsed = urlparse(source.url)
    host = parsed.netloc.lower().removeprefix("www.")
    parts = [part for part in parsed.path.split("/") if part]
    if host in ("github.com", "raw.githubusercontent.com") and len(parts) >= 2:
        en, nl = f"the repository {parts[0]}/{parts[1]}", f"de repository {parts[0]}/{parts[1]}"
    else:
        en, nl = host, host
    if source.third_party:
        en, nl = f"{en} (third party)", f"{nl} (derde partij)"
    return f"according to {en}", f"volgens {nl}"


def _stated(pair: Pair, fact: Sourced) -> Pair:
    words = _source_words(fact.sources[0])
    return f"{pair[0]}, {words[0]}.", f"{pair[1]}, {words[1]}."


class _Paragraph:
    """Collects (English, Dutch) sentences, the filter keys (contract §3) each states, and the facts the
    sources leave open."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.sentences: list[Pair] = []
        self.keys: list[frozenset[str]] = []  # per sentence, the filter keys whose fact it states
        self.open: list[Pair] = []
        self.open_keys: set[str] = set()
        self.links: list[str] = []

    def state(self, pair: Pair, fact: Sourced, keys: Iterable[str] = ()) -> None:
        self.sentences.append(_stated(pair, fact))
        self.keys.append(frozenset(keys))
        self.links += [source.url for source in fact.sources]

    def leave_open(self, pair: Pair, keys: Iterable[str] = ()) -> None:
        self.open.append(pair)
        self.open_keys.update(keys)

    def fact(
        self, fact: Fact | Interconnect, yes: Pair, no: Pair, unknown: Pair, keys: Iterable[str] = ()
    ) -> None:
        if fact.value == "unknown":
            self.leave_open(unknown, keys)
        else:
            self.state(yes if fact.value == "yes" else no, fact, keys)

    def pairs(self) -> list[Pair]:
        if not self.open:
            return self.sentences
        en, nl = _joined(self.open)
        closing = (
            f"The sources read leave open for {self.name}: {en}.",
            f"De gelezen bronnen laten voor {self.name} open: {nl}.",
        )
        return [*self.sentences, closing]


def fact_value_key(key: str, value: str) -> str:
    """The key of the sentences that state one value of a filter key whose values have sentences of their
    own: "kubernetes" is stated by the managed and the bring-your-own sentence, "kubernetes=managed" by one."""
    return f"{key}={value}"


def _kubernetes(record: ProviderRecord) -> _Paragraph:
    name, k8s = record.name, record.kubernetes
    paragraph = _Paragraph(name)
    service = f": {_inline(k8s.managed_service.text)}" if k8s.managed_service.text else ""
    paragraph.fact(
        k8s.managed,
        (
            f"{name} offers managed Kubernetes with GPU node pools{service}",
            f"{name} biedt beheerde Kubernetes met GPU-nodepools{service}",
        ),
        (f"{name} offers no managed Kubernetes", f"{name} biedt geen beheerde Kubernetes"),
        ("managed Kubernetes", "beheerde Kubernetes"),
        keys=("kubernetes", fact_value_key("kubernetes", "managed")),
    )
    paragraph.fact(
        k8s.bring_your_own,
        (
            f"{name} sells GPU machines that you join to your own Kubernetes cluster",
            f"{name} verkoopt GPU-machines die u aan uw eigen Kubernetes-cluster koppelt",
        ),
        (
            f"{name} offers no GPU machines to join to your own Kubernetes cluster",
            f"{name} biedt geen GPU-machines om aan uw eigen Kubernetes-cluster te koppelen",
        ),
        ("GPU machines for your own cluster", "GPU-machines voor uw eigen cluster"),
        keys=("kubernetes", fact_value_key("kubernetes", "bring_your_own")),
    )
    fee = k8s.control_plane_fee
    if fee.text:
        text = _inline(fee.text)
        paragraph.state(
            (
                f"{name} lists the managed control plane fee as {text}",
                f"{name} noemt als kosten van het beheerde control plane {text}",
            ),
            fee,
            keys=("control_plane_fee",),
        )
    elif k8s.managed.value != "no":
        paragraph.leave_open(
            ("the control plane fee", "de kosten van het control plane"), ("control_plane_fee",)
        )
    return paragraph


_METHOD_NAMES = {"time_slicing": "time-slicing", "mig": "MIG", "mps": "MPS"}
_SHARING_KEYS = ("gpu_sharing", "sharing", "sharing_any")


def _drivers_and_sharing(record: ProviderRecord) -> _Paragraph:
    name = record.name
    paragraph = _Paragraph(name)
    paragraph.fact(
        record.drivers_preinstalled,
        (
            f"{name} installs the GPU drivers on its Kubernetes GPU nodes (GPU Operator or GPU node images)",
            f"{name} installeert de GPU-drivers op zijn Kubernetes GPU-nodes (GPU Operator of GPU-node-images)",
        ),
        (f"On {name} you install the GPU drivers yourself", f"Bij {name} installeert u de GPU-drivers zelf"),
        ("preinstalled GPU drivers", "voorgeïnstalleerde GPU-drivers"),
        keys=("drivers_preinstalled",),
    )
    methods = record.sharing.methods()
    for value in ("yes", "no"):
        chosen = [method for method, fact in methods.items() if fact.value == value]
        if not chosen:
            continue
        names = [_METHOD_NAMES[method] for method in chosen]
        first = methods[chosen[0]]
        if value == "yes":
            listed = _joined([(n, n) for n in names])
            pair = (
                f"{name} supports {listed[0]} to share one GPU between pods",
                f"{name} ondersteunt {listed[1]} om één GPU tussen pods te delen",
            )
        else:
            listed = _joined([(n, n) for n in names], ("or", "of"))
            pair = (f"{name} does not offer {listed[0]}", f"{name} biedt geen {listed[1]}")
        paragraph.state(pair, first, _SHARING_KEYS)
    for method, fact in methods.items():
        if fact.value == "unknown":
            paragraph.leave_open((_METHOD_NAMES[method], _METHOD_NAMES[method]), _SHARING_KEYS)
    return paragraph


def _fabric_sentence(record: ProviderRecord) -> tuple[Pair, Pair]:
    """What the record says of the fabric between GPU nodes, as (yes, no) sentences naming which fabric.

    InfiniBand and an RDMA-class fabric both satisfy the contract's `infiniband` key, but they are not the
    same thing to a buyer, so the sentence says which one and, for RDMA, that it is not InfiniBand (unless
    the fabric's own name says InfiniBand may be used: "RoCE or InfiniBand").
    """
    name, network = record.name, record.interconnect
    detail = f": {_inline(network.detail)}" if network.detail else ""
    if network.fabric == "rdma":
        fabric = _inline(network.fabric_name or "RDMA")
        may_be_infiniband = "infiniband" in fabric.lower()
        not_en, not_nl = ("", "") if may_be_infiniband else (", not InfiniBand", ", geen InfiniBand")
        yes = (
            f"{name} links GPU nodes with an RDMA-class fabric, {fabric}{not_en}{detail}",
            f"{name} verbindt GPU-nodes met een RDMA-netwerk, {fabric}{not_nl}{detail}",
        )
    else:
        yes = (
            f"{name} links GPU nodes with InfiniBand{detail}",
            f"{name} verbindt GPU-nodes met InfiniBand{detail}",
        )
    if network.fabric == "ethernet":
        no = (
            f"{name} links GPU nodes with Ethernet only, without InfiniBand or RDMA{detail}",
            f"{name} verbindt GPU-nodes alleen met Ethernet, zonder InfiniBand of RDMA{detail}",
        )
    else:
        no = (
            f"{name} offers no InfiniBand or RDMA-class networking between GPU nodes",
            f"{name} biedt geen InfiniBand of RDMA-netwerken tussen GPU-nodes",
        )
    return yes, no


def _network_and_storage(record: ProviderRecord) -> _Paragraph:
    name = record.name
    paragraph = _Paragraph(name)
    yes, no = _fabric_sentence(record)
    paragraph.fact(
        record.interconnect,
        yes,
        no,
        (
            "InfiniBand or RDMA-class networking between GPU nodes",
            "InfiniBand of RDMA-netwerken tussen GPU-nodes",
        ),
        keys=("interconnect",),
    )
    storage = record.storage
    if storage.known:
        parts: list[Pair] = []
        if storage.csi:
            csi = [_inline(item) for item in storage.csi]
            parts.append((f"the CSI drivers {_join(csi, 'and')}", f"de CSI-drivers {_join(csi, 'en')}"))
        if storage.shared_filesystems:
            shared = [_inline(item) for item in storage.shared_filesystems]
            parts.append(
                (
                    f"the shared file systems {_join(shared, 'and')}",
                    f"de gedeelde bestandssystemen {_join(shared, 'en')}",
                )
            )
        listed = _joined(parts)
        paragraph.state(
            (f"For storage, {name} offers {listed[0]}", f"Voor opslag biedt {name} {listed[1]}"), storage
        )
    else:
        paragraph.leave_open(
            ("storage drivers and shared file systems", "opslagdrivers en gedeelde bestandssystemen")
        )
    return paragraph


def _capacity(record: ProviderRecord) -> _Paragraph:
    name = record.name
    paragraph = _Paragraph(name)
    paragraph.fact(
        record.spot,
        (
            f"{name} offers spot or preemptible GPU capacity",
            f"{name} biedt spot- of onderbreekbare GPU-capaciteit",
        ),
        (
            f"{name} offers no spot or preemptible GPU capacity",
            f"{name} biedt geen spot- of onderbreekbare GPU-capaciteit",
        ),
        ("spot or preemptible capacity", "spot- of onderbreekbare capaciteit"),
        keys=("spot",),
    )
    paragraph.fact(
        record.autoscaling,
        (f"{name} autoscales GPU node pools", f"{name} schaalt GPU-nodepools automatisch"),
        (
            f"{name} offers no autoscaling of Kubernetes GPU node pools",
            f"{name} biedt geen automatisch schalen van Kubernetes GPU-nodepools",
        ),
        ("autoscaling of GPU node pools", "automatisch schalen van GPU-nodepools"),
    )
    paragraph.fact(
        record.scale_to_zero,
        (
            f"{name} lets GPU node pools scale to zero, so idle GPU nodes stop costing money",
            f"{name} laat GPU-nodepools naar nul schalen, zodat inactieve GPU-nodes niets meer kosten",
        ),
        (
            f"{name} offers no GPU node pools that scale to zero",
            f"{name} biedt geen GPU-nodepools die naar nul schalen",
        ),
        ("GPU node pools that scale to zero", "GPU-nodepools die naar nul schalen"),
        keys=("scale_to_zero",),
    )
    return paragraph


def _gpus_and_regions(record: ProviderRecord) -> _Paragraph:
    name = record.name
    paragraph = _Paragraph(name)
    if record.gpu_models.known:
        models = ", ".join(_inline(model) for model in record.gpu_models.items)
        paragraph.state(
            (f"{name} offers these GPU models: {models}", f"{name} biedt deze GPU-modellen: {models}"),
            record.gpu_models,
            ("gpu_model",),
        )
    else:
        paragraph.leave_open(("the GPU models", "de GPU-modellen"), ("gpu_model",))
    paragraph.fact(
        record.amd,
        (f"{name} offers AMD GPUs", f"{name} biedt AMD-GPU's"),
        (f"{name} offers no AMD GPUs", f"{name} biedt geen AMD-GPU's"),
        ("AMD GPUs", "AMD-GPU's"),
        keys=("amd",),
    )
    areas = record.regions.areas()
    for value, english, dutch in (
        ("yes", "has GPU capacity in", "heeft GPU-capaciteit in"),
        ("no", "has no GPU capacity in", "heeft geen GPU-capaciteit in"),
    ):
        named = [_AREA_NAMES[area] for area, tri in areas.items() if tri == value]
        if named:
            listed = _joined(named)
            paragraph.state(
                (f"{name} {english} {listed[0]}", f"{name} {dutch} {listed[1]}"),
                record.regions,
                ("region", fact_value_key("region", value)),
            )
    for area, (en, nl) in _AREA_NAMES.items():
        if areas[area] == "unknown":
            paragraph.leave_open((f"GPU capacity in {en}", f"GPU-capaciteit in {nl}"), ("region",))
    return paragraph


def _amount(value: float, currency: str, dutch: bool) -> str:
    symbol = {"USD": "$", "EUR": "€"}.get(currency, f"{currency} ")
    digits = f"{value:.2f}" if round(value, 2) == value else f"{value:.3f}"
    return symbol + (digits.replace(".", ",") if dutch else digits)


def _price_sentence(price: Price, name: str) -> Pair:
    """A dated price that names whose it is, so that it answers on its own ("the cheapest A100?")."""
    where = _source_words(price.source)
    en_source, nl_source = where[0].removeprefix("according to "), where[1].removeprefix("volgens ")
    count = f"{price.gpu_count:g}"
    en_what = f"the {_inline(price.gpu_model)} ({count} {'GPU' if price.gpu_count == 1 else 'GPUs'}"
    nl_what = f"de {_inline(price.gpu_model)} ({count} {'GPU' if price.gpu_count == 1 else 'GPU’s'}"
    if price.region:
        en_what, nl_what = f"{en_what}, {price.region})", f"{nl_what}, {price.region})"
    else:
        en_what, nl_what = f"{en_what})", f"{nl_what})"
    en_what, nl_what = f"{en_what} from {name}", f"{nl_what} van {name}"
    en_costs, nl_costs = [], []
    if price.on_demand is not None:
        en_costs.append(f"{_amount(price.on_demand, price.currency, False)} per GPU-hour on demand")
        nl_costs.append(f"{_amount(price.on_demand, price.currency, True)} per GPU-uur on demand")
    if price.spot is not None:
        en_costs.append(f"{_amount(price.spot, price.currency, False)} per GPU-hour as spot price")
        nl_costs.append(f"{_amount(price.spot, price.currency, True)} per GPU-uur als spotprijs")
    day = price.as_of.isoformat()
    return (
        f"On {day}, {en_source} listed {en_what} at {_join(en_costs, 'and')}.",
        f"Op {day} noemde {nl_source} voor {nl_what} {_join(nl_costs, 'en')}.",
    )


def _in_paragraph_order(prices: Iterable[Price]) -> list[Price]:
    return sorted(prices, key=lambda price: (price.gpu_model, price.gpu_count, price.region or ""))


_PRICE_KEYS = ("max_price_per_gpu_hour",)


def price_sentence(record: ProviderRecord, price: Price) -> int:
    """The position, in the record's price paragraph, of the sentence that states this price."""
    return _in_paragraph_order(record.prices).index(price)


def _prices(record: ProviderRecord) -> _Paragraph:
    paragraph = _Paragraph(record.name)
    for price in _in_paragraph_order(record.prices):
        paragraph.sentences.append(_price_sentence(price, record.name))
        paragraph.keys.append(frozenset(_PRICE_KEYS))
        paragraph.links.append(price.source.url)
    if not record.prices:
        paragraph.sentences.append(
            (
                f"The sources read give no dated price per GPU-hour for {record.name}.",
                f"De gelezen bronnen geven voor {record.name} geen gedateerde prijs per GPU-uur.",
            )
        )
        paragraph.keys.append(frozenset(_PRICE_KEYS))
    return paragraph


_PARAGRAPHS: tuple[Callable[[ProviderRecord], _Paragraph], ...] = (
    _kubernetes,
    _drivers_and_sharing,
    _network_and_storage,
    _capacity,
    _gpus_and_regions,
    _prices,
)
_LANGUAGES: tuple[Language, ...] = ("en", "nl")
PROVIDER_KIND = "provider"


def provider_section(slug: str) -> str:
    """The citation id of a provider record (contract §2)."""
    return f"provider:{slug}"


def record_documents(
    records: Iterable[ProviderRecord], renderings: Mapping[str, str] = MappingProxyType({})
) -> list[Document]:
    """Per record and language, one Document per paragraph, cited as provider:<slug>.

    The Dutch sentences come from the record with its source texts rendered in Dutch (`renderings`): the
    same builders on the same facts give the same sentences in the same order, so the pairs stay aligned."""
    documents = []
    for record in records:
        dutch = rendered(record, renderings)
        for position, build in enumerate(_PARAGRAPHS):
            paragraph = build(record)
            pairs = [
                (english, nl)
                for (english, _), (_, nl) in zip(paragraph.pairs(), build(dutch).pairs(), strict=True)
            ]
            url = paragraph.links[0] if paragraph.links else record.website
            for index, language in enumerate(_LANGUAGES):
                metadata = {
                    "section_id": provider_section(record.slug),
                    "kind": PROVIDER_KIND,
                    "language": language,
                    "title": record.name,
                    "url": url,
                    "paragraph": position,
                }
                text = " ".join(pair[index] for pair in pairs)
                documents.append(Document(page_content=text, metadata=metadata))
    return documents


def _fact_paragraphs() -> dict[str, int]:
    """The position of the record paragraph that states each fact a question asks of a record: the filter keys'
    (contract §3), the values that have sentences of their own (`fact_value_key`), and the control plane fee."""
    keys = {
        _kubernetes: (
            "kubernetes",
            fact_value_key("kubernetes", "managed"),
            fact_value_key("kubernetes", "bring_your_own"),
            "control_plane_fee",
        ),
        _drivers_and_sharing: ("drivers_preinstalled", "gpu_sharing", "sharing", "sharing_any"),
        _network_and_storage: ("interconnect",),
        _capacity: ("spot", "scale_to_zero"),
        _gpus_and_regions: ("amd", "gpu_model", "region", fact_value_key("region", "yes")),
        _prices: ("max_price_per_gpu_hour",),
    }
    return {key: _PARAGRAPHS.index(build) for build, names in keys.items() for key in names}


FACT_PARAGRAPHS = _fact_paragraphs()


@dataclass(frozen=True)
class FactSentences:
    """Where a record states the fact of one filter key: its paragraph, the sentences that state it, and the
    closing sentence that lists it among what the sources leave open (None when nothing of it is open)."""

    paragraph: int
    stated: tuple[int, ...]
    left_open: int | None


def fact_sentences(record: ProviderRecord) -> dict[str, FactSentences]:
    """Per fact asked (`FACT_PARAGRAPHS`), the record's sentences on it: an answer quotes these,
    not the sentence that merely shares the question's words."""
    found = {}
    for key, position in FACT_PARAGRAPHS.items():
        paragraph = _PARAGRAPHS[position](record)
        stated = tuple(i for i, keys in enumerate(paragraph.keys) if key in keys)
        left_open = len(paragraph.sentences) if key in paragraph.open_keys else None
        found[key] = FactSentences(position, stated, left_open)
    return found


PRICE_PARAGRAPH = _PARAGRAPHS.index(_prices)
