"""Question -> filter keys (contract §3), on a table of English and Dutch questions.

The extractor reads which record facts a question's words name; whether the question asks for providers
at all is the question-understanding step's decision (tests/assistant/test_understanding.py). "Or" asks for
either sharing method, "and" for both, and a negated fact is left out.
"""

from __future__ import annotations

import pytest

from assistant.providers.extract import extract_filter, extract_follow_up_filter

# (question, language, expected filter or None, asks for the cheapest)
QUESTIONS: list[tuple[str, str, dict | None, bool]] = [
    # English: record facts
    (
        "Which providers offer managed Kubernetes with MIG?",
        "en",
        {"kubernetes": "managed", "sharing": ["mig"]},
        False,
    ),
    ("Which clouds support time-slicing and MPS?", "en", {"sharing": ["time_slicing", "mps"]}, False),
    ("Which providers have time slicing?", "en", {"sharing": ["time_slicing"]}, False),
    ("Can I share one GPU between pods?", "en", {"gpu_sharing": True}, False),
    ("Can I run more than one workload per GPU on Kubernetes?", "en", {"gpu_sharing": True}, False),
    ("Who has InfiniBand between GPU nodes?", "en", {"interconnect": "infiniband"}, False),
    (
        "Which providers have RDMA networking for multi-node training?",
        "en",
        {"interconnect": "infiniband"},
        False,
    ),
    (
        "What should I check for multi-node distributed training on Kubernetes?",
        "en",
        {"interconnect": "infiniband"},
        False,
    ),
    ("Where can I get spot GPU nodes on Kubernetes?", "en", {"spot": True}, False),
    (
        "Are there preemptible H100 nodes in Europe?",
        "en",
        {"spot": True, "gpu_model": "H100", "region": "eu"},
        False,
    ),
    (
        "Which managed Kubernetes services can scale GPU node pools to zero?",
        "en",
        {"kubernetes": "managed", "scale_to_zero": True},
        False,
    ),
    ("How do I avoid paying for idle GPU nodes?", "en", {"scale_to_zero": True}, False),
    (
        "Does Kubernetes support mean drivers are already installed on GPU nodes?",
        "en",
        {"drivers_preinstalled": True},
        False,
    ),
    ("Which providers have GPU drivers preinstalled?", "en", {"drivers_preinstalled": True}, False),
    ("Which providers offer AMD GPUs with Kubernetes?", "en", {"amd": True}, False),
    ("Where can I rent MI300X GPUs?", "en", {"gpu_model": "MI300X"}, False),
    ("What is the cheapest H100 per hour?", "en", {"gpu_model": "H100"}, True),
    ("Cheapest A100 in the US?", "en", {"gpu_model": "A100", "region": "us"}, True),
    (
        "Which providers have L40S under $3 per hour?",
        "en",
        {"gpu_model": "L40S", "max_price_per_gpu_hour": 3.0},
        False,
    ),
    ("Show me H200 offers below $4.50/h", "en", {"gpu_model": "H200", "max_price_per_gpu_hour": 4.5}, False),
    ("Which providers offer L4 GPUs in Asia?", "en", {"gpu_model": "L4", "region": "apac"}, False),
    ("Does CoreWeave offer InfiniBand?", "en", {"interconnect": "infiniband"}, False),
    ("Does Scaleway support MIG on Kapsule?", "en", {"sharing": ["mig"]}, False),
    (
        "I want to bring my own cluster and just rent B200 machines",
        "en",
        {"kubernetes": "bring_your_own", "gpu_model": "B200"},
        False,
    ),
    (
        "Managed k8s with spot instances and scale to zero in the EU?",
        "en",
        {"kubernetes": "managed", "spot": True, "scale_to_zero": True, "region": "eu"},
        False,
    ),
    (
        "which provider has infinband and H100 under 4 dollars an hour",
        "en",
        {"interconnect": "infiniband", "gpu_model": "H100", "max_price_per_gpu_hour": 4.0},
        False,
    ),
    ("Any premptible GPUs on managed kubernets?", "en", {"spot": True, "kubernetes": "managed"}, False),
    ("How much does an H100 cost per hour?", "en", {"gpu_model": "H100"}, False),
    (
        "Are there providers with GPUs in the US for under $2/hour?",
        "en",
        {"region": "us", "max_price_per_gpu_hour": 2.0},
        False,
    ),
    ("Can you help us find a provider with MIG?", "en", {"sharing": ["mig"]}, False),
    ("Which providers are in the comparison?", "en", {}, False),
    # Dutch: record facts
    (
        "Welke aanbieders hebben beheerde Kubernetes met MIG?",
        "nl",
        {"kubernetes": "managed", "sharing": ["mig"]},
        False,
    ),
    (
        "Ik wil GPU-machines aan mijn eigen cluster koppelen, welke providers kan ik gebruiken?",
        "nl",
        {"kubernetes": "bring_your_own"},
        False,
    ),
    ("Welke providers ondersteunen time-slicing en MPS?", "nl", {"sharing": ["time_slicing", "mps"]}, False),
    ("Kan ik één GPU delen tussen pods?", "nl", {"gpu_sharing": True}, False),
    ("Kan ik meer dan één werkbelasting per GPU draaien op Kubernetes?", "nl", {"gpu_sharing": True}, False),
    (
        "Welke aanbieders bieden InfiniBand of RDMA tussen GPU-nodes?",
        "nl",
        {"interconnect": "infiniband"},
        False,
    ),
    (
        "Wat moet ik controleren voor multi-node gedistribueerde training op Kubernetes?",
        "nl",
        {"interconnect": "infiniband"},
        False,
    ),
    ("Waar vind ik onderbreekbare nodes met een H100?", "nl", {"spot": True, "gpu_model": "H100"}, False),
    ("Welke clusters kunnen GPU-nodepools naar nul schalen?", "nl", {"scale_to_zero": True}, False),
    ("Hoe voorkom ik dat ik betaal voor ongebruikte GPU-nodes?", "nl", {"scale_to_zero": True}, False),
    ("Welke providers hebben voorgeïnstalleerde drivers?", "nl", {"drivers_preinstalled": True}, False),
    (
        "Betekent Kubernetes-ondersteuning dat drivers al geïnstalleerd zijn op GPU-nodes?",
        "nl",
        {"drivers_preinstalled": True},
        False,
    ),
    ("Welke aanbieders hebben AMD GPU's in Europa?", "nl", {"amd": True, "region": "eu"}, False),
    ("Wat is de goedkoopste H100 in de VS?", "nl", {"gpu_model": "H100", "region": "us"}, True),
    (
        "Welke aanbieders hebben een A100 onder de 2 dollar per uur?",
        "nl",
        {"gpu_model": "A100", "max_price_per_gpu_hour": 2.0},
        False,
    ),
    (
        "L40S voor minder dan 1,50 dollar per uur in Azië?",
        "nl",
        {"gpu_model": "L40S", "max_price_per_gpu_hour": 1.5, "region": "apac"},
        False,
    ),
    ("Biedt Nebius spot-instances aan?", "nl", {"spot": True}, False),
    ("Goedkoopste GPU met beheerde Kubernetes?", "nl", {"kubernetes": "managed"}, True),
    (
        "welke aanbieder heeft infiniband en voorgeinstalleerde drivers",
        "nl",
        {"interconnect": "infiniband", "drivers_preinstalled": True},
        False,
    ),
    ("Hoeveel kost een L4 per uur bij Google Cloud?", "nl", {"gpu_model": "L4"}, False),
    # A price in euros is not turned into dollars: the price key stays out rather than guess a rate.
    ("Onder de 3 euro per uur een H100?", "nl", {"gpu_model": "H100"}, False),
]


