"""The question log and the feedback on answers, in SQLite by default or any database SQLAlchemy reaches.

SQLite runs in WAL mode with `synchronous=FULL`: feedback is on disk when its request returns, so a crash of
the process (or the machine) loses none that was acknowledged, and readers never wait for the writer. The
question log is written behind the answers, in batches (`api/question_log.py`).
Several replicas share one PostgreSQL database through ASSISTANT_DATABASE_URL.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import JSON, DateTime, Engine, ForeignKey, String, Text, create_engine, event
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker

from api.question_log import QuestionLog
from assistant.config import Settings
from assistant.models import Answer

Rating = Literal["up", "down"]


class Base(DeclarativeBase):
    pass


class QuestionRow(Base):
    """One asked question: what the guide covers, what it does not, and how long answering took."""

    __tablename__ = "questions"

    answer_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    question: Mapped[str] = mapped_column(Text)
    language: Mapped[str] = mapped_column(String(8))
    refused: Mapped[bool]
    cited_sections: Mapped[list[str]] = mapped_column(JSON)
    latency_ms: Mapped[float]
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class SeenKey(Base):
    """A Slack request key first seen at `seen`: `event:<event_id>` or `signature:<x-slack-signature>`
    (`api/slack/dedupe.py`). Here with the other tables, so `serve` creates it before any worker starts."""

    __tablename__ = "slack_seen"

    key: Mapped[str] = mapped_column(String(128), primary_key=True)
    seen: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class FeedbackRow(Base):
    """A thumbs up or down on an answer; several per answer are kept, the latest says the most."""

    __tablename__ = "feedback"

    id: Mapped[int] = mapped_column(primary_key=True)
    answer_id: Mapped[str] = mapped_column(ForeignKey(QuestionRow.answer_id), index=True)
    rating: Mapped[str] = mapped_column(String(4))
    comment: Mapped[str | None] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def database_url(settings: Settings) -> str:
    """The configured URL, else a SQLite file in the data folder (never in the index folder)."""
    if settings.database_url:
        return settings.database_url
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{settings.data_dir / 'assistant.db'}"


def _tune_sqlite(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    for pragma in ("journal_mode=WAL", "synchronous=FULL", "busy_timeout=5000", "foreign_keys=ON"):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


def _engine(url: str) -> Engine:
    engine = create_engine(url, pool_pre_ping=not url.startswith("sqlite"))
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _tune_sqlite)
    return engine


class Store:
    """Writes the question log and the feedback; the tables are created when missing."""

    def __init__(self, url: str) -> None:
        self.engine = _engine(url)
        Base.metadata.create_all(self.engine)
        self._session = sessionmaker(self.engine, expire_on_commit=False)
        self._questions = QuestionLog(self.engine, QuestionRow.__table__)

    @classmethod
    def from_settings(cls, settings: Settings) -> Store:
        return cls(database_url(settings))

    def log_question(self, question: str, answer: Answer, latency_ms: float) -> None:
        """Queue an answered question for the log; it is written within a fraction of a second."""
        row = {
            "answer_id": answer.id,
            "question": question,
            "language": answer.language,
            "refused": answer.refused,
            "cited_sections": list(dict.fromkeys(citation.section_id for citation in answer.citations)),
            "latency_ms": round(latency_ms, 3),
            "created": datetime.now(UTC),
        }
        self._questions.add(row)

    def logged_question(self, answer_id: str) -> QuestionRow | None:
        """The logged question behind an answer, None when no answer has that id.

        This process's queue is written first. An answer given by another replica may still wait in that
        replica's queue, so a miss is looked up once more after two of its write intervals."""
        self._questions.flush()
        for attempt in range(2):
            if attempt:
                time.sleep(2 * self._questions.interval)
            with self._session() as session:
                row = session.get(QuestionRow, answer_id)
            if row is not None:
                return row
        return None

    def add_feedback(self, answer_id: str, rating: Rating, comment: str | None) -> FeedbackRow | None:
        """Store feedback on a logged answer; None when no answer has that id."""
        if self.logged_question(answer_id) is None:
            return None
        with self._session.begin() as session:
            row = FeedbackRow(answer_id=answer_id, rating=rating, comment=comment, created=datetime.now(UTC))
            session.add(row)
        return row

    def close(self) -> None:
        """Write the queued questions, then let the connections go."""
        self._questions.close()
        self.engine.dispose()
