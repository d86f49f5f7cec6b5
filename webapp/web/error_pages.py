"""Error pages: JSON errors under /api/ (`{"error": "plain words"}`), a short page in the
phone's language elsewhere. A WebError (webapp/tables/errors.py) carries its status and words."""
from __future__ import annotations

from flask import request
from flask_babel import gettext
from markupsafe import escape
from werkzeug.exceptions import HTTPException

from ..tables.errors import WebError
from .i18n import page_lang


def install(app) -> None:
    """JSON errors under /api/ (`{"error": "plain words"}`), plain text elsewhere."""

    def answer(status: int, body: dict, headers=None, people: str | None = None):
        """`people`: the page's words, in the phone's language (the API's stay English)."""
        if request.path.startswith("/api/"):
            return body, status, headers or {}
        page = (f'<!doctype html><html lang="{page_lang()}"><title>Baraha</title>'
                f"<p>{escape(people or body['error'])}</p>")
        return page, status, headers or {}

    @app.errorhandler(WebError)
    def web_error(e: WebError):
        return answer(e.status, e.body(), e.headers)

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException):
        words = {400: "the request is not well formed",
                 404: "there is nothing here",
                 405: "this address does not take that method",
                 413: f"the request is too large ({app.config['MAX_CONTENT_LENGTH'] // 1024} KB "
                      "at most)"}
        custom = e.description != type(e).description     # abort(403, "plain words")
        text = e.description if custom else words.get(e.code, e.name.lower())
        people = None if custom else {
            400: gettext("The request is not well formed."),
            404: gettext("There is nothing here."),
            405: gettext("This address does not take that method."),
            413: gettext("The request is too large (%(kb)d KB at most).",
                         kb=app.config["MAX_CONTENT_LENGTH"] // 1024)}.get(e.code)
        return answer(e.code or 500, {"error": text}, people=people)

    @app.errorhandler(Exception)
    def crash(e: Exception):
        app.logger.exception("unexpected error on %s %s", request.method, request.path)
        return answer(500, {"error": "something went wrong on the server"},
                      people=gettext("Something went wrong on the server."))
