"""The pages people read: the guide per language, the home page with the chat widget, the widget itself."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse, HTMLResponse

from api.deps import RuntimeDep
from api.errors import ERROR_JSON
from api.guide_page import PAGE_POLICY, render
from api.schemas import ErrorBody
from assistant.corpus import load_guide
from assistant.models import Language

WIDGET = Path(__file__).resolve().parent.parent / "static" / "widget.js"
_CACHE = {"Cache-Control": "public, max-age=300"}
_PAGE = _CACHE | {"Content-Security-Policy": PAGE_POLICY}

router = APIRouter(tags=["pages"])


@cache
def _page(corpus_dir: Path, language: Language, widget: bool) -> str:
    """Rendered once per process: the corpus does not change under a running server."""
    return render(load_guide(corpus_dir)[language], widget=widget)


@router.get("/", response_class=HTMLResponse)
async def home(runtime: RuntimeDep) -> HTMLResponse:
    """The English guide with the chat widget."""
    return HTMLResponse(_page(runtime.settings.corpus_dir, "en", True), headers=_PAGE)


@router.get(
    "/guide/{language}",
    response_class=HTMLResponse,
    responses={422: {"description": "The language is not `en` or `nl`.", "content": ERROR_JSON}},
)
async def guide(language: Language, runtime: RuntimeDep) -> HTMLResponse:
    """The guide in English or Dutch, one anchor per section id; citations' URLs point here."""
    return HTMLResponse(_page(runtime.settings.corpus_dir, language, False), headers=_PAGE)


@router.get(
    "/widget.js",
    response_class=FileResponse,
    responses={200: {"content": {"text/javascript": {}}}, 404: {"model": ErrorBody}},
)
async def widget() -> FileResponse:
    """The chat widget, embeddable on any page: `<script src="https://HOST/widget.js" data-api="https://HOST" defer>`."""
    if not WIDGET.is_file():
        raise HTTPException(
            404, "the chat widget is not installed on this server (api/static/widget.js is missing)"
        )
    return FileResponse(WIDGET, media_type="text/javascript; charset=utf-8", headers=_CACHE)
