"""Answers from the real model and a real Chroma store: right section, right facts, right language."""

from __future__ import annotations

import re

import pytest

from assistant.chunking import build_documents
from assistant.config import Settings
from assistant.corpus import SECTION_IDS, load_guide
from assistant.models import Answer, Turn
from assistant.sentences import leans_back
from assistant.service import Assistant
from assistant.text import split_clauses, split_sentences

# (question, language, sections that may lead the citations, facts: each a set of accepted wordings)
FAQ_CASES = [
    (
        "Does Kubernetes support mean drivers are already installed on GPU nodes?",
        "en",
        {"faq-drivers"},
        [{"often yes"}, {"gpu operator"}],
    ),
    (
        "do k8s providers preinstall the gpu drivers on nodes?",
        "en",
        {"faq-drivers"},
        [{"gpu operator", "driver"}],
    ),
    (
        "Betekent Kubernetes-ondersteuning dat drivers al geïnstalleerd zijn op GPU-nodes?",
        "nl",
        {"faq-drivers"},
        [{"vaak wel"}, {"gpu operator"}],
    ),
    (
        "zijn de drivers al geinstalleerd als een provider kubernetes ondersteunt?",
        "nl",
        {"faq-drivers"},
        [{"gpu operator", "driver"}],
    ),
    (
        "Can I run more than one workload per GPU on Kubernetes?",
        "en",
        {"faq-multiple-workloads"},
        [{"whole gpus"}, {"time-slicing"}],
    ),
    (
        "can I share one GPU between pods?",
        "en",
        {"faq-multiple-workloads", "gpu-sharing"},
        [{"time-slicing"}],
    ),
    (
        "Kan ik meer dan één werkbelasting per GPU draaien op Kubernetes?",
        "nl",
        {"faq-multiple-workloads"},
        [{"hele gpu"}, {"time-slicing"}],
    ),
    (
        "kunnen meerdere pods samen 1 gpu gebruiken?",
        "nl",
        {"faq-multiple-workloads", "gpu-sharing"},
        [{"time-slicing"}],
    ),
    ("Is Kubernetes worth it for a single GPU task?", "en", {"faq-single-gpu-task"}, [{"usually not"}]),
    ("is k8s overkill for just one gpu job?", "en", {"faq-single-gpu-task"}, [{"ssh"}]),
    (
        "Is Kubernetes de moeite waard voor een enkele GPU-taak?",
        "nl",
        {"faq-single-gpu-task"},
        [{"meestal niet"}],
    ),
    ("heeft kubernetes zin voor één fine-tuning run op 1 gpu?", "nl", {"faq-single-gpu-task"}, [{"ssh"}]),
    (
        "What should I check for multi-node distributed training on Kubernetes?",
        "en",
        {"faq-multi-node-training"},
        [{"infiniband"}, {"gang"}],
    ),
    (
        "what do i need for distributed training over several gpu nodes?",
        "en",
        {"faq-multi-node-training", "tradeoffs", "why-it-matters"},
        [{"infiniband", "rdma"}],
    ),
    (
        "Wat moet ik controleren voor multi-node gedistribueerde training op Kubernetes?",
        "nl",
        {"faq-multi-node-training"},
        [{"infiniband"}, {"gang"}],
    ),
    (
        "waar let ik op bij training over meerdere nodes?",
        "nl",
        {"faq-multi-node-training", "tradeoffs", "why-it-matters"},
        [{"infiniband", "rdma"}],
    ),
]

OUT_OF_SCOPE = [
    ("What is the capital of Australia?", "en"),
    ("How do I bake bread?", "en"),
    ("How do I configure PostgreSQL replication?", "en"),
    ("Hoe bak ik een appeltaart?", "nl"),
    ("Wie won het WK voetbal in 2010?", "nl"),
]


def _check_contract(answer: Answer) -> None:
    markers = {int(n) for n in re.findall(r"\[(\d+)\]", answer.answer)}
    assert markers == {citation.n for citation in answer.citations}
    assert [citation.n for citation in answer.citations] == list(range(1, len(answer.citations) + 1))
    for citation in answer.citations:
        assert citation.section_id in SECTION_IDS or citation.section_id.startswith("provider:")


def _quoted_sentences(citation) -> list[str]:
    """The corpus sentences a citation quotes: its own, or the whole sentence a quoted part comes from."""
    if citation.context:
        assert citation.quote in citation.context
        return [citation.context]
    return split_sentences(citation.quote)


@pytest.fixture(scope="session")
def corpus_sentences(settings: Settings) -> dict[tuple[str, str], set[str]]:
    sentences: dict[tuple[str, str], set[str]] = {}
    for document in build_documents(settings):
        key = (document.metadata["section_id"], document.metadata["language"])
        sentences.setdefault(key, set()).update(split_sentences(document.page_content))
    return sentences


@pytest.mark.parametrize(("question", "language", "sections", "facts"), FAQ_CASES)
def test_faq_questions_are_answered_from_their_section(
    assistant: Assistant, corpus_sentences, question: str, language: str, sections: set[str], facts
) -> None:
    answer = assistant.ask(question)
    assert not answer.refused
    assert answer.language == language
    assert answer.citations[0].section_id in sections
    for accepted in facts:
        assert any(wording in answer.answer.lower() for wording in accepted), (accepted, answer.answer)
    _check_contract(answer)
    for citation in answer.citations:
        for sentence in _quoted_sentences(citation):
            assert sentence in corpus_sentences[(citation.section_id, language)]
        if not citation.context:
            assert all(f"{s} [{citation.n}]" in answer.answer for s in split_sentences(citation.quote))
        if language == "en":
            dutch = corpus_sentences[(citation.section_id, "nl")]
            assert all(
                any(part in sentence for sentence in dutch) for part in split_sentences(citation.original)
            )
        else:
            assert citation.original is None


@pytest.mark.parametrize(("question", "language"), OUT_OF_SCOPE)
def test_questions_the_guide_does_not_cover_are_refused(
    assistant: Assistant, question: str, language: str
) -> None:
    answer = assistant.ask(question)
    assert answer.refused
    assert answer.language == language
    assert answer.citations == [] and "[" not in answer.answer
    assert ("guide" if language == "en" else "gids") in answer.answer


def test_an_explicit_language_wins_over_the_question(assistant: Assistant) -> None:
    answer = assistant.ask("Kan ik meer dan één werkbelasting per GPU draaien op Kubernetes?", language="en")
    assert answer.language == "en"
    assert "whole GPUs" in answer.answer
    assert answer.citations[0].original and "hele GPU" in answer.citations[0].original


def test_a_short_follow_up_is_read_with_the_earlier_question(assistant: Assistant) -> None:
    history = [Turn(role="user", content="Which GPU sharing options should I look for?")]
    answer = assistant.ask("and MIG?", history=history)
    assert answer.language == "en"
    assert "Multi-Instance GPU" in answer.answer
    dutch = [Turn(role="user", content="Welke afwegingen moet ik maken voordat ik me vastleg?")]
    answer = assistant.ask("en bij spot-nodes?", history=dutch)
    assert answer.language == "nl"
    assert "onderbreekbare" in answer.answer or "preëmptieve" in answer.answer