# The words "or" / "of" and negations.
CONNECTIVES: list[tuple[str, str, dict | None, bool]] = [
    ("Which providers offer MIG or MPS?", "en", {"sharing_any": ["mig", "mps"]}, False),
    ("Welke providers bieden MIG of MPS?", "nl", {"sharing_any": ["mig", "mps"]}, False),
    ("providers with either time-slicing or MIG", "en", {"sharing_any": ["time_slicing", "mig"]}, False),
    ("MIG/MPS on managed k8s?", "en", {"sharing_any": ["mig", "mps"], "kubernetes": "managed"}, False),
    ("Which clouds have both MIG and MPS?", "en", {"sharing": ["mig", "mps"]}, False),
    ("managed kubernetes without spot in europe", "en", {"kubernetes": "managed", "region": "eu"}, False),
    (
        "beheerde Kubernetes, geen spot, met InfiniBand",
        "nl",
        {"kubernetes": "managed", "interconnect": "infiniband"},
        False,
    ),
    ("MIG but not MPS", "en", {"sharing": ["mig"]}, False),
    ("H100 zonder AMD", "nl", {"gpu_model": "H100"}, False),
]


def _extracted(question: str, language: str) -> tuple[dict, bool]:
    flt, cheapest, _ = extract_filter(question, language)
    return flt.model_dump(exclude_none=True), cheapest


