"""A Slack thread as the conversation the assistant reads: plain questions and earlier turns, oldest first.

The thread itself is the memory (fetched with `conversations.replies`), so a follow-up works on any replica
and after a restart. The bot's own messages carry the question they answer in their metadata, so an answer
posted to a channel from a slash command still gives a later reply its question.
"""

from __future__ import annotations

import html
import re
from typing import Any

from api.schemas import MAX_HISTORY_TURNS, MAX_TURN_CHARS
from assistant.models import Turn

ANSWER_EVENT = "gpu_guide_answer"  # the metadata event type on the bot's answers

_MENTION = re.compile(r"<[@!#][^>]*>")
_LINK = re.compile(r"<([^>|]+)(?:\|([^>]*))?>")
# A lone UTF-16 surrogate, which JSON can escape ("\ud800") but no person types: dropped, not refused, since
# the asker cannot see it to fix it. (The HTTP API answers 422 instead: a program sent it.)
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def plain_text(text: str) -> str:
    """What a person typed: mentions dropped, links as their label (or address), entities decoded."""
    text = _LONE_SURROGATE.sub("", _MENTION.sub(" ", text))
    text = _LINK.sub(lambda match: match.group(2) or match.group(1), text)
    return " ".join(html.unescape(text).split())


def answer_metadata(question: str, answer_id: str) -> dict[str, Any]:
    """The metadata of an answer message: its question, for follow-ups, and its id, for the question log."""
    return {"event_type": ANSWER_EVENT, "event_payload": {"question": question, "answer_id": answer_id}}


def is_own(message: dict[str, Any], app_id: str) -> bool:
    """Whether this app posted the message (Slack stamps an app's messages with its app id)."""
    return bool(message.get("bot_id")) and (
        message.get("app_id") == app_id or message.get("bot_profile", {}).get("app_id") == app_id
    )


def _asked(message: dict[str, Any]) -> str | None:
    metadata = message.get("metadata") or {}
    if metadata.get("event_type") != ANSWER_EVENT:
        return None
    return metadata.get("event_payload", {}).get("question") or None


def history(messages: list[dict[str, Any]], before_ts: str, app_id: str) -> list[Turn]:
    """The turns of a thread before the message `before_ts`: people's messages as questions, this app's
    answers as the assistant's; other bots are left out. At most the API's history limit, newest kept."""
    turns: list[Turn] = []
    for message in messages:
        if float(message.get("ts", "0")) >= float(before_ts):
            continue
        if is_own(message, app_id):
            question = _asked(message)
            if question and (not turns or turns[-1] != Turn(role="user", content=question)):
                turns.append(Turn(role="user", content=question))
            text = html.unescape(message.get("text", ""))
            turns.append(Turn(role="assistant", content=text[:MAX_TURN_CHARS]))
        elif not message.get("bot_id") and (text := plain_text(message.get("text", ""))):
            turns.append(Turn(role="user", content=text[:MAX_TURN_CHARS]))
    return turns[-MAX_HISTORY_TURNS:]
