"""Access ends when it should, and no stranger can stall a table: each break of the audit,
replayed against a live server as phones use it (HTTP, the pages' form posts, Socket.IO
over websockets), then a normal hand played to its end at the same table.

- A seat handed to another phone: the old phone's open socket is closed at once and hears
  nothing more (not one `changed`).
- A watcher ended by the host or by the seat it sits behind, and every watcher of a table
  that closes: its socket is closed, its token refused.
- "Sit behind me" links work once; their token is never a Bearer.
- A stranger repeating seat claims: paced per address, and the version never moves, so no
  player's tap is answered 409.
- Strangers filling the watcher places: bounded per address, a seat's invitation still
  comes in.
- Many phones making tables: a family still makes one, and look-alike names are refused.
- The language switch follows only same-site paths.
The server's log must hold no error and no traceback.
"""
from __future__ import annotations

import http.client
import json
import random
import re
import threading
import time

import pytest
import requests
import socketio as socketio_client
import websocket  # websocket-client: the protocol as a browser reads it, in order

from webapp import create_app

# The server closes revoked websockets, whose clients then write on: werkzeug reads that as
# HTTP (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("websocket_close_read_as_http")

CSRF = re.compile(r'name="csrf[_-]token" (?:value|content)="([^"]+)"')


@pytest.fixture
def server(tmp_path, in_process):
    """A live server; an error or a traceback in its log fails the test (`server_log`: all
    of its loggers, Werkzeug's too, whose reading of a websocket's closing frames as a
    request is excused above)."""
    app = create_app({"DATABASE": str(tmp_path / "access.sqlite3"), "TESTING": True,
                      "BOT_DELAY": 0, "RATE_LIMIT": None, "SWEEP_SECONDS": 0})
    yield in_process(app).base, app


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def table(base: str, game: str = "tonk", names=("Ana", "Ben")) -> tuple[str, list[str]]:
    code = requests.post(f"{base}/api/tables", json={"game": game, "players": len(names)},
                         timeout=10).json()["code"]
    tokens = [requests.post(f"{base}/api/tables/{code}/seats", json={"name": n},
                            timeout=10).json()["token"] for n in names]
    return code, tokens


def view(base, code, token, status=200) -> dict:
    r = requests.get(f"{base}/api/tables/{code}", headers=bearer(token), timeout=10)
    assert r.status_code == status, r.text
    return r.json()


def page_phone(base: str, code: str, token: str | None = None):
    """A browser at the table's page: its session (the seat cookie, if any) and CSRF token."""
    s = requests.Session()
    if token:
        s.cookies.set(f"baraha_{code}", token)
    html = s.get(f"{base}/t/{code}", timeout=10).text
    return s, CSRF.search(html).group(1)


def play_to_the_end(base: str, code: str, tokens: list[str], seed: int = 1) -> dict:
    """Random legal moves by every seat until the hand is over; every tap is answered 200."""
    rng = random.Random(seed)
    for _ in range(600):
        views = [view(base, code, t) for t in tokens]
        if views[0]["result"] is not None:
            return views[0]
        movers = [(t, v) for t, v in zip(tokens, views)
                  if [a for a in v["legal"] if a["do"] not in ("next", "rematch")]]
        assert movers, f"nobody can move at {code}: {views[0]}"
        token, v = rng.choice(movers)
        action = rng.choice([a for a in v["legal"] if a["do"] not in ("next", "rematch")])
        r = requests.post(f"{base}/api/tables/{code}/actions", headers=bearer(token),
                          json={"version": v["version"], "action": action}, timeout=10)
        assert r.status_code == 200, r.text
    raise AssertionError("the hand did not end in 600 moves")


