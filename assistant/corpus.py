"""The guide in two aligned languages: read, validated and addressed by the contract's section ids.

The Markdown is read line by line rather than with a header splitter because validation must name the
line of a fault and keep the blank lines that separate paragraphs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from assistant.text import split_sentences

LANGUAGES = ("nl", "en")
ORIGINAL_LANGUAGE = "nl"

# Contract §1: the sections every rendering of the guide must carry.
SECTION_IDS = (
    "kubernetes-support",
    "why-it-matters",
    "gpu-sharing",
    "tradeoffs",
    "faq-drivers",
    "faq-multiple-workloads",
    "faq-single-gpu-task",
    "faq-multi-node-training",
)

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*\{#([a-z0-9-]+)\}\s*$")


class CorpusError(ValueError):
    """A fault in a corpus file, naming the file, the line and what is wrong."""

    def __init__(self, path: Path, line: int, fault: str) -> None:
        super().__init__(f"{path}:{line}: {fault}")
        self.path, self.line, self.fault = path, line, fault


@dataclass(frozen=True)
class Block:
    """A paragraph or one bullet item; `position` pairs it with the same block in the other language."""

    text: str
    line: int
    position: int
    bullet: bool = False

    @property
    def sentences(self) -> list[str]:
        return split_sentences(self.text)


@dataclass(frozen=True)
class Section:
    id: str
    title: str
    line: int
    blocks: tuple[Block, ...]

    @property
    def kind(self) -> str:
        return "faq" if self.id.startswith("faq-") else "guide"


@dataclass(frozen=True)
class GuideText:
    """One language's rendering of the guide."""

    language: str
    path: Path
    sections: tuple[Section, ...]

    def section(self, section_id: str) -> Section:
        return next(section for section in self.sections if section.id == section_id)


def guide_path(corpus_dir: Path, language: str) -> Path:
    return corpus_dir / f"guide.{language}.md"


def section_url(section_id: str, language: str) -> str:
    """Where a citation of a guide section points: the guide page's anchor (contract §5)."""
    return f"/guide/{language}#{section_id}"


def read_guide(path: Path, language: str) -> GuideText:
    """Parse one Markdown rendering: headings with `{#id}`, paragraphs, `- ` bullet items."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise CorpusError(path, 0, "file not found") from None
    except UnicodeDecodeError as error:
        raise CorpusError(path, 0, f"not UTF-8 ({error.reason})") from None

    sections: list[Section] = []
    heading: tuple[str, str, int] | None = None
    blocks: list[Block] = []
    paragraph: list[str] = []
    paragraph_line = 0

    def end_paragraph() -> None:
        nonlocal paragraph
        if paragraph:
            blocks.append(Block(" ".join(paragraph), paragraph_line, len(blocks)))
            paragraph = []

    def end_section() -> None:
        end_paragraph()
        if heading:
            section_id, title, line = heading
            if any(section.id == section_id for section in sections):
                raise CorpusError(path, line, f"duplicated section id '{section_id}'")
            sections.append(Section(section_id, title, line, tuple(blocks)))

    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if line.startswith("#"):
            match = _HEADING.match(line)
            if not match:
                raise CorpusError(path, number, "heading without a section id '{#id}'")
            end_section()
            heading, blocks = (match.group(3), match.group(2), number), []
        elif not line:
            end_paragraph()
        elif line.startswith("- "):
            end_paragraph()
            if heading is None:
                raise CorpusError(path, number, "text before the first heading")
            blocks.append(Block(line[2:].strip(), number, len(blocks), bullet=True))
        else:
            if heading is None:
                raise CorpusError(path, number, "text before the first heading")
            if not paragraph:
                paragraph_line = number
            paragraph.append(line)
    end_section()

    present = {section.id for section in sections}
    for section_id in SECTION_IDS:
        if section_id not in present:
            raise CorpusError(path, len(lines), f"missing section id '{section_id}'")
    for section in sections:
        if section.id in SECTION_IDS and not section.blocks:
            raise CorpusError(path, section.line, f"section '{section.id}' has no text")
    return GuideText(language, path, tuple(sections))


def check_alignment(original: GuideText, rendering: GuideText) -> None:
    """Every paragraph and sentence of a rendering must have its counterpart in the original."""
    path = rendering.path
    ids = [section.id for section in rendering.sections]
    original_ids = [section.id for section in original.sections]
    if ids != original_ids:
        line = next(
            (s.line for s, o in zip(rendering.sections, original.sections, strict=False) if s.id != o.id),
            rendering.sections[-1].line,
        )
        raise CorpusError(path, line, f"section ids {ids} differ from {original.path.name}'s {original_ids}")
    for section, counterpart in zip(rendering.sections, original.sections, strict=True):
        if len(section.blocks) != len(counterpart.blocks):
            raise CorpusError(
                path,
                section.line,
                f"section '{section.id}' has {len(section.blocks)} paragraphs, "
                f"{original.path.name} has {len(counterpart.blocks)}",
            )
        for block, original_block in zip(section.blocks, counterpart.blocks, strict=True):
            if len(block.sentences) != len(original_block.sentences):
                raise CorpusError(
                    path,
                    block.line,
                    f"paragraph has {len(block.sentences)} sentences, its original at "
                    f"{original.path.name}:{original_block.line} has {len(original_block.sentences)}",
                )


def load_guide(corpus_dir: Path) -> dict[str, GuideText]:
    """Both renderings, validated and aligned with the Dutch original."""
    guides = {language: read_guide(guide_path(corpus_dir, language), language) for language in LANGUAGES}
    for language in LANGUAGES:
        if language != ORIGINAL_LANGUAGE:
            check_alignment(guides[ORIGINAL_LANGUAGE], guides[language])
    return guides
