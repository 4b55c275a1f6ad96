"""Mentions, thread follow-ups and direct messages; retries and repeated events are answered once."""

from __future__ import annotations

import html
import time
from typing import Any

from tests.slack.conftest import TOKEN, SlackClient, texts, unique
from tests.slack.fake_slack import BOT_USER

ASKER = "U0ASKER"
PROVIDERS = "Which providers offer managed Kubernetes with H100?"
FOLLOW_UP = "and in the EU?"


def _mention(slack: SlackClient, channel: str, question: str, thread_ts: str | None = None) -> dict[str, Any]:
    """A person's message that mentions the bot, stored as Slack stores it, and its app_mention event."""
    fields = {"user": ASKER, "text": f"<@{BOT_USER}> {question}"} | (
        {"thread_ts": thread_ts} if thread_ts else {}
    )
    message = slack.fake.add_message(channel, fields)
    return message | {"type": "app_mention", "channel": channel, "event_ts": message["ts"]}


def _reply(slack: SlackClient, channel: str, thread_ts: str, text: str) -> dict[str, Any]:
    """A person's reply in a thread, stored, and its message event."""
    message = slack.fake.add_message(channel, {"user": ASKER, "text": text, "thread_ts": thread_ts})
    return message | {"channel": channel, "channel_type": "channel", "event_ts": message["ts"]}


def _replies(slack: SlackClient, channel: str) -> list[Any]:
    return slack.fake.matching(
        lambda call: call.method == "conversations.replies" and call.params.get("channel") == channel
    )


def test_a_mention_is_answered_in_a_thread_under_it(slack: SlackClient) -> None:
    channel = unique("C")
    event = _mention(slack, channel, "Can I share one GPU between pods?")
    started = time.monotonic()
    assert slack.event(event).status_code == 200
    assert time.monotonic() - started < 1.0
    (call,) = slack.fake.wait_for(slack.posted(channel))
    assert call.params["thread_ts"] == event["ts"]
    assert call.authorization == f"Bearer {TOKEN}"
    assert "MIG" in call.params["text"] and any("*[1]*" in str(block) for block in call.params["blocks"])
    assert call.params["metadata"]["event_payload"]["question"] == "Can I share one GPU between pods?"
    assert _replies(slack, channel) == [], "a new thread has no history to read"


def test_a_reply_in_the_thread_is_a_follow_up_on_the_threads_earlier_turns(slack: SlackClient) -> None:
    channel = unique("C")
    parent = _mention(slack, channel, PROVIDERS)
    slack.event(parent)
    (first,) = slack.fake.wait_for(slack.posted(channel))

    assert slack.event(_reply(slack, channel, parent["ts"], FOLLOW_UP)).status_code == 200
    follow_up = slack.fake.wait_for(slack.posted(channel), count=2)[1]
    assert follow_up.params["thread_ts"] == parent["ts"]
    (read,) = _replies(slack, channel)
    assert read.params["ts"] == parent["ts"]

    history = [
        {"role": "user", "content": PROVIDERS},
        {"role": "assistant", "content": html.unescape(first.params["text"])},
    ]
    with_history = slack.http.post("/v1/ask", json={"question": FOLLOW_UP, "history": history}).json()
    alone = slack.http.post("/v1/ask", json={"question": FOLLOW_UP}).json()
    assert html.unescape(follow_up.params["text"]) == with_history["answer"]
    # Read with the thread, the follow-up keeps the first question's facts and adds its own; alone, it cannot.
    assert with_history["providers"]["filter"] == {
        "kubernetes": "managed",
        "gpu_model": "H100",
        "region": "eu",
    }
    assert alone["refused"] or (alone["providers"] or {}).get("filter", {}).get("gpu_model") is None
    rows = [text for text in texts(follow_up) if text.startswith("*<")]
    names = [match["name"] for match in with_history["providers"]["matches"][:5]]
    assert [row.split("|", 1)[1].split(">", 1)[0] for row in rows] == names


