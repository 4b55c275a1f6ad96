"""`python -m assistant serve` and `python -m assistant mcp`: the service adds its commands to the assistant's CLI.

Registered as an entry point of the group `assistant.commands` (pyproject.toml), so the core finds the
commands without importing the service by name. One entry point registers both, so an installed checkout
gains `mcp` without being installed again.
"""

from __future__ import annotations

import argparse


def _serve(args: argparse.Namespace) -> int:
    from api.server import serve

    serve(host=args.host, port=args.port, workers=args.workers)
    return 0


def _mcp(_args: argparse.Namespace) -> int:
    from api.mcp_transport import serve_stdio

    serve_stdio()
    return 0


def register(commands: argparse._SubParsersAction) -> None:
    serve = commands.add_parser("serve", help="serve the HTTP API (and MCP over streamable HTTP at /mcp)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=1)
    serve.set_defaults(run=_serve)

    mcp = commands.add_parser("mcp", help="serve the MCP tools and resources to one client over stdio")
    mcp.set_defaults(run=_mcp)
