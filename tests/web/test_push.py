"""The opt-in push (docs/API.md): `auth: {want: "partial"}` gets `view` {version, html}
with its own seat's partial after each change, the very HTML a GET of /t/CODE/view gives
that browser; `changed` {version} still comes unless it said `changed: false`, nobody who
did not ask gets a `view`, and the phone whose move is answered with its partial (its post
names its socket) is not pushed that same partial again."""
from __future__ import annotations

import re

from webapp.realtime import socketio

from .test_pages import HX, forms, post

CARD = re.compile(r'data-card="([0-9A-Z]+)"')


def views(sc):
    return [m["args"][0] for m in sc.get_received() if m["name"] == "view"]


def hand_cards(html):
    """The cards in #hand (the page hook), from the hand's section only."""
    m = re.search(r'<section id="hand".*?</section>', html, re.S)
    return set(CARD.findall(m.group(0))) if m else set()


def browsers(app, api, code, langs=("en", "en", "en")):
    out = []
    for i, lang in enumerate(langs):
        b = app.test_client()
        b.set_cookie("baraha-lang", lang)
        b.get(f"/t/{code}")                   # the page: its CSRF cookie
        r = b.post(f"/api/tables/{code}/seats", json={"name": f"P{i}"})
        assert r.status_code == 201
        out.append((b, r.json["token"]))
    return out


def pushed_table(app, api, socket_client):
    """A Tong-its table of three browsers whose sockets asked for `view`, heard nothing yet."""
    code = api.create("tongits")
    seats = browsers(app, api, code)
    socks = [socket_client(flask_test_client=b, auth={"code": code, "want": "partial"})
             for b, _ in seats]
    for sc in socks:
        sc.get_received()
    return code, seats, socks


def move(api, code, tokens):
    for t in tokens:
        view = api.view(code, t)
        if view["legal"]:
            return api.act(code, t, view["version"], view["legal"][0])
    raise AssertionError("nobody has a move")


def test_each_seat_is_pushed_its_own_partial_only(app, api, socket_client):
    code, seats, socks = pushed_table(app, api, socket_client)
    assert all(sc.is_connected() for sc in socks)
    new = move(api, code, [t for _, t in seats])
    hands = [set(api.view(code, t)["hand"]) for _, t in seats]
    for seat, ((browser, _), sc) in enumerate(zip(seats, socks)):
        got = sc.get_received()
        assert any(m["name"] == "changed" for m in got), "API clients' signal stays"
        pushed = [m["args"][0] for m in got if m["name"] == "view"]
        assert pushed, f"seat {seat} got no view"
        last = pushed[-1]
        assert list(last) == ["version", "html"] and last["version"] == new["version"]
        assert f'data-seat="{seat}"' in last["html"]
        assert hand_cards(last["html"]) == hands[seat]
        for other in range(3):
            if other != seat:
                assert not (hands[other] & set(CARD.findall(last["html"]))), "another hand shown"
        # The very HTML its GET gives (same CSRF token in the forms, same language).
        r = browser.get(f"/t/{code}/view", headers={"HX-Request": "true"})
        assert r.get_data(as_text=True) == last["html"]


def test_without_asking_there_is_no_view(app, api, socket_client):
    code = api.create("tongits")
    seats = browsers(app, api, code)
    plain = socket_client(flask_test_client=seats[0][0], auth={"code": code})
    token = socket_client(auth={"token": seats[1][1]})
    asking = socket_client(auth={"token": seats[2][1], "want": "partial"})
    for sc in (plain, token, asking):
        sc.get_received()
    move(api, code, [t for _, t in seats])
    assert views(plain) == [] and views(token) == []
    got = views(asking)
    assert got and 'data-seat="2"' in got[-1]["html"]


def test_two_phones_of_one_seat_each_get_their_own_language(app, api, socket_client):
    code = api.create("tonk", 2)
    (en, token), (_, other) = browsers(app, api, code, ("en", "en"))
    fil = app.test_client()
    fil.set_cookie("baraha-lang", "fil")
    fil.set_cookie(f"baraha_{code}", token)        # the same seat, a second phone
    fil.get(f"/t/{code}")
    a = socket_client(flask_test_client=en, auth={"code": code, "want": "partial"})
    b = socket_client(flask_test_client=fil, auth={"code": code, "want": "partial"})
    a.get_received(), b.get_received()
    move(api, code, [token, other])
    va, vb = views(a)[-1], views(b)[-1]
    assert va["version"] == vb["version"]
    for browser, v in ((en, va), (fil, vb)):
        r = browser.get(f"/t/{code}/view", headers={"HX-Request": "true"})
        assert r.get_data(as_text=True) == v["html"]


def sid_of(sc) -> str:
    return socketio.server.manager.sid_from_eio_sid(sc.eio_sid, "/")


def names(sc) -> list[str]:
    return [m["name"] for m in sc.get_received()]