@pytest.mark.parametrize(
    ("earlier", "follow_up", "section", "first_sentence_holds"),
    [
        # In words the guide does not use: about what it refers to.
        (
            "How does time-slicing work on Kubernetes?",
            "any downsides to it?",
            "gpu-sharing",
            "no hard memory isolation",
        ),
        ("Hoe werkt time-slicing?", "en de nadelen daarvan?", "gpu-sharing", "geen harde geheugenisolatie"),
        # About what it adds to the earlier topic.
        (
            "What does MIG do?",
            "and how does MPS compare to it?",
            "gpu-sharing",
            "MPS (Multi-Process Service)",
        ),
        (
            "Wat doet MIG precies?",
            "en hoe verhoudt MPS zich daartoe?",
            "gpu-sharing",
            "MPS (Multi-Process Service)",
        ),
        (
            "Why would I use Kubernetes for inference?",
            "and for batch jobs, does it help there?",
            "why-it-matters",
            "Batch",
        ),
        # Within the earlier situation ("dan", "then"), in words of its own that name nothing of the guide;
        # when they name another thing of it, about that thing.
        (
            "is een cluster zinvol voor één notebook?",
            "wat gebruik ik dan?",
            "faq-single-gpu-task",
            "gehuurde",
        ),
        (
            "what does the gpu operator install?",
            "and the container toolkit then, what's that for?",
            "kubernetes-support",
            "NVIDIA Container Toolkit",
        ),
    ],
)
def test_a_follow_up_is_answered_about_what_it_refers_to_and_what_it_adds(
    assistant: Assistant, earlier: str, follow_up: str, section: str, first_sentence_holds: str
) -> None:
    answer = assistant.ask(follow_up, history=[Turn(role="user", content=earlier)])
    assert answer.citations[0].section_id == section
    assert first_sentence_holds in answer.answer.split(" [1]")[0]


def test_a_follow_up_does_not_quote_again_what_the_answer_before_it_led_up_with(assistant: Assistant) -> None:
    """Asked in a conversation, with the earlier answer in the history as the widget sends it: the sentence that
    answers opens, without the one it leans on, which the asker has just read (the driver item, after the cause
    that the earlier answer quoted alone); after a written summary instead, that sentence comes first, as it must
    for a reader who has not seen it."""
    earlier, follow_up = (
        "why do my gpu pods crash right after they get scheduled",
        "can the gpu operator help with that?",
    )
    answers, context = "The GPU Operator eases this pain", "Driver and CUDA alignment"
    first = assistant.ask(earlier)
    assert context in first.answer and answers not in first.answer
    history = [Turn(role="user", content=earlier), Turn(role="assistant", content=first.answer)]
    answer = assistant.ask(follow_up, history=history)
    assert answer.answer.startswith(answers)
    assert context not in answer.answer
    summary = [
        Turn(role="user", content=earlier),
        Turn(role="assistant", content="Mostly version mismatches."),
    ]
    assert assistant.ask(follow_up, history=summary).answer.startswith(context)


@pytest.mark.parametrize(
    ("earlier", "follow_up", "opens_with", "read"),
    [
        (
            "what should i check for multi-node training on k8s",
            "and what happens if i skip those",
            "Without these, distributed jobs stall",
            "Check for fast interconnect",
        ),
        (
            "wat moet ik checken voor multi-node training?",
            "wat gebeurt er als ik dat niet heb",
            "Zonder deze stagneren gedistribueerde jobs",
            "Controleer snelle interconnect",
        ),
    ],
)
def test_a_follow_up_that_would_get_the_same_answer_again_gets_what_answers_it(
    assistant: Assistant, earlier: str, follow_up: str, opens_with: str, read: str
) -> None:
    """The checklist and "Without these, …" answered the earlier question; asked what happens without them, the
    sentence that answers opens alone instead of both again: its asker has just read what it leans on."""
    first = assistant.ask(earlier)
    assert first.answer.startswith(read) and opens_with in first.answer
    history = [Turn(role="user", content=earlier), Turn(role="assistant", content=first.answer)]
    answer = assistant.ask(follow_up, history=history)
    assert answer.answer.startswith(opens_with)
    assert read not in answer.answer


def test_a_follow_up_quotes_again_what_it_leans_on_when_that_answers_it_too(assistant: Assistant) -> None:
    """ "This is the strongest case …" does not say which: asked "which of those?", the item comes with it."""
    earlier = "why would anyone use kubernetes for gpus?"
    first = assistant.ask(earlier)
    history = [Turn(role="user", content=earlier), Turn(role="assistant", content=first.answer)]
    answer = assistant.ask("which of those is the strongest case?", history=history)
    assert answer.answer.index("Inference serving at scale") < answer.answer.index(
        "This is the strongest case"
    )


@pytest.mark.parametrize(
    ("earlier", "follow_up", "detail", "whole"),
    [
        (
            "What is MIG?",
            "does it work on older cards like a V100?",
            "supported on data center cards from the Ampere generation onward",
            "Multi-Instance GPU (MIG) — supported on data center cards",
        ),
        (
            "zijn spot nodes handig voor k8s?",
            "wat moet het cluster dan kunnen?",
            "zorg dat het cluster node drains afhandelt en opnieuw plant zonder problemen.",
            "Spot-/onderbreekbare nodes — goedkopere preëmptieve GPU-nodes",
        ),
        (
            "wat is time-slicing",
            "heeft dat ook geheugenisolatie?",
            "geen harde geheugenisolatie",
            "Time-slicing — de device plugin adverteert",
        ),
        # "pods" is a word of the clause before it too; the rarer "memory" decides
        (
            "what is time-slicing?",
            "does that isolate memory between the pods?",
            "no hard memory isolation",
            "Time-slicing — the device plugin advertises",
        ),
        # a drawback, asked in words no clause holds: the clause that states what is missing
        (
            "wat is time-slicing?",
            "en wat is het nadeel daarvan?",
            "geen harde geheugenisolatie",
            "Time-slicing — de device plugin adverteert",
        ),
        # no word points back, yet its asker has just read the checklist
        (
            "what should I check for multi-node training on k8s?",
            "why does the gang scheduling bit matter",
            "support for gang/queue scheduling so that all worker pods start at the same time",
            "Check for fast interconnect between GPU nodes",
        ),
    ],
)
def test_a_follow_up_about_a_detail_of_what_was_just_read_gets_that_detail(
    assistant: Assistant, earlier: str, follow_up: str, detail: str, whole: str
) -> None:
    """Asked after the assistant's own answer, as the widget sends it: the clause asked about opens the answer,
    not the sentence the asker has just read, which its citation still carries whole."""
    first = assistant.ask(earlier)
    assert first.answer.startswith(whole)
    history = [Turn(role="user", content=earlier), Turn(role="assistant", content=first.answer)]
    answer = assistant.ask(follow_up, history=history)
    assert answer.answer.lower().startswith(detail.lower().rstrip("."))
    assert whole not in answer.answer
    citation = answer.citations[0]
    assert citation.quote == detail
    assert citation.context is not None and citation.context.startswith(whole)


