"""The library never names the service: `api/` adds its `serve` command through an entry point."""

from __future__ import annotations

import re
from pathlib import Path

from assistant.cli import build_parser

LIBRARY = Path(__file__).resolve().parents[2] / "assistant"


def test_no_module_of_the_library_imports_the_service() -> None:
    importing = [
        path.name
        for path in LIBRARY.rglob("*.py")
        if re.search(r"^\s*(?:from|import)\s+api\b", path.read_text(encoding="utf-8"), flags=re.MULTILINE)
    ]
    assert importing == []


def test_the_service_registers_serve_with_the_cli() -> None:
    args = build_parser().parse_args(["serve", "--port", "8123", "--workers", "2"])
    assert (args.port, args.workers, args.host) == (8123, 2, "127.0.0.1")
    assert args.run.__module__ == "api.cli"
