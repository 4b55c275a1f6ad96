"""What the bot does with each kind of request; every listener acknowledges first and answers afterwards.

Bolt acknowledges events itself before their listener runs; commands and buttons call `ack()` before any
slow work, so Slack always has its answer well within 3 seconds.
"""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncApp, AsyncBoltContext, AsyncRespond
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from api.schemas import MAX_QUESTION_CHARS
from api.slack.answering import Answering, NotReady
from api.slack.blocks import (
    FEEDBACK_DOWN,
    FEEDBACK_UP,
    LABELS,
    POST_TO_CHANNEL,
    Asked,
    answer_blocks,
    escape,
    parse_button_value,
)
from api.slack.threads import answer_metadata, history, is_own, plain_text
from assistant.models import Answer, Turn

logger = logging.getLogger("api.slack")

COMMAND = "/gpu-guide"
USAGE = (
    f"Ask a question after the command, for example `{COMMAND} Can I share one GPU between pods?` · "
    f"Stel een vraag na het commando, bijvoorbeeld `{COMMAND} Kan ik één GPU delen tussen pods?`"
)
TOO_LONG = f"Questions are limited to {MAX_QUESTION_CHARS:,} characters."
NOT_READY = "The assistant is still loading; please ask again in a minute."
FAILED = "Something went wrong while answering; please try again."
_USER_MESSAGES = {None, "thread_broadcast"}  # message subtypes that are a person writing

Message = dict[str, Any]


def _message(
    answer: Answer, public_url: str, *, postable: bool = False, asked: Asked | None = None
) -> Message:
    """Blocks, with the answer as the notification text (and as the turn a follow-up reads back)."""
    blocks = answer_blocks(answer, public_url, postable=postable, asked=asked)
    return {"text": escape(answer.answer), "blocks": blocks}


async def _answer(answering: Answering, question: str, history: list[Turn] | None = None) -> Answer | str:
    """The answer, or the notice to send instead when none can be given."""
    try:
        return await answering.ask(question, history)
    except NotReady:
        return NOT_READY
    except Exception:
        logger.exception("answering a Slack question failed")
        return FAILED


def _bot_user(body: dict[str, Any]) -> str | None:
    """The bot's own user id, which Slack lists among an event's authorizations."""
    return next((a.get("user_id") for a in body.get("authorizations", []) if a.get("is_bot")), None)


async def _thread(client: AsyncWebClient, channel: str, thread_ts: str) -> list[dict[str, Any]]:
    """The thread's messages, oldest first; none when Slack refuses (a mention is then answered alone)."""
    messages: list[dict[str, Any]] = []
    try:
        pages = await client.conversations_replies(channel=channel, ts=thread_ts, include_all_metadata=True)
        async for page in pages:
            messages += page.get("messages", [])
    except SlackApiError as error:
        logger.warning(
            "reading a Slack thread failed", extra={"fields": {"error": error.response.get("error")}}
        )
        return []
    return messages


