"""A Slack thread read back as history, and Slack's markup read back as plain text (no server needed)."""

from __future__ import annotations

from api.slack.threads import answer_metadata, history, plain_text
from assistant.models import Turn

APP = "A0GUIDE"


def _own(ts: str, text: str, question: str | None = None) -> dict:
    message = {"ts": ts, "text": text, "bot_id": "B0GUIDE", "app_id": APP}
    return message | ({"metadata": answer_metadata(question, "id")} if question else {})


def test_plain_text_drops_mentions_and_keeps_what_links_say() -> None:
    text = "<@U0BOT> is <https://example.org/a|this page> &amp; <https://example.org/b> ok for <#C1|gpu>?"
    assert plain_text(text) == "is this page & https://example.org/b ok for ?"


def test_a_mention_thread_reads_as_alternating_turns_up_to_the_message_answered() -> None:
    messages = [
        {"ts": "1.0", "user": "U1", "text": "<@U0BOT> Which providers offer H100?"},
        _own("2.0", "Nebius &amp; Crusoe. [1]", question="Which providers offer H100?"),
        {"ts": "3.0", "user": "U1", "text": "and in the EU?"},
        {"ts": "4.0", "user": "U2", "text": "a later message"},
    ]
    assert history(messages, "3.0", APP) == [
        Turn(role="user", content="Which providers offer H100?"),
        Turn(role="assistant", content="Nebius & Crusoe. [1]"),
    ]


def test_a_posted_answer_brings_its_question_and_other_bots_are_left_out() -> None:
    messages = [
        _own("1.0", "Not by default. [1]", question="Can I share one GPU between pods?"),
        {"ts": "2.0", "text": "a reminder", "bot_id": "B0OTHER", "app_id": "A0OTHER"},
        {"ts": "3.0", "user": "U1", "text": "and with MIG?"},
    ]
    assert history(messages, "3.0", APP) == [
        Turn(role="user", content="Can I share one GPU between pods?"),
        Turn(role="assistant", content="Not by default. [1]"),
    ]


def test_history_keeps_the_newest_turns_within_the_apis_limit() -> None:
    messages = [{"ts": f"{n}.0", "user": "U1", "text": f"question {n}"} for n in range(1, 31)]
    turns = history(messages, "31.0", APP)
    assert len(turns) == 20 and turns[-1].content == "question 30"
