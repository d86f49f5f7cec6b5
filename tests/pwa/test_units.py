"""The PWA and HTTPS pieces without a browser: certificates, manifest and icons, the service
worker's script, compression and the cache headers of fingerprinted files."""
from __future__ import annotations

import gzip
import ipaddress
import json
import os
import re
import shutil
import stat
import struct
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.x509.verification import PolicyBuilder, Store

from webapp import create_app
from webapp.server import tls
from webapp.tables import tables_of

ROOT = Path(__file__).resolve().parents[2]
ICONS = ROOT / "static" / "icons"


@pytest.fixture
def app(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "baraha.sqlite3"), "TESTING": True,
                      "BOT_DELAY": 0, "RATE_LIMIT": None, "TABLES_PER_CLIENT": None})
    yield app
    tables_of(app).shutdown()


@pytest.fixture
def client(app):
    return app.test_client()


# ---- certificates -------------------------------------------------------------------------

def load(path: Path) -> x509.Certificate:
    return x509.load_pem_x509_certificate(path.read_bytes())


def verifies(files: tls.Files, name: str) -> bool:
    """Chain check as a client does it, name constraints included."""
    try:
        general = x509.IPAddress(ipaddress.ip_address(name))
    except ValueError:
        general = x509.DNSName(name)
    verifier = PolicyBuilder().store(Store([load(files.ca)])).build_server_verifier(general)
    try:
        verifier.verify(load(files.cert), [])
        return True
    except Exception:
        return False


def test_the_authority_is_made_once_and_reused(tmp_path):
    folder = tmp_path / "tls"
    first = tls.ensure(folder, ["box.home.arpa"], lan=["192.168.1.20"])
    ca_bytes, key_bytes = first.ca.read_bytes(), (folder / "ca-key.pem").read_bytes()
    server_bytes = first.cert.read_bytes()
    again = tls.ensure(folder, ["box.home.arpa"], lan=["192.168.1.20"])
    assert again == first
    assert first.ca.read_bytes() == ca_bytes and (folder / "ca-key.pem").read_bytes() == key_bytes
    assert again.cert.read_bytes() == server_bytes          # nothing changed: nothing remade

    moved = tls.ensure(folder, ["box.home.arpa"], lan=["10.0.0.7"])   # another LAN address
    assert moved.cert.read_bytes() != server_bytes
    assert moved.ca.read_bytes() == ca_bytes                # the phones keep trusting it
    names = tls.names_of(load(moved.cert))
    assert "10.0.0.7" in names and "192.168.1.20" not in names


def test_the_server_certificate_names_the_addresses_and_verifies(tmp_path):
    files = tls.ensure(tmp_path / "tls", ["box.home.arpa", "laptop.lan"], lan=["192.168.1.20"])
    names = tls.names_of(load(files.cert))
    assert {"localhost", "127.0.0.1", "192.168.1.20", "box.home.arpa", "laptop.lan"} <= names
    for name in ("192.168.1.20", "127.0.0.1", "localhost", "box.home.arpa"):
        assert verifies(files, name), name
    assert not verifies(files, "192.168.1.99")
    ca = load(files.ca)
    assert ca.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    assert ca.extensions.get_extension_for_class(x509.NameConstraints).critical


def test_the_authority_may_sign_only_home_network_names(tmp_path, monkeypatch):
    """Never a bare hostname: with the hostname "dev" it could have signed for *.dev."""
    monkeypatch.setattr(tls.socket, "gethostname", lambda: "dev")
    files = tls.ensure(tmp_path / "tls", lan=["192.168.1.20"])
    nc = load(files.ca).extensions.get_extension_for_class(x509.NameConstraints).value
    dns = {g.value for g in nc.permitted_subtrees if isinstance(g, x509.DNSName)}
    nets = {str(g.value) for g in nc.permitted_subtrees if isinstance(g, x509.IPAddress)}
    assert dns == {"localhost", "local", "home.arpa", "lan"}
    assert nets == {"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "127.0.0.0/8",
                    "::1/128", "fc00::/7"}
    assert "dev" not in tls.names_of(load(files.cert))
    assert "dev.local" in tls.names_of(load(files.cert))
    with pytest.raises(tls.TLSError, match="not a local name"):
        tls.ensure(tmp_path / "tls", ["dev"])


def test_keys_are_private_and_public_names_are_refused(tmp_path):
    folder = tmp_path / "tls"
    files = tls.ensure(folder, lan=["192.168.1.20"])
    if os.name == "posix":
        for key in (files.key, folder / "ca-key.pem"):
            assert stat.S_IMODE(key.stat().st_mode) == 0o600, key
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    with pytest.raises(tls.TLSError, match="not a local name"):
        tls.ensure(folder, ["example.com"])
    with pytest.raises(tls.TLSError, match="not a local name"):
        tls.ensure(folder, ["8.8.8.8"])


def test_the_authority_certificate_is_served_alone(app, client, tmp_path):
    assert client.get("/ca.crt").status_code == 404          # no --https: nothing to give
    files = tls.ensure(tmp_path / "tls", lan=[])
    app.config["TLS_CA"] = str(files.ca)
    r = client.get("/ca.crt")
    assert r.status_code == 200
    assert r.headers["Content-Type"] == "application/x-x509-ca-cert"
    assert x509.load_der_x509_certificate(r.data) == load(files.ca)
    assert b"PRIVATE" not in r.data
    page = client.get("/help/https").get_data(as_text=True)
    assert "Certificate Trust Settings" in page and tls.fingerprint(files.ca) in page
    assert 'href="/ca.crt"' in page


# ---- manifest and icons --------------------------------------------------------------------

def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", path
    return struct.unpack(">II", head[16:24])