class Phone:
    """A phone's Socket.IO connection over a websocket, recording what it hears."""

    def __init__(self, base, auth):
        self.heard: list[tuple[str, object]] = []
        self.closed = threading.Event()
        self.sio = socketio_client.Client(reconnection=False)
        self.sio.on("*", lambda event, *args: self.heard.append((event, args)))
        self.sio.on("disconnect", lambda *reason: self.closed.set())
        self.sio.connect(base, auth=auth, transports=["websocket"], wait_timeout=10)

    def hears_nothing_after(self, act) -> list:
        before = len(self.heard)
        act()
        time.sleep(0.3)
        return self.heard[before:]

    def close(self):
        if self.sio.connected:
            self.sio.disconnect()


def test_a_seat_handed_on_closes_the_old_phones_socket(server):
    base, app = server
    code, (ana, ben) = table(base)
    old = Phone(base, {"token": ben})
    heard_a_move = len(old.heard)
    v = view(base, code, ana)
    assert not old.closed.is_set()
    # A new phone asks for Ben's seat from the public page; Ana, the host, approves.
    new, csrf = page_phone(base, code)
    r = new.post(f"{base}/t/{code}/seats/1/claim", data={"csrf_token": csrf, "name": "Ben"},
                 allow_redirects=False, timeout=10)
    assert r.status_code == 303
    host, host_csrf = page_phone(base, code, ana)
    time.sleep(0.3)         # the claim's own push (Ben still holds the seat) has come
    before_approval = len(old.heard)
    claim = re.search(r'name="claim" value="([0-9a-f]+)"',
                      host.get(f"{base}/t/{code}", timeout=10).text).group(1)
    r = host.post(f"{base}/t/{code}/seats/1/approve", data={"csrf_token": host_csrf,
                                                            "claim": claim},
                  allow_redirects=False, timeout=10)
    assert r.status_code == 303
    assert old.closed.wait(3), "the old phone's socket stayed open"
    time.sleep(0.2)
    assert old.heard[before_approval:] == [], "pushed after its seat was handed on"
    view(base, code, ben, status=401)
    # Moves go on; the old phone hears none of them.
    heard = len(old.heard)
    newest = new.cookies.get(f"baraha_{code}")
    assert view(base, code, newest)["seat"] == 1
    end = play_to_the_end(base, code, [ana, newest])
    assert end["result"] is not None and end["version"] > v["version"]
    time.sleep(0.2)
    assert old.heard[heard:] == [] and heard >= heard_a_move
    # A socket with the old token is refused; with the new one, let in.
    with pytest.raises(socketio_client.exceptions.ConnectionError):
        Phone(base, {"token": ben})
    Phone(base, {"token": newest}).close()


def test_an_ended_watcher_and_a_closed_tables_watchers_hear_nothing_more(server):
    base, app = server
    code, (ana, ben) = table(base)
    lola = requests.post(f"{base}/api/tables/{code}/watchers", json={"name": "Lola"},
                         timeout=10).json()
    mama = requests.post(f"{base}/api/tables/{code}/watchers", headers=bearer(ben),
                         json={"name": "Mama", "behind": True}, timeout=10).json()
    tita = requests.post(f"{base}/api/tables/{code}/watchers", headers=bearer(ana),
                         json={"name": "Tita"}, timeout=10).json()
    phones = {w["id"]: Phone(base, {"token": w["token"]}) for w in (lola, mama, tita)}
    # The host ends Lola; Ben ends Mama, who sits behind him (his own token).
    for who, wid in ((ana, lola["id"]), (ben, mama["id"])):
        r = requests.delete(f"{base}/api/tables/{code}/watchers/{wid}", headers=bearer(who),
                            timeout=10)
        assert r.status_code == 200, r.text
        assert phones[wid].closed.wait(3), "an ended watcher's socket stayed open"
        view(base, code, next(w["token"] for w in (lola, mama) if w["id"] == wid), status=401)
    assert not phones[tita["id"]].closed.is_set()
    heard = len(phones[lola["id"]].heard)
    play_to_the_end(base, code, [ana, ben])
    assert phones[lola["id"]].heard[heard:] == []
    assert phones[tita["id"]].heard, "a watcher still watching hears the moves"
    # The table closes: Tita's socket closes and her token stops working.
    r = requests.post(f"{base}/api/tables/{code}/close", headers=bearer(ana), timeout=10)
    assert r.status_code == 200
    assert phones[tita["id"]].closed.wait(3)
    view(base, code, tita["token"], status=401)


