"""Compression of the answers the server makes in memory, for about the cost of compressing.

Flask-Compress compresses every text answer (brotli or gzip, at the levels webapp/web/pwa.py
sets). For an answer made in memory (a page, a partial, JSON) its after_request took about
0.3 ms, three times the gzip itself: it reads and rewrites Werkzeug's header list a dozen
times, and evaluates a conditional GET for answers that carry no validator. A move's post
and every partial fetched paid that. `LeanCompress` takes that path itself, with
Flask-Compress's own choice of algorithm and its own compressors, at the same levels and
sizes, with the same headers. Streamed answers (the static files, with their ETags) and any
answer with a validator still go Flask-Compress's whole way.
"""
from __future__ import annotations

from flask import current_app, request
from flask_compress import Compress
# Flask-Compress's own choice (Accept-Encoding, q-values, "*") and compressors, so that the
# two paths never disagree (tests/pwa/test_units.py checks both against each other).
from flask_compress.flask_compress import _choose_algorithm, _compress_data

from .headers import vary


class LeanCompress(Compress):

    def after_request(self, response):
        headers = response.headers
        if response.is_streamed or "ETag" in headers or "Last-Modified" in headers:
            return super().after_request(response)
        vary(response, "Accept-Encoding")
        algorithm = _choose_algorithm(self.enabled_algorithms,
                                      request.headers.get("Accept-Encoding", ""))
        if algorithm is None or not 200 <= response.status_code < 300 \
                or "Content-Encoding" in headers \
                or response.mimetype not in self.compress_mimetypes_set:
            return response
        app = self.app or current_app
        data = response.get_data()
        if len(data) < app.config["COMPRESS_MIN_SIZE"]:
            return response
        response.set_data(_compress_data(app, data, algorithm))     # and Content-Length
        headers["Content-Encoding"] = algorithm
        return response
