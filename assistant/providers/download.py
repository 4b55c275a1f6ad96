"""Refreshing prices from a published catalog URL (`providers import --url`), so a deployment can run it on a
schedule against SkyPilot's or dstack's published CSVs.

The download is read whole into memory (with a size cap and a timeout) and checked exactly as a local file is,
before any record is touched: a failed request, a timeout, a wrong status or one malformed row changes nothing.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path, PurePosixPath
from urllib.parse import urlparse

import httpx

from assistant.providers.catalog import (
    CatalogError,
    ImportSummary,
    ParsedCatalog,
    merge_catalog,
    parse_catalog,
)

DEFAULT_TIMEOUT_SECONDS = 30.0
# SkyPilot's largest vms.csv (AWS, GCP) is a few MB; far more than that is not a price catalog.
MAX_BYTES = 64 * 1024 * 1024


def _download(url: str, timeout: float, max_bytes: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    try:
        with httpx.stream("GET", url, timeout=timeout, follow_redirects=True) as response:
            if response.status_code != 200:
                raise CatalogError(f"{url}: HTTP {response.status_code}, nothing changed")
            for chunk in response.iter_bytes():
                size += len(chunk)
                if size > max_bytes:
                    raise CatalogError(f"{url}: larger than {max_bytes} bytes, nothing changed")
                chunks.append(chunk)
    except httpx.TimeoutException:
        raise CatalogError(f"{url}: no complete answer within {timeout:g} s, nothing changed") from None
    except httpx.HTTPError as error:
        raise CatalogError(f"{url}: {type(error).__name__}: {error}, nothing changed") from None
    return b"".join(chunks)


def fetch_catalog(
    url: str,
    provider: str | None = None,
    *,
    timeout: float = DEFAULT_TIMEOUT_SECONDS,
    max_bytes: int = MAX_BYTES,
) -> ParsedCatalog:
    """The catalog at `url`, parsed and checked; its URL's path names SkyPilot's <cloud>/vms.csv."""
    parsed = urlparse(url)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise CatalogError(f"{url}: not an http:// or https:// URL, nothing changed")
    body = _download(url, timeout, max_bytes)
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise CatalogError(f"{url}: not UTF-8 text ({error}), nothing changed") from None
    return parse_catalog(text, PurePosixPath(parsed.path), provider, label=url, url=url)


def import_catalog_url(
    url: str,
    directory: Path,
    *,
    provider: str | None = None,
    as_of: date | None = None,
    timeout: float = DEFAULT_TIMEOUT_SECONDS,
) -> ImportSummary:
    """Download, check and merge the catalog at `url` into the records of `directory`, all or nothing."""
    catalog = fetch_catalog(url, provider, timeout=timeout)
    return merge_catalog(catalog, directory, as_of=as_of, label=url)
