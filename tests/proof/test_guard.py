"""The other attacks, each reproduced and shown to fail: huge numbers, foreign Host names,
crafted names, and what browsers are told to run, cache and keep, and who may read the
database."""
from __future__ import annotations

import os
import re
import stat
import time
from pathlib import Path

import pytest

from webapp import create_app
from webapp.realtime import socketio_of
from webapp.tables import names
from webapp.tables import tables_of
from webapp.web.headers import MAX_SEAT_COOKIES

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def app(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "g.sqlite3"), "TESTING": True, "BOT_DELAY": 0,
                      "RATE_LIMIT": None, "TABLES_PER_CLIENT": None, "SWEEP_SECONDS": 0,
                      "HOST_NAMES": ["games.lan"]})
    yield app
    tables_of(app).shutdown()


def csrf_of(client, path="/"):
    page = client.get(path).get_data(as_text=True)
    return re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)


# ---- 3. numbers bounded before any work ---------------------------------------------------

@pytest.mark.parametrize("players", [5_000_000, -5_000_000, 10**300, 0])
def test_huge_player_counts_are_refused_at_once(app, players):
    client = app.test_client()
    token = csrf_of(client)         # the page once, before the clock (templates compile)
    start = time.monotonic()
    r = client.post("/api/tables", json={"game": "tonk", "players": players})
    assert r.status_code == 400 and r.json["error"].startswith("players:")
    assert time.monotonic() - start < 0.5
    start = time.monotonic()
    r = client.post("/create", data={"game": "tonk", "players": str(players), "name": "Ana",
                                     "csrf_token": token})
    assert r.status_code == 400 and b"Choose how many play" in r.data
    assert time.monotonic() - start < 0.5       # it took 7 s: a loop ran before the check
    r = client.post("/create", data={"game": "tongits", "players": str(players), "name": "Ana",
                                     "csrf_token": token})
    assert r.status_code == 400                 # not a count of any game: refused too
    assert tables_of(app).all() == []


@pytest.mark.parametrize("body", [
    {"game": "tonk", "players": 2, "bots": {"9" * 5000: "easy"}},
    {"game": "tonk", "players": 2, "bots": {str(i): "easy" for i in range(800)}},
    {"game": "tonk", "players": 2, "options": {f"o{i}": 1 for i in range(800)}},
    {"game": "tonk", "players": 2, "options": {"stake": 10**4000}},
    {"game": "tonk", "players": 2, "options": {"stake": 10**18}},
])
def test_huge_seats_and_options_are_refused(app, body):
    r = app.test_client().post("/api/tables", json=body)
    assert r.status_code == 400 and r.json["error"]
    assert tables_of(app).all() == []


def test_huge_versions_and_seats_are_refused(app):
    client = app.test_client()
    code = client.post("/api/tables", json={"game": "tonk", "players": 2}).json["code"]
    token = client.post(f"/api/tables/{code}/seats", json={"name": "Ana"}).json["token"]
    auth = {"Authorization": f"Bearer {token}"}
    for version in (10**18, -10**18, 2**63):
        r = client.post(f"/api/tables/{code}/actions", headers=auth,
                        json={"version": version, "action": {"do": "draw"}})
        assert r.status_code in (409, 422)
    for seat in (10**18, -1, 2**63):
        r = client.post(f"/api/tables/{code}/seats", json={"name": "Ben", "seat": seat})
        assert r.status_code == 400
        if seat > 0:
            r = client.post(f"/api/tables/{code}/seats/{seat}/bot", headers=auth,
                            json={"level": "easy"})
            assert r.status_code in (400, 404)


# ---- 4. only our own Host names ------------------------------------------------------------

@pytest.mark.parametrize("host", ["rebind.attacker.example", "attacker.example:8000",
                                  "8.8.8.8", "203.0.113.9:8000", "localhost.attacker.example",
                                  "", "[2001:db8::1]:8000"])
