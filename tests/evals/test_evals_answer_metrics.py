"""Key facts, filter match and the written language, on hand-made answers."""

import pytest

from evals.answer_metrics import filter_matches, key_fact_recall, text_language


def test_key_facts_accept_any_wording_in_either_language():
    answer = "Standaard niet — Kubernetes wijst hele GPU’s toe aan pods [1]."
    facts = [["not by default", "standaard niet"], ["whole gpus", "hele gpu's"], ["mig"]]
    recall, missing = key_fact_recall(answer, facts)
    assert recall == pytest.approx(2 / 3)
    assert missing == ["mig"]


def test_key_facts_ignore_accents():
    recall, _ = key_fact_recall("Hardware-geïsoleerde instanties", [["hardware-geisoleerde"]])
    assert recall == 1.0


def test_no_facts_means_not_scored():
    assert key_fact_recall("anything", []) == (None, [])


def test_filter_lists_compare_as_sets():
    assert filter_matches({"sharing": ["mps", "time_slicing"]}, {"sharing": ["time_slicing", "mps"]})


def test_filter_extra_or_missing_key_fails():
    expected = {"kubernetes": "managed", "sharing": ["mig"]}
    assert not filter_matches({"kubernetes": "managed"}, expected)
    assert not filter_matches({**expected, "spot": True}, expected)


def test_filter_numbers_compare_by_value():
    assert filter_matches({"max_price_per_gpu_hour": 2.0}, {"max_price_per_gpu_hour": 2})


def test_filter_null_only_matches_null():
    assert filter_matches(None, None)
    assert not filter_matches({}, None)
    assert not filter_matches(None, {"spot": True})


def test_text_language():
    assert text_language("Kubernetes wijst standaard hele GPU's toe aan pods.") == "nl"
    assert text_language("Kubernetes allocates whole GPUs to pods by default.") == "en"
    assert text_language("   ") is None
    listings = [
        f"{name} offers these GPU models: {models}, according to {host}."
        for name, models, host in [
            ("DigitalOcean", "H100, L40S, RTX 6000 Ada, RTX 4000 Ada, MI300X, B300", "docs.digitalocean.com"),
            ("Crusoe", "GB200, B200, H200, H100, A100-80GB, L40S, MI300X", "the repository example/crusoe"),
            ("IBM Cloud", "H100, H200, MI300X", "cloud.ibm.com"),
        ]
    ]
    assert text_language(" ".join(listings)) == "en"