@pytest.mark.parametrize(
    ("language", "section_id", "read", "earlier", "follow_up"),
    [
        ("en", "faq-drivers", 2, "are the drivers on the gpu nodes already?", "and when they aren't?"),
        (
            "nl",
            "faq-multi-node-training",
            1,
            "wat moet ik regelen voor multi-node training?",
            "en als ik die oversla?",
        ),
    ],
)
def test_a_follow_up_answered_by_what_leans_on_the_last_sentence_read_opens_with_it(
    assistant: Assistant,
    settings: Settings,
    language: str,
    section_id: str,
    read: int,
    earlier: str,
    follow_up: str,
) -> None:
    """The conversation goes on from the sentence the answer before ended with: the sentence that leans on it
    ("Others give you bare GPU nodes …" after "Providers that ship … for you.") opens the answer, and it is not
    quoted again."""
    blocks = load_guide(settings.corpus_dir)[language].section(section_id).blocks
    sentences = [sentence for block in blocks for sentence in block.sentences]
    answered = " ".join(f"{sentence} [1]" for sentence in sentences[:read])
    history = [Turn(role="user", content=earlier), Turn(role="assistant", content=answered)]
    answer = assistant.ask(follow_up, history=history).answer
    assert answer.startswith(sentences[read]) and sentences[read - 1] not in answer, answer


def _listing_sentence(settings: Settings, language: str) -> tuple[str, list[str]]:
    """The components sentence and its listed parts, each without its first letter (whose case a quote may
    change) and the punctuation that joins it to the next."""
    block = load_guide(settings.corpus_dir)[language].section("kubernetes-support").blocks[0]
    listing = next(sentence for sentence in block.sentences if ":" in sentence)
    return listing, [part.rstrip(" ;.")[1:] for part in split_clauses(listing)[1:]]


@pytest.mark.parametrize(
    ("language", "earlier", "follow_up"),
    [
        ("en", "what does a gpu need to work in kubernetes?", "ok and the toolkit one, why is that needed"),
        ("nl", "wat heb ik nodig voor gpu's in kubernetes?", "en die toolkit, waarom is die nodig?"),
    ],
)
def test_a_follow_up_naming_one_part_of_a_listing_sentence_just_read_gets_that_part(
    assistant: Assistant, settings: Settings, language: str, earlier: str, follow_up: str
) -> None:
    """Its asker has read the components sentence whole; "the toolkit" singles out its second part, which opens
    the answer, not the device plugin's part that the question before it is most like."""
    listing, (device_plugin, toolkit, _) = _listing_sentence(settings, language)
    history = [Turn(role="user", content=earlier), Turn(role="assistant", content=f"{listing} [1]")]
    answer = assistant.ask(follow_up, history=history).answer
    assert answer[1:].startswith(toolkit) and device_plugin not in answer, answer


@pytest.mark.parametrize(
    ("earlier", "follow_up", "lead", "read"),
    [
        (
            "what are batch jobs on k8s good for",
            "and what storage do they need?",
            "Storage — training and checkpointing need a CSI driver",
            "Batch and pipeline jobs —",
        ),
        (
            "kan ik fine-tuning runs als batch jobs op k8s draaien?",
            "kan dat ook met spot nodes?",
            "Spot-/onderbreekbare nodes —",
            "Batch- en pijplijnjobs —",
        ),
    ],
)
def test_a_follow_up_that_turns_to_another_thing_of_the_guide_opens_with_it(
    assistant: Assistant, earlier: str, follow_up: str, lead: str, read: str
) -> None:
    """Asked after the assistant's own answer: the item the follow-up turns to leads, and the item its asker has
    just read, which does not name that thing, is not quoted again."""
    first = assistant.ask(earlier)
    assert first.answer.startswith(read)
    history = [Turn(role="user", content=earlier), Turn(role="assistant", content=first.answer)]
    answer = assistant.ask(follow_up, history=history)
    assert answer.answer.startswith(lead)
    assert read not in answer.answer


@pytest.mark.parametrize(
    ("earlier", "follow_up", "lead"),
    [
        (
            "what are the two kinds of kubernetes support?",
            "which one's less work for us to run?",
            "Managed Kubernetes with GPU node pools — the provider runs the control plane for you",
        ),
        (
            "wat is het verschil tussen managed k8s en je eigen cluster?",
            "en welke is minder werk voor mij?",
            "Beheerde Kubernetes met GPU-nodepools — de provider beheert het control plane voor u",
        ),
    ],
)
def test_a_follow_up_that_chooses_among_what_was_just_named_is_answered_about_those(
    assistant: Assistant, earlier: str, follow_up: str, lead: str
) -> None:
    """ "Which one" stands for the things the answer before it named: it is read with the question before it,
    not on its own words ("less work" alone finds the advice for a single notebook)."""
    first = assistant.ask(earlier)
    history = [Turn(role="user", content=earlier), Turn(role="assistant", content=first.answer)]
    answer = assistant.ask(follow_up, history=history)
    assert answer.answer.startswith(lead)


@pytest.mark.parametrize(
    ("earlier", "follow_up", "chosen"),
    [
        (
            "which gpu sharing options are there",
            "do any of those need particular cards?",
            "Multi-Instance GPU (MIG)",
        ),
        (
            "welke opties voor gpu delen zijn er",
            "en welke daarvan vereist een nieuwere kaart?",
            "Multi-Instance GPU",
        ),
    ],
)
def test_a_follow_up_that_chooses_among_the_items_just_read_gets_the_chosen_item_alone(
    assistant: Assistant, earlier: str, follow_up: str, chosen: str
) -> None:
    """The choice is one of the items the answer before it quoted: that item answers, whole, and no sentence about
    all of them ("To share a card, you need …") comes before or after it."""
    first = assistant.ask(earlier)
    assert (
        "Time-slicing —" in first.answer and chosen in first.answer
    )  # two of the items, the chosen one read
    history = [Turn(role="user", content=earlier), Turn(role="assistant", content=first.answer)]
    answer = assistant.ask(follow_up, history=history)
    assert answer.answer.startswith(chosen)
    assert len(answer.citations) == 1


