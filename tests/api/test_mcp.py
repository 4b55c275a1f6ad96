"""The MCP server through the `mcp` SDK's own client (contract §6): over streamable HTTP at /mcp of the session's
keyed server, and over stdio (`python -m assistant mcp`); tools, resources, their errors, the key and the
rate limit."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import pytest
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

from assistant.config import PROJECT_ROOT
from assistant.corpus import LANGUAGES, SECTION_IDS, load_guide
from assistant.models import Answer
from assistant.providers.filters import ProviderFilter
from tests.api.conftest import API_KEYS, GUARDED_RATE_LIMIT, assert_answer, client_from
from tests.servers import Server

TOOLS = {"ask_guide", "find_providers", "get_section"}
GUIDES = load_guide(PROJECT_ROOT / "corpus")
SLUGS = sorted(path.stem for path in (PROJECT_ROOT / "corpus" / "providers").glob("*.yaml"))
# A JSON-RPC request an MCP client could open with, for the checks made before the SDK reads anything.
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}
_MCP_HEADERS = {"Accept": "application/json, text/event-stream"}


@asynccontextmanager
async def http_client(server: Server, key: str = API_KEYS[0]) -> AsyncIterator[Client]:
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=60) as http,
        Client(streamable_http_client(f"{server.url}/mcp", http_client=http)) as client,
    ):
        yield client


def _run(test: Any) -> None:
    anyio.run(test)


async def _check_listing(client: Client) -> None:
    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert set(tools) == TOOLS
    assert all(tool.output_schema for tool in tools.values()), "every tool has structured output"
    assert set(tools["find_providers"].input_schema["properties"]) == set(ProviderFilter.model_fields)
    assert tools["ask_guide"].input_schema["required"] == ["question"]
    uris = {str(resource.uri) for resource in (await client.list_resources()).resources}
    assert uris == {f"guide://{lang}/{sid}" for lang in LANGUAGES for sid in SECTION_IDS} | {
        f"provider://{slug}" for slug in SLUGS
    }
    (content,) = (await client.read_resource("guide://nl/gpu-sharing")).contents
    section = GUIDES["nl"].section("gpu-sharing")
    assert content.text.startswith(f"# {section.title}\n\n{section.blocks[0].text}")


async def _check_sections_and_errors(client: Client) -> None:
    result = await client.call_tool("get_section", {"section_id": "faq-drivers", "language": "en"})
    section = GUIDES["en"].section("faq-drivers")
    assert not result.is_error
    assert result.structured_content["title"] == section.title
    assert result.structured_content["url"] == "/guide/en#faq-drivers"
    assert all(block.text in result.structured_content["text"] for block in section.blocks)
    record = await client.call_tool("get_section", {"section_id": "provider:coreweave", "language": "nl"})
    assert record.structured_content["section_id"] == "provider:coreweave"
    assert record.structured_content["title"] == "CoreWeave"

    unknown = await client.call_tool("get_section", {"section_id": "gpu-pricing", "language": "en"})
    assert unknown.is_error and "unknown section id 'gpu-pricing'" in unknown.content[0].text
    bad_value = await client.call_tool("find_providers", {"kubernetes": "sometimes"})
    assert bad_value.is_error and "kubernetes" in bad_value.content[0].text
    with pytest.raises(MCPError):
        await client.read_resource("guide://fr/gpu-sharing")


async def _check_providers(client: Client, expected: dict[str, Any]) -> None:
    result = await client.call_tool("find_providers", {"kubernetes": "managed", "gpu_model": "H100"})
    found = result.structured_content
    assert not result.is_error and found["filter"] == {"kubernetes": "managed", "gpu_model": "H100"}
    assert [match["slug"] for match in found["matches"]] == [match["slug"] for match in expected["matches"]]
    assert [entry["slug"] for entry in found["unknown"]] == [entry["slug"] for entry in expected["unknown"]]
    prices = [match["price"] for match in found["matches"] if match["price"]]
    assert prices and all(price["as_of"] for price in prices)
    usd = [price["per_gpu_hour"] for price in prices if price["currency"] == "USD"]
    assert usd == sorted(usd), "a GPU model orders the matches by price"


def test_over_http_each_tool_and_resource_answers(keyed_server: Server) -> None:
    expected = httpx.get(
        f"{keyed_server.url}/v1/providers",
        params={"kubernetes": "managed", "gpu_model": "H100"},
        headers={"X-API-Key": API_KEYS[0]},
    ).json()

    async def test() -> None:
        async with http_client(keyed_server) as client:
            await _check_listing(client)
            await _check_sections_and_errors(client)
            await _check_providers(client, expected)
            asked = await client.call_tool("ask_guide", {"question": "Kan ik één GPU delen tussen pods?"})
            answer = Answer.model_validate(asked.structured_content).model_dump(mode="json")
            assert_answer(answer, "nl")
            assert not answer["refused"]
            follow_up = await client.call_tool(
                "ask_guide",
                {
                    "question": "and MIG?",
                    "language": "en",
                    "history": [{"role": "user", "content": "Can I share one GPU between pods?"}],
                },
            )
            assert_answer(follow_up.structured_content, "en")
            empty = await client.call_tool("ask_guide", {"question": "   "})
            assert empty.is_error and "the question is empty" in empty.content[0].text

    _run(test)


def _errors(error: BaseException) -> list[BaseException]:
    """An error and, for a group (the SDK's task groups raise them), every error inside it."""
    if isinstance(error, BaseExceptionGroup):
        return [inner for member in error.exceptions for inner in _errors(member)]
    return [error]


def test_over_http_a_wrong_bearer_key_is_refused(keyed_server: Server) -> None:
    raised: list[BaseException] = []

    async def test() -> None:
        try:
            async with http_client(keyed_server, key="not-a-key") as client:
                await client.list_tools()
        except BaseException as error:  # noqa: BLE001 (a group or the error itself, checked below)
            raised.extend(_errors(error))

    _run(test)
    assert raised and all(isinstance(error, MCPError) for error in raised), raised
    for headers in ({}, {"Authorization": "Bearer not-a-key"}):
        response = httpx.post(f"{keyed_server.url}/mcp", json=INITIALIZE, headers=_MCP_HEADERS | headers)
        assert response.status_code == 401 and response.headers["www-authenticate"] == "Bearer"
    keyed = {"Authorization": f"Bearer {API_KEYS[0]}"}
    accepted = httpx.post(f"{keyed_server.url}/mcp", json=INITIALIZE, headers=_MCP_HEADERS | keyed)
    assert accepted.status_code == 200 and accepted.json()["result"]["serverInfo"]["name"] == "gpu-guide"


def test_over_http_foreign_hosts_and_origins_are_refused(keyed_server: Server) -> None:
    keyed = _MCP_HEADERS | {"Authorization": f"Bearer {API_KEYS[0]}"}
    host = httpx.post(f"{keyed_server.url}/mcp", json=INITIALIZE, headers=keyed | {"Host": "evil.example"})
    assert host.status_code == 421
    origin = httpx.post(
        f"{keyed_server.url}/mcp", json=INITIALIZE, headers=keyed | {"Origin": "http://evil.example"}
    )
    assert origin.status_code == 403


def test_over_http_the_rate_limit_counts_mcp_requests(guarded_server: Server) -> None:
    with client_from(guarded_server, "127.0.0.21") as http:
        statuses = [
            http.post("/mcp", json=INITIALIZE, headers=_MCP_HEADERS).status_code
            for _ in range(GUARDED_RATE_LIMIT + 1)
        ]
    assert statuses == [401] * GUARDED_RATE_LIMIT + [429]


def test_over_stdio_each_tool_and_resource_answers(server_root: Path, tmp_path: Path, assistant) -> None:
    """`assistant` makes sure the session's index is built: the process started here only loads it."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("ASSISTANT_", "SLACK_"))}
    env |= {"ASSISTANT_INDEX_DIR": str(server_root / "index"), "ASSISTANT_DATA_DIR": str(tmp_path)}
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "assistant", "mcp"], cwd=PROJECT_ROOT, env=env
    )

    async def test() -> None:
        with (tmp_path / "stderr.log").open("w") as errors:
            async with Client(stdio_client(params, errlog=errors)) as client:
                await _check_listing(client)
                await _check_sections_and_errors(client)
                providers = await client.call_tool("find_providers", {"amd": True})
                assert not providers.is_error and providers.structured_content["filter"] == {"amd": True}
                empty = await client.call_tool("ask_guide", {"question": ""})
                assert empty.is_error and "the question is empty" in empty.content[0].text
                # The model loads after the handshake; a call waits for it, and says so when it waited too long.
                for _ in range(4):
                    asked = await client.call_tool(
                        "ask_guide", {"question": "Kan ik één GPU delen tussen pods?"}
                    )
                    if not (asked.is_error and "still loading" in asked.content[0].text):
                        break
                assert not asked.is_error, asked.content
                answer = Answer.model_validate(asked.structured_content).model_dump(mode="json")
                assert_answer(answer, "nl")
                assert not answer["refused"]

    _run(test)
