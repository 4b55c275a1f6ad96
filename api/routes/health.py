"""Liveness, readiness and metrics: what an orchestrator and a Prometheus scraper ask of each process."""

from __future__ import annotations

from fastapi import APIRouter, Response
from fastapi.responses import JSONResponse

from api import metrics
from api.deps import RuntimeDep
from api.schemas import Status

router = APIRouter(tags=["operations"])


@router.get("/healthz", response_model=Status, responses={503: {"model": Status}})
async def healthz(runtime: RuntimeDep) -> JSONResponse:
    """200 while the process serves; 503 once the assistant failed to load, so the process is restarted."""
    if runtime.failed:
        return JSONResponse({"status": "failed"}, status_code=503)
    return JSONResponse({"status": "loading" if runtime.assistant is None else "ok"})


@router.get("/readyz", response_model=Status, responses={503: {"model": Status}})
async def readyz(runtime: RuntimeDep) -> JSONResponse:
    """200 once the model and the index are loaded and answering; 503 until then."""
    if runtime.assistant is None:
        return JSONResponse({"status": "failed" if runtime.failed else "loading"}, status_code=503)
    return JSONResponse({"status": "ok"})


@router.get("/metrics", response_class=Response, responses={200: {"content": {"text/plain": {}}}})
async def prometheus() -> Response:
    """Requests by route and status, latency histograms, answers and refusals by language, process gauges."""
    body, content_type = metrics.exposition()
    return Response(body, media_type=content_type)
