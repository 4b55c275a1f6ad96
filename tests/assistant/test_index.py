"""The index: idempotent, atomic, and the same through a Chroma server as in the local folder."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from assistant.config import Settings
from assistant.corpus import CorpusError
from assistant.indexer import build_index, index_documents
from assistant.service import Assistant
from assistant.store import active_collection, chroma_client, collection_names
from tests.servers import free_port


def test_an_unchanged_corpus_is_not_indexed_again(settings: Settings, assistant: Assistant) -> None:
    report = build_index(settings)
    assert report.status == "unchanged"
    assert report.collection == assistant.knowledge.collection


@pytest.fixture
def indexed_copy(settings: Settings, assistant: Assistant, tmp_path: Path, corpus_copy: Path) -> Settings:
    """Settings on a copy of the corpus and of the session's built index: a store that already serves."""
    shutil.copytree(settings.index_dir, tmp_path / "index")
    return Settings(corpus_dir=corpus_copy, index_dir=tmp_path / "index")


def test_a_changed_corpus_switches_to_a_new_complete_collection(indexed_copy: Settings) -> None:
    first = build_index(indexed_copy)
    assert first.status == "unchanged"
    guide = indexed_copy.corpus_dir / "guide.en.md"
    guide.write_text(
        guide.read_text(encoding="utf-8").replace("Usually not.", "Mostly not."), encoding="utf-8"
    )
    second = build_index(indexed_copy)
    assert second.status == "built" and second.collection != first.collection
    client = chroma_client(indexed_copy)
    assert active_collection(client, indexed_copy.embedding_model) == second.collection
    assert client.get_collection(second.collection).count() == second.documents
    # Only the documents whose text changed were embedded again; the rest kept their vectors.
    changed = sum("Mostly not." in document.page_content for document in index_documents(indexed_copy))
    assert 0 < changed == second.embedded


def test_a_broken_corpus_leaves_the_serving_index_intact(indexed_copy: Settings) -> None:
    client = chroma_client(indexed_copy)
    good = active_collection(client, indexed_copy.embedding_model)
    guide = indexed_copy.corpus_dir / "guide.nl.md"
    guide.write_text(guide.read_text(encoding="utf-8").replace("{#gpu-sharing}", ""), encoding="utf-8")
    with pytest.raises(CorpusError, match="guide.nl.md"):
        build_index(indexed_copy)
    assert active_collection(client, indexed_copy.embedding_model) == good
    assert collection_names(client).count(good) == 1
    shutil.copy(Path(__file__).resolve().parents[2] / "corpus" / "guide.nl.md", guide)
    answer = Assistant.from_settings(indexed_copy).ask("Can I run more than one workload per GPU?")
    assert answer.citations[0].section_id == "faq-multiple-workloads"


@pytest.fixture
def chroma_server(settings: Settings, assistant: Assistant, tmp_path: Path):
    """A Chroma server on a copy of the session's store: it starts out serving the built index."""
    shutil.copytree(settings.index_dir, tmp_path / "server")
    port = free_port()
    chroma = Path(sys.executable).with_name("chroma")
    process = subprocess.Popen(
        [str(chroma), "run", "--path", str(tmp_path / "server"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.2)
    yield port
    process.terminate()
    process.wait(timeout=10)


def test_a_chroma_server_serves_the_same_index(tmp_path: Path, corpus_copy: Path, chroma_server: int) -> None:
    settings = Settings(
        corpus_dir=corpus_copy,
        index_dir=tmp_path / "unused",
        chroma_host="127.0.0.1",
        chroma_port=chroma_server,
    )
    assert build_index(settings).status == "unchanged"
    guide = corpus_copy / "guide.en.md"
    guide.write_text(
        guide.read_text(encoding="utf-8").replace("Usually not.", "Mostly not."), encoding="utf-8"
    )
    rebuilt = build_index(settings)  # written through the server, with the vectors read back from it
    assert rebuilt.status == "built" and 0 < rebuilt.embedded < rebuilt.documents
    assert build_index(settings).status == "unchanged"
    answer = Assistant.from_settings(settings).ask("Kan ik meer dan één werkbelasting per GPU draaien?")
    assert answer.language == "nl"
    assert answer.citations[0].section_id == "faq-multiple-workloads"
    assert not (tmp_path / "unused").exists()
