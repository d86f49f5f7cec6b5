"""Hostile input: whatever a client sends, the answer is a clear 4xx with plain words (never a
500), and a refused request changes nothing.

docs/openapi.yaml describes the JSON API (docs/API.md and the host's additions); it is
checked against the app's routes and against real answers, and it drives the fuzzing:
every documented endpoint and method (and some that are not) gets malformed, oversized,
wrong-typed and out-of-turn bodies, odd headers and odd paths (hypothesis). Every refusal
must leave every seat's view and the number of tables exactly as they were. The pages'
form posts and the Socket.IO events are fuzzed too. Then the named defences, each one:
a foreign Origin (Socket.IO over polling and websocket, every form post, every API post),
429 for a client that floods (pages and API), 413 over 16 KB (API, forms, Socket.IO), and
names with HTML or control characters (escaped on every page, or refused).
"""
from __future__ import annotations

import html
import json
import re
import socket
import threading
import time
from pathlib import Path

import pytest
import requests
import socketio as socketio_client
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from markupsafe import escape

from webapp import create_app
from webapp.engine.actions import Action
from webapp.engine.errors import BadAction
from webapp.realtime import sockguard, socketio_of
from webapp.tables import tables_of

# Python websocket clients close their sockets on werkzeug here (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("websocket_close_read_as_http")

SPEC_PATH = Path(__file__).resolve().parents[2] / "docs" / "openapi.yaml"
SPEC = yaml.safe_load(SPEC_PATH.read_text())
FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


# ---- a small world: two dealt tables, every seat a client ------------------------------

class World:
    def __init__(self, app):
        self.app = app
        self.client = app.test_client()
        self.tables = tables_of(app)
        self.codes, self.tokens = [], {}         # code -> [token per seat]
        self.browsers = {}
        for game, players in (("tongits", 3), ("tonk", 2)):
            code = self.client.post("/api/tables", json={"game": game, "players": players}).json["code"]
            self.codes.append(code)
            self.tokens[code] = [self.client.post(f"/api/tables/{code}/seats",
                                                  json={"name": f"P{s}"}).json["token"]
                                 for s in range(players)]

    def browser(self, code, seat):
        """A browser seated at `seat` (its cookie), and its page's CSRF token."""
        key = (code, seat)
        if key not in self.browsers:
            b = self.app.test_client()
            b.set_cookie(f"baraha_{code}", self.tokens[code][seat])
            page = b.get(f"/t/{code}").get_data(as_text=True)
            self.browsers[key] = b, re.search(r'name="csrf[_-]token" (?:value|content)="([^"]+)"', page).group(1)
        return self.browsers[key]

    def snapshot(self):
        """Everything a refused request must leave alone."""
        views = {code: [self.tables.get(code).view(s) for s in range(len(toks))]
                 for code, toks in self.tokens.items()}
        return len(self.tables.all()), views

    def turn(self, code):
        """(token of the seat to move, its view), or of any seat if nobody may move."""
        table = self.tables.get(code)
        for s, tok in enumerate(self.tokens[code]):
            v = table.view(s)
            if v["legal"]:
                return s, tok, v
        return 0, self.tokens[code][0], table.view(0)


@pytest.fixture
def world(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "hostile.sqlite3"), "TESTING": True,
                      "BOT_DELAY": 0, "RATE_LIMIT": None})
    yield World(app)
    tables_of(app).shutdown()


def plain_error(r) -> str:
    """A refusal's words, checked: JSON {"error": "..."} under /api/, plain text or HTML else."""
    assert 400 <= r.status_code < 500, (r.status_code, r.get_data(as_text=True)[:300])
    if r.request.path.startswith("/api/"):
        assert r.is_json and isinstance(r.json, dict), r.get_data(as_text=True)[:200]
        words = r.json.get("error")
        assert isinstance(words, str) and len(words) > 3 and "Traceback" not in words
        return words
    text = r.get_data(as_text=True)
    assert text.strip() and "Traceback" not in text
    return text


def answered(r, before, world) -> None:
    """Any answer: a success, or a plain refusal that changed nothing."""
    assert r.status_code < 500, (r.request.method, r.request.path, r.get_data(as_text=True)[:300])
    if r.status_code >= 400:
        plain_error(r)
        assert world.snapshot() == before, f"a refused {r.request.method} {r.request.path} " \
                                           f"({r.status_code}) changed the table"


