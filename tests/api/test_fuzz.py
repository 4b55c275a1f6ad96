"""Property-based fuzzing of the OpenAPI schema against a real server with API keys set: every check of
schemathesis's passes (no 5xx, responses as documented, refusals of what the schema forbids, the key enforced).

Schemathesis's strategies drive Hypothesis directly, one test per operation and generation mode, rather
than through `schemathesis.pytest.from_fixture`, whose node-id handling does not work with pytest 9.
"""

from __future__ import annotations

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.config import SchemathesisConfig

from tests.api.conftest import API_KEYS
from tests.servers import Server

WITH_INPUT = [
    ("POST", "/v1/ask"),
    ("POST", "/v1/ask/stream"),
    ("GET", "/v1/providers"),
    ("POST", "/v1/feedback"),
    ("GET", "/guide/{language}"),
]
WITHOUT_INPUT = [
    ("GET", "/"),
    ("GET", "/widget.js"),
    ("GET", "/healthz"),
    ("GET", "/readyz"),
    ("GET", "/metrics"),
    ("POST", "/slack/events"),  # Slack's signed form bodies are not in the schema; unsigned calls get 401
]
OPERATIONS = WITH_INPUT + WITHOUT_INPUT
# OpenAI's shapes: whether a request is answerable depends on more than a schema says (the last message must be
# the user's, n must be 1), so schema-valid input may rightly be refused; test_openai.py drives them with
# OpenAI's client and test_hostile.py sends them hostile bodies.
NOT_FUZZED = [("POST", "/v1/chat/completions"), ("GET", "/v1/models"), ("GET", "/v1/models/{model}")]
# Valid input for every operation; invalid input only where there is input to break.
CASES = [(*operation, GenerationMode.POSITIVE) for operation in OPERATIONS] + [
    (*operation, GenerationMode.NEGATIVE) for operation in WITH_INPUT
]
_EXAMPLES = 60  # per case: the tier stays around a minute on 2 cores
# What counts as refusing invalid input: schemathesis's own list, and 413, since a body over
# ASSISTANT_MAX_BODY_BYTES is refused for its size before it is read.
_REJECTIONS = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429", "5xx"]


@pytest.fixture(scope="session")
def api_schema(keyed_server: Server) -> schemathesis.BaseSchema:
    config = SchemathesisConfig.from_dict(
        {"checks": {"negative_data_rejection": {"expected-statuses": _REJECTIONS}}}
    )
    return schemathesis.openapi.from_url(f"{keyed_server.url}/openapi.json", config=config)


def test_every_operation_is_fuzzed(api_schema: schemathesis.BaseSchema) -> None:
    documented = {
        (method.upper(), path) for path, item in api_schema.raw_schema["paths"].items() for method in item
    }
    assert documented == set(OPERATIONS) | set(NOT_FUZZED)


@pytest.mark.parametrize(("method", "path", "mode"), CASES, ids=lambda value: getattr(value, "value", value))
def test_every_check_passes_for_any_input(
    api_schema: schemathesis.BaseSchema, keyed_server: Server, method: str, path: str, mode: GenerationMode
) -> None:
    operation = api_schema[path][method]

    @given(case=operation.as_strategy(mode))
    @settings(max_examples=_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def fuzz(case: schemathesis.Case) -> None:
        # The key must be one the server holds, so it replaces the generated one. Invalid input may consist in
        # leaving the required header out: then it stays out, and the 401 is the refusal the check expects.
        sends_key = any(name.lower() == "x-api-key" for name in case.headers or {})
        keyed = mode is GenerationMode.POSITIVE or sends_key
        case.call_and_validate(base_url=keyed_server.url, headers={"X-API-Key": API_KEYS[0]} if keyed else {})

    fuzz()
    assert httpx.get(f"{keyed_server.url}/healthz").status_code == 200