@pytest.mark.parametrize(
    ("earlier", "follow_up", "lead"),
    [
        (
            "why use kubernetes for model serving?",
            "and for training?",
            "Multi-node distributed training — frameworks and operators",
        ),
        (
            "loont kubernetes voor één enkele gpu-taak?",
            "en wat zou dat veranderen?",
            "Kubernetes betaalt zich uit zodra u meerdere gelijktijdige werkbelastingen",
        ),
    ],
)
def test_a_follow_up_is_answered_as_the_banks_follow_ups_are(
    assistant: Assistant, earlier: str, follow_up: str, lead: str
) -> None:
    """What people ask next, after which question, is labelled in the bank's follow-ups: "and for training?" after
    inference asks why Kubernetes suits training (not the multi-node checklist), "what would change that?" after
    "usually not" asks when it pays off (not the single-task advice again)."""
    first = assistant.ask(earlier)
    history = [Turn(role="user", content=earlier), Turn(role="assistant", content=first.answer)]
    answer = assistant.ask(follow_up, history=history)
    assert answer.answer.startswith(lead)


def test_a_follow_up_that_compares_what_was_just_read_gets_it_whole(assistant: Assistant) -> None:
    """Set against another, the whole item is what is compared: no detail of it stands in for it."""
    earlier = "What is MIG?"
    first = assistant.ask(earlier)
    history = [Turn(role="user", content=earlier), Turn(role="assistant", content=first.answer)]
    answer = assistant.ask("how does it compare with time-slicing?", history=history)
    assert "Multi-Instance GPU (MIG) — supported on data center cards" in answer.answer
    assert all(citation.context is None for citation in answer.citations)


@pytest.mark.parametrize(
    ("earlier", "follow_up", "others", "not_quoted"),
    [
        (
            "what do you get with managed kubernetes and gpu node pools?",
            "what about the other variant?",
            ["GPU instances you can attach to your own cluster"],
            "Managed Kubernetes with GPU node pools",
        ),
        (
            "is time-slicing enough to keep two tenants apart on one card?",
            "what would you use instead?",
            ["Multi-Instance GPU (MIG)", "MPS (Multi-Process Service)"],
            "Time-slicing —",
        ),
        (
            "wat is MPS eigenlijk?",
            "welke andere manieren zijn er?",
            ["Time-slicing", "Multi-Instance GPU (MIG)"],
            "MPS (Multi-Process Service) —",
        ),
    ],
)
def test_a_follow_up_asking_for_another_gets_the_other_items_of_the_earlier_list(
    assistant: Assistant, earlier: str, follow_up: str, others: list[str], not_quoted: str
) -> None:
    answer = assistant.ask(follow_up, history=[Turn(role="user", content=earlier)])
    assert answer.answer.startswith(others[0])
    assert all(other in answer.answer for other in others)
    assert not_quoted not in answer.answer


@pytest.mark.parametrize(
    ("question", "lead", "rest"),
    [
        (
            "does my gpu node bill keep running with nothing deployed on it?",
            "Billing model",
            "Idle GPU nodes",
        ),
        (
            "betaal ik nog voor een gpu-node als er geen pods op draaien?",
            "Facturatiemodel",
            "Idle GPU-nodes",
        ),
        (
            "does the cuda version in my image have to match the driver on the node?",
            "Driver and CUDA alignment",
            "The GPU Operator eases",
        ),
        # a later sentence of the item leads; the opening, which names the item and states its point, follows
        (
            "our gpu nodes sit idle every weekend, how do we stop paying for that?",
            "Idle GPU nodes",
            "Billing model",
        ),
        (
            "hoe voorkom ik dat ik betaal voor gpu-nodes die 's nachts stilstaan?",
            "Idle GPU-nodes",
            "Facturatiemodel",
        ),
    ],
)
def test_a_list_item_that_leads_is_quoted_whole(
    assistant: Assistant, question: str, lead: str, rest: str
) -> None:
    answer = assistant.ask(question)
    assert answer.answer.startswith(lead)
    assert rest in answer.answer.split(" [1]", 1)[1]


@pytest.mark.parametrize(
    ("question", "items", "closing"),
    [
        (
            "managed kubernetes versus running my own cluster on rented gpu boxes: how do they differ?",
            ["Managed Kubernetes with GPU node pools", "GPU instances you can attach"],
            "Both are legitimate forms",
        ),
        (
            "wat is het verschil tussen beheerde k8s en zelf een cluster op gehuurde gpu-machines draaien?",
            ["Beheerde Kubernetes met GPU-nodepools", "GPU-instanties die u aan uw eigen cluster"],
            "Beide zijn legitieme vormen",
        ),
        (
            "welke manieren zijn er om een gpu te delen tussen pods?",
            ["Time-slicing", "Multi-Instance GPU (MIG)", "MPS (Multi-Process Service)"],
            "bevestig dan welke van deze",
        ),
    ],
)
def test_a_list_quoted_whole_ends_with_what_it_adds_up_to(
    assistant: Assistant, question: str, items: list[str], closing: str
) -> None:
    answer = assistant.ask(question).answer
    positions = [answer.index(item) for item in items]
    assert positions == sorted(positions)
    assert answer.index(closing) > positions[-1]


def test_an_answer_about_one_item_does_not_end_with_what_the_whole_list_adds_up_to(
    assistant: Assistant,
) -> None:
    answer = assistant.ask("if i rent raw gpu vms and install k8s myself, who runs the control plane?").answer
    assert answer.startswith("GPU instances you can attach")
    assert "Both are legitimate" not in answer


@pytest.mark.parametrize(
    ("question", "where"),
    [
        ("which providers have spot gpu nodes in the us", "GPU capacity in"),
        ("welke aanbieders hebben infiniband tussen de nodes in europa", "GPU-capaciteit in"),
    ],
)
def test_where_a_provider_has_capacity_comes_after_what_is_asked_of_it(
    assistant: Assistant, question: str, where: str
) -> None:
    answer = assistant.ask(question)
    records = [c.n for c in answer.citations if c.section_id.startswith("provider:")]
    sentences = answer.answer.split("] ")
    assert records
    for n in records:  # the record's first sentence in the answer states what is asked, not where
        assert where not in next(sentence for sentence in sentences if sentence.endswith(f"[{n}"))


@pytest.mark.parametrize(
    ("question", "fact"),
    [
        ("bij wie zijn de gpu drivers al voorgeïnstalleerd", "driver"),
        ("which providers offer spot gpus", "spot"),
        # "between" names nothing: not the interconnect "between GPU nodes" for sharing "between pods"
        ("which providers let me share one gpu between several pods", "time-slicing"),
        ("bij welke providers kan ik één gpu delen tussen meerdere pods", "time-slicing"),
    ],
)
def test_the_guide_sentence_after_provider_records_is_about_the_fact_asked(
    assistant: Assistant, question: str, fact: str
) -> None:
    """It is quoted within a lead's reach: a sentence with a longer chain of what it leans on would open the
    guide's part with that chain's start, here the guide's opening sentence."""
    answer = assistant.ask(question)
    sentences = re.split(r" \[\d+\] ?", answer.answer)
    cited = [citation.section_id for citation in answer.citations]
    assert cited[0].startswith("provider:")
    first_guide = next(n for n, section in enumerate(cited) if not section.startswith("provider:"))
    numbered = re.findall(r"\[(\d+)\]", answer.answer)
    position = numbered.index(str(first_guide + 1))
    assert fact in sentences[position].lower()