# ---- the OpenAPI document ------------------------------------------------------------------

def test_the_openapi_document_is_valid_and_names_every_api_route(world):
    from openapi_spec_validator import validate
    validate(SPEC)
    documented = {(m.upper(), p) for p, item in SPEC["paths"].items() for m in item
                  if m in ("get", "post", "put", "patch", "delete")}
    routes = set()
    for rule in world.app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
            routes |= {(m, path) for m in rule.methods - {"HEAD", "OPTIONS"}}
    assert routes == documented


def schema(name: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": f"#/components/schemas/{name}",
                                 "components": SPEC["components"]})


def test_real_answers_follow_the_document(world):
    c = world.client
    code = world.codes[0]
    seat, tok, view = world.turn(code)
    schema("View").validate(view)
    r = c.get(f"/api/tables/{code}", headers={"Authorization": f"Bearer {tok}"})
    schema("View").validate(r.json)
    r = c.post(f"/api/tables/{code}/actions", headers={"Authorization": f"Bearer {tok}"},
               json={"version": view["version"], "action": view["legal"][0]})
    assert r.status_code == 200
    schema("View").validate(r.json)
    for a in r.json["legal"]:
        schema("Action").validate(a)
    r = c.post(f"/api/tables/{code}/actions", headers={"Authorization": f"Bearer {tok}"},
               json={"version": 1, "action": {"do": "next"}})
    assert r.status_code == 409
    schema("View").validate(r.json["view"])
    r = c.post("/api/tables", json={"game": "tonk", "players": 9})
    assert r.status_code == 400
    schema("Error").validate(r.json)


# ---- fuzzing every endpoint ------------------------------------------------------------------

CARDS = ["AS", "10H", "7h", "TH", "7♥", "♥7", "1S", "11C", "KX", "", " 7H ", "7H\x00", "🂡"]
KEYS = ["game", "players", "options", "bots", "name", "seat", "version", "action", "do", "card",
        "cards", "with", "onto", "meld", "face_down", "level", "jackpot", "stake", "1", ""]
DOS = ["draw", "take", "meld", "layoff", "discard", "tongit", "call_draw", "fold", "challenge",
       "drop", "next", "close", "", "DRAW", None, 7]

scalars = (st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70)
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=20)
           | st.sampled_from(CARDS + DOS[:-2] + ["tongits", "tonk", "easy", "hard"]))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), inner,
                                             max_size=5), max_leaves=15)
actions = st.fixed_dictionaries({"do": st.sampled_from(DOS)}, optional={
    "card": st.sampled_from(CARDS) | scalars,
    "cards": st.lists(st.sampled_from(CARDS), max_size=5) | scalars,
    "with": st.lists(st.sampled_from(CARDS), max_size=3) | scalars,
    "onto": st.fixed_dictionaries({}, optional={"seat": st.integers(-3, 9) | scalars,
                                                "meld": st.integers(-3, 9) | scalars}) | scalars,
    "face_down": scalars, "seat": st.integers(-1, 6) | scalars})


def _nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


bodies = st.one_of(
    json_values.map(lambda v: json.dumps(v).encode()),
    st.fixed_dictionaries({"version": st.integers(-1, 60) | scalars, "action": actions | scalars}
                          ).map(lambda v: json.dumps(v).encode()),
    st.fixed_dictionaries({}, optional={"game": st.sampled_from(["tongits", "tonk"]) | scalars,
                                        "players": st.integers(-1, 8) | scalars,
                                        "options": st.dictionaries(st.sampled_from(KEYS), scalars,
                                                                   max_size=3) | scalars,
                                        "bots": st.dictionaries(st.text(max_size=3), scalars,
                                                                max_size=3) | scalars,
                                        "name": st.text(max_size=40) | scalars,
                                        "seat": st.integers(-2, 9) | scalars,
                                        "level": scalars}).map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=200),
    st.integers(1, 8000).map(_nested),
    st.sampled_from([b"", b"null", b"{", b'{"a": 1}{', "{\"name\": \"\ud800\"}".encode("utf-8", "surrogatepass"),
                     b'{"version": 1e999}', b"\xff\xfe{\x00}\x00", b"x" * 17000,
                     b'{"name": "' + b"a" * 16500 + b'"}']),
)


