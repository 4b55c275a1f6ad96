"""An answer as Server-Sent Events: its sentences one by one, then citations, providers, and `done`.

The wire format is documented in api/README.md; clients (the widget among them) rely on it.
"""

from __future__ import annotations

import json
import re
from typing import Any

from fastapi.sse import format_sse_event

from assistant.models import Answer

# A sentence runs up to the marker group that closes it ("... nodes. [1] [2]"); text after the last marker
# (a refusal has none) is a sentence of its own.
_SENTENCE = re.compile(r"\S.*?(?:\s*\[\d+\])+(?=\s|$)|\S.*\S|\S", re.DOTALL)
_MARKER = re.compile(r"\[(\d+)\]")


def sentences(answer_text: str) -> list[dict[str, Any]]:
    """The answer's sentences in order, each with the citation numbers of its markers."""
    return [
        {"index": index, "text": text, "markers": [int(n) for n in _MARKER.findall(text)]}
        for index, text in enumerate(match.group() for match in _SENTENCE.finditer(answer_text))
    ]


def _event(name: str, data: Any) -> bytes:
    # One line of JSON per event, UTF-8 as is; `null` is sent as data too.
    return format_sse_event(event=name, data_str=json.dumps(data, ensure_ascii=False))


def answer_events(answer: Answer) -> list[bytes]:
    """Every event of one answer, on the wire, in the order they are sent."""
    payload = answer.model_dump(mode="json")
    return [
        *(_event("sentence", sentence) for sentence in sentences(answer.answer)),
        _event("citations", payload["citations"]),
        _event("providers", payload["providers"]),
        _event("done", {"id": answer.id, "language": answer.language, "refused": answer.refused}),
    ]
