"""Unit tier: the sliding window of the rate limit, on a clock the test moves."""

from __future__ import annotations

from api.ratelimit import RateLimiter


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_limit_per_client_with_the_wait_until_the_oldest_request_leaves_the_window() -> None:
    clock = Clock()
    limiter = RateLimiter(3, clock=clock)
    for step in range(3):
        clock.now += step * 10
        assert limiter.hit("a") is None
    assert limiter.hit("a") == 30  # the first hit, at t=1000, leaves the window at t=1060; now is 1030
    assert limiter.hit("b") is None
    clock.now = 1060.0
    assert limiter.hit("a") is None
    assert limiter.hit("a") is not None


def test_refused_requests_do_not_extend_the_wait() -> None:
    clock = Clock()
    limiter = RateLimiter(1, clock=clock)
    assert limiter.hit("a") is None
    for _ in range(100):
        limiter.hit("a")
    clock.now += 60
    assert limiter.hit("a") is None


def test_idle_clients_are_forgotten() -> None:
    clock = Clock()
    limiter = RateLimiter(5, clock=clock)
    for client in range(2000):
        limiter.hit(f"client-{client}")
    clock.now += 61
    for _ in range(1024):
        limiter.hit("active")
    assert len(limiter._hits) == 1
