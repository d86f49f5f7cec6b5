"""The installable app: manifest, service worker, offline page; HTTPS help and the local
authority's certificate; compression and long-lived, fingerprinted static files.

- `asset(path)` (a Jinja global) is `/static/path?v=<content hash>`; every
  `url_for('static', filename=...)` gets the same `v=` (an app-wide URL default), so the
  pages need no change. A static response whose `v` is the file's current hash is
  `public, max-age=31536000, immutable`; anything else keeps Flask's revalidation.
- `/sw.js` is rendered from templates/pwa/sw.js with the app shell's URLs and a version
  that is a hash of every static file and of the shell's templates: any change makes a
  new service worker, which drops the old cache.
- Responses are compressed (brotli or gzip) by Flask-Compress, through its settings, at
  its lowest levels. Static files, the same for every request, are compressed once at
  higher levels and kept while their hash holds (about 25 KB less on a first load).
"""
from __future__ import annotations

import gzip
import hashlib
import os
import threading
from pathlib import Path

from flask import (Blueprint, Response, abort, current_app, make_response, render_template,
                   request, url_for)
from markupsafe import Markup

from .i18n import catalogs_digest

bp = Blueprint("pwa", __name__)

THEME = "#1f5d3a"           # the felt green of the bar (base.html's theme-color)
BACKGROUND = "#eef1ec"      # the page background (app.css --bg): the splash screen

# The app shell: cached by the service worker on install. Game state never is. The large
# icons are not: the system keeps its own copy of them when the app is installed.
SHELL_STATIC = ("css/app.css", "css/pwa.css", "js/theme.js", "js/app.js", "js/pwa.js", "js/offline.js",
                "js/offline-lang.js", "js/vendor/htmx.min.js", "js/vendor/idiomorph.min.js", "js/vendor/socket.io.min.js", "icons/icon.svg",
                "icons/icon-192.png")
SHELL_TEMPLATES = ("pwa/sw.js", "pwa/offline.html", "pwa/_offline_main.html")

_hashes: dict[str, tuple[int, int, str]] = {}     # full path -> (mtime_ns, size, hash)
_lock = threading.Lock()


def file_hash(full: str) -> str | None:
    """First 12 hex digits of the SHA-256 of a file, cached while its mtime and size hold."""
    try:
        st = os.stat(full)
    except OSError:
        return None
    seen = _hashes.get(full)
    if seen and seen[0] == st.st_mtime_ns and seen[1] == st.st_size:
        return seen[2]
    h = hashlib.sha256()
    with open(full, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 16), b""):
            h.update(chunk)
    digest = h.hexdigest()[:12]
    with _lock:
        _hashes[full] = (st.st_mtime_ns, st.st_size, digest)
    return digest


def _static_path(filename: str) -> str | None:
    from werkzeug.security import safe_join

    folder = current_app.static_folder
    return safe_join(folder, filename) if folder else None


def static_hash(filename: str) -> str | None:
    full = _static_path(filename)
    return file_hash(full) if full and os.path.isfile(full) else None


def asset(path: str) -> str:
    """'/static/css/app.css?v=1a2b3c4d5e6f': a URL that changes when the file does."""
    return url_for("static", filename=path)


@bp.app_url_defaults
def _fingerprint(endpoint: str, values: dict) -> None:
    if endpoint == "static" and "v" not in values and values.get("filename"):
        digest = static_hash(values["filename"])
        if digest:
            values["v"] = digest


@bp.after_app_request
def _static_cache(response: Response) -> Response:
    if request.endpoint == "static" and response.status_code in (200, 304):
        v = request.args.get("v")
        if v and v == static_hash((request.view_args or {}).get("filename", "")):
            response.cache_control.no_cache = None
            response.cache_control.public = True
            response.cache_control.max_age = 31536000
            response.cache_control.immutable = True
    return response


@bp.record_once
def _setup(state) -> None:
    app = state.app
    app.jinja_env.globals["asset"] = asset
    init_compress(app)


def init_compress(app) -> None:
    """Brotli or gzip for text (HTML, CSS, JS, JSON, SVG), also for the static files, which
    Flask streams: gzip is allowed for streams too, for browsers without brotli."""
    if app.extensions.get("compress"):
        return
    from flask_compress import Compress
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["br", "gzip"])
    # The lowest levels: a partial of 20 KB is 4 KB at gzip 1 (0.2 ms) and 3.3 KB at gzip 6
    # (0.45 ms), 4 KB at brotli 1 (0.09 ms) and 3 KB at brotli 5 (0.6 ms): the last KB
    # costs more CPU than it saves on a LAN, several times more on a Raspberry Pi. Still
    # compressed: 20 KB would need a second round trip on a fresh congestion window.
    app.config.setdefault("COMPRESS_BR_LEVEL", 1)
    app.config.setdefault("COMPRESS_LEVEL", 1)
    mimetypes = ["text/html", "text/css", "text/plain", "text/javascript", "application/javascript",
                 "application/json", "application/manifest+json", "image/svg+xml"]
    app.config.setdefault("COMPRESS_MIMETYPES", mimetypes)
    app.extensions["compress"] = Compress(app)
    # After Compress's hook, so it runs before it (Flask runs them last-registered first);
    # Compress leaves a response that already has a Content-Encoding as it is.
    app.after_request(_static_compressed)


# Brotli 7: within 1% of 9's size at a tenth of its time; 11 saves 8% more but took 0.7 s
# for the static files on a busy 2-core machine, which the first phone after a start waits.
BROTLI = 7
# (full path, algorithm) -> (the file's hash, its compressed bytes)
_packed: dict[tuple[str, str], tuple[str, bytes]] = {}