def test_a_foreign_host_is_refused_everywhere(app, host):
    client = app.test_client()
    for method, path in (("GET", "/"), ("POST", "/api/tables"), ("GET", "/t/ABCD"),
                         ("GET", "/socket.io/?EIO=4&transport=polling"), ("GET", "/sw.js")):
        r = client.open(path, method=method, json={"game": "tonk", "players": 2},
                        headers={"Host": host})
        assert r.status_code == 421, (method, path)
        assert b"only to its own names" in r.data
    assert tables_of(app).all() == []


@pytest.mark.parametrize("host", ["localhost", "localhost:8000", "127.0.0.1:8000",
                                  "127.5.6.7", "[::1]:8000", "games.lan", "GAMES.LAN:80"])
def test_our_own_names_are_served(app, host):
    r = app.test_client().post("/api/tables", json={"game": "tonk", "players": 2},
                               headers={"Host": host})
    assert r.status_code == 201
    assert r.json["url"].split("/")[2].lower() in (host.lower(), host.lower().removesuffix(":80"))


def test_this_computers_local_name_is_served(app):
    import socket
    local = socket.gethostname().split(".")[0] + ".local"
    assert app.test_client().get("/", headers={"Host": local}).status_code == 200


# ---- 5. names people can trust ----------------------------------------------------------------

PRIVATE = "\ue000\ue001\ue002"


def test_a_private_use_name_cannot_break_anyones_answers(app):
    """It once made another player's refused move a 500 (present._engine_words)."""
    client = app.test_client()
    code = client.post("/api/tables", json={"game": "tonk", "players": 2}).json["code"]
    r = client.post(f"/api/tables/{code}/seats", json={"name": PRIVATE})
    assert r.status_code == 400                     # nothing visible is left of it
    tokens = []
    for crafted in (PRIVATE + "Ana", "Ben\U000f0001\U0010fffd"):
        r = client.post(f"/api/tables/{code}/seats", json={"name": crafted})
        assert r.status_code == 201
        tokens.append(r.json["token"])
    table = tables_of(app).get(code)
    assert [p["name"] for p in table.view(0)["players"]] == ["Ana", "Ben"]
    # Whoever is not to play tries to draw: a 422 with words, never a 500, on every path.
    turn = table.view(0)["turn"]
    idle = 0 if turn is None else 1 - turn     # None: a tonk on the deal ended the hand
    auth = {"Authorization": f"Bearer {tokens[idle]}"}
    version = table.view(idle)["version"]
    r = client.post(f"/api/tables/{code}/actions", headers=auth,
                    json={"version": version, "action": {"do": "draw"}})
    assert r.status_code == 422 and r.json["error"]
    browser = app.test_client()
    browser.set_cookie(f"baraha_{code}", tokens[idle])
    token = csrf_of(browser, f"/t/{code}")
    for htmx in ({"HX-Request": "true"}, {}):
        r = browser.post(f"/t/{code}/act", headers=htmx,
                         data={"csrf_token": token, "version": str(version),
                               "action": '{"do": "draw"}'})
        assert r.status_code == 422 and r.data.strip()


@pytest.mark.parametrize("first, second", [
    ("Ana", "ana"), ("Ana", "\u0410na"), ("Ana", "An\u0430"), ("Ana", "A\u200bna"),
    ("Ana", "\uff21na"), ("Paolo", "Pa0lo"), ("Ian", "lan"), ("José", "Jose"),
    ("Ana Lopez", "Ana  Lopez"),
    # Unicode's confusable skeletons (UTS #39): other scripts' letters, small capitals,
    # marks that draw nothing.
    ("Ana", "\u0251na"), ("Ana", "\ua4eena"), ("Ana", "\u13aana"), ("Ana", "\u1d00na"),
    ("Ben", "\u0299\u1d07\u0274"), ("Ben", "\u0412en"), ("Ana", "A\u034fna"),
    ("Ana", "An\ufe00a"), ("Ana", "A\U000e0100na"), ("Ben", "\ua4d0en"),
    # Letter pairs read as one letter: UTS #39's m -> rn, and vv, cl added to it.
    ("Mario", "Rnario"), ("Rnario", "Mario"), ("Wowie", "VVowie"), ("Wowie", "vvowie"),
    ("Dad", "Dacl"), ("Dad", "DacI"), ("Mama", "rnarna"),
])
def test_look_alike_names_at_one_table_are_refused(app, first, second):
    client = app.test_client()
    code = client.post("/api/tables", json={"game": "tonk", "players": 3}).json["code"]
    assert client.post(f"/api/tables/{code}/seats", json={"name": first}).status_code == 201
    r = client.post(f"/api/tables/{code}/seats", json={"name": second})
    assert r.status_code == 400 and "looks the same as" in r.json["error"]


