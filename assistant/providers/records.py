"""Reading and writing the provider records, one YAML file per provider (corpus/providers/<slug>.yaml).

Loading checks every file and reports every problem at once, each naming the file, the provider and the
field, so a bad set is never half used. Writing replaces files atomically so a reader never sees half a file.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from assistant.providers.schema import ProviderRecord


@dataclass(frozen=True)
class Problem:
    file: str
    provider: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: provider {self.provider}: field {self.field}: {self.message}"


class RecordError(ValueError):
    """One or more records are invalid; `problems` lists each with its file, provider and field."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(problem) for problem in problems))


# libyaml's safe loader where PyYAML was built with it: reading the records was most of a second of every start.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _field(location: tuple[int | str, ...]) -> str:
    return ".".join(str(part) for part in location) or "(record)"


def _read(path: Path) -> ProviderRecord | list[Problem]:
    try:
        data: Any = yaml.load(path.read_text(encoding="utf-8"), Loader=_SAFE_LOADER)
    except yaml.YAMLError as error:
        return [Problem(path.name, path.stem, "(yaml)", str(error).replace("\n", " "))]
    if not isinstance(data, dict):
        return [Problem(path.name, path.stem, "(record)", "the file must hold one mapping")]
    provider = str(data.get("slug") or path.stem)
    try:
        record = ProviderRecord.model_validate(data)
    except ValidationError as error:
        return [Problem(path.name, provider, _field(e["loc"]), e["msg"]) for e in error.errors()]
    if record.slug != path.stem:
        return [Problem(path.name, provider, "slug", f"the file must be named {record.slug}.yaml")]
    return record


def load_records(directory: Path) -> list[ProviderRecord]:
    """All records of `directory`, sorted by name; raises RecordError listing every problem found."""
    if not directory.is_dir():
        raise RecordError(
            [Problem(str(directory), "-", "-", "the provider records directory does not exist")]
        )
    records: list[ProviderRecord] = []
    problems: list[Problem] = []
    for path in sorted(directory.glob("*.yaml")):
        result = _read(path)
        if isinstance(result, ProviderRecord):
            records.append(result)
        else:
            problems.extend(result)
    if problems:
        raise RecordError(problems)
    return sorted(records, key=lambda record: record.name.casefold())


class _Dumper(yaml.SafeDumper):
    """Writes repeated values out in full: anchors and aliases make a record hard to edit by hand."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def dump_record(record: ProviderRecord) -> str:
    """The record as YAML in field order, leaving out what equals its default (empty lists, None, false)."""
    data = record.model_dump(mode="python", exclude_defaults=True)
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=110)


def save_records(directory: Path, records: Iterable[ProviderRecord]) -> None:
    """Write the records as <slug>.yaml: all temporary files first, then each moved into place."""
    staged: list[tuple[str, Path]] = []
    try:
        for record in records:
            descriptor, temporary = tempfile.mkstemp(dir=directory, prefix=f".{record.slug}.", suffix=".tmp")
            staged.append((temporary, directory / f"{record.slug}.yaml"))
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                handle.write(dump_record(record))
            os.chmod(temporary, 0o644)  # mkstemp makes files private; records are ordinary project files
    except BaseException:
        for temporary, _ in staged:
            os.unlink(temporary)
        raise
    for temporary, target in staged:
        os.replace(temporary, target)