@pytest.mark.parametrize(
    ("earlier", "follow_up", "slug", "asked", "not_asked"),
    [
        # A fact of its own, in words no filter key has: the record's sentence most like it.
        ("does aws have spot gpus?", "and what storage do they offer?", "aws", "storage", "spot"),
        ("heeft google cloud spot?", "en welke opslag bieden ze?", "gcp", "opslag", "spot"),
        # Money asked of the control plane is its fee, not a GPU-hour price.
        (
            "heeft google cloud beheerde kubernetes met gpu's?",
            "en wat kost hun control plane?",
            "gcp",
            "control plane",
            "gpu-uur",
        ),
        ("does lambda have infiniband?", "and does it do spot?", "lambda", "spot", "infiniband"),
        # Only another provider named: the fact asked before, of it.
        ("heeft coreweave infiniband?", "en bij nebius?", "nebius", "infiniband", "spot"),
    ],
)
def test_a_follow_up_about_a_provider_quotes_the_fact_it_asks(
    assistant: Assistant, earlier: str, follow_up: str, slug: str, asked: str, not_asked: str
) -> None:
    """What the turn before asked is answered already: quoting it again would lead with it."""
    answer = assistant.ask(follow_up, history=[Turn(role="user", content=earlier)])
    assert answer.citations[0].section_id == f"provider:{slug}"
    first = re.split(r" \[\d+\] ?", answer.answer)[0].lower()
    assert asked in first
    assert not_asked not in answer.answer.lower()


@pytest.mark.parametrize(
    ("question", "advice"),
    [
        ("spot instances with kubernetes, a good idea?", "node drains"),
        ("what do pods lose on plain pod networking during training", "Look for fast interconnects"),
    ],
)
def test_a_list_item_s_sentence_is_not_cut_at_its_semicolon(
    assistant: Assistant, question: str, advice: str
) -> None:
    """An item's advice and its reason share a sentence, split by a semicolon: together they are its point."""
    answer = assistant.ask(question)
    assert answer.citations[0].section_id == "tradeoffs"
    assert advice in answer.answer.split(" [1]")[0]


def test_a_sentence_likely_to_answer_joins_an_faq_s_answer(assistant: Assistant) -> None:
    """The FAQ's checklist and the why-it-matters item on models that no longer fit one machine both answer:
    whichever leads, the other joins it."""
    answer = assistant.ask(
        "mijn model is te groot voor één machine, wat moet ik regelen voor multi-node training"
    )
    sections = [citation.section_id for citation in answer.citations]
    assert set(sections[:2]) == {"faq-multi-node-training", "why-it-matters"}, answer.answer


@pytest.mark.parametrize("managed_first", [True, False])
def test_things_set_side_by_side_are_quoted_in_the_order_the_question_names_them(
    assistant: Assistant, managed_first: bool
) -> None:
    sides = ["beheerde kubernetes", "gehuurde gpu-vm's in mijn eigen cluster"]
    first, second = sides if managed_first else sides[::-1]
    answer = assistant.ask(f"{first} tegenover {second}: wat verandert er?")
    managed = answer.answer.find("Beheerde Kubernetes met GPU-nodepools")
    own_cluster = answer.answer.find("GPU-instanties die u aan uw eigen cluster")
    assert min(managed, own_cluster) == 0 and (managed < own_cluster) is managed_first, answer.answer


@pytest.mark.parametrize(
    ("earlier", "follow_up", "named_item", "earlier_item"),
    [
        (
            "what is MPS?",
            "so how is that one different from MIG?",
            "Multi-Instance GPU (MIG) — ",
            "MPS (Multi",
        ),
        (
            "wat is time-slicing?",
            "en hoe verschilt dat van MIG?",
            "Multi-Instance GPU (MIG) — ",
            "Time-slicing — ",
        ),
    ],
)
def test_a_follow_up_that_compares_quotes_the_earlier_topic_as_the_other_side(
    assistant: Assistant, earlier: str, follow_up: str, named_item: str, earlier_item: str
) -> None:
    answer = assistant.ask(follow_up, history=[Turn(role="user", content=earlier)])
    assert named_item in answer.answer and earlier_item in answer.answer, answer.answer
    assert {citation.section_id for citation in answer.citations} == {"gpu-sharing"}


def test_the_other_side_of_a_comparison_is_an_item_of_the_same_list(assistant: Assistant) -> None:
    """The item on one's own cluster shares only the word "GPU" with a question about sharing methods; the other
    sharing methods are the sides, though retrieval reached neither."""
    history = [Turn(role="user", content="hoe kan ik in kubernetes een gpu delen?")]
    answer = assistant.ask("en die MPS, waarin verschilt die van de andere twee?", history=history)
    assert answer.answer.startswith("MPS (Multi-Process Service) — "), answer.answer
    assert "Multi-Instance GPU (MIG) — " in answer.answer or "Time-slicing — " in answer.answer, answer.answer
    assert {citation.section_id for citation in answer.citations} == {"gpu-sharing"}, answer.answer


def test_both_things_compared_are_quoted_though_one_item_names_the_other(assistant: Assistant) -> None:
    """The MPS item says it has less overhead than time-slicing; time-slicing's own item is the other side."""
    for question, time_slicing_first in [
        ("what's the difference between time-slicing and MPS?", True),
        ("how does MPS compare to time-slicing?", False),
        ("is time-slicing really the same as MPS?", True),
        ("werkt MPS anders dan time-slicing?", False),
    ]:
        answer = assistant.ask(question)
        time_slicing = answer.answer.find("Time-slicing — ")
        mps = answer.answer.find("MPS (Multi-Process Service) — ")
        assert min(time_slicing, mps) == 0 and (time_slicing < mps) is time_slicing_first, answer.answer
        assert {citation.section_id for citation in answer.citations} == {"gpu-sharing"}


def test_an_open_question_never_gets_a_yes_or_no(assistant: Assistant) -> None:
    openers = {"Often yes, but not always.", "Not by default", "Usually not."}
    for question in ("What does the NVIDIA device plugin do?", "How do I share one GPU between pods?"):
        answer = assistant.ask(question)
        assert not any(opener in answer.answer for opener in openers), answer.answer


