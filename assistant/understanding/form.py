"""The form of a question: can it be answered yes or no, and what it is about.

General grammar of English and Dutch, not rules for particular questions: a yes/no question opens its main
clause with an auxiliary or, in Dutch, with the finite verb (verb-first word order); a question word opens an
open question. A coordinating conjunction that opens a follow-up is passed over. A leading clause ("In a managed cluster, …", "Als ik k3s gebruik, …") is skipped first. When a
statement comes before the question ("I only run one notebook, do I need Kubernetes?", "We have 4 nodes. Is
InfiniBand needed?"), the question is the sentence that ends in "?", and in it the clause after a comma that
opens like a question. A statement that ends in a tag ("…, right?", "k8s or not", "…, toch?", "of niet?")
asks whether it holds: yes or no. A question that opens like a yes/no question and goes on to a second clause
after "or" ("is the device plugin mine to install, or does the provider handle it?"), or that ends in a short
second option after "or" ("is MIG isolation done in hardware or in software?"), asks which of two holds: it is
open, and "Often yes" would answer neither.
"""

from __future__ import annotations

import re
from typing import Literal

from assistant.text import content_terms, fold

Form = Literal["yes_no", "open"]

_ENGLISH_AUXILIARIES = frozenset(
    "do does did is am are was were can could should shall will would must may might have has had need "
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
# Words that end like a finite verb (-t, -en) but never are one: articles, adverbs, prepositions ("één
# notebook draaien, wat is er simpeler" opens with a number, not a verb).
_DUTCH_NON_VERBS = frozenset(
    "een geen het dat niet met net eigenlijk ook echt alleen even misschien toen omdat tegen binnen buiten "
    "boven beneden".split()
)
# Subject pronouns: right after the first word they mark verb-first order ("betaal ik …", "krijg je …"), or,
# after an English auxiliary, the start of the main clause that follows a leading clause with no comma ("if
# my provider uses the operator do i still …").
_SUBJECTS = {
    "en": frozenset("i you we they it he she".split()),
    "nl": frozenset("ik je jij u we wij ze zij hij men jullie".split()),
}
# After a leading clause with no comma, an auxiliary before one of these may open the main clause too ("if a
# provider says 'kubernetes: yes' does that mean …"), unless a question word follows anywhere.
_DETERMINERS = frozenset(
    "the a an my your our their its that this these those there de het mijn onze hun die dat deze dit er".split()
)
# Words that open a subordinate clause; the Dutch ones in -t ("voordat ik …") are no verb before a subject.
_SUBORDINATORS = frozenset(
    "if when once since because given assuming as after before while unless until although "
    "als wanneer indien omdat aangezien stel gegeven nu toen zodat terwijl voordat nadat totdat zodra zolang "
    "hoewel tenzij".split()
)
# An alternative question's second option is a short phrase that ends it ("… in hardware or in software").
_LAST_OPTION_WORDS = 6
_NEGATIONS = frozenset("not no niet nee".split())  # "or not", "of niet": a tag, yes or no
# Before "or", these make it join examples ("like preprocessing or rendering", "either MIG or MPS"), not a
# question's two options.
_EXAMPLES = frozenset("like such zoals bijvoorbeeld either".split())
# A coordinating conjunction that opens a follow-up ("and …", "en wanneer dan wel?") joins it to what came
# before; the clause's form is given by the word after it.
_CONJUNCTIONS = frozenset("and or but so en of maar dus".split())
# Prepositions that open a leading phrase as a subordinator opens a leading clause ("In a managed cluster, …").
_LEADING_PREPOSITIONS = frozenset("in on with for op met bij voor na".split())
# The opener of a leading clause or phrase: the main clause follows the first comma.
_LEADING_CLAUSE = re.compile(rf"^(?:{'|'.join(sorted(_SUBORDINATORS | _LEADING_PREPOSITIONS))})\b[^,?]*,\s*")
# Words that set things side by side ("managed vs your own cluster", "het verschil tussen MIG en MPS", "is
# time-slicing the same as MIG?"); not the noun "comparison", which in the guide's world is the comparison table
# ("the comparison says yes").
_COMPARISON = re.compile(
    r"\b(?:vs|versus|difference|differences|differ|differs|verschil|verschillen|verschilt|compare|compared|compares|vergelijk|"
    r"vergelijken|vergeleken|tegenover|trade ?offs?|afweging|"
    r"(?:different|differently) (?:from|than)|(?:the )?same (?:thing )?as|similar to|(?:het)?zelfde als|anders dan)\b"
)
# A tag after a statement asks for its confirmation ("the drivers are on the nodes already, right?").
_TAG = re.compile(
    r"\b(?:or not|yes or no|right|correct|isnt it|of niet|ja of nee|toch|klopt dat|klopt het|kan dat|gaat dat|"
    r"mag dat|kan het)\W*$"
)
# A question with no verb and no question word that ends in what it asks to be judged ("drivers preinstalled?",
# "multiple jobs on one gpu, possible?", "k8s voor één notebook, zinnig?"): a predicate that holds or does not.
_VERBLESS_PREDICATE = re.compile(
    r"\b(?:possible|doable|feasible|worth it|good idea|makes sense|sensible|overkill|needed|required|necessary|"
    r"preinstalled|pre-installed|included|supported|mogelijk|haalbaar|de moeite waard|een goed idee|zinnig|"
    r"verstandig|nodig|verplicht|voorgeinstalleerd|inbegrepen|ondersteund)\W*$"
)
# "=" between two things says that one is the other: "k8s support = drivers on the nodes?" asks whether it holds.
_EQUATES = re.compile(r"\w\s*=\s*\w")
# A question for the members of a kind ("what are the trade-offs?", "welke sharing methods zijn er?", "what
# kinds of sharing are there"): a question word, at most a few words, then a plural copula or "exist"; or a
# question word before a plural word for kinds or options (a singular one asks for one: "which option fits").
_ASKS_FOR_LIST = re.compile(
    r"^(?:what|which|wat|welke)\b(?:\s+\S+){0,4}?\s+(?:are|zijn|exist|bestaan)\b"
    r"|^(?:what|which|wat voor|welke|how many|hoeveel)\s+(?:kinds|types|sorts|options|ways|methods|soorten|opties|"
    r"manieren|vormen|methodes|methoden)\b"
    r"|^welke\s+\S+(?:\s+\S+)?\s+(?:moeten|kunnen|hebben|horen)\b"  # a plural subject: "welke onderdelen moeten …"
    r"|^(?:what|which)\s+\S+s(?:\s+\S+)?\s+(?:have|need|must)\b"  # and in English: "which parts have to …"
    # needed by someone: "which components do i need", "welke onderdelen heb je nodig" (a Dutch plural in -en, -s)
    r"|^(?:what|which)\s+\S+s\s+(?:do|does)\s+\S+\s+need\b"
    r"|^welke\s+\S+(?:en|s)\s+(?:heb|hebt|heeft|hebben|moet|moeten)\s+\S+\s+(?:\S+\s+)?nodig\b"
    r"|^(?:list|name|noem|geef)\b"  # a request to list: "noem eens wat voorbeelden"
    r"|\b(?:allemaal|examples|voorbeelden)\b"  # "wat kan dat allemaal betekenen", "give me some examples"
)
# A preposition before the question word asks the same ("in which kinds of gpu work …", "op welke manieren …").
_PREPOSITION = re.compile(
    r"^(?:in|for|on|at|with|to|voor|op|bij|met|naar|aan)\s+(?=(?:what|which|wat|welke)\b)"
)
# A number of them asked for: "three reasons to use k8s", "3 use cases voor gpu's", "welke drie manieren …". A
# number that opens the clause, without a question word before it, sets the scene when a question word follows
# ("two teams, one a100 … which feature"); after "which" it is what is asked, and a later "where" or "waar" opens a
# relative clause ("welke drie soorten werk noemt de gids waar k8s nuttig is"). So does one right after the
# number's noun ("drie dingen waar kubernetes waarde toevoegt"), unless a later clause asks its own question
# ("two pods that share a gpu, how is memory split").
_ASKS_FOR_NUMBER = re.compile(
    r"^(?P<asking>(?:what|which|wat|welke)\s+(?:are\s+|zijn\s+)?(?:the\s+|de\s+)?)?(?:top\s+)?"
    r"(?:[2-5]|two|three|four|five|twee|drie|vier|vijf)\s+(?=[a-z])"
    r"(?P<described>[\w'-]+(?:\s+[\w'-]+)?\s+(?:where|why|that|which|waar|waarom|waarin|waarbij|waarvoor|die|dat)\b)?"
)
# A clause after the asking one that says what for ("… before a pod can see the gpu", "… zodat een pod een gpu kan
# gebruiken", "… om gpu's beschikbaar te maken"): its words name the goal, not what is asked.
_GOAL = re.compile(r"\s(?:before|so that|in order to|zodat|voordat|opdat|om\s(?=.*\ste\s))")
# A clause that opens with its predicate has left out "is it" ("one gpu job, worth setting up k8s for it?",
# "mogelijk om één gpu te delen?"): it asks whether the predicate holds.
_PREDICATES = frozenset("worth possible zinvol nuttig verstandig mogelijk handig".split())
_WORD = re.compile(r"[a-z0-9']+")
# Where a topic or a remark before the question ends: "gpu provider says 'kubernetes support' — does that mean
# …", "quick vraagje: do i need …".
_CLAUSE_BREAK = re.compile(r",|\s[—–-]\s|:\s")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


# A second question joined to the first by "and" or "en" before a question word ("how does sharing work and
# who supports it", "welke providers schalen naar nul, en waarom zou ik dat willen"): it asks something of its
# own, which the two questions read as one may drown.
_SECOND_QUESTION = re.compile(
    r"[,;]?\s+(?:and|en|&)\s+(?=(?:what|which|who|why|how|where|when|wat|welke|wie|waarom|hoe|waar|wanneer|"
    r"bij wie)\b)",
    re.IGNORECASE,
)


def questions_asked(question: str) -> list[str]:
    """The questions a compound question joins, each as written: one for a simple question. An interjection
    before "and" ("ok, and which clouds support that?") asks nothing; a question word alone does ("… and when?")."""
    parts = [part for part in _SECOND_QUESTION.split(question.strip()) if part]
    if len(parts) > 1 and _is_interjection(parts[0]):
        return parts[1:]
    return parts


def _is_interjection(part: str) -> bool:
    words = _words_of(fold(part))
    return len(words) == 1 and words[0] not in _QUESTION_WORDS


def main_clause(question: str) -> str:
    """The question without a leading subordinate clause, folded to lowercase."""
    text = fold(question).strip()
    return text[_main_clause_start(text) :]


def _main_clause_start(text: str) -> int:
    """Where the main clause begins after a leading subordinate clause; 0 when there is none, or nothing after it."""
    leading = _LEADING_CLAUSE.match(text)
    return leading.end() if leading and leading.end() < len(text) else 0


def _asking_sentence(text: str) -> str:
    """The last sentence that ends in "?", when a statement comes before it; else the whole text."""
    asked = [sentence for sentence in _SENTENCE_END.split(text.strip()) if sentence.endswith("?")]
    return asked[-1] if asked else text


def _clauses(sentence: str) -> list[tuple[int, str]]:
    """Where each clause a question might open with starts, and its text: the whole sentence first, then each
    clause after a comma, dash or colon."""
    clauses = [(0, sentence)]
    breaks = list(_CLAUSE_BREAK.finditer(sentence))
    for position, this_break in enumerate(breaks):
        end = breaks[position + 1].start() if position + 1 < len(breaks) else len(sentence)
        clauses.append((this_break.end(), sentence[this_break.end() : end].strip()))
    return clauses


def _words_of(clause: str) -> list[str]:
    return _WORD.findall(clause.replace("'", ""))


def question_form(question: str, language: str) -> Form:
    """yes_no for "Can I …?", "Moet ik …?"; open for what/which/how/why questions and requests."""
    sentence = main_clause(_asking_sentence(question))
    forms = [(offset, _clause_form(_words_of(clause), language)) for offset, clause in _clauses(sentence)]
    start, asked = next(((offset, form) for offset, form in forms if form is not None), (0, None))
    if asked == "yes_no" and (
        _offers_alternatives(_words_of(sentence), language)
        or _ends_in_option(_words_of(sentence[start:]), language)
    ):
        return "open"
    if asked is None and _asks_to_judge(sentence):
        return "yes_no"
    return asked or "open"


def asking_offset(question: str) -> int:
    """Where, in the folded question, the clause that asks begins: after a remark or a leading clause that sets
    the scene ("we run a managed cluster, zit de device plugin er dan al op" asks in its second clause, in
    Dutch). 0 when the question asks from its first word, or when no clause opens like a question. Dutch word
    order is allowed for, so a clause of either language is found."""
    text = fold(question)
    sentence = _asking_sentence(text)
    main = _main_clause_start(sentence)
    start, sentence = text.rfind(sentence) + main, sentence[main:]
    return next(
        (start + offset for offset, clause in _clauses(sentence) if _clause_form(_words_of(clause), "nl")),
        0,
    )


def _offers_alternatives(words: list[str], language: str) -> bool:
    """Whether a clause that opens like a yes/no question goes on to a second clause after "or"/"of" that
    opens with an auxiliary ("is the device plugin mine to install, or does the provider handle it", "staan de
    drivers er al op of moet ik dat zelf regelen"): it asks which of the two holds, not whether one does."""
    for position, word in enumerate(words[1:-1], start=1):
        rest = words[position + 1 :]
        if word in ("or", "of") and (
            _is_auxiliary(rest[0], language)
            or (language == "nl" and (_dutch_finite_verb(rest[0], rest) or _subject_second(rest[0], rest)))
        ):
            return True
    return False


def _ends_in_option(words: list[str], language: str) -> bool:
    """Whether the clause that asks ends in a second option after "or" ("is the gpu operator from nvidia or from
    the cloud provider", "is coreweave managed or bring your own", "werkt mig op elke kaart of alleen op nieuwe"):
    an alternative question, open. Not "or not" (a tag), nor an "or" in examples ("batch jobs like
    preprocessing or rendering") or in a clause of whether ("the same whether it's managed or my own", "maakt het
    uit of ik mig of mps kies"): those ask yes or no.
    """
    ors = ("or",) if language == "en" else ("or", "of")
    whether = next(
        (position for position in range(len(words)) if _opens_whether(words, position)), len(words)
    )
    for position, word in enumerate(words[1:-1], start=1):
        option = words[position + 1 :]
        if (
            word in ors
            and len(option) <= _LAST_OPTION_WORDS
            and option[0] not in _NEGATIONS
            and words[position - 1] != "out"  # "out of the box" in a Dutch question
            and not _EXAMPLES.intersection(words[:position])
            and position < whether
        ):
            return True
    return False


def _opens_whether(words: list[str], position: int) -> bool:
    """Whether the word opens a clause of whether: "whether", or Dutch "of" before its subject ("of ik", "of er")."""
    following = words[position + 1] if position + 1 < len(words) else ""
    return words[position] == "whether" or (words[position] == "of" and following in _SUBJECTS["nl"] | {"er"})


def _asks_to_judge(sentence: str) -> bool:
    """A statement with a tag, or a verbless question ending in a predicate or setting two things equal ("k8s
    support = drivers already on the nodes?"), with no question word anywhere."""
    if _QUESTION_WORDS.intersection(_WORD.findall(sentence)):
        return False
    tagged = _TAG.search(sentence.replace("'", ""))
    judged = _VERBLESS_PREDICATE.search(sentence) or _EQUATES.search(sentence)
    return bool(tagged or (sentence.endswith("?") and judged))


def without_goal(question: str) -> str:
    """The question up to a clause that says what for, folded to lowercase: "which pieces need to be in place
    before a pod can see the gpu" asks for the pieces, and seeing is what they serve, not one of them."""
    text = fold(question)
    goal = _GOAL.search(text)
    return text[: goal.start()] if goal else text


def asks_for_list(question: str) -> bool:
    """Whether the question asks for the members of a kind: its answer quotes the guide's list of them. The
    clause that asks is read, after a topic set before it ("kubernetes op gehuurde gpu's: wat zijn de nadelen?")."""
    offset = asking_offset(question)
    asked = fold(question)[offset:].strip() if offset else main_clause(_asking_sentence(question))
    asked = _PREPOSITION.sub("", asked)
    number = _ASKS_FOR_NUMBER.search(asked)
    later_questions = _QUESTION_WORDS.intersection(_words_of(asked)[1:])
    number_asked = number and (
        number["asking"] or not later_questions or number["described"] and not _asks_again(asked)
    )
    return bool(_ASKS_FOR_LIST.search(asked) or number_asked)


def _asks_again(clause: str) -> bool:
    """Whether a part after a break in the clause ("…, how is memory split") asks a question of its own."""
    return any(_QUESTION_WORDS.intersection(_words_of(part)) for part in _CLAUSE_BREAK.split(clause)[1:])


def compares(question: str) -> bool:
    """Whether the question sets things side by side: its answer gives them in the order it names them."""
    return bool(_COMPARISON.search(_unhyphenated(question)))


def opens_comparison(text: str) -> bool:
    """Whether the text opens with words that set things side by side ("different from MIG", "hetzelfde als")."""
    return bool(_COMPARISON.match(_unhyphenated(text)))


def comparison_terms(question: str) -> frozenset[str]:
    """The words with which the question sets things side by side ("different", "verschil"): they name no side,
    so no sentence is the other side for stating them ("The operational burden is very different.")."""
    found = _COMPARISON.finditer(_unhyphenated(question))
    return frozenset(term for match in found for term in content_terms(match.group()))


def _unhyphenated(text: str) -> str:
    """Folded, with hyphens as spaces, as the comparison words are matched ("trade-offs", "trade offs")."""
    return fold(text).replace("-", " ")


def _clause_form(words: list[str], language: str) -> Form | None:
    """The form a clause's first word gives it, or None when the clause does not open like a question."""
    while words and words[0] in _CONJUNCTIONS:
        words = words[1:]
    if not words:
        return None
    first = words[0]
    if first in _SUBORDINATORS and not (len(words) > 1 and _is_auxiliary(words[1], language)):
        return _after_leading_clause(words, language)
    if first in _QUESTION_WORDS:
        return "open"
    if (
        first in _PREDICATES
        or _is_auxiliary(first, language)
        or (language == "nl" and (_dutch_finite_verb(first, words) or _subject_second(first, words)))
    ):
        return "yes_no"
    return None


def _is_auxiliary(word: str, language: str) -> bool:
    return word in _ENGLISH_AUXILIARIES or (language == "nl" and word in _DUTCH_AUXILIARIES)


def _after_leading_clause(words: list[str], language: str) -> Form | None:
    """A clause that opens with a subordinator and no comma ("when the provider preinstalls the driver do i
    have to …"): its main clause opens at the first question word, or auxiliary followed by a subject; or, when
    no question word comes, at an auxiliary followed by a determiner ("… does that mean …")."""
    subjects = _SUBJECTS["en"] | _SUBJECTS.get(language, frozenset())
    determined = False
    for word, following in zip(words[2:], words[3:], strict=False):
        if word in _QUESTION_WORDS:
            return "open"
        if _is_auxiliary(word, language) and following in subjects:
            return "yes_no"
        determined = determined or (_is_auxiliary(word, language) and following in _DETERMINERS)
    return "yes_no" if determined else None


def _subject_second(first: str, words: list[str]) -> bool:
    """Verb-first order with a pronoun subject ("betaal ik ook voor lege nodes?"): any verb form counts."""
    return len(words) > 1 and words[1] in _SUBJECTS["nl"] and first not in _DUTCH_NON_VERBS


def _dutch_finite_verb(first: str, words: list[str]) -> bool:
    """Verb-first order: a finite form (-t, -en; "staan", "doen") followed by a subject and more ("Biedt
    Scaleway MIG aan?", "Staan de drivers er al op?")."""
    return len(words) >= 3 and first.endswith(("t", "en", "aan", "oen")) and first not in _DUTCH_NON_VERBS
