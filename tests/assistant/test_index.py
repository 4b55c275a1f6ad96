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
from assistant.indexer import build_index
from assistant.service import Assistant
from assistant.store import active_collection, chroma_client, collection_names
from tests.servers import free_port


def test_an_unchanged_corpus_is_not_indexed_again(settings: Settings, assistant: Assistant) -> None:
    report = build_index(settings)
    assert report.status == "unchanged"
    assert report.collection == assistant.knowledge.collection


def test_a_changed_corpus_switches_to_a_new_complete_collection(tmp_path: Path, corpus_copy: Path) -> None:
    settings = Settings(corpus_dir=corpus_copy, index_dir=tmp_path / "index")
    first = build_index(settings)
    guide = corpus_copy / "guide.en.md"
    guide.write_text(
        guide.read_text(encoding="utf-8").replace("Usually not.", "Mostly not."), encoding="utf-8"
    )
    second = build_index(settings)
    assert second.status == "built" and second.collection != first.collection
    client = chroma_client(settings)
    assert active_collection(client, settings.embedding_model) == second.collection
    assert client.get_collection(second.collection).count() == second.documents


def test_a_broken_corpus_leaves_the_serving_index_intact(tmp_path: Path, corpus_copy: Path) -> None:
    settings = Settings(corpus_dir=corpus_copy, index_dir=tmp_path / "index")
    good = build_index(settings)
    guide = corpus_copy / "guide.nl.md"
    guide.write_text(guide.read_text(encoding="utf-8").replace("{#gpu-sharing}", ""), encoding="utf-8")
    with pytest.raises(CorpusError, match="guide.nl.md"):
        build_index(settings)
    client = chroma_client(settings)
    assert active_collection(client, settings.embedding_model) == good.collection
    assert collection_names(client).count(good.collection) == 1
    shutil.copy(Path(__file__).resolve().parents[2] / "corpus" / "guide.nl.md", guide)
    answer = Assistant.from_settings(settings).ask("Can I run more than one workload per GPU?")
    assert answer.citations[0].section_id == "faq-multiple-workloads"


@pytest.fixture
def chroma_server(tmp_path: Path):
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


def test_a_chroma_server_serves_the_same_index(tmp_path: Path, chroma_server: int) -> None:
    settings = Settings(index_dir=tmp_path / "unused", chroma_host="127.0.0.1", chroma_port=chroma_server)
    assert build_index(settings).status == "built"
    assert build_index(settings).status == "unchanged"
    answer = Assistant.from_settings(settings).ask("Kan ik meer dan één werkbelasting per GPU draaien?")
    assert answer.language == "nl"
    assert answer.citations[0].section_id == "faq-multiple-workloads"
    assert not (tmp_path / "unused").exists()