@pytest.mark.parametrize(("question", "language", "expected", "cheapest"), QUESTIONS + CONNECTIVES)
def test_question_gives_exactly_the_asked_filter(
    question: str, language: str, expected: dict | None, cheapest: bool
) -> None:
    assert _extracted(question, language) == (expected, cheapest)


def test_table_covers_both_languages() -> None:
    assert len(QUESTIONS) >= 40
    assert {language for _, language, _, _ in QUESTIONS} == {"en", "nl"}


def test_a_question_that_names_no_fact_gives_an_empty_filter() -> None:
    assert _extracted("Which providers are in the comparison?", "en") == ({}, False)
    assert _extracted("Wat is de goedkoopste aanbieder?", "nl") == ({}, True)


@pytest.mark.parametrize(
    ("question", "language", "region"),
    [
        ("H100 nodes in Frankfurt or Amsterdam?", "en", "eu"),
        ("welke aanbieders hebben GPU's in Duitsland", "nl", "eu"),
        ("spot GPUs in London", "en", "eu"),
        ("managed kubernetes with A100s in the us", "en", "us"),
        ("us-based providers with InfiniBand", "en", "us"),
        ("GPU-nodes in Virginia of Oregon", "nl", "us"),
        ("L4 capacity in Tokyo", "en", "apac"),
        ("aanbieders met H200 in Singapoer", "nl", "apac"),
    ],
)
def test_a_place_names_its_region(question: str, language: str, region: str) -> None:
    assert _extracted(question, language)[0].get("region") == region


def test_the_pronoun_us_names_no_region() -> None:
    assert "region" not in _extracted("which providers let us share a GPU", "en")[0]
    assert "region" not in _extracted("can you tell us the cheapest H100", "en")[0]


@pytest.mark.parametrize(
    ("question", "language", "kubernetes"),
    [
        # "managed" on its own, in either language; "self-managed" and "managed to" are not it.
        ("which of the managed offerings have L4s", "en", "managed"),
        ("welke beheerde aanbieders hebben L4's", "nl", "managed"),
        ("self-managed clusters with L4s", "en", "bring_your_own"),
        ("I managed to rent one GPU; who has spot L4s?", "en", None),
        # Both named side by side: the one named again after the contrast is asked for, else neither.
        ("managed or your own cluster: which costs less, and who sells managed L4 nodes?", "en", "managed"),
        (
            "beheerd vs een eigen cluster, wat kost minder, en wie laat me een eigen cluster koppelen?",
            "nl",
            "bring_your_own",
        ),
        ("providers with managed or bring-your-own clusters", "en", None),
        ("is Vultr managed or self-managed?", "en", None),
    ],
)
def test_managed_or_own_cluster_follows_the_words(
    question: str, language: str, kubernetes: str | None
) -> None:
    assert _extracted(question, language)[0].get("kubernetes") == kubernetes


def test_a_contrast_still_names_the_fact_it_leaves_open() -> None:
    assert extract_filter("is Vultr managed or self-managed?", "en").facts == ("kubernetes",)


def test_a_real_word_is_not_corrected_into_the_vocabulary() -> None:
    # "beheer" (management) is Dutch, not a typo of "beheerde": it names no managed cluster.
    assert "kubernetes" not in _extracted("wie doet het beheer van de nodes", "nl")[0]


@pytest.mark.parametrize(
    ("question", "language", "attribute"),
    [
        ("Civo regions?", "en", "region"),
        ("in welke regio's zit Nebius", "nl", "region"),
        ("what does an H100 cost at Lambda", "en", "max_price_per_gpu_hour"),
        ("wat is de prijs van een L4 bij Scaleway", "nl", "max_price_per_gpu_hour"),
        ("which gpus does RunPod have", "en", "gpu_model"),
        ("welke kaarten heeft OVHcloud", "nl", "gpu_model"),
        ("what kind of fabric links the nodes at Crusoe", "en", "interconnect"),
        ("hoe regelt Vultr het delen van kaarten", "nl", "gpu_sharing"),
    ],
)
def test_an_attribute_asked_without_a_value_is_a_fact_not_a_filter(
    question: str, language: str, attribute: str
) -> None:
    asked = extract_filter(question, language)
    assert attribute in asked.facts
    assert attribute not in asked.filter.public()


