"""Short follow-ups ("and with MIG?", "en bij spot-nodes?") read in the light of the previous question."""

from __future__ import annotations

import re

from assistant.models import Turn
from assistant.text import content_terms

# Openings that lean on what was asked before.
_CONTINUATION = re.compile(
    r"^\s*(and|what about|how about|same|also|or|but|en|wat als|hoe zit het|hoe zit 't|ook|of|maar|"
    r"idem|en als|en bij|en met|en voor)\b",
    re.IGNORECASE,
)
_SHORT = 3  # a question with at most this many content words cannot stand on its own


def previous_question(history: list[Turn] | None) -> str | None:
    for turn in reversed(history or []):
        if turn.role == "user" and turn.content.strip():
            return turn.content.strip()
    return None


def is_follow_up(question: str) -> bool:
    return bool(_CONTINUATION.match(question)) or len(content_terms(question)) <= _SHORT