def test_manifest(client):
    r = client.get("/manifest.webmanifest")
    assert r.status_code == 200 and r.mimetype == "application/manifest+json"
    m = json.loads(r.data)
    assert m["name"] == "Baraha" and m["short_name"]
    assert m["start_url"] == "/" and m["scope"] == "/" and m["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", m["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", m["background_color"])
    assert "games" in m["categories"] and m["description"]
    pngs = {(i["sizes"], i["purpose"]): i["src"] for i in m["icons"] if i["type"] == "image/png"}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= set(pngs)
    for (sizes, _), src in pngs.items():
        assert client.get(src).status_code == 200
        path = ROOT / src.split("?")[0].lstrip("/")
        assert png_size(path) == tuple(int(n) for n in sizes.split("x")), src


def test_icon_files():
    assert png_size(ICONS / "apple-touch-icon.png") == (180, 180)
    assert png_size(ICONS / "icon-192.png") == (192, 192)
    assert png_size(ICONS / "icon-maskable-512.png") == (512, 512)


def test_the_pages_link_the_manifest_and_the_worker(client):
    html = client.get("/").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert re.search(r'<script src="/static/js/pwa\.js\?v=[0-9a-f]{12}" defer>', html)
    assert re.search(r'rel="apple-touch-icon" href="/static/icons/apple-touch-icon\.png\?v=', html)
    pwa_js = (ROOT / "static" / "js" / "pwa.js").read_text()
    assert "window.isSecureContext" in pwa_js and '"serviceWorker" in navigator' in pwa_js


# ---- the service worker ----------------------------------------------------------------------

def shell_of(js: str) -> list[str]:
    return json.loads(re.search(r"var SHELL = (\[.*?\]);", js).group(1))


def test_service_worker_script(client):
    r = client.get("/sw.js")
    assert r.status_code == 200
    assert r.mimetype == "application/javascript"
    assert r.headers["Cache-Control"] == "no-cache"
    js = r.get_data(as_text=True)
    shell = shell_of(js)
    assert "/offline" in shell
    for name in ("css/app.css", "js/app.js", "js/vendor/htmx.min.js",
                 "js/vendor/socket.io.min.js", "icons/icon-192.png"):
        assert any(u.startswith(f"/static/{name}?v=") for u in shell), name
    for url in shell:           # game state is never cached
        assert not url.startswith(("/api/", "/socket.io/", "/t/")), url
        assert client.get(url).status_code == 200, url
    code = re.sub(r"//[^\n]*", "", re.sub(r"/\*.*?\*/", "", js, flags=re.S))
    assert "/api/" not in code and "/socket.io/" not in code and "/t/" not in code
    # Only fingerprinted static files are ever put in the cache at run time.
    puts = [m.start() for m in re.finditer(r"cache\.put\(", js)]
    assert len(puts) == 1 and 'searchParams.has("v")' in js[puts[0] - 300:puts[0]]
    assert client.get("/offline").status_code == 200
    assert client.get("/ping").status_code == 204


def test_the_worker_version_follows_the_files(app, client, tmp_path):
    static = tmp_path / "static"
    shutil.copytree(ROOT / "static", static)
    app.static_folder = str(static)
    version = re.search(r'var VERSION = "(\w+)"', client.get("/sw.js").get_data(as_text=True))[1]
    assert version in client.get("/sw.js").get_data(as_text=True)       # stable
    (static / "js" / "app.js").write_text("/* changed */")
    js = client.get("/sw.js").get_data(as_text=True)
    assert version not in js
    assert shell_of(js) != []


# ---- compression and caching -------------------------------------------------------------------

@pytest.mark.parametrize("url", ["/", "/static/css/app.css", "/static/js/ui/bridge.js",
                                 "/static/js/vendor/htmx.min.js", "/help/https"])
def test_text_is_gzipped(client, url):
    r = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200
    assert r.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in r.headers["Vary"]
    body = gzip.decompress(r.data)
    assert len(r.data) < len(body)
    plain = client.get(url, headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers


@pytest.mark.parametrize("encoding", ["gzip", "br"])
def test_static_files_are_compressed_at_a_high_level_and_revalidate(client, encoding):
    import brotli
    data = (ROOT / "static" / "js" / "vendor" / "htmx.min.js").read_bytes()
    r = client.get("/static/js/vendor/htmx.min.js", headers={"Accept-Encoding": f"{encoding}, deflate"})
    assert r.status_code == 200 and r.headers["Content-Encoding"] == encoding
    assert "Accept-Encoding" in r.headers["Vary"]
    unpack, best = ((gzip.decompress, len(gzip.compress(data, 9))) if encoding == "gzip" else
                    (brotli.decompress, len(brotli.compress(data, quality=7))))
    assert unpack(r.data) == data
    assert len(r.data) <= best
    assert int(r.headers["Content-Length"]) == len(r.data)
    again = client.get("/static/js/vendor/htmx.min.js",
                       headers={"Accept-Encoding": encoding, "If-None-Match": r.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


def test_fingerprinted_files_are_cached_for_a_year(client):
    html = client.get("/").get_data(as_text=True)
    url = re.search(r'href="(/static/css/app\.css\?v=[0-9a-f]{12})"', html).group(1)
    r = client.get(url)
    assert r.status_code == 200
    cc = r.headers["Cache-Control"]
    assert "max-age=31536000" in cc and "immutable" in cc and "public" in cc
    for other in ("/static/css/app.css", "/static/css/app.css?v=000000000000"):
        cc = client.get(other).headers.get("Cache-Control", "")
        assert "immutable" not in cc, other         # unversioned or stale: revalidated
    with client.application.test_request_context():
        asset = client.application.jinja_env.globals["asset"]
        assert asset("css/app.css") == url
