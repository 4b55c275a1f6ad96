"""Server text is shown as text, the widget works under a strict CSP, and host styles cannot reach it."""

from __future__ import annotations

import gzip
import json
import re

import httpx
from playwright.sync_api import Page, Route, expect

from tests.servers import Server
from tests.widget.conftest import PageProblems
from tests.widget.helpers import WIDGET, HostSite, Widget, strict_csp

HOSTILE = "<img src=x onerror=alert(1)>"
MAX_GZIPPED_BYTES = 30 * 1024


def _count_injected(page: Page) -> int:
    """Elements that only an HTML injection could have created inside the widget."""
    return page.evaluate(
        """() => document.querySelector('[data-gpu-k8s-assistant]').shadowRoot
                 .querySelectorAll('img, script, iframe, b, a[href^="javascript"]').length"""
    )


def test_hostile_question_is_shown_as_text(page: Page, widget_server: Server, problems: PageProblems) -> None:
    page.goto(f"{widget_server.url}/")
    widget = Widget(page)
    widget.open()
    widget.ask(HOSTILE)
    expect(widget.questions.first.locator(".bubble")).to_have_text(HOSTILE)
    page.reload()  # and again when it comes back from sessionStorage
    expect(widget.questions.first.locator(".bubble")).to_have_text(HOSTILE)
    assert _count_injected(page) == 0
    assert problems.dialogs == []


def _sse(events: list[tuple[str, object]]) -> str:
    return "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in events)


def _hostile_stream(route: Route) -> None:
    """An answer whose every field carries markup, a script URL or a tag, as a compromised record might."""
    record = {
        "slug": "evil",
        "name": HOSTILE,
        "website": "javascript:alert(2)",
        "kubernetes": {"managed": "yes", "bring_your_own": "no", "managed_service": '"><b>x</b>'},
        "sharing": {"time_slicing": "yes", "mig": "<b>yes</b>", "mps": "no"},
        "interconnect": "yes",
        "interconnect_detail": "<script>alert(3)</script>",
        "spot": "unknown",
        "price": {
            "gpu_model": "<b>H100</b>",
            "per_gpu_hour": 2.5,
            "currency": "USD",
            "as_of": "2025-01-01",
            "source": "javascript:alert(4)",
            "stale": True,
        },
    }
    body = _sse(
        [
            ("sentence", {"index": 0, "text": f"First {HOSTILE} sentence. [1]", "markers": [1]}),
            ("sentence", {"index": 1, "text": "Second <b>bold</b> one. [2]", "markers": [2]}),
            (
                "citations",
                [
                    {
                        "n": 1,
                        "section_id": "gpu-sharing",
                        "title": "<b>T</b>",
                        "quote": HOSTILE,
                        "url": "javascript:alert(5)",
                    },
                    {
                        "n": 2,
                        "section_id": "provider:evil",
                        "title": "E",
                        "quote": "q",
                        "url": "/guide/en#gpu-sharing",
                    },
                ],
            ),
            ("providers", {"filter": {"gpu_model": "<b>"}, "matches": [record], "total": 1, "unknown": []}),
            ("done", {"id": "hostile", "language": "en", "refused": False}),
        ]
    )
    route.fulfill(status=200, content_type="text/event-stream", body=body)


def test_hostile_answer_and_records_are_shown_as_text(
    page: Page, widget_server: Server, problems: PageProblems
) -> None:
    page.route("**/v1/ask/stream", _hostile_stream)
    page.goto(f"{widget_server.url}/")
    widget = Widget(page)
    widget.open()
    answer = widget.ask("anything")
    expect(answer.locator(".bubble").first).to_contain_text(f"First {HOSTILE} sentence.")
    expect(answer.locator(".bubble").first).to_contain_text("Second <b>bold</b> one.")
    # A javascript: citation URL never becomes a link; it stays a focusable marker with its quote.
    marker = answer.locator(".cite").first
    assert marker.evaluate("node => node.tagName") == "SPAN"
    marker.hover()
    expect(page.locator(".tip:not([hidden]) .quote")).to_have_text(HOSTILE)
    expect(answer.locator("td.name")).to_have_text(HOSTILE)
    expect(answer.locator("td.price")).to_contain_text("<b>H100</b>")
    expect(answer.locator(".stale")).to_have_text("stale")
    assert _count_injected(page) == 0
    assert page.evaluate(
        """() => [...document.querySelector('[data-gpu-k8s-assistant]').shadowRoot.querySelectorAll('a[href]')]
                 .every(a => /^https?:/.test(a.href))"""
    )
    assert problems.dialogs == [] and problems.errors == []