def codes(world):
    return st.sampled_from(world.codes) | st.sampled_from([c.lower() for c in world.codes]) \
        | st.sampled_from(["ZZZZ", "", "%00", "..", "K7QF/../..", "ÄÖÜ1", "x" * 300, "a b",
                           "%2F", "<b>"]) | st.text(min_size=1, max_size=12).filter(
                               lambda s: "/" not in s and "?" not in s and "#" not in s)


def auths(world):
    toks = [t for ts in world.tokens.values() for t in ts]
    return st.one_of(st.none(), st.sampled_from(toks).map(lambda t: f"Bearer {t}"),
                     st.sampled_from(["Bearer", "Bearer ", "Basic YTpi", "bearer x", "Bearer \t",
                                      "Bearer " + "A" * 5000, "Token abc", "Bearer ünï"]),
                     st.text(max_size=30).filter(lambda s: s.isprintable() and s.isascii()))


ENDPOINTS = [(m.upper(), p) for p, item in SPEC["paths"].items() for m in item
             if m in ("get", "post")] + [("PUT", "/api/tables"), ("DELETE", "/api/tables/{code}"),
                                         ("PATCH", "/api/tables/{code}/actions")]


@settings(FUZZ, max_examples=400)
@given(data=st.data())
def test_fuzz_every_api_endpoint(world, data):
    method, template = data.draw(st.sampled_from(ENDPOINTS), label="endpoint")
    path = template.replace("{code}", data.draw(codes(world), label="code")).replace(
        "{seat}", str(data.draw(st.integers(0, 10) | st.integers(10 ** 20, 10 ** 21), label="seat")))
    headers = {}
    auth = data.draw(auths(world), label="auth")
    if auth is not None:
        headers["Authorization"] = auth
    headers["Content-Type"] = data.draw(st.sampled_from(
        ["application/json", "text/plain", "application/x-www-form-urlencoded",
         "multipart/form-data; boundary=x", "application/json; charset=latin-1", ""]), label="type")
    if data.draw(st.booleans(), label="origin"):
        headers["Origin"] = data.draw(st.sampled_from(["http://localhost", "null", "http://evil.test",
                                                       "http://localhost:80", ""]), label="origin value")
    body = data.draw(bodies, label="body") if method != "GET" else b""
    before = world.snapshot()
    r = world.client.open(path, method=method, data=body, headers=headers)
    answered(r, before, world)
    if len(body) > 16 * 1024:
        # Too large; unless the path matches no route at all ("K7QF/../..", an empty
        # code), which is answered 404 before the body is read.
        assert r.status_code in (413, 405, 404), r.status_code


def canonical(action):
    """The action as the server reads it, to compare with a view's `legal`: fields that
    mean nothing for its `do` (an `onto` on a take) are ignored, as in the action language,
    and so is the seat (`legal` names none: the seat is the token's)."""
    if isinstance(action, dict) and action.get("do") == "next":
        return {"do": "next"}      # the table's own action, outside the engine's language
    try:
        canon = Action.from_json(action, seat_required=False).to_json()
    except (BadAction, TypeError):
        return action
    canon.pop("seat", None)
    return canon


@FUZZ
@given(data=st.data())
def test_fuzz_out_of_turn_and_wrong_actions(world, data):
    """Well-formed bodies from every seat: the seat to move gets its move or a reason; the
    others (out of turn) get 422, and nothing changes for them."""
    # Every draw is made whatever the table's state (hypothesis replays them), then mapped.
    code = data.draw(st.sampled_from(world.codes), label="table")
    seat_pick = data.draw(st.integers(0, 5), label="seat")
    use_legal = data.draw(st.booleans(), label="a legal action of the seat to move")
    pick = data.draw(st.integers(0, 500), label="which")
    other = data.draw(actions, label="action")
    shift = data.draw(st.sampled_from([0, 0, -1, 1, -100, 10 ** 9]), label="version shift")
    _, _, view = world.turn(code)
    seat = seat_pick % len(world.tokens[code])
    legal = view["legal"]
    action = legal[pick % len(legal)] if use_legal and legal else other
    version = view["version"] + shift
    own = world.tables.get(code).view(seat)
    before = world.snapshot()
    r = world.client.post(f"/api/tables/{code}/actions", json={"version": version, "action": action},
                          headers={"Authorization": f"Bearer {world.tokens[code][seat]}"})
    answered(r, before, world)
    if r.status_code == 200 and canonical(action) not in own["legal"]:
        assert r.json["version"] == view["version"] and world.snapshot() == before, \
            "only a repeat of the seat's own last request may be answered 200 when not legal"


