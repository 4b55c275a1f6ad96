"""Asking through the widget: streamed answers, citations, provider tables, feedback, follow-ups, reloads."""

from __future__ import annotations

import re
import sqlite3
from urllib.parse import parse_qs, urlsplit

import httpx
from playwright.sync_api import BrowserContext, Page, expect

from tests.servers import Server
from tests.widget.conftest import PageProblems
from tests.widget.helpers import HostSite, Widget

PROVIDER_QUESTION = "Which providers offer managed Kubernetes with MIG?"  # cites the guide and records
INFINIBAND_QUESTION = "Which providers offer managed Kubernetes with InfiniBand?"  # more than 5 matches
DUTCH_QUESTION = "Kan ik één GPU delen tussen pods?"


def _api_answer(server: Server, question: str, history: list[dict] | None = None) -> dict:
    response = httpx.post(f"{server.url}/v1/ask", json={"question": question, "history": history}, timeout=30)
    response.raise_for_status()
    return response.json()


def test_english_answer_streams_with_citations_and_a_provider_table(
    page: Page, context: BrowserContext, widget_server: Server, problems: PageProblems
) -> None:
    asked: list[str] = []
    page.on("request", lambda request: "/v1/" in request.url and asked.append(urlsplit(request.url).path))
    page.goto(f"{widget_server.url}/")  # the service's own page: <script ... data-api="">
    widget = Widget(page)
    widget.open()
    expect(page.locator(".starters button")).to_have_count(3)
    answer = widget.ask(PROVIDER_QUESTION)

    assert asked == ["/v1/ask/stream"], "the answer is streamed, not fetched whole"
    stored = widget.last_stored_answer()
    expected = _api_answer(widget_server, PROVIDER_QUESTION)
    assert stored["text"] == expected["answer"], "the streamed sentences add up to the whole answer"
    assert stored["citations"] == expected["citations"]
    expect(answer.locator(".bubble").first).to_contain_text(
        re.sub(r"\s*\[\d+\]", "", expected["answer"])[:60]
    )

    # Every [n] is a link; hovering shows its quote; clicking opens the guide at the section.
    citations = {citation["n"]: citation for citation in expected["citations"]}
    links = answer.locator("a.cite")
    assert links.count() == len(re.findall(r"\[\d+\]", expected["answer"]))
    guide = next(c for c in expected["citations"] if c["url"].startswith("/guide/"))
    link = answer.get_by_role("link", name=f"source {guide['n']}", exact=True).first
    link.hover()
    tip = page.locator(".tip:not([hidden])")
    expect(tip).to_be_visible()
    expect(tip.locator(".quote")).to_have_text(citations[guide["n"]]["quote"])
    widget.shot("desktop-light-citation")
    with context.expect_page() as opened:
        link.click()
    guide_page = opened.value
    guide_page.wait_for_load_state()
    assert guide_page.url == f"{widget_server.url}{guide['url']}"
    section = guide["url"].split("#")[1]
    expect(guide_page.locator(f"section#{section}")).to_be_visible()
    assert guide_page.evaluate("() => document.querySelector(':target')?.id") == section

    # The provider table: one row per match (the rest behind "show all"), a link to every match.
    providers = expected["providers"]
    table = answer.locator(".providers")
    rows = table.locator("tbody tr")
    expect(rows).to_have_count(len(providers["matches"]))
    expect(table.locator("tbody tr:visible")).to_have_count(min(5, len(providers["matches"])))
    expect(rows.first.locator("td.name")).to_have_text(providers["matches"][0]["name"])
    expect(table.locator(".sum")).to_contain_text(f"{providers['total']} matching providers")
    all_matches = table.get_by_role("link", name="All matches").get_attribute("href")
    assert parse_qs(urlsplit(all_matches).query) == {
        "kubernetes": ["managed"],
        "sharing": ["mig"],
    }
    listed = httpx.get(all_matches, timeout=30).json()
    assert listed["total"] == providers["total"]
    priced = next(i for i, match in enumerate(providers["matches"]) if match["price"])
    price = providers["matches"][priced]["price"]
    expect(rows.nth(priced).locator("td.price")).to_contain_text(price["as_of"])
    table.locator(".scroll").scroll_into_view_if_needed()
    widget.shot("desktop-provider-table")
    assert not problems.errors and not problems.console, (problems.errors, problems.console)


def test_dutch_page_has_dutch_starters_and_answers_in_dutch(
    page: Page, widget_server: Server, host: HostSite, problems: PageProblems
) -> None:
    page.goto(host.page(widget_server.url, lang="nl"))
    widget = Widget(page)
    expect(widget.launcher).to_have_text("Vraag het de gids")
    widget.open()
    expect(widget.input).to_have_attribute("placeholder", "Stel een vraag…")
    starters = page.locator(".starters button")
    expect(starters).to_have_count(3)
    starters.filter(has_text=DUTCH_QUESTION).click()
    answer = widget.wait_for_answer(1)

    expected = _api_answer(widget_server, DUTCH_QUESTION)
    assert expected["language"] == "nl"
    assert widget.last_stored_answer()["text"] == expected["answer"]
    expect(answer.locator(".bubble").first).to_have_attribute("lang", "nl")
    for link in answer.locator("a.cite").all():
        href = link.get_attribute("href")
        assert href.startswith(f"{widget_server.url}/guide/nl#") or not href.startswith(widget_server.url)
    answer.locator("a.cite").first.focus()
    expect(page.locator(".tip:not([hidden]) .quote")).to_have_text(expected["citations"][0]["quote"])
    if expected["providers"]:  # the provider table, when the question asks for providers, speaks Dutch
        expect(answer.locator("thead")).to_contain_text("Deling")
    widget.shot("dutch-host-page")
    assert not problems.errors and not problems.console, (problems.errors, problems.console)