def test_a_mention_inside_the_thread_is_answered_once_with_the_threads_history(slack: SlackClient) -> None:
    """Slack sends both app_mention and message for it; the mention's listener alone answers."""
    channel = unique("C")
    parent = _mention(slack, channel, PROVIDERS)
    slack.event(parent)
    slack.fake.wait_for(slack.posted(channel))
    mention = _mention(slack, channel, FOLLOW_UP, thread_ts=parent["ts"])
    slack.event(mention)
    slack.event(mention | {"type": "message", "channel_type": "channel"})
    slack.fake.wait_for(
        slack.posted(channel), count=2
    )  # the follow-up reads the thread first: it may be slow
    slack.settle()
    answers = slack.fake.matching(slack.posted(channel))
    assert len(answers) == 2
    assert "The guide does not cover" not in answers[1].params["text"]


def test_a_mention_in_a_thread_the_bot_may_not_read_is_answered_alone(slack: SlackClient) -> None:
    channel = unique("C")
    slack.fake.unreadable.add(channel)
    parent = slack.fake.add_message(channel, {"user": ASKER, "text": "GPU question for the bot"})
    slack.event(_mention(slack, channel, "Can I share one GPU between pods?", thread_ts=parent["ts"]))
    (call,) = slack.fake.wait_for(slack.posted(channel))
    assert call.params["thread_ts"] == parent["ts"] and "MIG" in call.params["text"]
    assert len(_replies(slack, channel)) == 1


def test_a_reply_in_a_thread_the_bot_is_not_in_is_left_alone(slack: SlackClient) -> None:
    channel = unique("C")
    parent = slack.fake.add_message(channel, {"user": ASKER, "text": "Lunch at noon?"})
    slack.event(_reply(slack, channel, parent["ts"], "Can I share one GPU between pods?"))
    slack.settle()
    assert slack.fake.matching(slack.posted(channel)) == []


def test_a_direct_message_is_answered_in_the_conversation(slack: SlackClient) -> None:
    channel = unique("D")
    assert slack.direct_message("Is Kubernetes worth it for a single GPU job?", channel).status_code == 200
    (call,) = slack.fake.wait_for(slack.posted(channel))
    assert "thread_ts" not in call.params
    assert "*[1]*" in str(call.params["blocks"])


def test_messages_that_are_not_questions_to_the_bot_are_ignored(slack: SlackClient) -> None:
    channel, dm = unique("C"), unique("D")
    slack.event({"type": "message", "channel_type": "channel", "channel": channel, "user": ASKER,
                 "text": "Can I share one GPU between pods?", "ts": slack.fake.new_ts()})  # fmt: skip
    slack.direct_message("Can I share one GPU between pods?", dm, bot_id="B0OTHER")
    slack.direct_message("Can I share one GPU between pods?", dm, subtype="message_changed")
    slack.settle()
    assert slack.fake.matching(slack.posted(channel)) == []
    assert slack.fake.matching(slack.posted(dm)) == []


def test_slacks_retries_and_repeated_event_ids_are_answered_once(slack: SlackClient) -> None:
    channel = unique("C")
    event_id = unique("Ev")
    body = slack.event_body(_mention(slack, channel, "Can I share one GPU between pods?"), event_id)
    now = int(time.time())
    assert slack.send(body, "application/json", timestamp=now).status_code == 200
    retry = {"x-slack-retry-num": "1", "x-slack-retry-reason": "http_timeout"}
    assert slack.send(body, "application/json", timestamp=now + 1, headers=retry).status_code == 200
    assert slack.send(body, "application/json", timestamp=now + 2).status_code == 200
    slack.settle()
    assert len(slack.fake.matching(slack.posted(channel))) == 1


def test_a_lone_surrogate_in_a_message_is_dropped_and_the_question_answered(slack: SlackClient) -> None:
    """Slack's apps cannot send one, but JSON can escape it ("\\ud800"): the character goes, the question stays."""
    channel = unique("D")
    slack.direct_message("Can I share one GPU \ud800 between pods?", channel)
    (call,) = slack.fake.wait_for(slack.posted(channel))
    assert "MIG" in call.params["text"]