def test_names_are_counted_as_people_see_them_and_a_pile_of_marks_is_refused(app):
    client = app.test_client()
    code = client.post("/api/tables", json={"game": "tonk", "players": 3}).json["code"]
    join = lambda name: client.post(f"/api/tables/{code}/seats", json={"name": name})
    buried = join("A" + "\u0301\u0300\u0302\u0303\u0304\u0306" * 3 + "na")
    assert buried.status_code == 400 and "marks on one letter" in buried.json["error"]
    # 24 letters, each with two accents (typed decomposed), is 24 characters long.
    assert join("e\u0301\u0323" * 24).status_code == 201
    r = join("o\u0301\u0323" * 25)
    assert r.status_code == 400 and "1 to 24 characters" in r.json["error"]
    assert join("Lola \U0001f475\U0001f3fd\u2764\ufe0f").status_code == 201
    # One cluster of 121 code points (conjoining jamo chain without end) is one character
    # as people count, and far too long as the server does.
    r = join("\u1100" * 60 + "\u1161" * 61)
    assert r.status_code == 400 and "1 to 24 characters" in r.json["error"]


@pytest.mark.parametrize("label", ["You", "you", "Y\u043eu", "Seat 2", "\u0405eat 2", "seat10",
                                   "Host", "Bot", "Ana (bot)", "free", "Y0u", "Y0U",
                                   "Seat l", "Player O", "nobocly", "rne"])
def test_names_that_read_like_the_screens_labels_are_refused(label):
    with pytest.raises(Exception, match="label"):
        names.clean(label)


def test_every_name_clean_keeps_is_safe_for_any_formatting():
    """What clean() returns never holds a control, format, private-use or unassigned
    character: fuzz every plane's first thousand code points around names."""
    import unicodedata
    for base in range(0, 0x110000, 0x1000):
        text = "".join(chr(c) for c in range(base, base + 24) if not 0xD800 <= c < 0xE000)
        try:
            out = names.clean("A" + text[:20])
        except Exception:
            continue
        assert all(unicodedata.category(ch) not in names.DROP_CATEGORIES for ch in out), hex(base)


# ---- 6. headers, cookies, files ----------------------------------------------------------------

def _seated(app, client, n=1):
    codes = []
    for _ in range(n):
        code = client.post("/api/tables", json={"game": "tonk", "players": 2}).json["code"]
        token = csrf_of(client, f"/t/{code}")
        r = client.post(f"/t/{code}/join", data={"csrf_token": token, "name": "Ana"})
        assert r.status_code == 302
        codes.append(code)
    return codes


def test_pages_and_hands_are_never_cached_nor_framed_and_run_only_our_scripts(app):
    client = app.test_client()
    code = _seated(app, client)[0]
    for path in ("/", f"/t/{code}", f"/t/{code}/view", f"/api/tables/{code}", "/help/https"):
        r = client.get(path)
        assert r.status_code == 200, path
        csp = r.headers["Content-Security-Policy"]
        script = re.search(r"script-src ([^;]+)", csp).group(1)
        assert script.strip() == "'self'" and "frame-ancestors 'none'" in csp
        assert r.headers["X-Content-Type-Options"] == "nosniff"
        assert r.headers["Referrer-Policy"] == "same-origin"
        assert r.headers["Cache-Control"] == "no-store", path
        for name in ("Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options",
                     "Referrer-Policy", "Cache-Control"):
            assert len(r.headers.getlist(name)) == 1, (path, name)     # set once, never twice