def test_feedback_is_stored(page: Page, widget_server: Server) -> None:
    page.goto(f"{widget_server.url}/")
    widget = Widget(page)
    widget.open()
    answer = widget.ask("Is Kubernetes worth it for a single GPU job?")
    answer_id = widget.last_stored_answer()["id"]

    answer.get_by_role("button", name="Not helpful").click()
    expect(answer.get_by_role("status")).to_have_text("Thanks for your feedback.")
    expect(answer.get_by_role("button", name="Not helpful")).to_have_attribute("aria-pressed", "true")
    expect(answer.get_by_role("button", name="Helpful", exact=True)).to_have_attribute(
        "aria-pressed", "false"
    )

    database = widget_server.data_dir / "assistant.db"
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        rows = connection.execute(
            "SELECT rating, comment FROM feedback WHERE answer_id = ?", (answer_id,)
        ).fetchall()
    assert rows == [("down", None)]
    assert widget.last_stored_answer()["rating"] == "down"


def test_follow_up_sends_the_history_and_narrows_the_table(page: Page, widget_server: Server) -> None:
    page.goto(f"{widget_server.url}/")
    widget = Widget(page)
    widget.open()
    first = widget.ask(INFINIBAND_QUESTION)
    first_text = widget.last_stored_answer()["text"]
    total = int(re.search(r"(\d+) matching", first.locator(".sum").inner_text()).group(1))
    assert total > 5
    expect(first.locator("tbody tr:visible")).to_have_count(5)
    first.get_by_role("button", name=f"Show all {total}").click()
    expect(first.locator("tbody tr:visible")).to_have_count(total)

    with page.expect_request("**/v1/ask/stream") as sent:
        second = widget.ask("And which of them offer spot?")
    assert sent.value.post_data_json["history"] == [
        {"role": "user", "content": INFINIBAND_QUESTION},
        {"role": "assistant", "content": first_text},
    ]
    link = second.get_by_role("link", name="All matches").get_attribute("href")
    assert parse_qs(urlsplit(link).query) == {
        "kubernetes": ["managed"],
        "interconnect": ["infiniband"],
        "spot": ["true"],
    }
    narrowed = int(re.search(r"(\d+) matching", second.locator(".sum").inner_text()).group(1))
    assert 0 < narrowed <= total


def test_conversation_survives_a_reload_and_new_chat_clears_it(page: Page, widget_server: Server) -> None:
    page.goto(f"{widget_server.url}/")
    widget = Widget(page)
    widget.open()
    widget.ask("Can I share one GPU between pods?")
    widget.ask("What should I check for multi-node training?")
    before = widget.answers.all_inner_texts()

    page.reload()
    expect(widget.panel).to_be_visible()  # it was open: it opens again
    expect(widget.questions).to_have_count(2)
    expect(widget.answers).to_have_count(2)
    assert widget.answers.all_inner_texts() == before
    widget.answers.first.locator("a.cite").first.hover()
    expect(page.locator(".tip:not([hidden]) .quote")).not_to_be_empty()

    page.get_by_role("button", name="New chat").click()
    expect(widget.answers).to_have_count(0)
    expect(page.locator(".starters button")).to_have_count(3)
    assert widget.stored()["messages"] == []
    page.reload()
    expect(widget.answers).to_have_count(0)


def test_keyboard_only(page: Page, widget_server: Server) -> None:
    page.goto(f"{widget_server.url}/")
    widget = Widget(page)
    page.keyboard.press("Shift+Tab")  # backwards from the top of the page: the launcher is the last stop
    assert widget.focused() == "launcher"
    page.keyboard.press("Enter")
    expect(widget.panel).to_be_visible()
    assert widget.focused() == "textarea"
    page.keyboard.type("Can I share one GPU between pods?")
    page.keyboard.press("Enter")
    answer = widget.wait_for_answer(1)
    expect(page.locator(".sr[role=status]")).to_contain_text("New answer: ")

    # Backwards from the question box through the answer: the feedback buttons, then the citations.
    widget.tab_back_to("icon up")
    page.keyboard.press("Enter")
    expect(answer.get_by_role("status")).to_have_text("Thanks for your feedback.")
    widget.tab_back_to("cite")
    tip = page.locator(".tip:not([hidden])")
    expect(tip).to_be_visible()

    page.keyboard.press("Escape")  # the first Escape dismisses the tooltip only
    expect(tip).to_have_count(0)
    expect(widget.panel).to_be_visible()
    page.keyboard.press("Escape")
    expect(widget.panel).to_be_hidden()
    assert widget.focused() == "launcher"
    expect(widget.launcher).to_have_attribute("aria-expanded", "false")
