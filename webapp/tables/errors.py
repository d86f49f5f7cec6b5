"""Errors of the web layer. Each carries its HTTP status and a message a player can read.

webapp/tables/ raises them; web/api.py turns them into `{"error": "..."}` with the status, and
the pages show the message. Messages never hold a token or a hidden card.
"""
from __future__ import annotations


class WebError(Exception):
    status = 500
    default = "something went wrong on the server"
    headers: dict = {}

    def __init__(self, message: str | None = None, *, code: str | None = None,
                 facts: dict | None = None):
        super().__init__(message or self.default)
        self.message = message or self.default
        # What the message says as data, for words with names on a page (webapp/words).
        self.code, self.facts = code, facts or {}

    def body(self) -> dict:
        return {"error": self.message}


class BadRequest(WebError):
    status = 400
    default = "the request is not well formed"


class Unauthorized(WebError):
    status = 401
    default = "this needs your seat's token: join the table first"


class Forbidden(WebError):
    """Added to the list of ARCHITECTURE.md: a seat that is not the host's asks a host's thing."""
    status = 403
    default = "only the host can do that"


class NotFound(WebError):
    status = 404
    default = "there is no such table"


class Conflict(WebError):
    """409 without a view: the seat is taken, the table is full."""
    status = 409
    default = "that is not possible at this table now"


class Stale(Conflict):
    """409: the action was made against an old version. Holds the seat's current view."""
    default = "the table has moved on since your screen was drawn; here it is as it is now"

    def __init__(self, view: dict, message: str | None = None):
        super().__init__(message)
        self.view = view

    def body(self) -> dict:
        # The view's fields at the top level (a client can redraw from the body as is),
        # and once more under "view".
        return {**self.view, "error": self.message, "view": self.view}


class Closed(WebError):
    status = 410
    default = "this table is closed"


class TooLarge(WebError):
    status = 413
    default = "the request is too large"


class Illegal(WebError):
    status = 422
    default = "that is not allowed now"


class TooMany(WebError):
    status = 429
    default = "too many requests: wait a moment and try again"
    headers = {"Retry-After": "1"}


class StorageFailed(WebError):
    """The store could not write: nothing of it was kept, nothing in memory changed. 507
    when the disk (or the file's size limit) is full, 503 for any other failure to write."""
    status = 503
    default = ("the server could not save this (its storage failed), so nothing changed: "
               "try again in a moment")
    headers = {"Retry-After": "5"}

    def __init__(self, full: bool):
        super().__init__("the server's disk is full, so this was not saved and nothing "
                         "changed: free some space on the server, then try again"
                         if full else None, code="disk_full" if full else "storage_failed")
        self.full = full
        self.status = 507 if full else 503
