"""A table page's first load stays within 100 KB as sent: the page and every file it links or
its modules import, each compressed as a browser that accepts gzip is sent it (bytes, not
time: the same on every machine). The page does not fetch its view again as its socket
connects: the server tells it only if it is behind (tests/e2e/test_live_path.py)."""
from __future__ import annotations

import gzip
import re
from urllib.parse import urljoin, urlsplit

BUDGET = 100_000            # bytes as sent, headers included
HEADERS = 400               # a response's status line and headers: about 300 bytes here
LINKED = re.compile(r'<(?:script[^>]*\ssrc|link[^>]*\srel="(?:stylesheet|modulepreload|icon)"[^>]*\shref)="([^"]+)"')
IMPORTED = re.compile(r'^import\s+(?:[^"\']*from\s+)?["\'](\.[^"\']+)["\']', re.M)


def test_a_table_pages_first_load_is_at_most_100_kb(app):
    c = app.test_client()
    code = c.post("/api/tables", json={"game": "tonk", "players": 2}).get_json()["code"]
    token = c.post(f"/api/tables/{code}/seats", json={"name": "Ana"}).get_json()["token"]
    c.post(f"/api/tables/{code}/seats", json={"name": "Ben"})
    c.set_cookie(f"baraha_{code}", token)
    gz = {"Accept-Encoding": "gzip, deflate"}
    page = c.get(f"/t/{code}", headers=gz)
    assert page.status_code == 200 and page.headers["Content-Encoding"] == "gzip"
    html = gzip.decompress(page.data).decode()
    assert 'id="hand"' in html                      # the seated page, with its hand
    sizes = {f"/t/{code}": len(page.data)}
    # The page's <noscript> stylesheet is not fetched by a browser that runs scripts.
    todo = [u for u in LINKED.findall(re.sub(r"<noscript>.*?</noscript>", "", html, flags=re.S))]
    while todo:
        url = todo.pop()
        path = urlsplit(url).path
        if any(urlsplit(u).path == path for u in sizes):
            continue                                # a module preloaded and imported: once
        r = c.get(url, headers=gz)
        assert r.status_code == 200, url
        sizes[url] = len(r.data)
        if path.endswith(".js"):
            body = gzip.decompress(r.data) if r.headers.get("Content-Encoding") == "gzip" else r.data
            todo += [urljoin(path, m) for m in IMPORTED.findall(body.decode())]
    assert any(u.startswith("/static/js/vendor/htmx") for u in sizes)
    assert any(u.startswith("/static/js/ui/bridge.js") for u in sizes)
    total = sum(sizes.values()) + HEADERS * len(sizes)
    assert total <= BUDGET, sorted(sizes.items(), key=lambda kv: -kv[1])
