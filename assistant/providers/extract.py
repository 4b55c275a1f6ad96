"""The provider filter a question asks for (contract §3), in English and Dutch, from word patterns.

Whether a question asks for providers at all is decided before this, by the question-understanding step;
this module only reads which record facts it names. The words decide: "MIG or MPS" / "MIG of MPS" asks for
either (`sharing_any`), "MIG and MPS" for both (`sharing`), and a fact under a negation ("without spot",
"geen spot") or waved away after it ("spot hoeft niet") is left out rather than read as the positive. Where a
question names a fact twice, setting it side by side with another and then asking, the last naming asks.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

from assistant.language import is_common_word
from assistant.providers.filters import ProviderFilter
from assistant.text import fold

# Words worth correcting when misspelt; only longer words, so short words are never bent into these.
_VOCABULARY = (
    "infiniband preemptible interruptible kubernetes cheapest goedkoopste onderbreekbare voorgeinstalleerde "
    "preinstalled managed beheerde interconnect".split()
)
_MIN_FIX_LENGTH = 6


@lru_cache(maxsize=8192)
def _fixed(word: str) -> str:
    """The vocabulary word a misspelt word stands for, else the word (remembered: difflib is slow)."""
    if len(word) < _MIN_FIX_LENGTH or word in _VOCABULARY:
        return word
    if is_common_word(word):  # a real word is no typo: "beheer" is not "beheerde"
        return word
    close = difflib.get_close_matches(word, _VOCABULARY, n=1, cutoff=0.85)
    return close[0] if close else word


def _fix_typos(text: str) -> str:
    return re.sub(r"[a-z]+", lambda match: _fixed(match.group(0)), text)


def _normalize(question: str) -> str:
    """Folded (lowercase, no accents), typos fixed, hyphens as spaces, one space between words."""
    text = _fix_typos(fold(question))
    return " ".join(text.replace("-", " ").split())


def _any(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{pattern})" for pattern in patterns))


_KUBE = r"(?:kubernetes|k8s|kube)"
# In questions about GPU clouds "managed" on its own ("the managed options", "welke beheerde aanbieders")
# means managed Kubernetes; "self-managed", "zelf beheerd" and "managed to" do not.
_MANAGED = _any(
    rf"\b(?:hosted|gehoste) (?:\w+ ){{0,2}}{_KUBE}",
    r"(?<!self )\bmanaged\b(?! to\b)",
    r"(?<!zelf )\bbeheerde?\b",
    r"\bcontrol ?plane (?:is |wordt )?(?:managed|beheerd)",
)
# A cluster of one's own: said outright, by a distribution only run on one's own machines (k3s, kubeadm), by
# running Kubernetes oneself ("zelf k8s draaien"), or by joining rented machines to a cluster one already has.
_CLUSTER = r"(?:cluster|k3s|k8s|kubernetes|kube)"
_OWN_CLUSTER = _any(
    rf"\bown (?:\w+ ){{0,2}}{_CLUSTER}",
    r"\bbring (?:your|my|our) own\b",
    r"\bbyo\w*",
    r"\bself ?managed",
    rf"\beigen (?:\w+ ){{0,2}}{_CLUSTER}",
    r"\bzelf ?beheerd\w*",
    r"(?<!driver )(?<!drivers )\bzelf (?:(?!drivers?\b)\w+ ){0,2}(?:beheren|installeren)\b",
    rf"\bzelf (?:\w+ ){{0,3}}{_CLUSTER}\b",
    r"\b(?:k3s|kubeadm|rke2?|microk8s)\b",
    r"\b(?:existing|bestaande?) (?:\w+ )?cluster",
    r"\bcluster (?:i|we) (?:already )?(?:run|have|operate)\b",
    rf"\b(?:attach|join|add|koppel|hang|toevoeg)\w* (?:\w+ ){{0,5}}(?:to|into|aan|in|bij) (?:\w+ ){{0,2}}{_CLUSTER}\b",
)
_TIME_SLICING = _any(r"\btime ?slic\w*", r"\btime ?shar\w*", r"\btijdsdeling")
_MIG = _any(r"\bmig\b", r"\bmulti ?instance gpu")
_MPS = _any(r"\bmps\b", r"\bmulti ?process service")
_GPU_SHARING = _any(
    r"\bshar\w* (?:a |one |the |a single |1 )?gpus?\b",
    r"\bgpus? shar\w*",
    r"\bgpu ?del(?:en|ing)\b",
    r"\b(?:een|1) gpu (?:\w+ )?delen\b",
    r"\b(?:more than one|multiple|several|meerdere|meer dan (?:een|1)) (?:\w+ ){0,2}(?:per|on|op) "
    r"(?:one |a |a single |een |1 |the same |dezelfde )?gpu\b",
    r"\bfractional gpu",
    r"\b(?:split|partition) (?:a |one )?gpu",
    r"\bgpu(?:'?s)? (?:\w+ )?(?:delen|verdelen|opdelen|splitsen)\b",
    r"\b(?:delen|verdelen|opdelen|splitsen) van (?:een |1 |de )?gpu",
    r"\b(?:multiple|several|many|two|meerdere|veel|twee) (?:\w+ ){0,3}(?:one|a single|1|een|the same|dezelfde) gpu\b",
    r"\bgpu (?:opdelen|splitsen)",
)
_INTERCONNECT = _any(
    r"\binfiniband\b",
    r"\binfini band\b",
    r"\brdma\b",
    r"\broce\b",
    r"\bgpudirect\b",
    r"\befa\b",
    r"\b(?:fast|high ?speed|snel(?:le)?) (?:interconnect|network\w*|netwerk\w*)",
    r"\bmulti ?node",
    r"\bmeerdere nodes",
    r"\bacross (?:multiple |several |many )?nodes",
    r"\bdistributed training",
    r"\bgedistribueerde training",
)
_SPOT = _any(
    r"\bspot(?:nodes?|instances?|instanties?|gpus?|vms?|machines?|prij\w*|capaciteit)?\b",
    r"\bpre ?emptib\w*",
    r"\bpre ?empti(?:ve|eve)\b",
    r"\binterruptible",
    r"\bonderbreekba\w*",
)
# Scaling verbs with their prefixes ("autoscale", "downscale", "afschalen", "terugschalen").
_SCALE_TO_ZERO = _any(
    r"\b\w*(?:scal|scha+l)\w* (?:\w+ ){0,8}(?:to|naar|tot) (?:zero|nul|0)\b",
    r"\b(?:all the way )?down to (?:zero|0)\b",
    r"\bzero nodes\b",
    r"\b(?:naar|tot|to) (?:nul|zero|0) (?:\w+ )?\w*(?:scal|scha+l)\w*",
    r"\bidle\b.{0,30}\b(?:gpu|node|cost|kost|pay|betal)",
    r"\b(?:pay\w*|betaal|betalen|cost\w*|kosten) (?:\w+ ){0,3}(?:idle|ongebruikt\w*|inactiev\w*|stilstaand\w*)",
    r"\b(?:stille|idle) kosten",
)
# Drivers someone else installs: said outright, as drivers already there ("drivers al op de nodes", "drivers
# sorted for me"), or as not installing them oneself ("ik wil geen drivers zelf installeren").
_NOT_ONESELF = r"\b(?:no|not|dont|don't|never|without|geen|niet|zonder) (?:\w+ ){0,2}"
_DRIVERS = _any(
    r"\bdrivers?\b.{0,40}\b(?:preinstalled|pre installed|installed|voorgeinstalleerd\w*|geinstalleerd|included|"
    r"meegeleverd|install|installeren)\b",
    r"\b(?:preinstalled|voorgeinstalleerde?|installed|install|installeren) (?:\w+ ){0,2}drivers?\b",
    r"\bdrivers?\b.{0,40}\b(?:already|al (?:op|klaar|aanwezig|erop)|erop|klaar|set up|sorted|ready)\b",
    rf"{_NOT_ONESELF}drivers? (?:\w+ ){{0,2}}install\w*",
    rf"{_NOT_ONESELF}install\w* (?:\w+ ){{0,2}}drivers?\b",
    r"\bgpu operator\b",
)
_AMD = _any(r"\bamd\b", r"\brocm\b", r"\binstinct\b")
_GPU_MODEL = re.compile(
    r"\b(gb300|gb200|gh200|b300|b200|h200|h100|a100|a10g|a10|a40|a16|a6000|l40s|l40|l4|t4|v100|p100|"
    r"mi300x|mi325x|mi350x|mi355x|rtx ?pro ?6000|rtx ?6000|rtx ?4090|rtx ?4000)(?:s|'s)?\b"
)
# Areas by their names and by the countries and cities where GPU clouds commonly have data centres, in
# English and Dutch (a gazetteer: a question names a place far more often than a region code).
_AREAS = {
    "eu": _any(
        r"\beurop\w*",
        r"\beu\b",
        r"\bemea\b",
        r"\b(?:germany|duitsland|france|frankrijk|netherlands|nederland|holland|belgi(?:um|e)|ireland|ierland)\b",
        r"\b(?:uk|united kingdom|england|engeland|britain|groot-brittannie|scotland|schotland)\b",
        r"\b(?:finland|sweden|zweden|norway|noorwegen|iceland|ijsland|denmark|denemarken|poland|polen)\b",
        r"\b(?:spain|spanje|italy|italie|switzerland|zwitserland|austria|oostenrijk|portugal)\b",
        r"\b(?:amsterdam|rotterdam|frankfurt|berlin|berlijn|munich|munchen|paris|parijs|london|londen|dublin)\b",
        r"\b(?:stockholm|helsinki|oslo|copenhagen|kopenhagen|warsaw|warschau|madrid|milan|milaan|zurich|vienna|wenen)\b",
        r"\b(?:gravelines|roubaix|strasbourg|straatsburg|lisbon|lissabon|brussels|brussel)\b",
    ),
    "us": _any(
        r"\bunited states\b",
        r"\bamerica\w*",
        r"\bamerika\w*",
        r"\bverenigde staten\b",
        r"\busa\b",
        r"\bus[- ](?:east|west|central|north|south)",
        r"\b(?:in|from|within|across) the (?:us|states)\b",
        r"\b(?:in|uit|binnen) de us\b",
        r"^us (?:\w+ )?(?:providers?|aanbieders?|clouds?|regions?|nodes?)\b",
        r"\bus[- ](?:based|regions?|datacenters?|data centers?|datacentres?|data centres?)\b",
        r"\b(?:virginia|oregon|ohio|texas|california|californie|iowa|nevada|arizona|illinois|utah)\b",
        r"\b(?:new york|chicago|seattle|dallas|atlanta|las vegas|los angeles|san francisco|silicon valley)\b",
        r"\b(?:ashburn|phoenix|salt lake city|new jersey|washington dc|washington, dc)\b",
    ),
    "apac": _any(
        r"\basia\w*",
        r"\bazie\b",
        r"\baziatische\b",
        r"\bapac\b",
        r"\bjapan\b",
        r"\bsingapore\b",
        r"\bsingapoer\b",
        r"\b(?:south )?korea\b",
        r"\b(?:zuid-)?korea\b",
        r"\baustrali\w*",
        r"\bindia\b",
        r"\b(?:tokyo|osaka|seoul|sydney|melbourne|mumbai|delhi|hong kong|jakarta|taipei|taiwan|bangalore)\b",
    ),
}
# "US" only in capitals (not the pronoun); "de VS" (Dutch in any question) and "in VS" in Dutch (not English
# "vs").
_US_CAPITALS = re.compile(r"\bU\.?S\.?A?\b")
_DUTCH_VS = re.compile(r"\bde vs\b")
_IN_VS = re.compile(r"\bin vs\b")

# A price limit: the limit word before the amount ("under $2/hr", "minder dan een dollar per uur") or after it
# ("2.5 USD per GPU-hour or less"). An amount in words counts only with its currency ("a dollar").
_NUMBER_WORDS = {
    "a": 1,
    "one": 1,
    "een": 1,
    "two": 2,
    "twee": 2,
    "three": 3,
    "drie": 3,
    "four": 4,
    "vier": 4,
    "five": 5,
    "vijf": 5,
}
_AMOUNT = (
    r"(?P<before>\$|usd|€|eur)?\s*(?P<amount>\d+(?:[.,]\d{1,2})?|(?:" + "|".join(_NUMBER_WORDS) + r")\b)\s*"
    r"(?P<after>\$|usd|dollars?|bucks|€|eur|euros?)?"
    r"(?P<unit>\s*(?:/\s*(?:h|hr|hour|uur)\b|(?:per|an|a|een|p) (?:gpu )?(?:hour|hr|uur)\b|per gpu ?uur))?"
)
_LIMIT = re.compile(
    r"\b(?:under|below|less than|cheaper than|at most|max(?:imum)?|up to|no more than|within|onder(?: de)?|"
    r"minder dan|goedkoper dan|maximaal|hoogstens|niet meer dan|tot)\s*" + _AMOUNT
)
_LIMIT_AFTER = re.compile(
    r"\b"
    + _AMOUNT
    + r"\s*(?:or (?:less|lower|cheaper|under)|of (?:minder|lager|goedkoper)|max(?:imum|imaal)?|tops)\b"
)
_CHEAPEST = _any(
    r"\bcheapest\b",
    r"\bcheap\b",
    r"\blowest (?:price|cost)",
    r"\bleast expensive",
    r"\bmost affordable",
    r"\bgoedkoopste?\b",
    r"\bgoedkope\b",
    r"\blaagste prijs",
    r"\bvoordeligste?\b",
)
# The record attributes a question can ask about without choosing a value ("Civo regions?", "what does an
# H100 cost at Lambda", "welke gpu's heeft Scaleway", "what interconnect does it have", "how does Lambda do
# sharing"): the answer then quotes the record's sentence on them.
_ATTRIBUTES = {
    "interconnect": _any(r"\binterconnects?\b", r"\bfabric\b", r"\bnetwork\w*", r"\bnetwerk\w*"),
    "gpu_sharing": _any(r"\bshar(?:e|es|ing)\b", r"\bdelen\b", r"\bdeling\b", r"\bsplit\w*", r"\bopdelen\b"),
    "region": _any(
        r"\bregions?\b",
        r"\bregio(?:'?s)?\b",
        r"\blocations?\b",
        r"\blocaties?\b",
        r"\bwhere\b",
        r"\bwaar\b",
        r"\bdata ?cent(?:er|re)s?\b",
        r"\bdatacentra\b",
    ),
    "max_price_per_gpu_hour": _any(
        r"\bpric\w*",
        r"\bprijs\w*",
        r"\bcosts?\b",
        r"\bkost(?:en|t)?\b",
        r"\bhow much\b",
        r"\bhoeveel kost\w*",
        r"\btarie\w*",
        r"\brates?\b",
        r"\bper (?:gpu )?(?:hour|uur)\b",
    ),
    "gpu_model": _any(
        r"\b(?:which|what|welke|wat voor) (?:\w+ )?(?:gpus?|gpu's|cards|kaarten|models|modellen|accelerators)\b",
        r"\bgpu (?:models?|modellen|types?)\b",
    ),
}
# Kubernetes named with no other fact asks a record's Kubernetes support ("runpod vs vast.ai for kubernetes",
# "which providers support k8s?"): it is the fact the comparison is about, not the record's sentence most like
# the question.
_KUBERNETES_NAMED = re.compile(rf"\b{_KUBE}\b")
# What a question asks the price of: a word of money about the control plane asks its fee, not a GPU-hour price
# ("wat kost het control plane bij GKE", "does coreweave charge for the control plane"), unless the question
# also prices GPUs ("per GPU-hour", "an H100"); "per uur" alone is the fee's rate.
_CONTROL_PLANE = re.compile(r"\bcontrol[ -]?planes?\b")
_MONEY = re.compile(
    r"\b(?:fees?|costs?|kost(?:en|t)?|pric\w*|prijs\w*|charg\w*|reken\w*|geld|free|gratis|pay\w*|"
    r"betaal\w*|betalen|tarie\w*|bill\w*)\b"
)
_GPU_PRICED = re.compile(r"\bper gpu\b|\bgpu[- ]?(?:hours?|uur|uren)\b")
# Words that negate a fact or take it away ("without spot", "geen MIG", "drop the spot part", "schrap spot").
_NEGATING_WORDS = (
    r"\b(?:without|no|not|non|excluding|except|exclude|never|dont|don't|doesnt|doesn't|drop|remove|forget|"
    r"skip|ignore|zonder|geen|niet|behalve|uitgezonderd|exclusief|nooit|schrap|vergeet)\b"
)
# Such a word just before a fact, or one word before it, takes it out of the filter.
_NEGATION = re.compile(_NEGATING_WORDS + r"(?:\s+\S+)?\s*$")
# A requirement waved away after it is named, in the same clause ("spot is niet nodig", "spot doesn't matter",
# "AMD of NVIDIA maakt niet uit"); not "maakt niet uit welke", which leaves the choice open.
_DISMISSAL = re.compile(
    r"^(?:\s+[\w'/]+){0,3}?\s+(?:is |are |zijn )?(?:niet nodig|not needed|not required|not necessary|niet vereist|"
    r"niet noodzakelijk|geen (?:harde )?(?:eis|vereiste|must)|hoeft niet|optional|optioneel|heb ik niet nodig|"
    r"maakt niet uit|doesn'?t matter|does not matter|don'?t care|(?:is )?(?:not|no) (?:a )?(?:must|requirement))"
    r"(?!\s*(?:welke|which|wat|what|waar|where|wie|who|hoe|how)\b)"
)
# Two alternatives set side by side ("managed vs bringing my own", "managed of een eigen cluster"): between
# them a contrasting word (after at most two words of the first: "managed k8s vs …") and no clause boundary.
_CONTRAST = re.compile(
    r"^[\s'\"()]*(?:[\w-]+[\s'\"()]+){0,2}(?:/|(?:vs|versus|or|of|and|en|compared (?:to|with)|tegenover)\b)"
    r"[^?;:,.!—–]*$"
)
# Between two sharing methods: "or" asks for either of them, "and" for both. "of" is Dutch "or" in a Dutch
# question, or standing alone between two methods ("time slicing of mig"); elsewhere English "of" ("which of
# those also do MPS").
_EITHER = re.compile(r"\b(?:or|either|ofwel|dan wel)\b|/")
# Or after both methods, asking for one of them ("which providers do either one", "een van beide").
_EITHER_AFTER = re.compile(
    r"\b(?:either (?:one|of (?:them|those|the two))|one of (?:them|those|the two)|whichever|"
    r"(?:een|1) van (?:beide|beiden|de twee|die twee))\b"
)
_DUTCH_OR = re.compile(r"\bof\b")
_BARE_OF = re.compile(r"^\s*of\s*$")


def _affirmations(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """The matches of the pattern that no negation governs."""
    return (match for match in pattern.finditer(text) if not _NEGATION.search(text[: match.start()]))


def _affirmed(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """The first match of the pattern that no negation governs."""
    return next(_affirmations(pattern, text), None)


def _required(pattern: re.Pattern[str], text: str) -> bool:
    """Whether the question asks for a yes-or-no fact: named, not negated, and not waved away after."""
    return any(not _DISMISSAL.match(text[match.end() :]) for match in _affirmations(pattern, text))


def _gpu_model(text: str) -> str | None:
    match = _affirmed(_GPU_MODEL, text)
    if match is None:
        return None
    model = match.group(1).upper().replace(" ", "")
    return re.sub(r"^RTX(PRO)?", lambda m: "RTX PRO " if m.group(1) else "RTX ", model)


def _region(text: str, original: str, language: str) -> str | None:
    """The first area the question names (positions in the original and folded text are close enough)."""
    found = [(match.start(), area) for area, pattern in _AREAS.items() if (match := _affirmed(pattern, text))]
    us = (
        _US_CAPITALS.search(original)
        or _DUTCH_VS.search(text)
        or (_IN_VS.search(text) if language == "nl" else None)
    )
    if us:
        found.append((us.start(), "us"))
    return min(found)[1] if found else None


def _max_price(text: str) -> float | None:
    """A USD limit per hour; a limit in euros is left out rather than converted at a guessed rate."""
    limits = sorted([*_LIMIT.finditer(text), *_LIMIT_AFTER.finditer(text)], key=lambda match: match.start())
    for match in limits:
        currency = match.group("before") or match.group("after")
        amount = match.group("amount")
        if currency is None and (amount in _NUMBER_WORDS or not match.group("unit")):
            continue
        if currency and ("eur" in currency or "€" in currency):
            return None
        return float(_NUMBER_WORDS.get(amount) or amount.replace(",", "."))
    return None


def _sharing(text: str, language: str) -> tuple[str, list[str]]:
    """The sharing methods asked for, and whether all of them (`sharing`) or any (`sharing_any`)."""
    patterns = {"time_slicing": _TIME_SLICING, "mig": _MIG, "mps": _MPS}
    last_named = {
        method: matches[-1]
        for method, pattern in patterns.items()
        if (matches := list(_affirmations(pattern, text)))
    }
    if len(last_named) < 2:
        return "sharing", list(last_named)
    # Where a question names the methods more than once ("the difference between MPS and MIG, and who has MPS
    # or MIG?"), the last naming asks.
    spans = sorted(last_named.values(), key=lambda match: match.start())
    between = text[spans[0].end() : spans[-1].start()]
    either = (
        _EITHER.search(between) or _BARE_OF.match(between) or _EITHER_AFTER.search(text[spans[-1].end() :])
    )
    either = either or (language == "nl" and _DUTCH_OR.search(between))
    return ("sharing_any" if either else "sharing"), list(last_named)


def _kubernetes(text: str) -> tuple[bool, str | None]:
    """Whether the question names managed or bring-your-own, and which it asks for. A question that names
    both sets them side by side ("managed vs your own cluster, and which providers do the managed kind?"):
    the one named again after the contrast is chosen; a contrast that ends the question chooses neither."""
    mentions = sorted(
        (match.start(), match.end(), value)
        for value, pattern in (("managed", _MANAGED), ("bring_your_own", _OWN_CLUSTER))
        for match in _affirmations(pattern, text)
    )
    if not mentions:
        return False, None
    last = mentions[-1]
    before = mentions[-2] if len(mentions) > 1 else last
    named_again = any(value == last[2] for _, _, value in mentions[:-2])
    contrasted = before[2] != last[2] and not named_again and _CONTRAST.match(text[before[1] : last[0]])
    return True, None if contrasted else last[2]


def _asked_keys(text: str, original: str, language: str) -> dict[str, object]:
    """Every filter key but `kubernetes` (`_kubernetes`)."""
    keys: dict[str, object] = {}
    sharing_key, methods = _sharing(text, language)
    if methods:
        keys[sharing_key] = methods
    elif _required(_GPU_SHARING, text):
        keys["gpu_sharing"] = True
    flags = {
        "interconnect": (_INTERCONNECT, "infiniband"),
        "spot": (_SPOT, True),
        "scale_to_zero": (_SCALE_TO_ZERO, True),
        "drivers_preinstalled": (_DRIVERS, True),
    }
    for key, (pattern, value) in flags.items():
        if _required(pattern, text):
            keys[key] = value
    model = _gpu_model(text)
    if model:
        keys["gpu_model"] = model
    elif _required(_AMD, text):
        keys["amd"] = True
    region = _region(text, original, language)
    if region:
        keys["region"] = region
    limit = _max_price(text)
    if limit is not None:
        keys["max_price_per_gpu_hour"] = limit
    return keys


class AskedFilter(NamedTuple):
    filter: ProviderFilter
    cheapest: bool  # it asks for the cheapest first
    # The record facts it names, also one it names without choosing a value ("managed or BYO?").
    facts: tuple[str, ...]


def _filter_keys(text: str, question: str, language: str) -> tuple[bool, dict[str, object]]:
    """Whether the normalized text names managed or bring-your-own at all, and every key it asks for."""
    names_kubernetes, kubernetes = _kubernetes(text)
    keys = _asked_keys(text, question, language)
    if kubernetes:
        keys["kubernetes"] = kubernetes
    return names_kubernetes, keys


def extract_filter(question: str, language: str) -> AskedFilter:
    """The filter the question asks for, whether it asks for the cheapest first, and the facts it names."""
    text = _normalize(question)
    names_kubernetes, keys = _filter_keys(text, question, language)
    asked = ProviderFilter.model_validate(keys)
    facts = tuple(asked.public())
    if names_kubernetes and "kubernetes" not in facts:
        facts = ("kubernetes", *facts)
    facts += tuple(key for key, pattern in _ATTRIBUTES.items() if key not in facts and pattern.search(text))
    if _CONTROL_PLANE.search(text) and _MONEY.search(text):
        prices_gpus = "gpu_model" in keys or _GPU_PRICED.search(text)
        facts = (
            *(key for key in facts if prices_gpus or key != "max_price_per_gpu_hour"),
            "control_plane_fee",
        )
    if not facts and _KUBERNETES_NAMED.search(text):
        facts = ("kubernetes",)
    return AskedFilter(asked, bool(_CHEAPEST.search(text)), facts)


_NEGATING = re.compile(_NEGATING_WORDS)
# A follow-up that opens with "or" offers an alternative to what was asked before ("or MPS?").
_ALTERNATIVE = {"en": re.compile(r"^\s*(?:or|either)\b"), "nl": re.compile(r"^\s*(?:of|ofwel)\b")}


def _negated_keys(question: str, language: str) -> dict[str, object]:
    """The keys, with their values, that the question names only under a negation ("drop the spot part")."""
    text = _normalize(question)
    _, affirmed = _filter_keys(text, question, language)
    _, named = _filter_keys(_NEGATING.sub(" ", text), question, language)
    methods = {method for key in ("sharing", "sharing_any") for method in affirmed.get(key) or []}
    negated: dict[str, object] = {}
    for key, value in named.items():
        if isinstance(value, list):
            value = [method for method in value if method not in methods] or None
        elif affirmed.get(key) == value:
            value = None
        if value is not None:
            negated[key] = value
    return negated


def _without(keys: dict[str, object], negated: dict[str, object]) -> dict[str, object]:
    """The keys less those negated; of a list of sharing methods, only the methods negated leave."""
    kept: dict[str, object] = {}
    for key, value in keys.items():
        if isinstance(value, list):
            gone = {item for other in ("sharing", "sharing_any") for item in negated.get(other) or []}
            value = [item for item in value if item not in gone] or None
        elif key in negated:
            value = None
        if value is not None:
            kept[key] = value
    return kept


def extract_follow_up_filter(earlier: str, question: str, language: str) -> AskedFilter:
    """A follow-up's filter: the earlier question's, refined by the follow-up's own words. A key the
    follow-up names takes its new value ("and in the US?"), a key it negates leaves ("drop the spot part"),
    and sharing methods add up: all of them ("which of those also do MPS"), or any of them when the
    follow-up offers an alternative ("or MPS?")."""
    before = extract_filter(earlier, language)
    own = extract_filter(question, language)
    negated = _negated_keys(question, language)
    keys = _without(before.filter.public(), negated)
    added = own.filter.public()
    for key in ("sharing", "sharing_any"):
        if key in added:
            either = key == "sharing_any" or _ALTERNATIVE[language].match(_normalize(question))
            merged = "sharing_any" if either else "sharing"
            keys[merged] = [*keys.pop("sharing", []), *keys.pop("sharing_any", []), *added.pop(key)]
    keys.update(added)
    facts = tuple(dict.fromkeys([*own.facts, *(fact for fact in before.facts if fact not in negated)]))
    return AskedFilter(ProviderFilter.model_validate(keys), before.cheapest or own.cheapest, facts)
