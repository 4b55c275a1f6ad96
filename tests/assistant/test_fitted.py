"""The start's results kept beside the index: read back by the next start, computed afresh for other inputs."""

from __future__ import annotations

from pathlib import Path

from assistant.answered import AnsweredQuestions
from assistant.config import Settings
from assistant.fitted import StartCache, code_version
from assistant.service import Assistant

_computed: list[int] = []  # the arguments `_square` was computed for, in this process


def _square(number: int) -> int:
    _computed.append(number)
    return number * number


def _settings(index_dir: Path) -> Settings:
    return Settings(index_dir=index_dir, data_dir=index_dir.parent / "data")


def test_a_later_start_reads_what_an_earlier_one_computed(tmp_path: Path) -> None:
    settings = _settings(tmp_path / "index")
    _computed.clear()
    assert StartCache(settings).computed(_square, 7) == 49
    assert StartCache(settings).computed(_square, 7) == 49  # another start: from disk
    assert StartCache(settings).computed(_square, 8) == 64  # other inputs: computed
    assert _computed == [7, 8]


def test_results_of_other_code_are_removed_and_an_unwritable_folder_computes(tmp_path: Path) -> None:
    stale = tmp_path / "index" / "fitted" / "0123456789abcdef" / "result"
    stale.parent.mkdir(parents=True)
    stale.write_text("of older code")
    StartCache(_settings(tmp_path / "index"))
    assert [path.name for path in (tmp_path / "index" / "fitted").iterdir()] == [code_version()]

    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the index folder should be")
    _computed.clear()
    cache = StartCache(_settings(blocked))
    assert cache.computed(_square, 3) == cache.computed(_square, 3) == 9
    assert _computed == [3, 3]
    assert blocked.read_text() == "a file where the index folder should be"


def test_classifiers_read_back_answer_as_the_freshly_fitted_ones(
    assistant: Assistant, tmp_path: Path
) -> None:
    knowledge, embeddings = assistant.knowledge, assistant.retriever.embeddings
    cache = StartCache(_settings(tmp_path / "index"))
    fitted = AnsweredQuestions.from_knowledge(knowledge, embeddings, cache)
    assert (
        len(list((tmp_path / "index" / "fitted").rglob("output.pkl"))) == 2
    )  # the FAQ's questions and the fit
    read_back = AnsweredQuestions.from_knowledge(knowledge, embeddings, cache)
    for question in ("can two pods share one gpu?", "wie installeert de drivers op mijn nodes?"):
        vector = assistant.retriever.query_vector(question)
        for fresh, kept in zip(
            fitted.support(vector, question), read_back.support(vector, question), strict=True
        ):
            assert fresh.sentences and fresh == kept


def test_a_service_on_a_chroma_server_keeps_nothing_unless_told_where(tmp_path: Path) -> None:
    remote = Settings(index_dir=tmp_path / "unused", chroma_host="chroma.internal")
    assert remote.fitted_folder is None
    _computed.clear()
    StartCache(remote).computed(_square, 5)
    StartCache(remote).computed(_square, 5)
    assert _computed == [5, 5] and not (tmp_path / "unused").exists()
    told = remote.model_copy(update={"fitted_dir": tmp_path / "kept"})
    StartCache(told).computed(_square, 5)
    StartCache(told).computed(_square, 5)
    assert _computed == [5, 5, 5] and (tmp_path / "kept" / code_version()).is_dir()
