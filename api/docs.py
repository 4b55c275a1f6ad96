"""GET /docs: Swagger UI on assets this service serves itself, under a policy that runs nothing else.

FastAPI's own /docs and /redoc load their scripts from a CDN without integrity checks: the service did not
work offline, and a third party's code ran on its pages. Swagger UI's files come from the `fastapi-offline`
package; ReDoc is not served (it also wants fonts and a web worker from elsewhere). With ASSISTANT_DOCS off,
neither /docs nor /openapi.json exists.
"""

from __future__ import annotations

import re
from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from api.policies import csp, sha256_source

ASSETS_URL = "/docs/assets"
_ASSETS = Path(str(files("fastapi_offline") / "static"))


def _page(title: str, openapi_url: str) -> tuple[str, str]:
    """The page, and a policy that allows its one inline script (Swagger UI's start) by its hash."""
    page = get_swagger_ui_html(
        openapi_url=openapi_url,
        title=f"{title} - API",
        swagger_js_url=f"{ASSETS_URL}/swagger-ui-bundle.js",
        swagger_css_url=f"{ASSETS_URL}/swagger-ui.css",
        swagger_favicon_url=f"{ASSETS_URL}/favicon.png",
        swagger_ui_parameters={"validatorUrl": None},  # else a badge image from validator.swagger.io
    )
    html = bytes(page.body).decode()
    (inline,) = re.findall(r"<script>(.*?)</script>", html, re.DOTALL)
    policy = csp(
        script_src=f"'self' {sha256_source(inline)}",
        style_src="'self'",
        img_src="'self' data:",  # the stylesheet's icons are data: URLs
        connect_src="'self'",  # the OpenAPI document, and "Try it out"
        base_uri="'none'",
        form_action="'none'",
    )
    return html, policy


def add_docs(app: FastAPI) -> None:
    """Serves /docs and its assets for this app's OpenAPI document."""
    assert app.openapi_url is not None, "the docs need the OpenAPI document"
    html, policy = _page(app.title, app.openapi_url)
    app.mount(ASSETS_URL, StaticFiles(directory=_ASSETS), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return HTMLResponse(html, headers={"Content-Security-Policy": policy})