def _pack(data: bytes, algorithm: str) -> bytes:
    if algorithm == "br":
        import brotli
        return brotli.compress(data, quality=BROTLI)
    return gzip.compress(data, 9, mtime=0)


def _static_compressed(response: Response) -> Response:
    """A whole static file (200) of a compressible type, compressed once per version of
    the file at brotli 7 or gzip 9 (a few ms, once), instead of at level 1 for
    every request."""
    if (request.endpoint != "static" or response.status_code != 200
            or "Content-Encoding" in response.headers
            or response.mimetype not in current_app.config["COMPRESS_MIMETYPES"]):
        return response
    algorithm = request.accept_encodings.best_match(["br", "gzip"])
    full = _static_path((request.view_args or {}).get("filename", ""))
    digest = file_hash(full) if algorithm and full else None
    if digest is None:
        return response
    packed = _packed.get((full, algorithm))
    if packed is None or packed[0] != digest:
        with open(full, "rb") as f:
            packed = (digest, _pack(f.read(), algorithm))
        with _lock:
            _packed[(full, algorithm)] = packed
    response.close()                # the file send_file opened
    response.direct_passthrough = False
    response.set_data(packed[1])
    response.headers["Content-Encoding"] = algorithm
    response.headers.pop("Accept-Ranges", None)
    response.vary.add("Accept-Encoding")
    etag, weak = response.get_etag()
    if etag and not weak:
        response.set_etag(f"{etag}:{algorithm}")
    return response.make_conditional(request)


# ---- the installable app ---------------------------------------------------------------

def _no_cache(resp: Response) -> Response:
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/manifest.webmanifest")
def manifest():
    icons = [{"src": asset("icons/icon-192.png"), "sizes": "192x192", "type": "image/png",
              "purpose": "any"},
             {"src": asset("icons/icon-512.png"), "sizes": "512x512", "type": "image/png",
              "purpose": "any"},
             {"src": asset("icons/icon-maskable-512.png"), "sizes": "512x512",
              "type": "image/png", "purpose": "maskable"},
             {"src": asset("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml",
              "purpose": "any"}]
    body = {
        "id": "/",
        "name": "Baraha",
        "short_name": "Baraha",
        "description": "Tong-its and Tonk at the kitchen table: phones on the home Wi-Fi, "
                       "one laptop as the server.",
        "lang": "en",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": THEME,
        "categories": ["games", "entertainment"],
        "icons": icons,
        "prefer_related_applications": False,
    }
    resp = current_app.response_class(current_app.json.dumps(body),
                                      mimetype="application/manifest+json")
    return _no_cache(resp)


def shell_urls() -> list[str]:
    return [url_for("pwa.offline")] + [asset(p) for p in SHELL_STATIC if static_hash(p)]


def shell_version() -> str:
    """A hash of every static file and the shell's templates: changes when any of them does."""
    h = hashlib.sha256()
    folder = Path(current_app.static_folder)
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        h.update(path.relative_to(folder).as_posix().encode())
        h.update((file_hash(str(path)) or "").encode())
    loader = current_app.jinja_loader
    for name in SHELL_TEMPLATES:
        source = loader.get_source(current_app.jinja_env, name)[0] if loader else ""
        h.update(name.encode())
        h.update(hashlib.sha256(source.encode()).digest())
    h.update(catalogs_digest(current_app.config["TRANSLATIONS_DIR"]))   # the offline page's words
    return h.hexdigest()[:16]


@bp.get("/sw.js")
def service_worker():
    js = render_template("pwa/sw.js", version=shell_version(), shell=shell_urls(),
                         offline=url_for("pwa.offline"))
    resp = make_response(js)
    resp.mimetype = "application/javascript"
    return _no_cache(resp)


@bp.get("/offline")
def offline():
    """In the phone's language, with the other languages beside it (the page picks)."""
    from flask_babel import force_locale, gettext

    from .i18n import LOCALES, page_lang

    mine = page_lang()
    others = []
    for lang in LOCALES:
        if lang != mine:
            with force_locale(lang):
                others.append((lang, {"title": gettext("Reconnecting… · Baraha"),
                                      "main": Markup(render_template("pwa/_offline_main.html"))}))
    return _no_cache(make_response(render_template(
        "pwa/offline.html", shown=Markup(render_template("pwa/_offline_main.html")), others=others)))


@bp.get("/ping")
def ping():
    """What the offline page polls to learn that the server is back."""
    resp = make_response("", 204)
    resp.headers["Cache-Control"] = "no-store"
    return resp


# ---- HTTPS: the help page and the local authority's certificate ---------------------------

def _ca_path() -> str | None:
    path = current_app.config.get("TLS_CA")
    return path if path and os.path.isfile(path) else None


@bp.get("/ca.crt")
def ca_certificate():
    """The local authority's public certificate (DER), only when `serve --https` made it."""
    from ..server.tls import ca_der

    path = _ca_path()
    if not path:
        abort(404, "this server does not use a certificate of its own making "
                   "(start it with `baraha serve --https`)")
    resp = make_response(ca_der(path))
    resp.mimetype = "application/x-x509-ca-cert"
    resp.headers["Content-Disposition"] = 'attachment; filename="baraha-ca.crt"'
    return _no_cache(resp)


@bp.get("/help/https")
def help_https():
    from ..server.tls import fingerprint

    path = _ca_path()
    return render_template("help/https.html", secure=request.is_secure, has_ca=bool(path),
                           fingerprint=fingerprint(path) if path else None,
                           own_cert=bool(current_app.config.get("TLS_OWN_CERT")))