@FUZZ
@given(data=st.data())
def test_fuzz_every_form_post(world, data):
    """The pages' forms (table and lobby blueprints), with and without the page's token."""
    code = data.draw(st.sampled_from(world.codes), label="table")
    seat = data.draw(st.integers(0, len(world.tokens[code]) - 1), label="seat")
    browser, token = world.browser(code, seat)
    path = data.draw(st.sampled_from([f"/t/{code}/act", f"/t/{code}/join", "/create",
                                      f"/t/{code}/seats/1/bot", f"/t/{code}/seats/7/bot",
                                      f"/t/{code.lower()}/act", "/t/ZZZZ/act"]), label="path")
    fields = data.draw(st.dictionaries(
        st.sampled_from(["version", "action", "name", "seat", "level", "game", "players",
                         "tongits.jackpot", "tonk.stake", "seat1", "csrf_token", "x"]),
        st.text(max_size=30) | st.sampled_from(['{"do":"draw"}', '{"do":"next"}', "[]", "1e9",
                                                 "-1", "99999999999999999999", '{"do":', "null"]),
        max_size=6), label="fields")
    if data.draw(st.booleans(), label="with token"):
        fields["csrf_token"] = token
    headers = {"HX-Request": "true"} if data.draw(st.booleans(), label="htmx") else {}
    before = world.snapshot()
    r = browser.post(path, data=fields, headers=headers)
    assert r.status_code < 500, (path, fields, r.get_data(as_text=True)[:300])
    if r.status_code >= 400:
        plain_error(r)
        assert world.snapshot() == before
    elif path == "/create":
        pass        # a new table: the others are untouched
    if fields.get("csrf_token") != token:
        assert r.status_code == 403 and world.snapshot() == before


def test_a_deeply_nested_form_action_is_400(world):
    code = world.codes[0]
    browser, token = world.browser(code, 0)
    before = world.snapshot()
    r = browser.post(f"/t/{code}/act", data={"csrf_token": token, "version": "1",
                                             "action": "[" * 1500 + "]" * 1500})
    assert r.status_code == 400 and world.snapshot() == before


socket_auths = st.none() | st.dictionaries(st.sampled_from(["token", "code", "seat", ""]), json_values,
                                           max_size=3)


@FUZZ
@given(auth=socket_auths, events=st.lists(st.tuples(
    st.sampled_from(["connect", "disconnect", "changed", "message", "join", "act", "leave"])
    | st.text(max_size=10), json_values), max_size=4))
def test_fuzz_socketio_connections_and_events(world, auth, events):
    """Any auth and any event: refused or ignored; nobody joins a room by an event. (Auth is
    an object in the Socket.IO protocol; other packets: test_garbage_on_a_websocket...)"""
    good = [t for ts in world.tokens.values() for t in ts]
    if isinstance(auth, dict) and auth.get("token") == "":
        auth["token"] = good[len(str(auth)) % len(good)]     # sometimes a real token
    before = world.snapshot()
    sc = socketio_of(world.app).test_client(world.app, auth=auth)
    if not (isinstance(auth, dict) and auth.get("token") in good):
        assert not sc.is_connected()
        return
    try:
        other = [c for c in world.codes if auth["token"] not in world.tokens[c]][0]
        for name, payload in events:
            if name in ("connect", "disconnect"):
                payload = {"token": world.tokens[other][0]}    # try to join another table
            sc.emit(name, payload)
            if name in sockguard.RESERVED:
                # A reserved event closes the connection (webapp/realtime/sockguard.py).
                assert not sc.is_connected()
                break
        received = sc.get_received() if sc.is_connected() else []
        assert all(m["name"] == "changed" and set(m["args"][0]) == {"version"} for m in received)
        # Nothing moved; an open socket only marks its own seat as connected (not versioned).
        count, views = world.snapshot()
        assert count == before[0]
        strip = lambda v: {**v, "players": [{**p, "connected": None} for p in v["players"]]}  # noqa: E731
        for code in views:
            for a, b in zip(views[code], before[1][code]):
                assert strip(a) == strip(b)
                for pa, pb in zip(a["players"], b["players"]):
                    if pa["connected"] != pb["connected"]:
                        assert world.tokens[code][pa["seat"]] == auth["token"]
        # An event named "connect" carrying another table's token joined nothing there.
        world.tables.get(other).notify(other, 999)
        if sc.is_connected():
            assert not [m for m in sc.get_received() if m["args"] == [{"version": 999}]]
    finally:
        if sc.is_connected():
            sc.disconnect()


