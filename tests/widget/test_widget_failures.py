"""What a visitor is told when the service is down, slow, rate-limiting or refuses the request."""

from __future__ import annotations

import json
import re
import socket

from playwright.sync_api import Page, Route, expect

from tests.servers import Server
from tests.widget.helpers import HostSite, Widget


def _closed_port_url() -> str:
    """An address where nothing listens: the service is down."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}"


def test_service_down_says_so_and_keeps_the_question(
    page: Page, widget_server: Server, host: HostSite
) -> None:
    page.goto(host.page(_closed_port_url(), src=widget_server.url))
    widget = Widget(page)
    widget.open()
    widget.input.fill("Can I share one GPU between pods?")
    widget.input.press("Enter")
    expect(widget.notice).to_have_text(re.compile("The assistant cannot be reached right now"))
    expect(widget.notice).to_have_attribute("role", "alert")
    expect(widget.questions).to_have_count(1)
    expect(widget.answers).to_have_count(0)
    expect(widget.notice.get_by_role("button", name="Try again")).to_be_visible()
    widget.shot("error-service-down")


def test_rate_limit_tells_when_to_retry(page: Page, limited_server: Server, host: HostSite) -> None:
    """A real 429 from another origin: Retry-After is readable because the service exposes it (CORS)."""
    page.goto(host.page(limited_server.url))
    widget = Widget(page)
    widget.open()
    widget.ask("Can I share one GPU between pods?")
    widget.input.fill("Is Kubernetes worth it for a single GPU job?")
    with page.expect_response("**/v1/ask/stream") as refused:
        widget.input.press("Enter")
    assert refused.value.status == 429
    seconds = refused.value.headers["retry-after"]
    expect(widget.notice).to_contain_text(
        f"Too many questions in a short time. Try again in {seconds} seconds."
    )
    expect(widget.answers).to_have_count(1)


def test_slow_answer_times_out_and_try_again_recovers(
    page: Page, widget_server: Server, host: HostSite
) -> None:
    held: list[Route] = []
    page.route("**/v1/ask/stream", lambda route: held.append(route))  # never answered: the service hangs
    page.goto(host.page(widget_server.url, timeout="1500"))
    widget = Widget(page)
    widget.open()
    widget.input.fill("Can I share one GPU between pods?")
    widget.input.press("Enter")
    expect(widget.notice).to_have_text(re.compile("taking too long to answer"))
    assert len(held) == 1

    page.unroute("**/v1/ask/stream")
    widget.notice.get_by_role("button", name="Try again").click()
    widget.wait_for_answer(1)
    expect(widget.notice).to_have_count(0)
    expect(widget.questions).to_have_count(1)


def test_falls_back_to_the_whole_answer_when_streaming_is_unavailable(
    page: Page, widget_server: Server
) -> None:
    page.route("**/v1/ask/stream", lambda route: route.fulfill(status=404, json={"detail": "not here"}))
    page.goto(f"{widget_server.url}/")
    widget = Widget(page)
    widget.open()
    with page.expect_request(re.compile(r"/v1/ask$")) as fallback:
        answer = widget.ask("Can I share one GPU between pods?")
    assert fallback.value.post_data_json["question"] == "Can I share one GPU between pods?"
    expect(answer.locator("a.cite").first).to_be_visible()


def test_a_refused_request_gives_the_question_back(page: Page, widget_server: Server) -> None:
    detail = "question: the question has 2,001 characters, more than 2,000"
    page.route(
        "**/v1/ask/stream",
        lambda route: route.fulfill(status=422, body=json.dumps({"detail": detail, "request_id": "r1"})),
    )
    page.goto(f"{widget_server.url}/")
    widget = Widget(page)
    widget.open()
    widget.input.fill("A question the service will not take")
    widget.input.press("Enter")
    expect(widget.notice).to_have_text(f"This question could not be sent: {detail}")
    expect(widget.input).to_have_value("A question the service will not take")
    expect(widget.questions).to_have_count(0)
    assert widget.stored()["messages"] == []
