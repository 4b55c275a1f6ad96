"""`python -m assistant serve`: the service adds its command to the assistant's CLI.

Registered as an entry point of the group `assistant.commands` (pyproject.toml), so the core finds the
command without importing the service by name.
"""

from __future__ import annotations

import argparse


def _serve(args: argparse.Namespace) -> int:
    from api.server import serve

    serve(host=args.host, port=args.port, workers=args.workers)
    return 0


def register(commands: argparse._SubParsersAction) -> None:
    serve = commands.add_parser("serve", help="serve the HTTP API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=1)
    serve.set_defaults(run=_serve)
