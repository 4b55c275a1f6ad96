"""The guide as a Model Context Protocol server (contract §6): three tools and the guide's text as resources.

So that MCP clients (desktop assistants, agent frameworks) can ask the guide, filter the provider records and
read a section without an HTTP client of their own. One server definition serves both transports:
streamable HTTP at /mcp inside the API (api/mcp_transport.py), and stdio (`python -m assistant mcp`).

- `ask_guide(question, language?, history?)`: the /v1/ask answer object (contract §2) as structured output.
- `find_providers(<contract §3 filter keys>)`: the /v1/providers result: matches, `unknown` apart, each
  price with its as-of date. Its parameters are derived from `ProviderFilter`, so they cannot drift.
- `get_section(section_id, language)`: a guide section's (or `provider:<slug>` record's) text and URL.
- Resources: `guide://{en|nl}/{section_id}` (Markdown) and `provider://{slug}` (the record as JSON).

A tool's bad input is a tool error (`isError: true`) whose text says what is wrong, so a model can correct
itself; an unknown resource URI is a JSON-RPC error (the SDK's). Nothing a client sends crashes the server.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Annotated, Any

from anyio import to_thread
from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.resources import TextResource
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field, ValidationError

from api.answers import answer_and_log
from api.runtime import READY_WAIT_SECONDS, Runtime
from api.schemas import MAX_HISTORY_TURNS, MAX_QUESTION_CHARS, NOT_TEXT, AskRequest
from assistant.config import Settings
from assistant.corpus import LANGUAGES, SECTION_IDS, GuideText, load_guide, section_url
from assistant.models import Answer, Language, ProviderResults, Turn
from assistant.providers.documents import provider_section, record_documents
from assistant.providers.filters import ProviderFilter, apply_filter
from assistant.providers.records import load_records
from assistant.providers.renderings import load_renderings
from assistant.providers.schema import ProviderRecord

SERVER_NAME = "gpu-guide"
_READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
_PROVIDER_PREFIX = "provider:"
# Contract §3, as a client reads each key's meaning in the tool's input schema.
_FILTER_KEYS = {
    "kubernetes": "'managed': a managed control plane with GPU node pools; 'bring_your_own': GPU machines "
    "you join to your own cluster.",
    "gpu_sharing": "true: offers at least one of time-slicing, MIG, MPS.",
    "sharing": "Every listed method is offered.",
    "sharing_any": "At least one listed method is offered.",
    "interconnect": "'infiniband': InfiniBand or RDMA-class interconnect between GPU nodes.",
    "spot": "true: spot / preemptible GPU nodes.",
    "scale_to_zero": "true: GPU node pools that autoscale to zero.",
    "drivers_preinstalled": "true: GPU Operator or GPU node images with drivers, toolkit and device plugin.",
    "amd": "true: AMD GPUs offered.",
    "gpu_model": "Offers this GPU model, e.g. 'H100'; matches are then ordered by price.",
    "region": "Has GPU capacity in this region.",
    "max_price_per_gpu_hour": "A listed on-demand price per GPU-hour, in USD, at or under this.",
}
_INSTRUCTIONS = (
    "Answers about renting cloud GPUs with Kubernetes support, from a Dutch guide (and its English rendering) "
    "and sourced provider records. ask_guide quotes the guide with [n] markers and their citations; "
    "find_providers filters the provider records; get_section reads a cited section. A question the guide "
    "does not cover is refused, not guessed."
)


class SectionText(BaseModel):
    """A guide section, or a provider record, in one language: what a citation's `section_id` names."""

    section_id: str
    language: Language
    title: str
    text: str = Field(description="Paragraphs separated by blank lines; bullet items start with '- '.")
    url: str = Field(description="The guide page's anchor, or the provider's website.")


def _markdown(guide: GuideText, section_id: str) -> str:
    lines: list[str] = []
    for block in guide.section(section_id).blocks:
        if lines and not (block.bullet and lines[-1].startswith("- ")):
            lines.append("")
        lines.append(f"- {block.text}" if block.bullet else block.text)
    return "\n".join(lines)


@dataclass(frozen=True)
class Library:
    """The guide and the provider records, read from the corpus: all that resources and sections need,
    so they answer while the model still loads."""

    guides: dict[str, GuideText]
    records: dict[str, ProviderRecord]
    renderings: dict[str, str]  # the records' source texts in Dutch

    @classmethod
    def load(cls, settings: Settings) -> Library:
        records = load_records(settings.providers_dir)
        return cls(
            load_guide(settings.corpus_dir),
            {record.slug: record for record in records},
            load_renderings(settings.providers_dir),
        )

    def section(self, section_id: str, language: Language) -> SectionText:
        """The section or record of this id; ToolError naming the valid ids for any other."""
        if section_id in SECTION_IDS:
            guide = self.guides[language]
            title = guide.section(section_id).title
            text, url = _markdown(guide, section_id), section_url(section_id, language)
            return SectionText(section_id=section_id, language=language, title=title, text=text, url=url)
        record = self.records.get(section_id.removeprefix(_PROVIDER_PREFIX))
        if not section_id.startswith(_PROVIDER_PREFIX) or record is None:
            raise ToolError(
                f"unknown section id {section_id!r}; the guide's are {', '.join(SECTION_IDS)}, and a provider "
                f"record's is provider:<slug>, one of {', '.join(sorted(self.records))}"
            )
        paragraphs = [
            document.page_content
            for document in record_documents([record], self.renderings)
            if document.metadata["language"] == language
        ]
        return SectionText(
            section_id=provider_section(record.slug),
            language=language,
            title=record.name,
            text="\n\n".join(paragraphs),
            url=record.website,
        )