def test_a_yes_no_question_answered_by_an_faq_opens_with_its_direct_answer_to_the_faq_s_question(
    assistant: Assistant,
) -> None:
    """The direct answer comes after the question it answers, so a question asked the other way round ("do I
    still have to …?") cannot read "Often yes" as its own yes."""
    answer = assistant.ask("In a managed cluster, can I run more than one workload per GPU?")
    assert answer.answer.startswith("Can I run more than one workload per GPU on Kubernetes? Not by default")
    assert answer.citations[0].section_id == "faq-multiple-workloads"
    assert answer.citations[0].quote.startswith("Not by default")
    dutch = assistant.ask("Als ik één fine-tuning job draai, loont Kubernetes dan?")
    assert dutch.answer.startswith("Is Kubernetes de moeite waard voor een enkele GPU-taak? Meestal niet.")
    converse = assistant.ask(
        "if my provider uses the gpu operator, do i still have to bake drivers into my images?"
    )
    verdict = converse.answer.find("Often yes")
    faq = "Does Kubernetes support mean drivers are already installed on GPU nodes? "
    assert verdict == -1 or converse.answer[:verdict].endswith(faq), converse.answer


SINGLE_TASK = {"faq-single-gpu-task", "why-it-matters"}


@pytest.mark.parametrize(
    ("question", "sections"),
    [
        # "Usually not" would say it is not overkill
        ("would a whole cluster be overkill for my one fine-tune job?", SINGLE_TASK),
        # "Vaak wel" would say yes, you do
        (
            "huur ik kale gpu nodes, moet ik de drivers er dan zelf op zetten?",
            {"faq-drivers", "kubernetes-support"},
        ),
        # the opposite case of the FAQ's
        ("is kubernetes a good fit once we serve a dozen models at the same time?", SINGLE_TASK),
    ],
)
def test_a_yes_no_question_the_faq_does_not_ask_as_asked_gets_no_verdict(
    assistant: Assistant, question: str, sections: set[str]
) -> None:
    """The FAQ's direct answer opens only an answer to the FAQ's question as asked: asked the other way round,
    or about another case, the answer opens with the sentences that say how it is."""
    answer = assistant.ask(question)
    openers = ("Often yes", "Usually not", "Not by default", "Vaak wel", "Meestal niet", "Standaard niet")
    assert not any(opener in answer.answer for opener in openers), answer.answer
    assert not answer.refused and answer.citations[0].section_id in sections


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("when i rent gpu nodes, will the nvidia driver already be on them?", "en"),
        ("krijg ik gpu-nodes met de nvidia driver er al op?", "nl"),
    ],
)
def test_a_yes_no_question_gets_the_faq_s_answer_whole_however_many_sentences_it_has(
    assistant: Assistant, settings: Settings, question: str, language: str
) -> None:
    """The drivers FAQ answers in more sentences than an answer otherwise quotes; asked yes or no, all of them
    come, in the guide's order, its closing advice too."""
    sentences = load_guide(settings.corpus_dir)[language].section("faq-drivers").blocks[0].sentences
    answer = assistant.ask(question).answer
    positions = [answer.find(sentence) for sentence in sentences]
    assert len(sentences) > 3 and -1 not in positions and positions == sorted(positions), answer


def test_the_asked_part_of_a_long_sentence_is_quoted_with_the_sentence_at_hand(assistant: Assistant) -> None:
    answer = assistant.ask("What does the NVIDIA device plugin do?")
    lead = answer.citations[0]
    assert "kubelet" in answer.answer.split("[1]")[0]
    assert lead.context is not None and lead.quote in lead.context
    assert lead.quote.startswith("the NVIDIA device plugin")


@pytest.mark.parametrize(
    "question",
    [
        "which piece lets my pods see that a node has gpus they can ask for?",
        "waardoor kunnen pods zien dat er een gpu op de node is om aan te vragen?",
    ],
)
def test_the_part_the_bank_labels_for_what_is_asked_leads_over_a_part_that_shares_its_words(
    assistant: Assistant, question: str
) -> None:
    """The device plugin / toolkit / driver sentence: "see" is the toolkit part's word ("so that containers can
    see the driver"), but a question about how pods find GPUs to request asks for the device plugin part, which
    the bank's labels name."""
    lead = assistant.ask(question).citations[0]
    assert lead.context is not None and lead.quote in lead.context
    assert lead.quote.lower().startswith(("the nvidia device plugin", "de nvidia device plugin")), lead.quote


def test_the_part_of_a_sentence_that_leans_back_answers_alone_with_its_whole_sentence_at_hand(
    assistant: Assistant,
) -> None:
    """ "Many providers package this via the NVIDIA GPU Operator, which …" leans on a chain of two sentences
    before it, so it could not lead; its part from "the NVIDIA GPU Operator" on can."""
    for question, language in [
        ("what does the gpu operator put on each node?", "en"),
        ("wat installeert de gpu operator allemaal op de nodes?", "nl"),
    ]:
        answer = assistant.ask(question)
        lead = answer.citations[0]
        assert answer.language == language
        assert lead.section_id == "kubernetes-support", answer.answer
        assert lead.quote.lower().startswith(("the nvidia gpu operator", "de nvidia gpu operator")), (
            answer.answer
        )
        assert "monitoring" in answer.answer.split("[1]")[0]
        assert lead.context is not None and lead.context.endswith(lead.quote)
        assert leans_back(lead.context) and not leans_back(lead.quote)


def test_a_part_that_leads_from_a_list_item_brings_the_rest_of_the_item(assistant: Assistant) -> None:
    """ "… eases this pain, but version mismatches are the most common cause …": the cause leads, and the item
    it belongs to (driver and CUDA alignment) follows, instead of the cause coming second after it."""
    answer = assistant.ask("why do pods crash right after they are scheduled?")
    first, *rest = [part for part in re.split(r"\s*\[\d+\]\s*", answer.answer) if part]
    assert "most common cause" in first, answer.answer
    assert any(sentence.startswith("Driver and CUDA alignment") for sentence in rest), answer.answer
    assert all(citation.section_id == "tradeoffs" for citation in answer.citations)


def test_a_part_opens_in_place_of_its_sentence_only_when_it_keeps_what_is_asked(assistant: Assistant) -> None:
    """ "The GPU Operator eases this pain, but version mismatches are the most common cause …" leans on the driver
    item: asked for the cause, the part that states it opens, in either language; asked whether the GPU Operator
    fixes it, the whole sentence is quoted, for the part leaves out what the question asks about."""
    for question, cause in (
        (
            "pods worden gescheduled en crashen direct daarna op de gpu node, wat is meestal de oorzaak",
            "oorzaak",
        ),
        ("my pods schedule fine but then crash on the gpu node, why?", "most common cause"),
    ):
        first = re.split(r"\s*\[\d+\]\s*", assistant.ask(question).answer)[0]
        assert cause in first and "GPU Operator" not in first, first
    answer = assistant.ask("does the gpu operator solve driver/cuda mismatches completely?").answer
    assert "The GPU Operator eases this pain, but version mismatches" in answer, answer