def test_an_invitation_link_works_once(server):
    base, app = server
    code, (ana, ben) = table(base)
    phone, csrf = page_phone(base, code, ben)
    r = phone.post(f"{base}/t/{code}/behind", data={"name": "Mama", "csrf_token": csrf},
                   headers={"HX-Request": "true"}, timeout=10)
    link = re.search(r'href="(http[^"]+/watch/([^"]+))"', r.text)
    url, token = link.group(1), link.group(2)
    view(base, code, token, status=401)                    # not a Bearer, ever
    with pytest.raises(socketio_client.exceptions.ConnectionError):
        Phone(base, {"token": token})
    # Opening the link (a chat app's preview does, as often as it likes) spends nothing:
    # its page has one button, whose post does.
    for preview in (requests.Session(), requests.Session()):
        r = preview.get(url, allow_redirects=False, timeout=10)
        assert r.status_code == 200 and 'data-do="accept"' in r.text
    mama = requests.Session()
    csrf = CSRF.search(mama.get(url, timeout=10).text).group(1)
    r = mama.post(url, data={"csrf_token": csrf}, allow_redirects=False, timeout=10)
    assert r.status_code == 303
    page = mama.get(f"{base}/t/{code}/watch", timeout=10).text
    hand = view(base, code, ben)["hand"]
    assert all(f'data-card="{c}"' in page for c in hand)
    for again in (requests.Session(), mama):               # a second phone, or the same
        assert again.get(url, allow_redirects=False, timeout=10).status_code == 401
        assert again.post(url, data={"csrf_token": csrf}, allow_redirects=False,
                          timeout=10).status_code in (401, 403)
    view(base, code, token, status=401)
    # A token the API gave may be traded through the link once too: then it stops working
    # and the socket it opened is closed.
    papa = requests.post(f"{base}/api/tables/{code}/watchers", headers=bearer(ben),
                         json={"name": "Papa", "behind": True}, timeout=10).json()
    phone = Phone(base, {"token": papa["token"]})
    browser = requests.Session()
    link = f"{base}/t/{code}/watch/{papa['token']}"
    csrf = CSRF.search(browser.get(link, timeout=10).text).group(1)
    assert not phone.closed.is_set()                       # the look spent nothing
    r = browser.post(link, data={"csrf_token": csrf}, allow_redirects=False, timeout=10)
    assert r.status_code == 303
    assert phone.closed.wait(3), "the spent token's socket stayed open"
    view(base, code, papa["token"], status=401)
    assert browser.get(f"{base}/t/{code}/watch/view", timeout=10).status_code == 200
    play_to_the_end(base, code, [ana, ben])


def test_a_stranger_repeating_claims_cannot_stall_the_players(server):
    base, app = server
    code, (ana, ben) = table(base)
    stranger, csrf = page_phone(base, code)
    before = view(base, code, ana)["version"]
    answers: list[int] = []
    stop = threading.Event()

    def flood():
        while not stop.is_set():
            stranger.cookies.pop(f"baraha_{code}", None)       # a new claim every time
            r = stranger.post(f"{base}/t/{code}/seats/{len(answers) % 2}/claim",
                              data={"csrf_token": csrf, "name": "Sam"},
                              allow_redirects=False, timeout=10)
            answers.append(r.status_code)

    threading.Thread(target=flood, daemon=True).start()
    try:
        time.sleep(0.3)
        assert view(base, code, ana)["version"] == before      # claims are not moves
        play_to_the_end(base, code, [ana, ben])                 # no tap answered 409
        # A quick hand can end before a busy machine sent the flood's 12th claim.
        deadline = time.monotonic() + 10
        while len(answers) < 12 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        stop.set()
    # One address holds two claims at once, and makes three a minute: the flood is 429.
    assert answers[:2] == [303, 303] and answers[2] == 429, answers[:10]
    assert len(answers) >= 12 and set(answers) == {303, 429}
    assert answers.count(303) <= 3, answers.count(303)
    # The host sees who asked: both claims, each with its code.
    host, _ = page_phone(base, code, ana)
    assert len(re.findall(r"<li data-claim ", host.get(f"{base}/t/{code}/view", timeout=10).text)) == 2


