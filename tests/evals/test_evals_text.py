"""Markers, segments and the normalisation used to compare answers with facts and quotes."""

from evals.text import Segment, core, fold, markers, segments, strip_markers


def test_markers_in_order():
    assert markers("One [1]. Two [2][3] and [1].") == [1, 2, 3, 1]


def test_segments_cut_after_each_run_of_markers():
    answer = "First sentence. [1] Second one. [2] [3] Trailing text."
    assert segments(answer) == [
        Segment("First sentence.", (1,)),
        Segment(" Second one.", (2, 3)),
        Segment(" Trailing text.", ()),
    ]


def test_segments_without_letters_are_dropped():
    assert segments("Only this. [1] .") == [Segment("Only this.", (1,))]


def test_strip_markers():
    assert strip_markers("Yes [1]. Also [2] [3] this.") == "Yes. Also this."


def test_fold_ignores_case_accents_quotes_and_spacing():
    assert fold("Hele  GPU’s zijn  Geïnstalleerd") == "hele gpu's zijn geinstalleerd"


def test_core_drops_edge_punctuation():
    assert core("  — Time-slicing works. ") == "time-slicing works"