def test_no_template_has_an_inline_script_or_handler():
    for path in (ROOT / "templates").rglob("*.html"):
        text = path.read_text()
        for tag in re.findall(r"<script\b[^>]*>", text):
            assert "src=" in tag, f"{path}: inline script {tag}"
        handler = re.search(r"<[a-z][^>]*\son(?:abort|blur|change|click|dblclick|error|focus|"
                            r"input|key\w*|load|mouse\w*|pointer\w*|reset|resize|scroll|"
                            r"select|submit|touch\w*|unload|beforeunload|toggle)\s*=", text)
        assert not handler, f"{path}: an inline event handler"
        assert "javascript:" not in text, path


def test_every_cookie_is_secure_under_https(app):
    client = app.test_client()
    base = "https://localhost"
    page = client.get("/", base_url=base).get_data(as_text=True)
    token = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)
    r = client.post("/create", data={"game": "tonk", "players": "2", "name": "Ana",
                                     "csrf_token": token}, base_url=base,
                    headers={"Origin": base})
    assert r.status_code == 302
    cookies = r.headers.getlist("Set-Cookie") + client.get("/", base_url=base).headers.getlist("Set-Cookie")
    names_set = {c.split("=", 1)[0] for c in r.headers.getlist("Set-Cookie")}
    assert {"baraha-name"} <= names_set and any(n.startswith("baraha_") for n in names_set)
    for c in cookies:
        assert "; secure" in c.lower(), c


def test_many_joins_never_pile_up_seat_cookies(app):
    """Every join once added a 30-day cookie: after about 180 a browser got 431 for good."""
    client = app.test_client()
    codes = _seated(app, client, MAX_SEAT_COOKIES + 8)
    client.get("/")
    kept = [c for c in codes if client.get_cookie(f"baraha_{c}") is not None]
    assert len(kept) <= MAX_SEAT_COOKIES
    assert codes[-1] in kept                                            # the newest stays


def test_the_table_a_phone_opens_keeps_its_seat_among_too_many(app):
    """A phone seated at more tables than it keeps cookies for opens one of them (one it
    did not play at lately, its code last in the alphabet): that seat is the one kept."""
    client = app.test_client()
    codes = _seated(app, client, MAX_SEAT_COOKIES)
    tokens = {c: client.get_cookie(f"baraha_{c}").value for c in codes}
    codes += _seated(app, client, 2)
    oldest = sorted(codes[:-2])[-1]
    client.set_cookie(f"baraha_{oldest}", tokens[oldest])
    page = client.get(f"/t/{oldest}")
    assert page.status_code == 200 and 'data-seat="0"' in page.get_data(as_text=True)
    assert client.get_cookie(f"baraha_{oldest}") is not None
    socket = socketio_of(app).test_client(app, flask_test_client=client, auth={"code": oldest})
    assert socket.is_connected()
    socket.disconnect()


def test_a_closed_tables_cookie_is_dropped(app):
    client = app.test_client()
    code = _seated(app, client)[0]
    token = client.get_cookie(f"baraha_{code}").value
    client.post(f"/api/tables/{code}/close", headers={"Authorization": f"Bearer {token}"})
    client.get("/")
    assert client.get_cookie(f"baraha_{code}") is None


@pytest.mark.skipif(os.name != "posix", reason="POSIX modes")
def test_the_database_and_its_folder_are_private(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(os, "umask", os.umask)      # the umask as it is (usually 022)
    from webapp import data_dir
    app = create_app({"TESTING": True, "SWEEP_SECONDS": 0})
    try:
        db = Path(app.config["DATABASE"])
        assert db.parent == data_dir()
        assert stat.S_IMODE(db.parent.stat().st_mode) == 0o700
        for f in db.parent.iterdir():
            assert stat.S_IMODE(f.stat().st_mode) & 0o077 == 0, f
    finally:
        tables_of(app).shutdown()