def test_works_under_a_strict_content_security_policy(
    page: Page, widget_server: Server, host: HostSite, problems: PageProblems
) -> None:
    url = host.page(widget_server.url, csp="1")
    policy = httpx.get(url).headers["content-security-policy"]
    assert policy == strict_csp(widget_server.url, widget_server.url)
    assert "style-src" not in policy and "unsafe" not in policy
    page.goto(url)
    # The policy is enforced: an inline <style> of the page's own is refused ...
    applied = page.evaluate(
        """() => { const s = document.createElement('style'); s.textContent = 'h1 { margin-left: 77px }';
                   document.head.append(s); return getComputedStyle(document.querySelector('h1')).marginLeft; }"""
    )
    assert applied != "77px"
    problems.console.clear()
    # ... while the widget is styled (constructed stylesheet), talks to its API and renders everything.
    widget = Widget(page)
    expect(widget.launcher).to_have_css("position", "fixed")
    widget.open()
    answer = widget.ask("Which providers offer managed Kubernetes with MIG?")
    expect(answer.locator(".providers tbody tr").first).to_be_visible()
    answer.locator(".cite").first.hover()
    expect(page.locator(".tip:not([hidden])")).to_be_visible()
    answer.get_by_role("button", name="Helpful", exact=True).click()
    expect(answer.get_by_role("status")).to_have_text("Thanks for your feedback.")
    widget.shot("strict-csp-host-page")
    assert problems.errors == [], problems.errors
    assert problems.console == [], problems.console  # CSP and Trusted Types violations are logged here


def test_host_page_styles_do_not_reach_the_widget(page: Page, widget_server: Server, host: HostSite) -> None:
    page.goto(host.page(widget_server.url, css="hostile"))
    widget = Widget(page)
    expect(page.locator("h1")).to_have_css("color", "rgb(255, 0, 255)")  # the host's CSS is live
    expect(widget.launcher).not_to_have_css("background-color", "rgb(0, 255, 0)")
    expect(widget.launcher).to_have_css("font-size", "15px")
    widget.open()
    answer = widget.ask("Can I share one GPU between pods?")
    bubble = answer.locator(".bubble").first
    expect(bubble).to_have_css("font-size", "15px")
    expect(bubble).to_have_css("font-style", "normal")
    expect(bubble).to_have_css("letter-spacing", "normal")
    expect(bubble).not_to_have_css("color", "rgb(255, 0, 255)")


def test_script_is_small_and_never_parses_strings_as_html_or_code() -> None:
    source = re.sub(r"/\*.*?\*/|//[^\n]*", "", WIDGET.read_text(), flags=re.DOTALL)  # code, not comments
    for construct in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "Function("):
        assert construct not in source, construct
    assert not re.search(r"setTimeout\(\s*[\"'`]", source), "setTimeout with a string is eval"
    assert len(gzip.compress(WIDGET.read_bytes(), 9)) < MAX_GZIPPED_BYTES


def test_the_services_own_pages_work_under_their_policies(
    page: Page, widget_server: Server, problems: PageProblems
) -> None:
    """The home page's widget and the API docs run under the policies the service sends, from its origin."""
    elsewhere: list[str] = []
    page.on("request", lambda request: elsewhere.append(request.url))
    page.goto(f"{widget_server.url}/")
    widget = Widget(page)
    widget.open()
    answer = widget.ask("Can I share one GPU between pods?")
    expect(answer.locator(".cite").first).to_be_visible()
    expect(page.locator("body")).to_have_css("max-width", "736px")  # the page's inline style, by its hash
    page.goto(f"{widget_server.url}/docs")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("GPU Kubernetes guide assistant")
    page.get_by_text("/v1/ask", exact=True).first.click()
    expect(page.get_by_text("Try it out")).to_be_visible()
    assert [url for url in elsewhere if not url.startswith(widget_server.url)] == []
    assert problems.errors == [], problems.errors
    assert problems.console == [], problems.console  # CSP violations are logged here
