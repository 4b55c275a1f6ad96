"""Fixtures shared by every test tier: settings on a temporary index, and one loaded assistant per session."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.config import PROJECT_ROOT, Settings


@pytest.fixture(scope="session")
def settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    """The real corpus and model, with the index and data folders of this test session."""
    root = tmp_path_factory.mktemp("assistant")
    return Settings(index_dir=root / "index", data_dir=root / "data")


@pytest.fixture(scope="session")
def server_root(settings: Settings) -> Path:
    """The folder whose `index/` every server of the session uses: built once, by whoever needs it first."""
    return settings.index_dir.parent


@pytest.fixture(scope="session")
def assistant(settings: Settings):
    from assistant.service import Assistant

    return Assistant.from_settings(settings)


@pytest.fixture
def corpus_copy(tmp_path: Path) -> Path:
    """A writable copy of the corpus, for tests that break it on purpose."""
    import shutil

    target = tmp_path / "corpus"
    shutil.copytree(PROJECT_ROOT / "corpus", target)
    return target
