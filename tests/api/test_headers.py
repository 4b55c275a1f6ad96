"""The headers a public page needs, and API documentation that loads nothing from elsewhere."""

from __future__ import annotations

import base64
import hashlib
import re

import httpx
import pytest

from tests.servers import Server


def _policy(response: httpx.Response) -> dict[str, list[str]]:
    """The Content-Security-Policy's directives, each with its sources."""
    directives = [part.split() for part in response.headers["content-security-policy"].split(";")]
    return {name: sources for name, *sources in directives if name}


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


@pytest.mark.parametrize("path", ["/", "/guide/en", "/guide/nl"])
def test_pages_may_not_be_framed_and_run_only_the_services_own_script(http: httpx.Client, path: str) -> None:
    response = http.get(path)
    policy = _policy(response)
    assert policy["default-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["script-src"] == ["'self'"]  # /widget.js; no inline script, no other origin
    assert policy["connect-src"] == ["'self'"]  # the widget's API on the page is this service
    assert policy["base-uri"] == ["'none'"] and policy["form-action"] == ["'none'"]
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["referrer-policy"] == "no-referrer"
    assert response.headers["x-content-type-options"] == "nosniff"


def test_the_pages_inline_style_is_allowed_by_its_hash(http: httpx.Client) -> None:
    response = http.get("/guide/en")
    (style,) = re.findall(r"<style>(.*?)</style>", response.text, re.DOTALL)
    assert _policy(response)["style-src"] == [_sha256(style)]


@pytest.mark.parametrize("path", ["/healthz", "/v1/providers", "/widget.js", "/no/such/page"])
def test_every_other_response_carries_a_policy_that_allows_nothing(http: httpx.Client, path: str) -> None:
    response = http.get(path)
    assert _policy(response) == {"default-src": ["'none'"], "frame-ancestors": ["'none'"]}
    assert response.headers["referrer-policy"] == "no-referrer"
    assert response.headers["x-frame-options"] == "DENY"


def test_docs_load_their_assets_from_this_service(http: httpx.Client) -> None:
    response = http.get("/docs")
    assert response.status_code == 200
    assert "//" not in re.sub(r"<!--.*?-->", "", response.text), "no URL of another origin"
    assets = re.findall(r'(?:src|href)="([^"]+)"', response.text)
    assert {asset.rsplit(".", 1)[1] for asset in assets} >= {"js", "css"}
    for asset in assets:
        assert asset.startswith("/docs/"), asset
        assert http.get(asset).status_code == 200, asset


def test_docs_run_only_their_own_scripts(http: httpx.Client) -> None:
    response = http.get("/docs")
    (inline,) = re.findall(r"<script>(.*?)</script>", response.text, re.DOTALL)
    policy = _policy(response)
    assert policy["script-src"] == ["'self'", _sha256(inline)]
    assert policy["default-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]
    assert "'unsafe-inline'" not in response.headers["content-security-policy"]


def test_redoc_is_not_served(http: httpx.Client) -> None:
    """It loads its script and fonts from CDNs, and the service has no copy of them."""
    assert http.get("/redoc").status_code == 404


def test_docs_can_be_switched_off(guarded_server: Server) -> None:
    for path in ("/docs", "/openapi.json"):
        assert httpx.get(f"{guarded_server.url}{path}").status_code == 404