@pytest.fixture(scope="session")
def previous_sentence(settings: Settings) -> dict[str, str]:
    """Each corpus sentence that is not the first of its paragraph, with the sentence before it; the first
    sentence of a paragraph after a bulleted list, with the last item's first sentence (a list is quoted by its
    items' first sentences)."""
    by_position = {
        (d.metadata["section_id"], d.metadata["language"], d.metadata["paragraph"], d.metadata["sentence"]): d
        for d in build_documents(settings)
        if d.metadata["granularity"] == "sentence"
    }
    previous = {}
    for (section, language, paragraph, index), document in by_position.items():
        if index > 0:
            previous[document.page_content] = by_position[
                section, language, paragraph, index - 1
            ].page_content
        elif (item := by_position.get((section, language, paragraph - 1, 0))) and item.metadata.get("bullet"):
            previous[document.page_content] = item.page_content
    return previous


def test_a_sentence_that_refers_back_comes_after_what_it_refers_to(
    assistant: Assistant, previous_sentence: dict[str, str]
) -> None:
    leaning = (
        "This is",
        "Without these,",
        "Others give",
        "Dit is",
        "Zonder deze",
        "Andere geven",
        # a demonstrative in the first clause, "of these"
        "The GPU Operator eases this pain",
        "De GPU Operator vermindert deze pijn",
        "Many providers package this",
        "In practice, this depends",  # leans itself: the GPU Operator sentence brings both before it
        "If you plan to pack many small inference workloads onto fewer cards, confirm which of these",
    )
    questions = [
        "What is the strongest case for Kubernetes on GPUs?",
        "What happens to distributed jobs without fast interconnect?",
        "Who installs the drivers on bare GPU nodes?",
        "Wat is het sterkste argument voor Kubernetes op GPU's?",
        "What is the most common cause of GPU pods that schedule but then crash?",
        "waarom crashen mijn gpu pods terwijl ze wel gepland worden?",
        "What does the NVIDIA GPU Operator install?",
        "how many GPUs do I need to rent for lots of small models?",
    ]
    for question in questions:
        answer = assistant.ask(question)
        sentences = [part.strip() for part in re.split(r"\s*\[\d+\]\s*", answer.answer) if part.strip()]
        assert sentences, question  # what cannot be quoted coherently gives way to what can
        for index, sentence in enumerate(sentences):
            if sentence.startswith(leaning):
                assert index > 0 and sentences[index - 1] == previous_sentence.get(sentence), answer.answer


@pytest.mark.parametrize(
    ("question", "limit"),
    [
        ("which providers offer MIG or MPS in the us under 3 dollars per hour?", 3.0),
        ("which providers have an H100 for less than $4 per GPU-hour?", 4.0),
    ],
)
def test_a_price_question_quotes_the_price_each_record_matched_with(
    assistant: Assistant, question: str, limit: float
) -> None:
    """A record with several prices is quoted with one that meets the question's limit, not its dearest."""
    answer = assistant.ask(question)
    assert answer.providers is not None and answer.providers.matches
    on_demand = [
        float(amount)
        for citation in answer.citations
        if citation.section_id.startswith("provider:")
        for amount in re.findall(r"\$([\d.]+) per GPU-hour on demand", citation.quote)
    ]
    assert on_demand and all(amount <= limit for amount in on_demand)


def _list_items(settings: Settings, section_id: str, language: str) -> list[str]:
    """The first sentence of every bulleted item of a guide section, as the corpus has them."""
    section = load_guide(settings.corpus_dir)[language].section(section_id)
    return [block.sentences[0] for block in section.blocks if block.bullet]


@pytest.mark.parametrize(
    ("question", "language", "section_id"),
    [
        ("what are the options for splitting one gpu into smaller pieces", "en", "gpu-sharing"),
        ("wat zijn de afwegingen van kubernetes op gehuurde gpu's?", "nl", "tradeoffs"),
    ],
)
def test_a_question_for_the_members_of_a_kind_quotes_the_guide_s_list(
    assistant: Assistant, settings: Settings, question: str, language: str, section_id: str
) -> None:
    answer = assistant.ask(question)
    positions = [answer.answer.find(item) for item in _list_items(settings, section_id, language)]
    assert len(positions) > 1 and -1 not in positions and positions == sorted(positions), answer.answer


def test_a_question_for_the_members_of_a_kind_quotes_every_part_of_a_listing_sentence(
    assistant: Assistant, settings: Settings
) -> None:
    """The components sentence lists three after its colon; asked for the components, the answer quotes all
    three parts, in order, where a question about one of them quotes that one."""
    _, parts = _listing_sentence(settings, "nl")
    answer = assistant.ask("welke componenten zijn er nodig voor gpu's op kubernetes?")
    positions = [answer.answer.find(part) for part in parts]
    assert len(positions) > 1 and -1 not in positions and positions == sorted(positions), answer.answer
    one = assistant.ask("wat doet de device plugin?")
    assert parts[0] in one.answer and parts[1] not in one.answer, one.answer


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("what stack of components sits under gpus on kubernetes", "en"),
        ("wat voor stapel componenten zit er onder gpu-ondersteuning in kubernetes", "nl"),
    ],
)
def test_a_question_that_names_the_kind_of_a_listing_sentence_gets_all_its_parts(
    assistant: Assistant, settings: Settings, question: str, language: str
) -> None:
    """ "a small stack of components working together" is what the sentence's parts are members of: a question
    that names it asks for them all, though it has no form of a question for members."""
    _, parts = _listing_sentence(settings, language)
    answer = assistant.ask(question).answer
    positions = [answer.find(part) for part in parts]
    assert len(positions) > 1 and -1 not in positions and positions == sorted(positions), answer


def test_the_goal_a_list_serves_does_not_single_out_one_of_its_members(
    assistant: Assistant, settings: Settings
) -> None:
    """ "… before containers can see a GPU" asks for the components; that the toolkit's part also says "so that
    containers can see the driver" does not make it the one asked for."""
    _, parts = _listing_sentence(settings, "en")
    answer = assistant.ask("which parts have to be in place before containers can see a gpu?").answer
    positions = [answer.find(part) for part in parts]
    assert len(positions) > 1 and -1 not in positions and positions == sorted(positions), answer


def _lead_in(settings: Settings, section_id: str, language: str) -> str:
    """The sentence that introduces a guide section's bulleted list, without its colon."""
    blocks = load_guide(settings.corpus_dir)[language].section(section_id).blocks
    before = next(blocks[i - 1] for i, block in enumerate(blocks) if block.bullet)
    return before.sentences[-1].rstrip(":")


@pytest.mark.parametrize(
    ("question", "language", "section_id"),
    [
        ("why use kubernetes for gpus at all instead of one big box?", "en", "why-it-matters"),
        (
            "als een provider 'ja' zegt op kubernetes, kan dat verschillende dingen betekenen?",
            "nl",
            "kubernetes-support",
        ),
    ],
)
def test_a_list_s_lead_in_that_answers_leads_with_its_list(
    assistant: Assistant, settings: Settings, question: str, language: str, section_id: str
) -> None:
    """ "Kubernetes earns its place in GPU work where you need orchestration …:" says why, and its items say
    where: the lead-in opens the answer, and every item follows in the guide's order."""
    answer = assistant.ask(question)
    lead_in = _lead_in(settings, section_id, language)
    assert answer.answer.startswith(lead_in), answer.answer
    assert answer.citations[0].quote == f"{lead_in}:"  # cited apart: with the first item it is no sentence
    positions = [answer.answer.find(item) for item in _list_items(settings, section_id, language)]
    assert -1 not in positions and positions == sorted(positions), answer.answer


