"""The test sets themselves: they load, and they hold what the issue asks for."""

from collections import Counter

import pytest

from assistant.config import PROJECT_ROOT
from evals.cases import CaseFileError, load_cases
from evals.text import squash

CASES = load_cases()


def count(category: str, language: str) -> int:
    return sum(case.category == category and case.language == language for case in CASES)


@pytest.mark.parametrize("language", ["en", "nl"])
def test_sizes_per_language(language):
    assert count("faq", language) == 4
    assert count("faq-paraphrase", language) >= 12
    assert count("section", language) >= 24
    assert count("provider", language) >= 10
    assert count("follow-up", language) >= 5


def test_out_of_scope():
    outside = [case for case in CASES if case.category == "out-of-scope"]
    assert len(outside) >= 20
    assert all(case.must_refuse and case.checks_filter and case.expected_filter is None for case in outside)


def test_every_body_section_has_six_questions_per_language():
    primary = Counter(
        (case.relevant_sections[0], case.language) for case in CASES if case.category == "section"
    )
    for section in ("kubernetes-support", "why-it-matters", "gpu-sharing", "tradeoffs"):
        assert primary[(section, "en")] >= 6 and primary[(section, "nl")] >= 6


def test_faq_cases_quote_the_guide():
    for case in CASES:
        if case.category == "faq":
            guide = squash(
                (PROJECT_ROOT / "corpus" / f"guide.{case.language}.md").read_text(encoding="utf-8")
            )
            assert case.reference and squash(case.reference) in guide, case.id


def test_a_bad_case_names_its_file_and_id(tmp_path):
    (tmp_path / "broken.yaml").write_text(
        "- {id: x1, question: q, language: en, category: section, relevant_sections: [no-such-section]}\n",
        encoding="utf-8",
    )
    with pytest.raises(CaseFileError, match="broken.yaml: case x1: .*no-such-section"):
        load_cases(tmp_path)


def test_duplicate_ids_are_rejected(tmp_path):
    entry = "- {id: same, question: q, language: en, category: out-of-scope, must_refuse: true}\n"
    (tmp_path / "a.yaml").write_text(entry, encoding="utf-8")
    (tmp_path / "b.yaml").write_text(entry, encoding="utf-8")
    with pytest.raises(CaseFileError, match="duplicate case id 'same'"):
        load_cases(tmp_path)