def test_a_page_that_says_changed_false_hears_only_its_view(app, api, socket_client):
    code = api.create("tongits")
    seats = browsers(app, api, code)
    quiet = socket_client(flask_test_client=seats[0][0],
                          auth={"code": code, "want": "partial", "changed": False})
    both = socket_client(flask_test_client=seats[1][0], auth={"code": code, "want": "partial"})
    plain = socket_client(auth={"token": seats[2][1]})
    for sc in (quiet, both, plain):
        sc.get_received()
    move(api, code, [t for _, t in seats])
    assert names(quiet) == ["view"]
    assert sorted(names(both)) == ["changed", "view"]
    assert names(plain) == ["changed"]


def mover(api, code, seats) -> int:
    return next(i for i, (_, t) in enumerate(seats) if api.view(code, t)["legal"])


def page_move(browser, code, socket_id: str | None):
    html = browser.get(f"/t/{code}/view", headers=HX).get_data(as_text=True)
    f = forms(html)[0]
    headers = {**HX, "X-Baraha-Socket": socket_id} if socket_id else HX
    r = post(browser, code, f["version"], f["action"], headers)
    assert r.status_code == 200, r.data
    return r


def test_the_phone_whose_move_is_answered_is_not_pushed_it_again(app, api, socket_client):
    code, seats, socks = pushed_table(app, api, socket_client)
    me = mover(api, code, seats)
    r = page_move(seats[me][0], code, sid_of(socks[me]))
    version = int(re.search(r'data-version="(\d+)"', r.get_data(as_text=True)).group(1))
    for seat, sc in enumerate(socks):
        got = views(sc)
        if seat == me:
            assert got == [], "the answer is its new partial: no push of the same"
        else:
            assert got and got[-1]["version"] == version
    # What it was answered is what its push would have been: the GET of its partial now.
    again = seats[me][0].get(f"/t/{code}/view", headers=HX).get_data(as_text=True)
    assert r.get_data(as_text=True) == again


def test_a_post_naming_a_socket_that_would_render_otherwise_still_pushes_it(app, api,
                                                                           socket_client):
    code, seats, socks = pushed_table(app, api, socket_client)
    me = mover(api, code, seats)
    other = (me + 1) % 3
    # Another seat's socket: its cookies are not the poster's, so it is pushed as ever.
    page_move(seats[me][0], code, sid_of(socks[other]))
    assert views(socks[other]) and views(socks[me])
    # Its own socket, but the phone changed its language since it connected: the answer
    # is in Filipino, the push (its handshake's language) in English, so it is pushed.
    me = mover(api, code, seats)
    socks[me].get_received()
    seats[me][0].set_cookie("baraha-lang", "fil")
    page_move(seats[me][0], code, sid_of(socks[me]))
    assert views(socks[me]), "a push that would differ from the answer is still sent"


def test_a_page_move_and_its_pushes_word_no_json_log(app, api, socket_client, monkeypatch):
    # The JSON view's `log` is English for programs; pages word their own story. A page's
    # move and the pushes it causes build views without it; the API's view still has it.
    import webapp.tables.view as table_views
    worded = []
    real = table_views.log_lines
    monkeypatch.setattr(table_views, "log_lines",
                        lambda view: worded.append(view["seat"]) or real(view))
    code, seats, socks = pushed_table(app, api, socket_client)
    me = mover(api, code, seats)
    worded.clear()
    r = page_move(seats[me][0], code, sid_of(socks[me]))
    assert all(views(sc) for seat, sc in enumerate(socks) if seat != me)
    assert worded == [], f"seats {worded} had the JSON log worded for a page"
    view = api.view(code, seats[me][1])
    assert view["log"] and worded == [me]
    again = seats[me][0].get(f"/t/{code}/view", headers=HX)
    assert r.get_data(as_text=True) == again.get_data(as_text=True)


def test_a_push_that_cannot_be_drawn_is_logged_and_its_phone_told_to_fetch(app, api,
                                                                           socket_client,
                                                                           monkeypatch, caplog,
                                                                           server_log):
    import webapp.web.partials as partials
    server_log.expect("a template that cannot be drawn")      # provoked below, on purpose
    code = api.create("tongits")
    seats = browsers(app, api, code)
    socks = [socket_client(flask_test_client=b, auth={"code": code, "want": "partial",
                                                      "changed": False}) for b, _ in seats]
    for sc in socks:
        sc.get_received()
    real = partials.draw
    broken = {"seat": (mover(api, code, seats) + 1) % 3}

    def draw(table, view, watcher=None):
        if view["seat"] == broken["seat"]:
            raise RuntimeError("a template that cannot be drawn")
        return real(table, view, watcher)
    monkeypatch.setattr(partials, "draw", draw)
    before = api.view(code, seats[0][1])["version"]
    move(api, code, [t for _, t in seats])
    for seat, sc in enumerate(socks):
        got = sc.get_received()
        if seat == broken["seat"]:
            # No `view`, but `changed` with the new version: the page fetches it itself.
            assert [m["name"] for m in got] == ["changed"]
            assert got[0]["args"][0]["version"] > before
        else:
            assert any(m["name"] == "view" for m in got)
    assert any("push to seat %d failed" % broken["seat"] in r.getMessage() for r in caplog.records)

