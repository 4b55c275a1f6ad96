"""Answers as Block Kit: the text with its [n] markers, numbered sources, provider rows, and the buttons.

Labels follow the answer's language; the guide's own sentences are never rewritten, only escaped.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from assistant.models import Answer, Citation, Language

Block = dict[str, Any]

FEEDBACK_UP = "feedback_up"
FEEDBACK_DOWN = "feedback_down"
POST_TO_CHANNEL = "post_to_channel"

_MAX_TEXT = 3000  # Slack refuses a section or context text longer than this
_MAX_CITATIONS = 10
_MAX_PROVIDERS = 5
_MAX_UNKNOWN_NAMES = 8

LABELS: dict[Language, dict[str, str]] = {
    "en": {
        "sources": "Sources",
        "providers": "Providers",
        "more": "and {n} more",
        "unknown": "Their sources leave this open: {names}",
        "up": "👍 Helpful",
        "down": "👎 Not helpful",
        "post": "Post to channel",
        "asked": "{user} asked: {question}",
        "per_hour": "per GPU-hour",
        "as_of": "as of {date}",
        "stale": "may be out of date",
        "source": "source",
        "managed": "managed Kubernetes",
        "bring_your_own": "your own cluster",
        "spot": "spot",
        "scale_to_zero": "scales to zero",
        "drivers": "drivers preinstalled",
        "regions": "regions",
        "thanks": "Thanks, your feedback is stored.",
        "lost": "That answer is no longer known here, so the feedback could not be stored.",
        "gone": "That answer is no longer known here; please ask again.",
    },
    "nl": {
        "sources": "Bronnen",
        "providers": "Aanbieders",
        "more": "en nog {n}",
        "unknown": "Hun bronnen laten dit open: {names}",
        "up": "👍 Nuttig",
        "down": "👎 Niet nuttig",
        "post": "In kanaal plaatsen",
        "asked": "{user} vroeg: {question}",
        "per_hour": "per GPU-uur",
        "as_of": "per {date}",
        "stale": "mogelijk verouderd",
        "source": "bron",
        "managed": "beheerde Kubernetes",
        "bring_your_own": "eigen cluster",
        "spot": "spot",
        "scale_to_zero": "schaalt naar nul",
        "drivers": "drivers voorgeïnstalleerd",
        "regions": "regio's",
        "thanks": "Bedankt, uw feedback is opgeslagen.",
        "lost": "Dat antwoord is hier niet meer bekend, dus de feedback kon niet worden opgeslagen.",
        "gone": "Dat antwoord is hier niet meer bekend; stel de vraag opnieuw.",
    },
}
_SHARING_NAMES = {"time_slicing": "time-slicing", "mig": "MIG", "mps": "MPS"}


class Asked(NamedTuple):
    """Who asked what, shown above an answer that others read without having seen the question."""

    user_id: str
    question: str


def escape(text: str) -> str:
    """Text as mrkdwn shows it literally: Slack reads &, < and > as markup."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _clip(text: str) -> str:
    return text if len(text) <= _MAX_TEXT else text[: _MAX_TEXT - 1] + "…"


def _link(url: str, label: str) -> str:
    return f"<{url}|{escape(label)}>"


def _section(text: str) -> Block:
    return {"type": "section", "text": {"type": "mrkdwn", "text": _clip(text)}}


def _context(text: str) -> Block:
    return {"type": "context", "elements": [{"type": "mrkdwn", "text": _clip(text)}]}


def absolute(url: str, public_url: str) -> str:
    """A guide link (`/guide/en#gpu-sharing`) under the service's public URL; other links stay as they are."""
    return public_url.rstrip("/") + url if url.startswith("/") else url


def button_value(answer: Answer) -> str:
    """What a button carries: the answer's language (for the reply's wording) and its id (for the log)."""
    return f"{answer.language}:{answer.id}"


def parse_button_value(value: str) -> tuple[Language, str]:
    language, _, answer_id = value.partition(":")
    return ("nl" if language == "nl" else "en"), answer_id


def _citation(citation: Citation, public_url: str) -> Block:
    quote = " ".join(citation.quote.split())
    link = _link(absolute(citation.url, public_url), citation.title)
    return _context(f"*[{citation.n}]* {link} — “{escape(quote)}”")


