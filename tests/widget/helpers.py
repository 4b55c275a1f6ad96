"""The chat widget as the tests drive it: a page object, the host pages that embed it, the browser's settings."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from html import escape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from playwright.sync_api import Locator, Page, expect

from assistant.config import PROJECT_ROOT

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
WIDGET = PROJECT_ROOT / "api" / "static" / "widget.js"
SHOTS = Path(os.environ.get("WIDGET_SHOTS", "/tmp/widget-shots"))
STORE_PREFIX = "gpu-k8s-assistant:"
ANSWER_TIMEOUT_MS = 20_000

# Styles a careless host page might have: none of them may reach inside the widget.
HOSTILE_HOST_CSS = (
    "* { color: #f0f !important; font: italic 30px serif !important; letter-spacing: 4px !important; }"
    " button { background: lime !important; }"
)


def strict_csp(script_origin: str, api: str) -> str:
    """The policy docs/widget.md tells hosts to start from: nothing but the widget's script and its API."""
    return (
        f"default-src 'none'; script-src {script_origin}; connect-src {api}; "
        "base-uri 'none'; form-action 'none'; require-trusted-types-for 'script'; trusted-types 'none'"
    )


def _page_html(api: str, src: str, lang: str, timeout: str | None, hostile_css: bool) -> str:
    timeout_attribute = f' data-timeout="{escape(timeout)}"' if timeout else ""
    style = f"<style>{HOSTILE_HOST_CSS}</style>" if hostile_css else ""
    return f"""<!doctype html>
<html lang="{escape(lang)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Host page</title>{style}</head>
<body>
<h1>A page that embeds the assistant</h1>
<p>Some text of the host page.</p>
<script src="{escape(src)}/widget.js" data-api="{escape(api)}"{timeout_attribute} defer></script>
</body>
</html>
"""


class _HostHandler(BaseHTTPRequestHandler):
    """GET /page?api=..&src=..&lang=..&timeout=..&csp=1&css=hostile: a page embedding the widget."""

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        if url.path != "/page":
            self.send_error(404)
            return
        query = {key: values[0] for key, values in parse_qs(url.query).items()}
        api = query["api"]
        src = query.get("src", api)
        body = _page_html(
            api, src, query.get("lang", "en"), query.get("timeout"), query.get("css") == "hostile"
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        if query.get("csp"):
            self.send_header("Content-Security-Policy", strict_csp(src, api))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass


class HostSite:
    """A second origin (another port) that serves host pages, as a customer's site would."""

    def __init__(self, server: ThreadingHTTPServer) -> None:
        self.server = server
        self.origin = f"http://127.0.0.1:{server.server_address[1]}"

    def page(self, api: str, **options: str) -> str:
        return f"{self.origin}/page?{urlencode({'api': api, **options})}"


@contextmanager
def host_site() -> Iterator[HostSite]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _HostHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield HostSite(server)
    finally:
        server.shutdown()
        server.server_close()


class Widget:
    """One page's widget. Playwright's selectors pierce the open shadow root."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.launcher = page.locator(".launcher")
        self.panel = page.locator(".panel")
        self.input = page.locator("textarea")
        self.answers = page.locator(".msg.bot")
        self.questions = page.locator(".msg.user")
        self.notice = page.locator(".notice")

    def open(self) -> None:
        self.launcher.click()
        expect(self.panel).to_be_visible()

    def ask(self, question: str) -> Locator:
        """Types the question, sends it with Enter, and returns the answer once it is complete."""
        count = self.answers.count()
        self.input.fill(question)
        self.input.press("Enter")
        return self.wait_for_answer(count + 1)

    def wait_for_answer(self, count: int) -> Locator:
        expect(self.answers).to_have_count(count, timeout=ANSWER_TIMEOUT_MS)
        answer = self.answers.nth(count - 1)
        expect(answer).to_have_attribute("aria-busy", "false", timeout=ANSWER_TIMEOUT_MS)
        expect(answer.locator(".tools")).to_be_visible()
        return answer

    def stored(self) -> dict[str, Any]:
        """The conversation as the widget keeps it in sessionStorage."""
        raw = self.page.evaluate(
            """prefix => {
                const key = Object.keys(sessionStorage).find(k => k.startsWith(prefix));
                return key ? sessionStorage.getItem(key) : null;
            }""",
            STORE_PREFIX,
        )
        return json.loads(raw) if raw else {}

    def last_stored_answer(self) -> dict[str, Any]:
        return [m for m in self.stored()["messages"] if m["role"] == "assistant"][-1]

    def focused(self) -> str:
        """The class (or tag) of the focused element inside the widget; '' when focus is elsewhere."""
        return self.page.evaluate(
            """() => {
                const host = document.querySelector('[data-gpu-k8s-assistant]');
                const active = host && document.activeElement === host ? host.shadowRoot.activeElement : null;
                return active ? (active.className || active.tagName.toLowerCase()) : '';
            }"""
        )

    def tab_back_to(self, name: str, most: int = 40) -> None:
        """Presses Shift+Tab until the element `focused()` calls `name` has focus (at most `most` times)."""
        for _ in range(most):
            self.page.keyboard.press("Shift+Tab")
            if self.focused() == name:
                return
        raise AssertionError(f"{most} presses of Shift+Tab never reached {name}")

    def shot(self, name: str) -> Path:
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"{name}.png"
        self.page.screenshot(path=path)
        return path