def _faults(error: ValidationError) -> str:
    """Each fault as `where: what`, in words a person (or a model) can act on."""
    reasons = []
    for fault in error.errors():
        where = ".".join(str(part) for part in fault["loc"]) or "input"
        what = NOT_TEXT if fault["type"] == "string_unicode" else fault["msg"].removeprefix("Value error, ")
        reasons.append(f"{where}: {what}")
    return "; ".join(reasons)


def _filter_signature() -> inspect.Signature:
    """find_providers' keyword parameters: ProviderFilter's fields, their types, bounds and meanings."""
    parameters = [
        inspect.Parameter(
            name,
            inspect.Parameter.KEYWORD_ONLY,
            default=None,
            annotation=Annotated[field.annotation, Field(description=_FILTER_KEYS[name]), *field.metadata],
        )
        for name, field in ProviderFilter.model_fields.items()
    ]
    return inspect.Signature(parameters, return_annotation=ProviderResults)


def build_server(
    settings: Settings,
    runtime: Runtime,
    lifespan: Callable[[MCPServer[Any]], AbstractAsyncContextManager[Any]] | None = None,
) -> MCPServer[Any]:
    """The server with its tools and resources; `lifespan` runs while a stdio server serves."""
    library = Library.load(settings)
    server: MCPServer[Any] = MCPServer(
        SERVER_NAME, title="GPU Kubernetes guide", instructions=_INSTRUCTIONS, version="1", lifespan=lifespan
    )

    @server.tool(annotations=_READ_ONLY)
    async def ask_guide(
        question: Annotated[
            str,
            Field(description=f"The question, in English or Dutch; 1 to {MAX_QUESTION_CHARS:,} characters."),
        ],
        language: Annotated[
            Language | None, Field(description="The answer's language; unset: the question's.")
        ] = None,
        history: Annotated[
            list[Turn] | None,
            Field(max_length=MAX_HISTORY_TURNS, description="Earlier turns, oldest first, for follow-ups."),
        ] = None,
    ) -> Answer:
        """A cited answer from the guide and the provider records, or a refusal when they do not cover the
        question: each sentence quoted, with [n] markers whose citations name the section and quote."""
        try:
            asked = AskRequest(
                question=question, language=language, history=[turn.model_dump() for turn in history or []]
            )
        except ValidationError as error:
            raise ToolError(_faults(error)) from None
        assistant = await runtime.ready_assistant(READY_WAIT_SECONDS)
        if assistant is None:
            raise ToolError(
                "the assistant failed to load"
                if runtime.failed
                else "the assistant is still loading; retry soon"
            )
        return await to_thread.run_sync(
            answer_and_log, assistant, runtime.store, asked.question, asked.language, asked.history or None
        )

    async def find_providers(**keys: Any) -> ProviderResults:
        """Provider records whose sourced facts confirm every key given (contract §3); records whose sources
        leave a key open are listed apart under `unknown`. Prices are per GPU-hour with their as-of date;
        with a GPU model or a price limit, matches are ordered by price, else by name. No key: every record."""
        try:
            flt = ProviderFilter.model_validate(
                {key: value for key, value in keys.items() if value is not None}
            )
        except ValidationError as error:
            raise ToolError(_faults(error)) from None
        return apply_filter(library.records.values(), flt, max_age_days=settings.price_max_age_days)

    find_providers.__signature__ = _filter_signature()  # type: ignore[attr-defined]
    server.add_tool(find_providers, annotations=_READ_ONLY)

    @server.tool(annotations=_READ_ONLY)
    async def get_section(
        section_id: Annotated[
            str,
            Field(
                description=f"A citation's section_id: one of {', '.join(SECTION_IDS)}, or provider:<slug>.",
                examples=["gpu-sharing", "provider:coreweave"],
            ),
        ],
        language: Annotated[Language, Field(description="'en' or 'nl'.")],
    ) -> SectionText:
        """The whole text of a guide section (or a provider record) and its URL, e.g. to read a citation."""
        return library.section(section_id, language)

    for language in LANGUAGES:
        for section_id in SECTION_IDS:
            section = library.section(section_id, language)  # type: ignore[arg-type]
            server.add_resource(
                TextResource(
                    uri=f"guide://{language}/{section_id}",
                    name=f"{language}/{section_id}",
                    title=section.title,
                    description=f"The guide's section {section_id} ({language}); cited at {section.url}.",
                    mime_type="text/markdown",
                    text=f"# {section.title}\n\n{section.text}\n",
                )
            )
    for slug, record in sorted(library.records.items()):
        server.add_resource(
            TextResource(
                uri=f"provider://{slug}",
                name=f"provider/{slug}",
                title=record.name,
                description=f"The provider record of {record.name}: every fact with its sources, and prices.",
                mime_type="application/json",
                text=record.model_dump_json(indent=2, exclude_none=True),
            )
        )
    return server
