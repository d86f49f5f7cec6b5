"""Serving: `baraha serve` (gunicorn's gthread worker with bounded connections), TLS, this
computer's addresses, and the Host check in front of every request."""
