"""`providers import --url`: a catalog served over HTTP by a local server merges like a file, or not at all."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import date
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from assistant.providers.catalog import CatalogError
from assistant.providers.download import import_catalog_url
from assistant.providers.records import load_records
from tests.providers.conftest import FIXTURES, snapshot
from tests.providers.test_cli import _run, corpus  # noqa: F401  (fixture)

AS_OF = date(2026, 12, 1)


class _Handler(SimpleHTTPRequestHandler):
    """Serves the fixture catalogs; /slow/ answers after a pause, to test the timeout."""

    def do_GET(self) -> None:
        if self.path.startswith("/slow/"):
            time.sleep(1.5)
        super().do_GET()

    def translate_path(self, path: str) -> str:
        return super().translate_path(path.removeprefix("/slow"))

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the test output is for failures."""


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Handler, directory=str(FIXTURES)))
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def _prices(directory: Path, slug: str) -> list[tuple]:
    record = {record.slug: record for record in load_records(directory)}[slug]
    return [(p.gpu_model, p.gpu_count, p.region, p.on_demand, p.catalog, p.source.url) for p in record.prices]


def test_a_served_skypilot_catalog_merges_per_gpu_hour(server: str, records_dir: Path) -> None:
    url = f"{server}/skypilot/lambda/vms.csv"
    summary = import_catalog_url(url, records_dir, as_of=AS_OF)
    assert _prices(records_dir, "lambda") == [
        ("H100 SXM", 8, None, 3.99, None, "https://prices.example.com/list"),  # entered by hand, kept
        ("A10", 1, "us-west-1", 0.75, "skypilot", url),
        ("H100", 1, "us-east-1", 3.29, "skypilot", url),
        ("H100", 8, "europe-central-1", 3.04, "skypilot", url),  # 24.32 / 8
        ("H100", 8, "us-east-1", 2.99, "skypilot", url),  # 23.92 / 8
    ]
    assert summary.written == ["lambda"]


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("/skypilot/lambda/missing.csv", "HTTP 404, nothing changed"),
        ("/gpuhunt/broken.csv", "rejected, nothing changed"),
        ("/skypilot/verda/vms.csv", "no provider record for verda"),
    ],
)
def test_a_failed_download_or_bad_catalog_changes_nothing(
    server: str, records_dir: Path, path: str, reason: str
) -> None:
    before = snapshot(records_dir)
    with pytest.raises(CatalogError, match=reason):
        import_catalog_url(server + path, records_dir, as_of=AS_OF)
    assert snapshot(records_dir) == before


def test_a_server_that_does_not_answer_in_time_changes_nothing(server: str, records_dir: Path) -> None:
    before = snapshot(records_dir)
    started = time.monotonic()
    with pytest.raises(CatalogError, match="no complete answer within 0.3 s"):
        import_catalog_url(f"{server}/slow/skypilot/lambda/vms.csv", records_dir, timeout=0.3)
    assert time.monotonic() - started < 1.4
    assert snapshot(records_dir) == before


def test_only_http_urls_are_fetched(records_dir: Path) -> None:
    with pytest.raises(CatalogError, match="not an http"):
        import_catalog_url(str(FIXTURES / "skypilot" / "lambda" / "vms.csv"), records_dir)


def test_the_command_imports_from_a_url(
    server: str,
    corpus: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = f"{server}/skypilot/lambda/vms.csv"
    assert _run("providers", "import", "--url", url, "--as-of", "2026-12-01") == 0
    assert "lambda: 4 added" in capsys.readouterr().out
    assert _run("providers", "import", "--url", f"{server}/nowhere/vms.csv") == 1
    assert "HTTP 404" in capsys.readouterr().err
