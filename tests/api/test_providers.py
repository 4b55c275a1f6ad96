"""GET /v1/providers on a real server (contract §3)."""

from __future__ import annotations

import httpx
import pytest


def test_no_filter_lists_every_record(http: httpx.Client) -> None:
    body = http.get("/v1/providers").json()
    assert body["filter"] == {}
    assert body["total"] == len(body["matches"]) >= 20
    names = [match["name"].casefold() for match in body["matches"]]
    assert names == sorted(names)


def test_filter_keeps_only_confirmed_records(http: httpx.Client) -> None:
    body = http.get("/v1/providers", params={"kubernetes": "managed", "sharing": ["mig"]}).json()
    assert body["filter"] == {"kubernetes": "managed", "sharing": ["mig"]}
    assert body["total"] == len(body["matches"]) > 0
    for match in body["matches"]:
        assert match["kubernetes"]["managed"] == "yes"
        assert match["sharing"]["mig"] == "yes"
        assert match["section_id"] == f"provider:{match['slug']}"
    confirmed = {match["slug"] for match in body["matches"]}
    assert confirmed.isdisjoint(record["slug"] for record in body["unknown"])


def test_gpu_model_orders_by_price_in_usd_first(http: httpx.Client) -> None:
    matches = http.get("/v1/providers", params={"gpu_model": "H100"}).json()["matches"]
    prices = [
        (match["price"]["currency"] != "USD", match["price"]["per_gpu_hour"])
        for match in matches
        if match["price"]
    ]
    assert prices and prices == sorted(prices)
    assert all(match["price"]["as_of"] for match in matches if match["price"])


@pytest.mark.parametrize(
    ("params", "reason"),
    [
        ({"colour": "blue"}, "unknown filter key 'colour'"),
        ({"kubernetes": "sometimes"}, "kubernetes"),
        ({"region": "mars"}, "region"),
        ({"spot": "false"}, "spot only takes true"),
        ({"max_price_per_gpu_hour": "cheap"}, "max_price_per_gpu_hour"),
        ({"sharing": "telepathy"}, "sharing"),
    ],
)
def test_unknown_key_or_value_is_422_with_the_reason(http: httpx.Client, params: dict, reason: str) -> None:
    response = http.get("/v1/providers", params=params)
    assert response.status_code == 422
    assert reason in response.json()["detail"]
