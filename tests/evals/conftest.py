"""Registers the marker of the harness run against the real assistant: `pytest -m evals_live`."""


def pytest_configure(config):
    config.addinivalue_line("markers", "evals_live: runs the evaluation harness against the real assistant")