@pytest.mark.parametrize(
    ("question", "language", "prices_gpus"),
    [
        ("how much does the EKS control plane cost", "en", False),
        ("does coreweave charge for the control plane", "en", False),
        ("hoeveel kost het control plane bij OKE", "nl", False),
        ("wat kost het control plane bij GKE per uur", "nl", False),
        # A question that also prices GPUs asks both.
        ("what does an H100 cost per GPU-hour on GKE, and the control plane?", "en", True),
        ("wat kost een A100 bij Azure en rekenen ze ook iets voor het control plane", "nl", True),
    ],
)
def test_money_asked_of_the_control_plane_asks_its_fee_not_a_gpu_price(
    question: str, language: str, prices_gpus: bool
) -> None:
    facts = extract_filter(question, language).facts
    assert "control_plane_fee" in facts
    assert ("max_price_per_gpu_hour" in facts) == prices_gpus


def test_the_control_plane_named_without_money_asks_no_fee() -> None:
    assert "control_plane_fee" not in extract_filter("who runs the control plane on GKE", "en").facts


@pytest.mark.parametrize(
    ("question", "language", "expected"),
    [
        # English "of" is a preposition; it joins two methods as "or" only when it stands alone between them.
        ("ok which of those do mig and mps", "en", {"sharing": ["mig", "mps"]}),
        ("which ones do time slicing of mig", "en", {"sharing_any": ["time_slicing", "mig"]}),
        ("welke van die hebben MIG, of anders MPS", "nl", {"sharing_any": ["mig", "mps"]}),
        # Words that take a fact away negate it as "without" does.
        ("drop the spot part, managed with h100s", "en", {"kubernetes": "managed", "gpu_model": "H100"}),
    ],
)
def test_connectives_follow_the_language_of_the_question(
    question: str, language: str, expected: dict
) -> None:
    assert _extracted(question, language)[0] == expected


@pytest.mark.parametrize(
    ("earlier", "follow_up", "language", "expected"),
    [
        # A key the follow-up names takes its new value; the others stay.
        (
            "who has managed k8s with a100s",
            "and h100s?",
            "en",
            {"kubernetes": "managed", "gpu_model": "H100"},
        ),
        # A key the follow-up negates leaves.
        (
            "who has spot gpus on managed k8s",
            "drop the spot part, just managed with h100s",
            "en",
            {"kubernetes": "managed", "gpu_model": "H100"},
        ),
        (
            "welke aanbieders hebben spot met InfiniBand",
            "en zonder spot?",
            "nl",
            {"interconnect": "infiniband"},
        ),
        # Sharing methods add up: all of them, or any when the follow-up offers an alternative.
        ("who offers mig", "ok which of those also do mps", "en", {"sharing": ["mig", "mps"]}),
        ("who offers mig", "or mps?", "en", {"sharing_any": ["mig", "mps"]}),
        ("wie biedt MIG", "of MPS?", "nl", {"sharing_any": ["mig", "mps"]}),
        ("who has mig and mps", "without mps then", "en", {"sharing": ["mig"]}),
    ],
)
def test_a_follow_up_refines_the_earlier_filter(
    earlier: str, follow_up: str, language: str, expected: dict
) -> None:
    asked = extract_follow_up_filter(earlier, follow_up, language)
    assert asked.filter.public() == expected


def test_a_follow_up_keeps_the_facts_and_the_order_asked_before() -> None:
    asked = extract_follow_up_filter("cheapest H100 in europe", "and with spot?", "en")
    assert asked.cheapest
    assert asked.filter.public() == {"gpu_model": "H100", "region": "eu", "spot": True}
    assert asked.facts[0] == "spot"


