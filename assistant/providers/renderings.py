"""Dutch renderings of the records' source texts (service names, fee terms, fabric and storage details).

The records quote their sources in English. A Dutch answer that quotes "Free and Standard plans" inside a
Dutch sentence reads as English, so `corpus/providers/nl/renderings.yaml` maps each such text, exactly as a
record holds it, to its Dutch rendering; a text without one is quoted as it stands (product names mostly
stay the same in both languages).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel

RENDERINGS = Path("nl") / "renderings.yaml"

Value = TypeVar("Value")


class RenderingError(ValueError):
    """The renderings file is not a mapping of texts to texts; the message names the file and the entry."""


def load_renderings(providers_dir: Path) -> dict[str, str]:
    """The Dutch renderings kept beside the records; none when the file does not exist."""
    path = providers_dir / RENDERINGS
    if not path.exists():
        return {}
    try:
        loaded: Any = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise RenderingError(f"{path}: {error}") from error
    if not isinstance(loaded, dict):
        raise RenderingError(f"{path}: expected a mapping of English texts to their Dutch renderings")
    for english, dutch in loaded.items():
        if not isinstance(english, str) or not isinstance(dutch, str) or not dutch.strip():
            raise RenderingError(f"{path}: entry {english!r}: both the text and its rendering must be text")
    return loaded


def rendered(value: Value, renderings: Mapping[str, str]) -> Value:
    """The value with every text that has a rendering replaced by it, through lists and nested models."""
    if isinstance(value, str):
        return renderings.get(value, value)  # type: ignore[return-value]
    if isinstance(value, list):
        return [rendered(item, renderings) for item in value]  # type: ignore[return-value]
    if isinstance(value, BaseModel):
        fields = type(value).model_fields
        return value.model_copy(update={name: rendered(getattr(value, name), renderings) for name in fields})
    return value