@pytest.mark.parametrize(
    "question",
    [
        "what is time-slicing?",
        "what should I weigh before choosing kubernetes over a plain instance?",
        "what should we weigh all of the kubernetes machinery against",  # a lead-in that leans back
        # the guide's part of an answer that asks for providers too
        "waarom zou je kubernetes gebruiken voor gpu werk en welke aanbieders hebben beheerde kubernetes",
        "hoe fijn kun je een gpu opdelen?",
        "can I share one GPU between pods?",
        "what does managed kubernetes with gpu node pools mean?",
    ],
)
def test_a_list_s_lead_in_is_never_quoted_without_its_list(
    assistant: Assistant, settings: Settings, question: str
) -> None:
    answer = assistant.ask(question)
    for section_id in ("kubernetes-support", "why-it-matters", "gpu-sharing", "tradeoffs"):
        lead_in = _lead_in(settings, section_id, answer.language)
        if lead_in in answer.answer:
            items = [answer.answer.find(item) for item in _list_items(settings, section_id, answer.language)]
            assert min(items) > answer.answer.find(lead_in), answer.answer


def test_a_list_question_that_names_one_member_is_answered_about_that_one(
    assistant: Assistant, settings: Settings
) -> None:
    answer = assistant.ask("What are the downsides of time-slicing?")
    time_slicing, mig, _ = _list_items(settings, "gpu-sharing", "en")
    assert answer.answer.startswith(time_slicing) and mig not in answer.answer


def test_an_open_question_quotes_an_faq_from_the_sentence_that_answers_it(assistant: Assistant) -> None:
    """Not from the FAQ's first sentence: what comes before the answering one is not the answer."""
    answer = assistant.ask("when does k8s start paying off for gpu workloads?")
    assert answer.answer.startswith("Kubernetes pays off once") and "notebook" not in answer.answer


def test_the_part_of_an_earlier_faq_sentence_that_answers_follows_the_lead(assistant: Assistant) -> None:
    """An earlier sentence's part likely to answer is quoted on its own after the lead: the reason in the FAQ's
    direct answer ("Kubernetes allocates whole GPUs to pods"), without its verdict, which answers no yes/no
    question here."""
    answer = assistant.ask("why can't i just schedule two pods onto the same card?")
    assert answer.answer.startswith("To share a card")
    assert "Kubernetes allocates whole GPUs to pods." in answer.answer
    assert "Not by default" not in answer.answer


def test_a_sentence_about_the_list_before_it_is_quoted_after_the_list(
    assistant: Assistant, settings: Settings
) -> None:
    """ "Both are legitimate forms of Kubernetes support, but …" leans on the two kinds listed before it: it
    comes with them, in the guide's order, or not at all."""
    managed, own_cluster = _list_items(settings, "kubernetes-support", "en")
    answer = assistant.ask("do both kinds of kubernetes support take the same amount of ops work?")
    both = answer.answer.find("Both are legitimate forms")
    assert both > answer.answer.find(own_cluster) > answer.answer.find(managed) >= 0, answer.answer


def test_a_sentence_about_the_list_before_it_follows_the_whole_list_though_an_item_led(
    assistant: Assistant, settings: Settings
) -> None:
    """Asked about one kind, that kind's item scores first; when "Both are legitimate forms …" joins, the two
    kinds come before it in the guide's order, not the one that led and then the other."""
    managed, own_cluster = _list_items(settings, "kubernetes-support", "en")
    answer = assistant.ask(
        "if we install kubernetes ourselves on rented gpu vms, is that kubernetes support too?"
    )
    both = answer.answer.find("Both are legitimate forms")
    assert both > answer.answer.find(own_cluster) > answer.answer.find(managed) >= 0, answer.answer


def test_a_sentence_about_the_list_before_it_follows_the_list_though_its_paragraph_led(
    assistant: Assistant, settings: Settings
) -> None:
    """When the sentence after "Beide zijn legitieme vormen …" in its paragraph leads, "Beide …" still comes
    after the two kinds it is about: a citation's sentences are put in the guide's order per paragraph, and
    the first sentence of this one would otherwise open the answer with nothing to refer to."""
    managed, own_cluster = _list_items(settings, "kubernetes-support", "nl")
    answer = assistant.ask(
        "hoe zie ik welke van de twee soorten kubernetes-ondersteuning een aanbieder me geeft?"
    )
    assert answer.answer.startswith("Controleer de bovenstaande vergelijking"), answer.answer  # it leads
    both = answer.answer.find("Beide zijn legitieme vormen")
    assert both > answer.answer.find(own_cluster) > answer.answer.find(managed) >= 0, answer.answer


@pytest.mark.parametrize(
    "question",
    [
        "why is kubernetes overkill for one notebook",
        "waarom is een cluster overbodig voor één fine-tune run",
        "for a single experiment in jupyter, is ssh on a rented box simpler than k8s",
        "één fine-tuning run, gewoon een gehuurde instantie met ssh?",
    ],
)
def test_an_answer_says_once_what_the_guide_says_twice(assistant: Assistant, question: str) -> None:
    """The guide gives its advice for a single notebook in the body and again, nearly word for word, in its
    FAQ: an answer quotes one of the two."""
    answer = assistant.ask(question)
    notebook = [sentence for sentence in split_sentences(answer.answer) if "notebook" in sentence.lower()]
    assert len(notebook) == 1, answer.answer


@pytest.mark.parametrize(
    ("question", "language"),
    [("is kubernetes all upside?", "en"), ("heeft kubernetes alleen maar voordelen?", "nl")],
)
def test_a_sentence_a_lead_in_leans_on_leads_with_the_lead_in_and_its_list(
    assistant: Assistant, settings: Settings, question: str, language: str
) -> None:
    """ "Kubernetes adds capabilities but also moving parts." names what only the list after "Weigh them against
    a simpler rented instance:" spells out: it is quoted with the lead-in and every item, in the guide's order."""
    answer = assistant.ask(question)
    blocks = load_guide(settings.corpus_dir)[language].section("tradeoffs").blocks
    introduction = next(blocks[i - 1] for i, block in enumerate(blocks) if block.bullet).sentences
    assert answer.answer.startswith(introduction[0]), answer.answer
    positions = [
        answer.answer.find(text) for text in (introduction[1], *_list_items(settings, "tradeoffs", language))
    ]
    assert -1 not in positions and positions == sorted(positions), answer.answer