# ---- the named defences ------------------------------------------------------------------------

def test_every_post_from_a_foreign_origin_is_refused(world):
    code = world.codes[0]
    seat, tok, view = world.turn(code)
    browser, csrf = world.browser(code, seat)
    action = json.dumps(view["legal"][0])
    forms = {f"/t/{code}/act": {"version": str(view["version"]), "action": action},
             f"/t/{code}/seats/1/bot": {"level": "easy"},
             f"/t/{code}/join": {"name": "Eve"},
             "/create": {"game": "tonk", "players": "2", "name": "Eve"}}
    for origin in ("http://evil.test", "null", "http://localhost.evil.test", "https://localhost"):
        for path, fields in forms.items():
            before = world.snapshot()
            r = browser.post(path, data={**fields, "csrf_token": csrf}, headers={"Origin": origin})
            assert r.status_code == 403 and "another site" in r.get_data(as_text=True), (path, origin)
            assert world.snapshot() == before
        r = browser.post(f"/t/{code}/act", data={**forms[f"/t/{code}/act"], "csrf_token": csrf},
                         headers={"Sec-Fetch-Site": "cross-site"})
        assert r.status_code == 403
        for path, body in ((f"/api/tables/{code}/actions", {"version": view["version"],
                                                            "action": view["legal"][0]}),
                           ("/api/tables", {"game": "tonk", "players": 2}),
                           (f"/api/tables/{code}/seats", {"name": "Eve"}),
                           (f"/api/tables/{code}/seats/1/bot", {"level": "easy"}),
                           (f"/api/tables/{code}/close", {})):
            before = world.snapshot()
            r = world.client.post(path, json=body, headers={"Origin": origin,
                                                             "Authorization": f"Bearer {tok}"})
            assert r.status_code == 403 and "another site" in plain_error(r), (path, origin)
            assert world.snapshot() == before
    # The page's own origin is fine.
    r = browser.post(f"/t/{code}/act", data={**forms[f"/t/{code}/act"], "csrf_token": csrf},
                     headers={"Origin": "http://localhost", "HX-Request": "true"})
    assert r.status_code == 200


def _hang_up(sio):
    """End a client's connection at once (a polite goodbye makes python-socketio wait)."""
    try:
        sio.eio.ws.sock.shutdown(socket.SHUT_RDWR)
    except (AttributeError, OSError):
        threading.Thread(target=sio.disconnect, daemon=True).start()


def _connect(base, token, **kw):
    sio = socketio_client.Client(reconnection=False)
    heard = []
    sio.on("changed", lambda d: heard.append(d))
    sio.connect(base, auth={"token": token}, wait_timeout=5, **kw)
    return sio, heard


