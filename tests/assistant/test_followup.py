"""Follow-ups: which earlier question they are read with, and which provider of the previous answer a
reference such as "that one" or "die laatste" means."""

from __future__ import annotations

import pytest

from assistant.followup import (
    is_follow_up,
    naming,
    previous_answer,
    referred_one,
    refers_back,
    sets_against,
    situated,
)
from assistant.models import Turn

LISTED = ["coreweave", "lambda", "crusoe"]


@pytest.mark.parametrize(
    ("question", "mentioned", "referred"),
    [
        ("what regions is the last one in", LISTED, "crusoe"),
        ("wat kost een H100 bij die laatste", LISTED, "crusoe"),
        ("and the first one?", LISTED, "coreweave"),
        ("heeft de tweede ook spot?", LISTED, "lambda"),
        ("does that one have InfiniBand?", ["tensorwave"], "tensorwave"),
        ("welke regio's heeft die aanbieder", ["nebius"], "nebius"),
        # "that one" among several is ambiguous; a place beyond the list names nothing.
        ("does that one have InfiniBand?", LISTED, None),
        ("and the third one?", ["lambda", "crusoe"], None),
        # Not a reference to a provider.
        ("is the first step installing the driver?", LISTED, None),
        ("what does MIG do", LISTED, None),
        ("what regions is the last one in", [], None),
    ],
)
def test_a_reference_names_one_provider_of_the_previous_answer(
    question: str, mentioned: list[str], referred: str | None
) -> None:
    assert referred_one(question, lambda: mentioned) == referred


def test_the_previous_answer_is_the_last_assistant_turn() -> None:
    history = [
        Turn(role="user", content="who has InfiniBand?"),
        Turn(role="assistant", content="CoreWeave and Lambda [1]."),
        Turn(role="user", content="and in Europe?"),
    ]
    assert previous_answer(history) == "CoreWeave and Lambda [1]."
    assert previous_answer([]) is None


KNOWN = {"device", "plugin", "interconnect", "mig", "drivers", "managed", "different", "anders"}.__contains__


@pytest.mark.parametrize(
    ("question", "follows"),
    [
        ("and with MIG?", True),
        ("en bij spot-nodes?", True),
        ("ok and does it preinstall the drivers too", True),
        ("cool, which of those run in Europe?", True),
        # Long, but about what was asked before: a pronoun says so.
        ("what's its control plane fee per cluster per hour?", True),
        ("what if I later need autoscaling inference, does that change it?", True),
        ("hoeveel kost dat per maand bij een beheerde control plane?", True),
        ("Which providers offer managed Kubernetes with MIG in Europe?", False),
        ("does Kubernetes support mean that drivers are preinstalled on GPU nodes?", False),
        ("okay so which providers offer managed Kubernetes with InfiniBand in Europe", False),
    ],
)
def test_a_short_continuing_or_pointing_back_question_is_a_follow_up(question: str, follows: bool) -> None:
    assert is_follow_up(question, KNOWN) == follows


@pytest.mark.parametrize(
    ("question", "points_back"),
    [
        ("does it do monitoring too, or just drivers?", True),
        ("and what are their downsides?", True),
        ("en werkt dat ook op AMD?", True),
        ("en als mijn provider die niet heeft?", True),
        ("kan ik daarmee geheugen isoleren?", True),
        # any Dutch pronominal adverb, "er", "daar" or "hier" with a preposition
        ("lost de gpu operator daartegen iets op?", True),
        ("wat zegt de gids hierover", True),
        ("moet ik ertoe een operator installeren?", True),
        ("erg duur, zo'n h100 node?", False),
        # Before words that compare, it is the thing compared, whatever the corpus knows of them.
        ("so how is that different from MPS?", True),
        ("en is dat anders dan time-slicing?", True),
        # A demonstrative before a word the corpus knows is a determiner: the follow-up names its subject.
        ("wat doet die device plugin dan?", False),
        ("why that interconnect?", False),
        ("and with MIG?", False),
        # "which" standing for a noun chooses among what was named before; before its noun it names what it asks
        ("which one's less work for us to run?", True),
        ("en welke is minder werk voor mij?", True),
        ("which is cheaper to run?", True),
        ("which provider has MIG?", False),
        ("is the gpu operator, which is on every node, enough for monitoring?", False),
        ("welke onderdelen heb ik nodig?", False),
    ],
)
def test_a_follow_up_that_points_back_with_a_pronoun_is_recognised(question: str, points_back: bool) -> None:
    assert refers_back(question, KNOWN) == points_back


@pytest.mark.parametrize(
    ("question", "against"),
    [
        ("and what about the other kind?", True),
        ("which one would you pick instead", True),
        ("en die andere manier dan?", True),
        ("the others?", True),
        ("wat moet ik anders doen", True),
        # "other" before a noun that is no alternative names something else; "else" asks for more of the same.
        ("does it run on other gpus as well?", False),
        ("heeft die andere providers ook?", False),
        ("anything else about the storage?", False),
    ],
)
def test_a_follow_up_that_asks_for_another_than_the_earlier_one_is_recognised(
    question: str, against: bool
) -> None:
    assert sets_against(question) is against
    if against:  # it points back like a pronoun: read with the earlier question
        assert refers_back(question, KNOWN)


@pytest.mark.parametrize(
    ("question", "stands_for"),
    [
        ("does it do spot nodes?", "does voltage park do spot nodes?"),
        ("which regions is that one in", "which regions is voltage park in"),
        ("en wat kost een a100 bij die laatste?", "en wat kost een a100 bij voltage park?"),
        ("en wat kost dat?", None),  # "dat" is the whole turn before, not the provider
    ],
)
def test_a_follow_up_about_one_provider_stands_for_the_question_naming_it(
    question: str, stands_for: str | None
) -> None:
    assert naming(question, "voltage-park") == stands_for


@pytest.mark.parametrize(
    ("question", "within"),
    [
        ("en krijgt elke pod dan eigen geheugen?", True),
        ("what would i run it on then?", True),
        ("why does the storage matter there", True),
        ("welke van de twee kost minder onderhoud?", True),
        # "dan" after a comparative is "than"; "there" before a form of "to be" says that something exists.
        ("is een h100 sneller dan een a100?", False),
        ("meer dan twee gpu's per node?", False),
        ("is there a provider with mig in europe?", False),
        ("there are two kinds, right?", False),
    ],
)
def test_a_follow_up_asking_within_the_earlier_situation_is_recognised(question: str, within: bool) -> None:
    assert situated(question) is within
