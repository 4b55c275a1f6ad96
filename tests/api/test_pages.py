"""The guide pages, the home page and the widget, on a real server."""

from __future__ import annotations

import re

import httpx
import pytest

from api.routes.pages import WIDGET
from assistant.corpus import SECTION_IDS


@pytest.mark.parametrize(("language", "other"), [("en", "nl"), ("nl", "en")])
def test_guide_page_has_one_anchor_per_section_and_a_language_switch(
    http: httpx.Client, language: str, other: str
) -> None:
    response = http.get(f"/guide/{language}")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    page = response.text
    assert f'<html lang="{language}">' in page
    for section_id in SECTION_IDS:
        assert page.count(f'id="{section_id}"') == 1, section_id
    assert f'href="/guide/{other}"' in page
    assert ":target" in page
    assert "<script" not in page


def test_guide_text_is_escaped(http: httpx.Client) -> None:
    page = http.get("/guide/en").text
    body = page.split("<main>", 1)[1]
    assert not re.search(r"<(?!/?(section|h[1-6]|p|ul|li|main)\b)[a-z]", body.split("</main>")[0])


def test_home_page_is_the_english_guide_with_the_widget(http: httpx.Client) -> None:
    page = http.get("/").text
    assert '<html lang="en">' in page
    assert '<script src="/widget.js" data-api="" defer></script>' in page
    assert all(f'id="{section_id}"' in page for section_id in SECTION_IDS)


def test_widget_is_served_when_installed(http: httpx.Client) -> None:
    response = http.get("/widget.js")
    if WIDGET.is_file():
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/javascript")
    else:
        assert response.status_code == 404
        assert "widget" in response.json()["detail"]


def test_unknown_guide_language_is_4xx(http: httpx.Client) -> None:
    assert http.get("/guide/de").status_code == 422