def test_socketio_refuses_a_foreign_origin_on_every_transport(live, server_log):
    # Engine.IO logs the first refusal in a process at ERROR, later ones at INFO; and so the
    # first poll that comes after its session ended: the polling client hung up below
    # (which closes the session) may have its next poll already on the way.
    server_log.expect("is not an accepted origin", required=False)
    server_log.expect("'Session is disconnected'", required=False)
    import websocket  # websocket-client: one Origin header, exactly as given
    base, code, tokens, app = live
    ws_url = f"ws://{base.split('//')[1]}/socket.io/?EIO=4&transport=websocket"
    for origin in ("http://evil.test", "null", f"{base}.evil.test", base.replace("http", "https")):
        sio = socketio_client.Client(reconnection=False)
        with pytest.raises(socketio_client.exceptions.ConnectionError):
            sio.connect(base, auth={"token": tokens[0]}, headers={"Origin": origin},
                        transports=["polling"], wait_timeout=5)
        with pytest.raises(websocket.WebSocketBadStatusException) as refused:
            websocket.create_connection(ws_url, origin=origin, timeout=5)
        assert refused.value.status_code == 400
    # The page's own origin is welcome, on both transports.
    ws = websocket.create_connection(ws_url, origin=base, timeout=5)
    assert ws.recv().startswith("0{")       # engine.io's open packet
    ws.close()
    for transports in (["polling"], ["websocket"]):
        sio, _ = _connect(base, tokens[0], transports=transports)
        assert sio.connected
        _hang_up(sio)


def test_socketio_messages_over_16_kb_close_the_connection_and_others_play_on(live):
    base, code, tokens, app = live
    big, _ = _connect(base, tokens[0], transports=["websocket"])
    fine, heard = _connect(base, tokens[1], transports=["websocket"])
    dropped = threading.Event()
    big.on("disconnect", lambda *a: dropped.set())
    big.emit("act", {"pad": "x" * 12_000})      # under the limit: an unknown event, ignored
    assert not dropped.wait(0.5) and big.connected
    big.emit("act", {"pad": "x" * 20_000})
    assert dropped.wait(10), "a 20 KB message did not close the connection"
    # The server is fine: a move is pushed to the other phone.
    view = requests.get(f"{base}/api/tables/{code}", headers={"Authorization": f"Bearer {tokens[1]}"}).json()
    mover = 1 if view["legal"] else 0
    v = requests.get(f"{base}/api/tables/{code}", headers={"Authorization": f"Bearer {tokens[mover]}"}).json()
    r = requests.post(f"{base}/api/tables/{code}/actions", headers={"Authorization": f"Bearer {tokens[mover]}"},
                      json={"version": v["version"], "action": v["legal"][0]})
    assert r.status_code == 200
    end = time.monotonic() + 5
    while time.monotonic() < end and not any(h["version"] == r.json()["version"] for h in heard):
        time.sleep(0.01)
    assert any(h["version"] == r.json()["version"] for h in heard)
    _hang_up(fine)


def test_garbage_on_a_websocket_does_not_hurt_the_server(live):
    import websocket  # websocket-client, python-socketio's own transport
    base, code, tokens, app = live
    host = base.split("//")[1]
    for frame in (b"\x00\xff garbage", "4" + "x" * 100, "42[\"connect\",{\"token\":\"x\"}]", "2probe",
                  "0{}", "42" + "[" * 500, "6", "451-[\"act\",{\"_placeholder\":true,\"num\":9}]"):
        ws = websocket.create_connection(f"ws://{host}/socket.io/?EIO=4&transport=websocket",
                                         timeout=5)
        try:
            ws.recv()       # the open packet
            if isinstance(frame, bytes):
                ws.send_binary(frame)
            else:
                ws.send(frame)
            time.sleep(0.05)
        finally:
            ws.close()
    r = requests.get(f"{base}/api/tables/{code}", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert r.status_code == 200
    sio, _ = _connect(base, tokens[0], transports=["websocket"])
    assert sio.connected
    _hang_up(sio)


def test_a_flood_from_one_client_gets_429_on_pages_and_api(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "rate.sqlite3"), "TESTING": True,
                      "BOT_DELAY": 0, "RATE_LIMIT": (2.0, 20)})
    try:
        phone = app.test_client()
        code = phone.post("/api/tables", json={"game": "tonk", "players": 2}).json["code"]
        token = phone.post(f"/api/tables/{code}/seats", json={"name": "Ana"}).json["token"]
        before = tables_of(app).get(code).version
        for path in (f"/t/{code}/view", f"/t/{code}", "/", f"/api/tables/{code}"):
            statuses = [phone.get(path, headers={"Authorization": f"Bearer {token}"}).status_code
                        for _ in range(25)]
            assert 429 in statuses, (path, statuses)
            r = phone.get(path)
            assert r.status_code == 429 and r.headers["Retry-After"] == "1"
            assert "too many requests" in r.get_data(as_text=True).lower()
            time.sleep(0)
        r = phone.post(f"/t/{code}/act", data={"version": "1", "action": '{"do":"draw"}'})
        assert r.status_code == 429
        r = phone.post(f"/api/tables/{code}/seats", json={"name": "Ben"})
        assert r.status_code == 429 and r.json["error"]
        assert tables_of(app).get(code).version == before, "a refused flood changed the table"
        other = app.test_client()       # another phone is not slowed down
        r = other.get(f"/t/{code}", environ_base={"REMOTE_ADDR": "192.168.1.77"})
        assert r.status_code == 200
        assert phone.get("/static/css/app.css").status_code in (200, 304)    # files are not counted
    finally:
        tables_of(app).shutdown()


