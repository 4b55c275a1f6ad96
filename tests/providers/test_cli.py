"""`python -m assistant providers check | import`: exit codes and messages."""

from __future__ import annotations

import argparse
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from assistant.config import PROJECT_ROOT, get_settings
from assistant.providers.cli import register
from tests.providers.conftest import FIXTURES, snapshot


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the real records, with the settings pointed at it."""
    shutil.copytree(PROJECT_ROOT / "corpus" / "providers", tmp_path / "providers")
    monkeypatch.setenv("ASSISTANT_CORPUS_DIR", str(tmp_path))
    get_settings.cache_clear()
    yield tmp_path / "providers"
    get_settings.cache_clear()


def _run(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.run(args)


def test_check_summarises_a_valid_set(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run("providers", "check") == 0
    out = capsys.readouterr().out
    assert f"{len(list(corpus.glob('*.yaml')))} provider records valid:" in out
    assert "facts sourced" in out and "unknown" in out


def test_check_names_file_provider_and_field(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = corpus / "coreweave.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["interconnect"]["value"] = "fast"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert _run("providers", "check") == 1
    assert "coreweave.yaml: provider coreweave: field interconnect.value" in capsys.readouterr().err


def test_import_prints_what_changed(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = FIXTURES / "skypilot" / "lambda" / "vms.csv"
    assert _run("providers", "import", str(source), "--as-of", "2026-12-01") == 0
    assert "lambda: 4 added" in capsys.readouterr().out


def test_a_failed_import_exits_non_zero_and_changes_nothing(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = snapshot(corpus)
    assert _run("providers", "import", str(FIXTURES / "gpuhunt" / "broken.csv")) == 1
    assert "rejected, nothing changed" in capsys.readouterr().err
    assert snapshot(corpus) == before
