"""GET /v1/providers: the provider records a filter confirms (contract §3).

The query string goes to `parse_filter` as it came, so the core alone decides what a key or value means;
the OpenAPI parameters are derived from the same filter model, so the documentation cannot drift from it.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request

from api.deps import AssistantDep
from assistant.models import ProviderResults
from assistant.providers.filters import ProviderFilter, apply_filter, parse_filter

router = APIRouter(prefix="/v1", tags=["providers"])


def _query_parameters() -> list[dict[str, Any]]:
    """One optional query parameter per filter key, with the schema of its non-null value."""
    parameters = []
    for name, schema in ProviderFilter.model_json_schema()["properties"].items():
        variants = [variant for variant in schema.get("anyOf", [schema]) if variant.get("type") != "null"]
        value_schema = variants[0] if len(variants) == 1 else {"anyOf": variants}
        parameters.append({"name": name, "in": "query", "required": False, "schema": value_schema})
    return parameters


@router.get("/providers", response_model=ProviderResults, openapi_extra={"parameters": _query_parameters()})
async def providers(request: Request, assistant: AssistantDep) -> ProviderResults:
    """Records whose facts confirm every key given; `unknown` lists those whose sources leave a key open."""
    params: dict[str, list[str]] = {}
    for key, value in request.query_params.multi_items():
        params.setdefault(key, []).append(value)
    try:
        flt = parse_filter(params)
    except ValueError as error:
        raise HTTPException(422, str(error)) from None
    return apply_filter(assistant.records, flt, max_age_days=assistant.settings.price_max_age_days)
