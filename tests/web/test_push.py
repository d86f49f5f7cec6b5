"""The opt-in push (docs/API.md): `auth: {want: "partial"}` gets `view` {version, html}
with its own seat's partial after each change, the very HTML a GET of /t/CODE/view gives
that browser; `changed` {version} still comes, and nobody who did not ask gets a `view`."""
from __future__ import annotations

import re

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


def move(api, code, tokens):
    for t in tokens:
        view = api.view(code, t)
        if view["legal"]:
            return api.act(code, t, view["version"], view["legal"][0])
    raise AssertionError("nobody has a move")


def test_each_seat_is_pushed_its_own_partial_only(app, api, socket_client):
    code = api.create("tongits")
    seats = browsers(app, api, code)
    socks = [socket_client(flask_test_client=b, auth={"code": code, "want": "partial"})
             for b, _ in seats]
    assert all(sc.is_connected() for sc in socks)
    for sc in socks:
        sc.get_received()
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