def test_bodies_over_16_kb_are_413_on_forms_and_api(world):
    code = world.codes[0]
    seat, tok, view = world.turn(code)
    browser, csrf = world.browser(code, seat)
    pad = "x" * (17 * 1024)
    before = world.snapshot()
    for path in (f"/t/{code}/act", f"/t/{code}/join", "/create", f"/t/{code}/seats/1/bot"):
        r = browser.post(path, data={"csrf_token": csrf, "version": str(view["version"]),
                                     "action": json.dumps(view["legal"][0]), "pad": pad})
        assert r.status_code == 413, (path, r.status_code)
        assert "too large" in r.get_data(as_text=True)
    for path in ("/api/tables", f"/api/tables/{code}/seats", f"/api/tables/{code}/actions",
                 f"/api/tables/{code}/seats/1/bot", f"/api/tables/{code}/close"):
        r = world.client.post(path, json={"version": view["version"], "action": view["legal"][0],
                                          "pad": pad}, headers={"Authorization": f"Bearer {tok}"})
        assert r.status_code == 413 and "too large" in r.json["error"]
    assert world.snapshot() == before


HOSTILE_NAMES = ["<script>x()</script>", "<img src=x onerror=f()>", "\"'><b>hi</b>",
                 "&lt;b&gt; &amp;", "{{ 7*7 }}", "Ana</span><span>", "javascript:alert(1)"]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_names_with_html_are_shown_as_text_on_every_page(world, name):
    c = world.app.test_client()
    code = c.post("/api/tables", json={"game": "tongits", "players": 3}).json["code"]
    host = c.post(f"/api/tables/{code}/seats", json={"name": name})
    assert host.status_code == 201
    assert c.get(f"/api/tables/{code}", headers={"Authorization": f"Bearer {host.json['token']}"}
                 ).json["players"][0]["name"] == name     # JSON carries it as it is
    # Three browsers: the join page before the deal, then the table, its partial, the result.
    pages = []
    for who in ("Ben", "Cy"):
        b = world.app.test_client()
        join = b.get(f"/t/{code}").get_data(as_text=True)
        pages.append(join)
        csrf = re.search(r'name="csrf[_-]token" (?:value|content)="([^"]+)"', join).group(1)
        r = b.post(f"/t/{code}/join", data={"csrf_token": csrf, "name": who})
        assert r.status_code == 302
    pages += [b.get(f"/t/{code}").get_data(as_text=True), b.get(f"/t/{code}/view").get_data(as_text=True)]
    # play a little so that the name is in the log, and look again
    table = world.tables.get(code)
    for _ in range(4):
        if table.hand.over:
            break
        v = table.view(table.hand.turn)
        table.act(table.hand.turn, v["version"], v["legal"][0])
    pages += [b.get(f"/t/{code}").get_data(as_text=True), b.get(f"/t/{code}/view").get_data(as_text=True)]
    shown = str(escape(name))
    for html_text in pages:
        if any(ch in name for ch in "<>&\"'"):
            assert name not in html_text, "a name is not escaped"
        low = html_text.lower()
        assert "<script>x()" not in low and "onerror=f()>" not in low and "<b>hi</b>" not in low
        assert 'href="javascript:' not in low and 'src="javascript:' not in low
    assert any(shown in p for p in pages), "the name is not on the table page at all"