@pytest.mark.parametrize(
    ("question", "language", "expected"),
    [
        # Scaling verbs with a prefix: Dutch separable verbs and English compounds.
        ("welke clouds kunnen een nodepool afschalen tot 0", "nl", {"scale_to_zero": True}),
        ("which providers downscale gpu pools to zero", "en", {"scale_to_zero": True}),
        # Many words between the verb and "to zero", or only "down to zero".
        (
            "can you scale the l4 node group of gke automatically back to zero",
            "en",
            {"scale_to_zero": True, "gpu_model": "L4"},
        ),
        ("schaalt de gpu nodepool van aks vanzelf helemaal terug naar nul", "nl", {"scale_to_zero": True}),
        ("node pools that shrink all the way down to zero overnight, anyone?", "en", {"scale_to_zero": True}),
        # Amounts in words, with their currency; and the limit word after the amount.
        (
            "managed k8s voor minder dan twee dollar per uur",
            "nl",
            {"kubernetes": "managed", "max_price_per_gpu_hour": 2.0},
        ),
        ("L4s at 1.5 USD per GPU-hour or less", "en", {"gpu_model": "L4", "max_price_per_gpu_hour": 1.5}),
        ("which providers answer within a day", "en", {}),
        # The US by "the states", by "us" before the providers it qualifies, by Dutch "de us".
        ("spot nodes in the states", "en", {"spot": True, "region": "us"}),
        ("us clouds with infiniband", "en", {"interconnect": "infiniband", "region": "us"}),
        ("L40S in de us", "nl", {"gpu_model": "L40S", "region": "us"}),
        # Drivers someone else put there, or not installing them oneself.
        ("waar staan de drivers al klaar op de nodes", "nl", {"drivers_preinstalled": True}),
        ("i don't want to install drivers myself, who handles that", "en", {"drivers_preinstalled": True}),
        # Drivers one installs oneself say nothing of whose cluster it is.
        (
            "moet ik de drivers zelf installeren op een L4",
            "nl",
            {"drivers_preinstalled": True, "gpu_model": "L4"},
        ),
        # A cluster of one's own: run oneself, by its distribution, or one to attach rented machines to.
        ("ik draai zelf k3s, wie verhuurt L4's", "nl", {"kubernetes": "bring_your_own", "gpu_model": "L4"}),
        (
            "which clouds let me attach rented gpu vms to our existing cluster",
            "en",
            {"kubernetes": "bring_your_own"},
        ),
        # A fast network between nodes is the interconnect.
        ("aanbieders met een snel netwerk tussen de nodes", "nl", {"interconnect": "infiniband"}),
        # Sharing a GPU in Dutch word orders.
        ("welke aanbieders laten je een gpu verdelen tussen containers", "nl", {"gpu_sharing": True}),
        ("het opdelen van een gpu, wie kan dat", "nl", {"gpu_sharing": True}),
    ],
)
def test_more_ways_of_naming_a_fact(question: str, language: str, expected: dict) -> None:
    assert _extracted(question, language)[0] == expected


@pytest.mark.parametrize(
    ("question", "language", "expected"),
    [
        ("managed k8s met H100's, spot hoeft niet", "nl", {"kubernetes": "managed", "gpu_model": "H100"}),
        (
            "byo cluster in europe, infiniband is not needed",
            "en",
            {"kubernetes": "bring_your_own", "region": "eu"},
        ),
        ("AMD or NVIDIA doesn't matter, I need MPS", "en", {"sharing": ["mps"]}),
        # "doesn't matter which" leaves the choice open instead of waving the fact away.
        ("spot, doesn't matter which region", "en", {"spot": True}),
    ],
)
def test_a_requirement_waved_away_after_it_is_named_is_left_out(
    question: str, language: str, expected: dict
) -> None:
    assert _extracted(question, language)[0] == expected


@pytest.mark.parametrize(
    ("question", "language", "expected"),
    [
        # Methods named twice: the last naming asks ("or" there asks for either).
        ("verschil tussen mig en mps, en wie heeft mig of mps", "nl", {"sharing_any": ["mig", "mps"]}),
        (
            "compare mps and time slicing, and list who offers either of them",
            "en",
            {"sharing_any": ["time_slicing", "mps"]},
        ),
        # Managed and own cluster side by side, then one named again: that one is asked for.
        ("compare managed and byo clusters then show the byo ones", "en", {"kubernetes": "bring_your_own"}),
    ],
)
def test_what_is_named_last_asks(question: str, language: str, expected: dict) -> None:
    assert _extracted(question, language)[0] == expected


@pytest.mark.parametrize(
    ("question", "language", "facts"),
    [
        # Kubernetes named with no other fact asks a record's Kubernetes support.
        ("lambda vs nebius for k8s, which would you take", "en", ("kubernetes",)),
        ("doet hetzner iets met kubernetes?", "nl", ("kubernetes",)),
        # Beside another fact, only that fact is asked; without Kubernetes named, nothing is.
        ("does nebius do mig on its kubernetes", "en", ("sharing",)),
        ("lambda vs nebius, which would you take", "en", ()),
    ],
)
def test_kubernetes_named_alone_asks_the_kubernetes_fact(question: str, language: str, facts: tuple) -> None:
    assert extract_filter(question, language).facts == facts
