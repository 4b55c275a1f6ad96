"""Light and dark, desktop and phone: screenshots of the main states, contrast, and the phone layout."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.servers import Server
from tests.widget.helpers import Widget

QUESTION = "Which providers offer managed Kubernetes with MIG?"
AA_TEXT = 4.5  # WCAG 2.x AA for normal-size text
TEXT_ELEMENTS = [
    ".launcher",
    "h2",
    "header p",
    ".newchat",
    ".user .bubble",
    ".bot .bubble",
    ".cite",
    ".providers .sum",
    ".providers .sum a",
    "th",
    "td.name a",
    ".price small",
    "textarea",
]

# Foreground against the first opaque background up the tree (through the shadow host), as WCAG measures it.
_CONTRASTS = """selectors => {
  const root = document.querySelector('[data-gpu-k8s-assistant]').shadowRoot;
  const rgba = color => { const v = color.match(/[\\d.]+/g).map(Number); return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1]; };
  const luminance = ([r, g, b]) => {
    const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = node => {
    for (; node; node = node.parentElement || node.getRootNode().host) {
      const color = rgba(getComputedStyle(node).backgroundColor);
      if (color[3] === 1) return color;
    }
    return [255, 255, 255, 1];
  };
  return Object.fromEntries(selectors.map(selector => {
    const node = root.querySelector(selector);
    if (!node) return [selector, null];
    const [high, low] = [luminance(rgba(getComputedStyle(node).color)), luminance(background(node))].sort((a, b) => b - a);
    return [selector, Math.round(((high + 0.05) / (low + 0.05)) * 100) / 100];
  }));
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_desktop_light_and_dark_pass_aa_contrast(page: Page, widget_server: Server, scheme: str) -> None:
    page.emulate_media(color_scheme=scheme)
    page.goto(f"{widget_server.url}/")
    widget = Widget(page)
    widget.open()
    widget.shot(f"desktop-{scheme}-empty")
    answer = widget.ask(QUESTION)
    answer.locator("a.cite").first.hover()
    expect(page.locator(".tip:not([hidden])")).to_be_visible()
    widget.shot(f"desktop-{scheme}-answer")
    contrasts = page.evaluate(_CONTRASTS, TEXT_ELEMENTS)
    assert None not in contrasts.values(), contrasts
    low = {selector: ratio for selector, ratio in contrasts.items() if ratio < AA_TEXT}
    assert not low, f"under WCAG AA in {scheme}: {low}"


def test_phone_width_fills_the_screen_and_taps_show_quotes_first(
    browser: Browser, widget_server: Server
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{widget_server.url}/")
        widget = Widget(page)
        widget.launcher.tap()
        expect(widget.panel).to_be_visible()
        box = widget.panel.bounding_box()
        assert box == {"x": 0, "y": 0, "width": 390, "height": 844}
        expect(widget.launcher).to_be_hidden()  # the panel covers the screen; its close button is the way out
        widget.shot("phone-empty")
        answer = widget.ask(QUESTION)
        widget.shot("phone-answer")

        guide_link = answer.locator('a.cite[href*="/guide/en#"]').first
        guide_link.tap()  # first tap: the quote, no navigation
        tip = page.locator(".tip:not([hidden])")
        expect(tip).to_be_visible()
        expect(tip.locator(".hint")).to_have_text(
            "Tap again to open it. Opens the guide at this section in a new tab."
        )
        assert len(context.pages) == 1
        tip_box = tip.bounding_box()
        assert tip_box["x"] >= 0 and tip_box["x"] + tip_box["width"] <= 390
        widget.shot("phone-citation")
        with context.expect_page() as opened:
            guide_link.tap()  # second tap: the guide
        assert "/guide/en#" in opened.value.url

        page.locator("#gk-title").tap()  # a tap elsewhere closes the quote
        expect(tip).to_have_count(0)
        answer.locator(".providers").scroll_into_view_if_needed()
        widget.shot("phone-provider-table")
        page.get_by_role("button", name="Close chat").tap()
        expect(widget.panel).to_be_hidden()
        expect(widget.launcher).to_be_visible()
    finally:
        context.close()
