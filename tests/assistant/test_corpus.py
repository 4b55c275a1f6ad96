"""The corpus: the Dutch guide word for word, an aligned English rendering, and faults named precisely."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from assistant.corpus import SECTION_IDS, CorpusError, load_guide
from assistant.text import split_sentences

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
# The guide as its authors wrote it (the contract's seed/guide.nl.txt), kept in the repository unchanged.
SEED = CORPUS / "seed" / "guide.nl.txt"
SEED_SHA256 = "2d50f9a165c62dd35be49bca71b28915dc605a00aee2931b9746621f977cd21f"


def _words(text: str) -> list[str]:
    without_markup = re.sub(r"\{#[a-z0-9-]+\}|^#+ |^- |^•", "", text, flags=re.MULTILINE)
    return without_markup.split()


def test_the_seed_text_is_the_authors_original() -> None:
    assert hashlib.sha256(SEED.read_bytes()).hexdigest() == SEED_SHA256


def test_dutch_guide_keeps_the_seed_text_word_for_word() -> None:
    seed = SEED.read_text(encoding="utf-8")
    assert _words((CORPUS / "guide.nl.md").read_text(encoding="utf-8")) == _words(seed)


def test_both_renderings_carry_every_contract_section_in_the_same_order() -> None:
    guides = load_guide(CORPUS)
    for guide in guides.values():
        ids = [section.id for section in guide.sections]
        assert [i for i in ids if i in SECTION_IDS] == list(SECTION_IDS)
    english, dutch = guides["en"], guides["nl"]
    for en_section, nl_section in zip(english.sections, dutch.sections, strict=True):
        assert [len(b.sentences) for b in en_section.blocks] == [len(b.sentences) for b in nl_section.blocks]


def test_sentences_split_at_ends_not_inside_names() -> None:
    text = "Gebruik nvidia.com/gpu als resource. Werkt dat? Ja: met MIG."
    assert split_sentences(text) == ["Gebruik nvidia.com/gpu als resource.", "Werkt dat?", "Ja: met MIG."]


def _break(corpus: Path, language: str, old: str, new: str) -> Path:
    path = corpus / f"guide.{language}.md"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def _line_of(path: Path, fragment: str) -> int:
    return next(
        n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if fragment in line
    )


def test_a_missing_section_id_names_the_file_and_the_id(corpus_copy: Path) -> None:
    _break(corpus_copy, "en", "{#faq-drivers}", "{#faq-driver}")
    with pytest.raises(CorpusError, match=r"guide\.en\.md:\d+: missing section id 'faq-drivers'"):
        load_guide(corpus_copy)


def test_a_duplicated_section_id_names_its_line(corpus_copy: Path) -> None:
    path = _break(corpus_copy, "nl", "{#tradeoffs}", "{#gpu-sharing}")
    line = _line_of(path, "Afwegingen en wat u moet controleren")
    with pytest.raises(CorpusError, match=rf"guide\.nl\.md:{line}: duplicated section id 'gpu-sharing'"):
        load_guide(corpus_copy)


def test_a_heading_without_id_is_rejected(corpus_copy: Path) -> None:
    path = _break(corpus_copy, "en", " {#why-it-matters}", "")
    line = _line_of(path, "## Why it matters")
    with pytest.raises(CorpusError, match=rf"guide\.en\.md:{line}: heading without a section id"):
        load_guide(corpus_copy)


def test_a_dropped_paragraph_breaks_alignment_at_its_section(corpus_copy: Path) -> None:
    dropped = "If you plan to pack many small inference workloads"
    path = corpus_copy / "guide.en.md"
    kept = [line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith(dropped)]
    path.write_text("\n".join(kept) + "\n", encoding="utf-8")
    line = _line_of(path, "{#gpu-sharing}")
    with pytest.raises(CorpusError, match=rf"guide\.en\.md:{line}: section 'gpu-sharing' has 4 paragraphs"):
        load_guide(corpus_copy)


def test_a_merged_sentence_breaks_alignment_at_its_paragraph(corpus_copy: Path) -> None:
    path = _break(corpus_copy, "en", "Usually not. For one notebook", "Usually not, for one notebook")
    line = _line_of(path, "Usually not, for one notebook")
    with pytest.raises(CorpusError, match=rf"guide\.en\.md:{line}: paragraph has 2 sentences"):
        load_guide(corpus_copy)