def test_strangers_cannot_take_the_watcher_places_of_the_seats(server):
    base, app = server
    code, (ana, ben) = table(base)
    answers = [requests.post(f"{base}/api/tables/{code}/watchers", json={"name": f"W{i}"},
                             timeout=10).status_code for i in range(20)]
    assert answers[:2] == [201, 201] and set(answers[2:]) == {409}
    r = requests.post(f"{base}/api/tables/{code}/watchers", headers=bearer(ben),
                      json={"name": "Mama", "behind": True}, timeout=10)
    assert r.status_code == 201
    phone, csrf = page_phone(base, code, ana)
    r = phone.post(f"{base}/t/{code}/behind", data={"name": "Papa", "csrf_token": csrf},
                   headers={"HX-Request": "true"}, timeout=10)
    assert r.status_code == 200 and "/watch/" in r.text
    play_to_the_end(base, code, [ana, ben])


def create_from(base: str, address: str) -> int:
    """POST /api/tables from another loopback address (a phone of its own)."""
    host, port = base.split("//")[1].split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10,
                                      source_address=(address, 0))
    body = json.dumps({"game": "tonk", "players": 2})
    conn.request("POST", "/api/tables", body, {"Content-Type": "application/json"})
    status = conn.getresponse().status
    conn.close()
    return status


def test_many_phones_making_tables_leave_room_for_a_family_and_its_names(tmp_path, in_process):
    """Twenty addresses each make tables as fast as they may into a server of 40; a family
    then makes its own, sits down (a look-alike of a name refused) and plays a hand."""
    app = create_app({"DATABASE": str(tmp_path / "caps.sqlite3"), "TESTING": True,
                      "BOT_DELAY": 0, "RATE_LIMIT": None, "SWEEP_SECONDS": 0,
                      "MAX_TABLES": 40})
    base = in_process(app).base
    answers = [create_from(base, f"127.0.1.{i}") for i in range(1, 21) for _ in range(5)]
    assert answers.count(201) == 80 and answers.count(429) == 20
    code = requests.post(f"{base}/api/tables", json={"game": "tonk", "players": 3},
                         timeout=10).json()["code"]
    join = lambda name: requests.post(f"{base}/api/tables/{code}/seats",
                                      json={"name": name}, timeout=10)
    ana = join("Ana").json()["token"]
    for look_alike in ("\u0251na", "\ua4eena", "\u13aana", "\u1d00na", "A\u034fna"):
        r = join(look_alike)
        assert r.status_code == 400 and "looks the same as" in r.json()["error"]
    ben, cy = join("Ben").json()["token"], join("Cy").json()["token"]
    assert play_to_the_end(base, code, [ana, ben, cy])["result"] is not None


@pytest.mark.parametrize("sneaky", ["/\t/evil.example", "/\n/evil.example", "/\\evil.example",
                                    "//evil.example", "https://evil.example/"])
def test_the_language_switch_stays_on_this_site(server, sneaky):
    base, app = server
    phone = requests.Session()
    csrf = CSRF.search(phone.get(f"{base}/", timeout=10).text).group(1)
    r = phone.post(f"{base}/lang", data={"csrf_token": csrf, "lang": "en", "next": sneaky},
                   allow_redirects=False, timeout=10)
    assert r.status_code == 303 and r.headers["Location"] == "/"