@pytest.mark.parametrize("name, shown", [
    ("Ana\x00", "Ana"), ("Ana\nBen", "Ana Ben"), ("\x1b[31mred", "[31mred"),
    ("Ana\u202eneB", "AnaneB"), ("\u2066Ana", "Ana"), ("A\u2028B", "A B"),
    ("\ue000Ana\U000f0000", "Ana"), ("\ud800", None), ("\ue000\ue001", None),
    ("\u200b\u200d", None), ("\u3164", None), ("\u2800\u2800", None), ("\u115f", None),
    ("", None), ("   ", None), ("x" * 25, None), (["Ana"], None), (7, None), (None, None),
    ("You", None), ("\u0405eat 2", None), ("Seat 3", None),
])
def test_names_lose_what_nobody_can_see_and_empty_or_label_names_are_refused(world, name, shown):
    """Control, format, invisible and private-use characters are dropped (a line break is
    a space); what is left must be a name people can see, and not a label of the screen."""
    c = world.app.test_client()
    code = c.post("/api/tables", json={"game": "tonk", "players": 2}).json["code"]
    before = world.tables.get(code).version
    body = json.dumps({"name": name}).encode() if name != "\ud800" else b'{"name": "\\ud800"}'
    r = c.post(f"/api/tables/{code}/seats", data=body, content_type="application/json")
    if shown is None:
        assert r.status_code == 400 and r.json["error"].startswith("name:")
        assert world.tables.get(code).version == before
    else:
        assert r.status_code == 201
        assert world.tables.get(code).view(0)["players"][r.json["seat"]]["name"] == shown
    # the same through the page's form: refused with the reason, nothing seated
    if isinstance(name, str) and name != "\ud800" and shown is None:
        b = world.app.test_client()
        csrf = re.search(r'name="csrf[_-]token" (?:value|content)="([^"]+)"',
                         b.get(f"/t/{code}").get_data(as_text=True)).group(1)
        r = b.post(f"/t/{code}/join", data={"csrf_token": csrf, "name": name})
        assert r.status_code == 400
        assert world.tables.get(code).version == before


def test_a_name_cannot_pass_for_another_player(world):
    """Pages say "Seat 2" for an unnamed seat and the engine says "seat 1" in its words: a
    name that reads like a seat could stand for another player in the log; it is refused."""
    c = world.app.test_client()
    code = c.post("/api/tables", json={"game": "tonk", "players": 2}).json["code"]
    for name in ("seat 0", "Seat 1", "SEAT  2", "x seat 3"):
        r = c.post(f"/api/tables/{code}/seats", json={"name": name})
        assert r.status_code == 400 and r.json["error"].startswith("name:"), name
    assert c.post(f"/api/tables/{code}/seats", json={"name": "Seatbelt Sam"}).status_code == 201


def test_names_are_cleaned_as_tables_py_says(world):
    c = world.app.test_client()
    code = c.post("/api/tables", json={"game": "tonk", "players": 3}).json["code"]
    tokens = [c.post(f"/api/tables/{code}/seats", json={"name": n}).json["token"]
              for n in ("  Ana  ", "e\u0301lan", "Lola 👵")]
    names = [p["name"] for p in c.get(f"/api/tables/{code}", headers={
        "Authorization": f"Bearer {tokens[0]}"}).json["players"]]
    assert names == ["Ana", "\u00e9lan", "Lola 👵"]


def test_table_codes_in_answers_are_only_ever_real_codes(world):
    """An unknown code is not echoed back unless it could be one (no reflected text)."""
    c = world.client
    normal = c.get("/t/ZZZZ").get_data(as_text=True)
    for code in ("<script>", "A" * 50, "ab'cd", "%3Cx%3E", "<b>x</b>"):
        r = c.get(f"/api/tables/{code}", headers={"Authorization": "Bearer x"})
        assert r.status_code == 404
        assert "<" not in r.json["error"] and "'" not in r.json["error"]
        page = c.get(f"/t/{code}").get_data(as_text=True)
        shown = html.unescape(re.sub(r"<[^>]*>", "", page))
        assert "<script>" not in shown and "<b>" not in shown and "A" * 50 not in shown
        assert page.count("<script") <= normal.count("<script") and "<b>x" not in page