def _fabric(record: dict[str, Any]) -> str | None:
    """InfiniBand, RDMA with its name (EFA, RoCE v2) or Ethernet: both of the first count as fast, but differ."""
    fabric, name = record.get("interconnect_fabric"), record.get("interconnect_fabric_name")
    if record.get("interconnect") == "yes":
        if fabric == "rdma":
            return f"RDMA ({name})" if name else "RDMA"
        return "InfiniBand" if fabric == "infiniband" else "InfiniBand/RDMA"
    return "Ethernet" if fabric == "ethernet" else None


def _facts(record: dict[str, Any], labels: dict[str, str]) -> list[str]:
    """The record's confirmed facts, shortest first to read: what a reader compares providers on."""
    facts = []
    kubernetes = record.get("kubernetes", {})
    facts += [labels[mode] for mode in ("managed", "bring_your_own") if kubernetes.get(mode) == "yes"]
    sharing = record.get("sharing", {})
    facts += [name for method, name in _SHARING_NAMES.items() if sharing.get(method) == "yes"]
    fabric = _fabric(record)
    if fabric:
        facts.append(fabric)
    flags = {"spot": "spot", "scale_to_zero": "scale_to_zero", "drivers_preinstalled": "drivers"}
    facts += [labels[label] for key, label in flags.items() if record.get(key) == "yes"]
    if record.get("amd") == "yes":
        facts.append("AMD")
    regions = [area.upper() for area, value in record.get("regions", {}).items() if value == "yes"]
    if regions:
        facts.append(f"{labels['regions']} {', '.join(regions)}")
    return facts


def _price(price: dict[str, Any] | None, labels: dict[str, str]) -> str | None:
    if not price:
        return None
    model = price["gpu_model"] + (f" ×{price['gpu_count']}" if price.get("gpu_count") else "")
    amount = f"{price['per_gpu_hour']:.2f} {price['currency']} {labels['per_hour']}"
    text = f"{escape(model)}: {amount}, {labels['as_of'].format(date=price['as_of'])}"
    if price.get("stale"):
        text += f" ({labels['stale']})"
    source = price.get("source") or ""
    return f"{text} · {_link(source, labels['source'])}" if source.startswith("http") else text


def _provider(record: dict[str, Any], labels: dict[str, str]) -> Block:
    name = record["name"]
    title = f"*{_link(record['website'], name)}*" if record.get("website") else f"*{escape(name)}*"
    lines = [" · ".join([title, *map(escape, _facts(record, labels))])]
    price = _price(record.get("price"), labels)
    if price:
        lines.append(price)
    return _section("\n".join(lines))


def _providers(answer: Answer, labels: dict[str, str]) -> list[Block]:
    results = answer.providers
    if results is None or not (results.matches or results.unknown):
        return []
    blocks = [_section(f"*{labels['providers']}*")]
    blocks += [_provider(record, labels) for record in results.matches[:_MAX_PROVIDERS]]
    if results.total > _MAX_PROVIDERS:
        blocks.append(_context(labels["more"].format(n=results.total - _MAX_PROVIDERS)))
    if results.unknown:
        names = [record["name"] for record in results.unknown]
        shown = ", ".join(names[:_MAX_UNKNOWN_NAMES]) + ("…" if len(names) > _MAX_UNKNOWN_NAMES else "")
        blocks.append(_context(escape(labels["unknown"].format(names=shown))))
    return blocks


def _button(label: str, action_id: str, value: str, style: str | None = None) -> dict[str, Any]:
    button = {"type": "button", "text": {"type": "plain_text", "text": label}, "action_id": action_id}
    return button | {"value": value} | ({"style": style} if style else {})


def answer_blocks(
    answer: Answer, public_url: str, *, postable: bool = False, asked: Asked | None = None
) -> list[Block]:
    """The whole message; `postable` adds the button that posts an ephemeral answer to the channel."""
    labels = LABELS[answer.language]
    blocks: list[Block] = []
    if asked:
        user = f"<@{asked.user_id}>"
        blocks.append(_context(labels["asked"].format(user=user, question=escape(asked.question))))
    blocks.append(_section(escape(answer.answer)))
    if answer.citations:
        blocks.append(_section(f"*{labels['sources']}*"))
        blocks += [_citation(citation, public_url) for citation in answer.citations[:_MAX_CITATIONS]]
    blocks += _providers(answer, labels)
    value = button_value(answer)
    buttons = [_button(labels["up"], FEEDBACK_UP, value), _button(labels["down"], FEEDBACK_DOWN, value)]
    if postable:
        buttons.append(_button(labels["post"], POST_TO_CHANNEL, value, style="primary"))
    blocks.append({"type": "actions", "block_id": "answer_actions", "elements": buttons})
    return blocks
