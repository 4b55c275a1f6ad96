"""The bot's way to the process's one assistant and store: answers and feedback, worked in worker threads.

Answers go through `api.answers.answer_and_log`, so Slack's questions land in the same question log as the
API's, and feedback in the same table as `POST /v1/feedback`'s.
"""

from __future__ import annotations

from typing import cast

from anyio import to_thread

from api.answers import answer_and_log
from api.deps import READY_WAIT_SECONDS
from api.runtime import Runtime
from api.storage import Rating
from assistant.models import Answer, Language, Turn
from assistant.service import Assistant


class NotReady(Exception):
    """The assistant is still loading or failed to load."""


class Answering:
    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime

    async def _assistant(self) -> Assistant:
        assistant = await self.runtime.ready_assistant(READY_WAIT_SECONDS)
        if assistant is None:
            raise NotReady
        return assistant

    async def ask(self, question: str, history: list[Turn] | None = None) -> Answer:
        """A new answer, logged under a new id (CPU-bound: never on the event loop)."""
        assistant = await self._assistant()
        return await to_thread.run_sync(
            answer_and_log, assistant, self.runtime.store, question, None, history
        )

    async def again(self, answer_id: str) -> tuple[str, Answer] | None:
        """A logged question and its answer composed again under the logged id, so feedback on the copy counts
        for the original; None when the log has no such answer. For answers asked without history only:
        the log keeps the question, not the conversation. Answers are deterministic for one corpus."""
        logged = await to_thread.run_sync(self._logged, answer_id)
        if logged is None:
            return None
        assistant = await self._assistant()
        question, language = logged
        answer = await to_thread.run_sync(assistant.ask, question, language)
        return question, answer.model_copy(update={"id": answer_id})

    def _logged(self, answer_id: str) -> tuple[str, Language] | None:
        row = self.runtime.store.logged_question(answer_id)
        return None if row is None else (row.question, cast(Language, row.language))

    async def feedback(self, answer_id: str, rating: Rating) -> bool:
        """Stored like the widget's feedback; False when no logged answer has this id."""
        row = await to_thread.run_sync(self.runtime.store.add_feedback, answer_id, rating, None)
        return row is not None
