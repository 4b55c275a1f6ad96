"""Browser tier: the widget in headless Chromium (Debian's `chromium`, driven by Playwright) against real servers.

The servers come from `tests.servers.start_server`, on the index of the session-wide `settings`
(so the suite builds it once), each with a data folder of its own. Host pages are served from a second
origin, so every request the widget makes is cross-origin, as on a customer's site.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Dialog,
    Page,
    Playwright,
    sync_playwright,
)

from assistant.config import Settings
from tests.servers import Server, start_server
from tests.widget.helpers import CHROMIUM, CHROMIUM_ARGS, HostSite, host_site

DESKTOP = {"width": 1280, "height": 860}


@pytest.fixture(scope="session")
def host() -> Iterator[HostSite]:
    with host_site() as site:
        yield site


@pytest.fixture(scope="session")
def widget_server(
    settings: Settings, host: HostSite, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """The service as deployed: open /v1, the host site's origin allowed by CORS, no rate limit."""
    running = start_server(
        settings.index_dir.parent, tmp_path_factory.mktemp("widget-data"), cors_origins=host.origin
    )
    yield running
    running.stop()


@pytest.fixture(scope="session")
def limited_server(
    widget_server: Server, settings: Settings, host: HostSite, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """One request per minute per client (started after `widget_server`, which builds the index)."""
    running = start_server(
        settings.index_dir.parent,
        tmp_path_factory.mktemp("widget-limited"),
        cors_origins=host.origin,
        rate_limit="1",
    )
    yield running
    running.stop()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `apt-get install -y chromium` (see .ci/run)")
    launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    yield launched
    launched.close()


class PageProblems:
    """What a page reports that a working widget never causes: script errors, console errors, dialogs."""

    def __init__(self, page: Page) -> None:
        self.errors: list[str] = []
        self.console: list[str] = []
        self.dialogs: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("console", self._console)
        page.on("dialog", self._dialog)

    def _console(self, message: ConsoleMessage) -> None:
        # Browsers ask every page for /favicon.ico; the host pages have none, and that is not the widget's.
        if message.type == "error" and not message.location.get("url", "").endswith("/favicon.ico"):
            self.console.append(message.text)

    def _dialog(self, dialog: Dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    created = browser.new_context(viewport=DESKTOP, locale="en-US")
    yield created
    created.close()


@pytest.fixture
def page(context: BrowserContext) -> Page:
    return context.new_page()


@pytest.fixture
def problems(page: Page) -> PageProblems:
    return PageProblems(page)
