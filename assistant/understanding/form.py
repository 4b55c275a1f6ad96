"""The form of a question: can it be answered yes or no, and what it is about.

General grammar of English and Dutch, not rules for particular questions: a yes/no question opens its main
clause with an auxiliary or, in Dutch, with the finite verb (verb-first word order); a question word opens an
open question. A coordinating conjunction that opens a follow-up is passed over. A leading clause ("In a managed cluster, …", "Als ik k3s gebruik, …") is skipped first. When a
statement comes before the question ("I only run one notebook, do I need Kubernetes?", "We have 4 nodes. Is
InfiniBand needed?"), the question is the sentence that ends in "?", and in it the clause after a comma that
opens like a question. A statement that ends in a tag ("…, right?", "k8s or not", "…, toch?", "of niet?")
asks whether it holds: yes or no.
"""

from __future__ import annotations

import re
from typing import Literal

from assistant.text import fold

Form = Literal["yes_no", "open"]

_ENGLISH_AUXILIARIES = frozenset(
    "do does did is are was were can could should shall will would must may might have has had need "
    "isnt arent doesnt dont cant wont shouldnt".split()
)
_QUESTION_WORDS = frozenset(
    "what whats which who whom whose why when where how explain describe tell list compare give show "
    "wat welke welk wie waarom wanneer waar hoe hoeveel waarmee waarvoor waardoor leg noem vergelijk "
    "geef toon beschrijf".split()
)
_DUTCH_AUXILIARIES = frozenset(
    "kan kun kunt kunnen moet moeten mag mogen wil wilt willen zal zult zullen zou zouden is zijn ben bent "
    "was waren heeft hebben heb hebt had wordt worden werd doet doen".split()
)
_DUTCH_NON_VERBS = frozenset("het niet met net eigenlijk ook echt dat ".split())
# A coordinating conjunction that opens a follow-up ("and …", "en wanneer dan wel?") joins it to what came
# before; the clause's form is given by the word after it.
_CONJUNCTIONS = frozenset("and or but so en of maar dus".split())
# Subordinating openers of a leading clause: the main clause follows the first comma.
_LEADING_CLAUSE = re.compile(
    r"^(?:if|when|in|on|with|for|since|because|given|assuming|as|after|before|als|wanneer|indien|in|op|"
    r"met|bij|voor|omdat|aangezien|stel|gegeven|na)\b[^,?]*,\s*"
)
# Words that set things side by side ("managed vs your own cluster", "het verschil tussen MIG en MPS").
_COMPARISON = re.compile(
    r"\b(?:vs|versus|difference|differences|differ|verschil|verschillen|compared|vergeleken|tegenover|"
    r"trade ?offs?|afweging)\b"
)
# A tag after a statement asks for its confirmation ("the drivers are on the nodes already, right?").
_TAG = re.compile(
    r"\b(?:or not|yes or no|right|correct|isnt it|of niet|ja of nee|toch|klopt dat|klopt het)\W*$"
)
_WORD = re.compile(r"[a-z0-9']+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def main_clause(question: str) -> str:
    """The question without a leading subordinate clause, folded to lowercase."""
    text = fold(question).strip()
    return _LEADING_CLAUSE.sub("", text, count=1) or text


def _asking_sentence(text: str) -> str:
    """The last sentence that ends in "?", when a statement comes before it; else the whole text."""
    asked = [sentence for sentence in _SENTENCE_END.split(text.strip()) if sentence.endswith("?")]
    return asked[-1] if asked else text


def question_form(question: str, language: str) -> Form:
    """yes_no for "Can I …?", "Moet ik …?"; open for what/which/how/why questions and requests."""
    sentence = main_clause(_asking_sentence(question))
    clauses = [sentence, *(clause.strip() for clause in sentence.split(",")[1:])]
    forms = [_clause_form(_WORD.findall(clause.replace("'", "")), language) for clause in clauses]
    asked = next((form for form in forms if form is not None), None)
    if asked is None and _TAG.search(sentence.replace("'", "")):
        return "yes_no"
    return asked or "open"


def compares(question: str) -> bool:
    """Whether the question sets things side by side: its answer gives them in the guide's order."""
    return bool(_COMPARISON.search(fold(question).replace("-", " ")))


def _clause_form(words: list[str], language: str) -> Form | None:
    """The form a clause's first word gives it, or None when the clause does not open like a question."""
    while words and words[0] in _CONJUNCTIONS:
        words = words[1:]
    if not words:
        return None
    first = words[0]
    if first in _QUESTION_WORDS:
        return "open"
    if first in _ENGLISH_AUXILIARIES:
        return "yes_no"
    if language == "nl" and (first in _DUTCH_AUXILIARIES or _dutch_finite_verb(first, words)):
        return "yes_no"
    return None


def _dutch_finite_verb(first: str, words: list[str]) -> bool:
    """Verb-first order: a finite form (-t, -en) followed by a subject and more ("Biedt Scaleway MIG aan?")."""
    return len(words) >= 3 and first.endswith(("t", "en")) and first not in _DUTCH_NON_VERBS
