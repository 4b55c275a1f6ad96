"""The buttons under an answer: 👍/👎 stored like the widget's feedback, and posting an answer to the channel."""

from __future__ import annotations

from tests.slack.conftest import SlackClient, button, texts
from tests.slack.fake_slack import Call

QUESTION = "Can I share one GPU between pods?"


def _ephemeral_answer(slack: SlackClient) -> Call:
    url = slack.response_url()
    slack.command(QUESTION, url)
    (call,) = slack.fake.wait_for(slack.at(url))
    return call


def test_thumbs_are_stored_as_feedback_on_the_answer(slack: SlackClient) -> None:
    value = button(_ephemeral_answer(slack), "feedback_up")["value"]
    answer_id = value.split(":")[1]
    for action_id, count in (("feedback_up", 1), ("feedback_down", 2)):
        url = slack.response_url()
        assert slack.click(action_id, value, url).status_code == 200
        (thanks,) = slack.fake.wait_for(slack.at(url))
        assert thanks.params["text"] == "Thanks, your feedback is stored."
        assert thanks.params["response_type"] == "ephemeral" and thanks.params["replace_original"] is False
        assert len(slack.feedback(answer_id)) == count
    assert slack.feedback(answer_id) == [("up", None), ("down", None)]


def test_feedback_on_an_answer_the_log_does_not_know_is_not_stored(slack: SlackClient) -> None:
    url = slack.response_url()
    slack.click("feedback_up", "en:" + "0" * 32, url)
    (reply,) = slack.fake.wait_for(slack.at(url))
    assert "could not be stored" in reply.params["text"]
    assert slack.feedback("0" * 32) == []


def test_post_to_channel_posts_the_same_answer_for_everyone_and_removes_the_private_copy(
    slack: SlackClient,
) -> None:
    private = _ephemeral_answer(slack)
    value = button(private, "post_to_channel")["value"]
    url = slack.response_url()
    assert slack.click("post_to_channel", value, url).status_code == 200
    posted, removed = slack.fake.wait_for(slack.at(url), count=2)
    assert posted.params["response_type"] == "in_channel" and posted.params["replace_original"] is False
    assert posted.params["text"] == private.params["text"]
    assert f"<@U0CLICKER> asked: {QUESTION}" in texts(posted)
    assert [t for t in texts(posted) if t.startswith("*[")] == [
        t for t in texts(private) if t.startswith("*[")
    ]
    assert button(posted, "feedback_up")["value"] == value, "feedback on the copy counts for the answer"
    assert "post_to_channel" not in str(posted.params["blocks"])
    assert posted.params["metadata"]["event_payload"]["question"] == QUESTION
    assert removed.params["delete_original"] is True
