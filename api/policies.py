"""The security headers of every response, and the Content-Security-Policy of each kind of HTML page.

A response that is not a page gets a policy that allows nothing: a JSON error or a script opened as a page
can run nothing and load nothing. Pages set their own policy, which names the sources they need and no
more; no page may be framed (clickjacking), and no page sends a Referer to the sites it links to.
"""

from __future__ import annotations

import base64
import hashlib

_NEVER_FRAMED = {"default-src": "'none'", "frame-ancestors": "'none'"}


def csp(**directives: str) -> str:
    """A Content-Security-Policy from `script_src="'self'"`-style keywords, on top of allowing nothing."""
    named = {name.replace("_", "-"): sources for name, sources in directives.items()}
    return "; ".join(f"{name} {sources}" for name, sources in (_NEVER_FRAMED | named).items())


def sha256_source(inline: str) -> str:
    """The CSP source that allows exactly this inline script or style."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(inline.encode()).digest()).decode() + "'"


# Set on every response that has not set its own (RequestContext); the proxy in front adds HSTS.
DEFAULT_HEADERS = {
    "Content-Security-Policy": csp(),
    "X-Frame-Options": "DENY",  # what frame-ancestors says, for browsers that predate it
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}