class Listeners:
    def __init__(self, answering: Answering) -> None:
        self.answering = answering

    def register(self, app: AsyncApp) -> None:
        app.command(COMMAND)(self.command)
        app.event("app_mention")(self.mention)
        app.event("message")(self.message)
        app.action(FEEDBACK_UP)(self.feedback)
        app.action(FEEDBACK_DOWN)(self.feedback)
        app.action(POST_TO_CHANNEL)(self.post_to_channel)

    async def command(
        self, ack: AsyncAck, command: dict[str, Any], respond: AsyncRespond, context: AsyncBoltContext
    ) -> None:
        """`/gpu-guide QUESTION`: answered to the asker alone, with a button to share it."""
        question = plain_text(command.get("text", ""))
        if not question or len(question) > MAX_QUESTION_CHARS:
            await ack(text=TOO_LONG if question else USAGE)
            return
        await ack(text=f"🔎 {escape(question)}")
        answer = await _answer(self.answering, question)
        if isinstance(answer, str):
            await respond(text=answer, response_type="ephemeral", replace_original=False)
            return
        message = _message(answer, context["public_url"], postable=True)
        await respond(**message, response_type="ephemeral", replace_original=False)

    async def mention(
        self, event: dict[str, Any], body: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
    ) -> None:
        """An @mention: answered in a thread under the message, reading the thread when it is a reply."""
        await self._reply(event, body, client, context["public_url"], thread=True)

    async def message(
        self, event: dict[str, Any], body: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
    ) -> None:
        """A direct message, or a reply in a thread the bot answered in (a follow-up); nothing else."""
        if event.get("subtype") not in _USER_MESSAGES or event.get("bot_id"):
            return
        if event.get("channel_type") == "im":
            await self._reply(event, body, client, context["public_url"], thread=False)
            return
        bot = _bot_user(body)
        is_reply = event.get("thread_ts") not in (None, event.get("ts"))
        if is_reply and not (bot and f"<@{bot}>" in event.get("text", "")):  # a mention has its own event
            await self._reply(event, body, client, context["public_url"], thread=True, own_threads_only=True)

    async def _reply(
        self,
        event: dict[str, Any],
        body: dict[str, Any],
        client: AsyncWebClient,
        public_url: str,
        *,
        thread: bool,
        own_threads_only: bool = False,
    ) -> None:
        channel, ts = event["channel"], event["ts"]
        thread_ts = event.get("thread_ts")
        turns = None
        if thread_ts and thread_ts != ts:
            messages = await _thread(client, channel, thread_ts)
            app_id = body.get("api_app_id", "")
            if own_threads_only and not any(is_own(message, app_id) for message in messages):
                return
            turns = history(messages, ts, app_id)
        reply_ts = thread_ts or (ts if thread else None)
        question = plain_text(event.get("text", ""))
        if not question or len(question) > MAX_QUESTION_CHARS:
            await client.chat_postMessage(
                channel=channel, thread_ts=reply_ts, text=TOO_LONG if question else USAGE
            )
            return
        answer = await _answer(self.answering, question, turns)
        if isinstance(answer, str):
            await client.chat_postMessage(channel=channel, thread_ts=reply_ts, text=answer)
            return
        message = _message(answer, public_url) | {"metadata": answer_metadata(question, answer.id)}
        await client.chat_postMessage(channel=channel, thread_ts=reply_ts, **message)

    async def feedback(
        self, ack: AsyncAck, action: dict[str, Any], body: dict[str, Any], respond: AsyncRespond
    ) -> None:
        """👍/👎: stored with the answer's id in the feedback table, then thanked for, to the clicker alone."""
        await ack()
        language, answer_id = parse_button_value(action.get("value", ""))
        rating = "up" if action["action_id"] == FEEDBACK_UP else "down"
        stored = await self.answering.feedback(answer_id, rating)
        text = LABELS[language]["thanks" if stored else "lost"]
        thread_ts = body.get("container", {}).get("thread_ts")
        await respond(text=text, response_type="ephemeral", replace_original=False, thread_ts=thread_ts)

    async def post_to_channel(
        self,
        ack: AsyncAck,
        action: dict[str, Any],
        body: dict[str, Any],
        respond: AsyncRespond,
        context: AsyncBoltContext,
    ) -> None:
        """Posts an ephemeral answer for everyone, under the asker's name, and removes the ephemeral copy.

        Slack does not send an ephemeral message's content with its button click, so the answer is composed
        again from the question log (same question, same corpus: the same answer, under the same id)."""
        await ack()
        language, answer_id = parse_button_value(action.get("value", ""))
        try:
            again = await self.answering.again(answer_id)
        except NotReady:
            again = None
        if again is None:
            await respond(text=LABELS[language]["gone"], response_type="ephemeral", replace_original=False)
            return
        question, answer = again
        asked = Asked(body.get("user", {}).get("id", ""), question)
        message = _message(answer, context["public_url"], asked=asked)
        metadata = answer_metadata(question, answer.id)
        await respond(**message, metadata=metadata, response_type="in_channel", replace_original=False)
        await respond(delete_original=True)
