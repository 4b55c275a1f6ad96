"""One settings object for the whole service, read from ASSISTANT_* environment variables."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    """Every knob of the assistant; the README lists them with their defaults."""

    model_config = SettingsConfigDict(env_prefix="ASSISTANT_", extra="ignore")

    corpus_dir: Path = Field(
        default=PROJECT_ROOT / "corpus", description="The guide and the provider records."
    )
    index_dir: Path = Field(default=PROJECT_ROOT / "index", description="The local Chroma store.")
    data_dir: Path = Field(
        default=PROJECT_ROOT / "data", description="Feedback and question log (not the index)."
    )
    chroma_host: str | None = Field(default=None, description="A Chroma server; unset: the local store.")
    chroma_port: int = 8000
    fitted_dir: Path | None = Field(
        default=None,
        description="Where the start keeps what it fits and embeds from the index (`assistant/fitted.py`); unset: "
        "`fitted/` in the index folder with the local store, nowhere (fitted at every start) with a Chroma server.",
    )
    embedding_model: Literal["e5", "minilm"] = Field(default="e5", description="The dense embedding model.")
    embedding_threads: int | None = Field(
        default=None,
        ge=1,
        description="Threads of the e5 engine; unset: the process's cores, shared among the server's workers.",
    )
    retrieval: Literal["hybrid", "dense", "bm25"] = Field(
        default="hybrid", description="How passages are found."
    )
    sentence_selection: bool = Field(
        default=True, description="Pick the answering sentences inside passages; off: quote whole passages."
    )
    price_max_age_days: int = Field(default=120, description="A price older than this is marked stale.")
    database_url: str | None = Field(
        default=None,
        description="SQLAlchemy URL of the feedback and question log; unset: SQLite in data_dir.",
    )
    api_keys: str = Field(
        default="",
        description="Comma-separated keys for /v1/* and /mcp (X-API-Key or Authorization: Bearer); empty: open.",
    )
    cors_origins: str = Field(
        default="", description="Comma-separated origins that may call the API from a page; *: any."
    )
    rate_limit: int = Field(
        default=60, ge=0, description="Requests per minute one client may make to /v1/*; 0: no limit."
    )
    max_body_bytes: int = Field(default=65536, gt=0, description="The largest request body the API accepts.")
    header_timeout_seconds: float = Field(
        default=10, gt=0, description="Time for a request's headers to arrive; then the connection is closed."
    )
    body_timeout_seconds: float = Field(
        default=10, gt=0, description="Time for a request's whole body to arrive; then 408."
    )
    keep_alive_seconds: int = Field(default=5, ge=1, description="How long an idle connection is kept open.")
    max_header_bytes: int = Field(
        default=16384, ge=1024, description="The largest request line and headers accepted; larger: 400."
    )
    max_concurrency: int = Field(
        default=200, ge=1, description="Connections and requests one process serves at once; more: 503."
    )
    docs: bool = Field(default=True, description="Serve /docs and /openapi.json; off: neither exists.")
    trusted_proxies: str = Field(
        default="",
        description="Comma-separated addresses or networks of the proxies in front of the service, whose "
        "X-Forwarded-For and X-Forwarded-Proto are believed; empty: none, the peer is the client.",
    )
    mcp_allowed_hosts: str = Field(
        default="",
        description="Comma-separated Host header values /mcp accepts besides loopback and ASSISTANT_PUBLIC_URL's "
        "host (`guide.example.com`, `guide.example.com:*` for any port); `*`: no Host or Origin check.",
    )
    mcp_allowed_origins: str = Field(
        default="",
        description="Comma-separated Origin values /mcp accepts besides loopback and ASSISTANT_PUBLIC_URL's "
        "origin; a request without Origin (not from a browser) is always accepted.",
    )
    slack_signing_secret: SecretStr = Field(
        default=SecretStr(""),
        validation_alias=AliasChoices("SLACK_SIGNING_SECRET"),
        description="Slack's signing secret; the bot serves only with it and the bot token.",
    )
    slack_bot_token: SecretStr = Field(
        default=SecretStr(""),
        validation_alias=AliasChoices("SLACK_BOT_TOKEN"),
        description="The bot's token.",
    )
    slack_api_url: str = Field(
        default="https://slack.com/api/",
        description="Slack's Web API base URL; tests point it at a stand-in.",
    )
    public_url: str | None = Field(
        default=None,
        description="The service's public base URL, for absolute links in Slack; unset: as called.",
    )

    @property
    def providers_dir(self) -> Path:
        return self.corpus_dir / "providers"

    @property
    def fitted_folder(self) -> Path | None:
        """`fitted_dir`, or its default."""
        if self.fitted_dir is not None:
            return self.fitted_dir
        return None if self.chroma_host else self.index_dir / "fitted"

    @property
    def slack_configured(self) -> bool:
        return bool(self.slack_signing_secret.get_secret_value() and self.slack_bot_token.get_secret_value())


@lru_cache
def get_settings() -> Settings:
    """The settings of this process, read once."""
    return Settings()