def test_a_watcher_ended_while_its_sockets_connect_hears_nothing_after(server):
    # The race: the host ends a watcher while that watcher's sockets (several phones, as
    # its invitation was opened on each) are being let in. Each socket is either refused,
    # or let in and then closed; in no trial does one hear a version the table reached
    # after the watcher was ended.
    base, app = server
    code, (ana, ben) = table(base)
    rng = random.Random(49)
    for trial in range(10):
        w = requests.post(f"{base}/api/tables/{code}/watchers", json={"name": f"W{trial}"},
                          timeout=10).json()
        phones = [RacingPhone(base, w["token"]) for _ in range(4)]
        time.sleep(rng.uniform(0, 0.04))
        r = requests.delete(f"{base}/api/tables/{code}/watchers/{w['id']}", headers=bearer(ana),
                            timeout=10)
        assert r.status_code == 200, r.text
        ended_at = view(base, code, ana)["version"]
        moves_on(base, code, (ana, ben))
        heard_nothing_after(phones, ended_at, f"trial {trial}: an ended watcher's socket")


def moves_on(base: str, code: str, tokens) -> None:
    """Each of these seats that may move, moves: the table goes on."""
    for token in tokens:
        v = view(base, code, token)
        if v["legal"] and v["result"] is None:
            a = next((a for a in v["legal"] if a["do"] == "draw"), v["legal"][0])
            requests.post(f"{base}/api/tables/{code}/actions", headers=bearer(token),
                          json={"version": v["version"], "action": a}, timeout=10)


def heard_nothing_after(phones: list, version: int, what: str) -> None:
    """Every racing phone was closed (or refused) and heard no version after `version`.
    The server sends its disconnect again for up to 14 s (revoke.AGAIN_SECONDS), for a
    connect that a busy machine finishes late: so long at most, after a connect of 10 s."""
    for n, phone in enumerate(phones):
        assert phone.closed.wait(25), f"{what} {n} stayed open (let in: {phone.let_in})"
    time.sleep(0.1)
    late = [v for phone in phones for v in phone.heard if v > version]
    assert not late, f"{what}s heard versions {late}"


class RacingPhone:
    """A phone's socket that starts to connect at once, in a thread, and records the
    versions it hears; `closed` is set when the server ends it (Socket.IO's DISCONNECT, or
    the connection ends) or refuses it (CONNECT_ERROR). The protocol is read in order in
    one thread, as a browser's client reads it: python-socketio's client drops a DISCONNECT
    that comes while its connect() is still returning."""

    def __init__(self, base: str, token: str):
        self.heard: list[int] = []
        self.let_in = False
        self.closed = threading.Event()
        url = base.replace("http", "ws", 1) + "/socket.io/?EIO=4&transport=websocket"
        threading.Thread(target=self._listen, args=(url, token), daemon=True).start()

    def _listen(self, url: str, token: str) -> None:
        try:
            ws = websocket.create_connection(url, timeout=10)
        except (OSError, websocket.WebSocketException):
            self.closed.set()
            return
        try:
            ws.recv()                                   # Engine.IO's open
            ws.send("40" + json.dumps({"token": token}))
            ws.settimeout(None)
            while True:
                packet = ws.recv()
                if packet == "2":                       # the server's ping
                    ws.send("3")
                elif packet.startswith("40"):
                    self.let_in = True
                elif packet.startswith("42"):
                    event, *args = json.loads(packet[2:])
                    if event == "changed":
                        self.heard.append(args[0]["version"])
                elif packet.startswith(("41", "44")) or packet == "1":
                    return                              # ended, refused, or Engine.IO closed
        except (OSError, websocket.WebSocketException):
            return
        finally:
            self.closed.set()
            ws.close()
