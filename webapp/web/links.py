"""A table's address as phones reach it: PUBLIC_URL when the server is told one (behind a
proxy, a name on the router), else the address this request came to."""
from __future__ import annotations

from flask import current_app, request


def table_url(code: str) -> str:
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    return f"{base.rstrip('/')}/t/{code}"
