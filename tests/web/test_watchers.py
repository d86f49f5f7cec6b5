"""Watchers: a view with no seat, hand or moves; behind a seat, its hand too; never acting."""
from __future__ import annotations

import sqlite3

import pytest

from webapp.tables import tables_of
from webapp.tables.store import Store

from .conftest import Api, bearer, card_texts


def watcher(api, code, name="Lola", status=201, headers=None, **body):
    r = api.client.post(f"/api/tables/{code}/watchers", json={"name": name, **body},
                        headers=headers or {})
    assert r.status_code == status, r.json
    return r.json


def test_a_watcher_sees_the_table_without_hands_or_moves(api):
    code = api.create("tongits", 3)
    tokens = [api.join(code, n) for n in ("Ana", "Ben", "Cy")]
    lola = watcher(api, code)["token"]
    view = api.view(code, lola)
    assert view["seat"] is None and view["hand"] == [] and view["legal"] == []
    assert view["behind"] is None and view["deadwood"] is None
    hidden = {c for t in tokens for c in api.view(code, t)["hand"]}
    assert not card_texts(view, skip=("events",)) & hidden
    seat_view = api.view(code, tokens[0])
    assert view["players"] == seat_view["players"] and view["discard_pile"] == seat_view["discard_pile"]
    assert api.act(code, lola, view["version"], {"do": "draw"}, status=403)["error"]


def test_behind_a_seat_only_with_that_seats_token(api):
    code = api.create("tonk", 2)
    ana, ben = api.join(code, "Ana"), api.join(code, "Ben")
    r = api.client.application.test_client().post(      # no seat cookie, no token
        f"/api/tables/{code}/watchers", json={"name": "Mama", "behind": True})
    assert r.status_code == 401
    mama = watcher(api, code, "Mama", headers=bearer(ana), behind=True)["token"]
    view, anas = api.view(code, mama), api.view(code, ana)
    assert view["seat"] is None and view["behind"] == 0 and view["legal"] == []
    assert view["hand"] == anas["hand"] and view["events"] == anas["events"]
    assert not set(view["hand"]) & set(api.view(code, ben)["hand"])
    assert api.act(code, mama, view["version"], {"do": "draw"}, status=403)
    assert api.view(code, ana)["version"] == view["version"]


def stranger(api, address):
    """A phone with no seat here, on its own address."""
    phone = api.client.application.test_client()
    phone.environ_base["REMOTE_ADDR"] = address
    return phone


def test_watchers_off_and_the_host_or_the_seat_behind_ends_one(api):
    off = api.create("tonk", 2, options={"watchers": False})
    assert "watchers" in watcher(api, off, status=403)["error"]
    code = api.create("tonk", 2)
    ana, ben = api.join(code, "Ana"), api.join(code, "Ben")
    lola = watcher(api, code, "Lola", headers=bearer(ana))
    mama = watcher(api, code, "Mama", headers=bearer(ben), behind=True)
    # Ben is not the host: Lola is not his to end; Mama sits behind him: his to end.
    r = api.client.delete(f"/api/tables/{code}/watchers/{lola['id']}", headers=bearer(ben))
    assert r.status_code == 403
    r = api.client.delete(f"/api/tables/{code}/watchers/{mama['id']}", headers=bearer(ben))
    assert r.status_code == 200 and [w["name"] for w in r.json["watchers"]] == ["Lola"]
    api.view(code, mama["token"], status=401)
    r = api.client.delete(f"/api/tables/{code}/watchers/{lola['id']}", headers=bearer(ana))
    assert r.status_code == 200 and r.json["watchers"] == []
    api.view(code, lola["token"], status=401)
    r = api.client.delete(f"/api/tables/{code}/watchers/{lola['id']}", headers=bearer(ana))
    assert r.status_code == 404


def test_strangers_cannot_fill_the_places_kept_for_the_seats(api):
    code = api.create("tongits", 3)
    tokens = [api.join(code, n) for n in ("Ana", "Ben", "Cy")]
    before = api.view(code, tokens[0])["version"]
    # One address: two open watchers, then refused; twenty addresses: eight in all.
    one = stranger(api, "10.0.0.1")
    for name in ("W1", "W2"):
        assert one.post(f"/api/tables/{code}/watchers", json={"name": name}).status_code == 201
    r = one.post(f"/api/tables/{code}/watchers", json={"name": "W3"})
    assert r.status_code == 409 and "this phone already watches" in r.json["error"]
    answers = [stranger(api, f"10.0.1.{i}").post(f"/api/tables/{code}/watchers",
                                                json={"name": f"S{i}"}).status_code
               for i in range(20)]
    assert answers.count(201) == 6 and set(answers) == {201, 409}
    # Every seat still invites two behind it, and the host one more who sits behind nobody.
    for token in tokens:
        for name in ("Mama", "Papa"):
            watcher(api, code, name, headers=bearer(token), behind=True)
        watcher(api, code, "Tita", headers=bearer(token), behind=True, status=409)
    watcher(api, code, "Lolo", headers=bearer(tokens[0]))
    assert api.view(code, tokens[0])["version"] == before      # watchers are not moves


def test_a_restart_keeps_the_watchers_and_forgets_the_removed(make_app):
    api = Api(make_app().test_client())
    code = api.create("tonk", 2)
    ana, ben = api.join(code, "Ana"), api.join(code, "Ben")
    lola = watcher(api, code, "Lola")
    mama = watcher(api, code, "Mama", headers=bearer(ana), behind=True)
    gone = watcher(api, code, "Gone")
    api.client.delete(f"/api/tables/{code}/watchers/{gone['id']}", headers=bearer(ana))
    before = {w["token"]: api.view(code, w["token"]) for w in (lola, mama)}

    again = Api(make_app().test_client())
    for token, view in before.items():
        assert again.view(code, token) == view
    assert again.view(code, mama["token"])["hand"] == again.view(code, ana)["hand"]
    again.view(code, gone["token"], status=401)
    listed = again.client.get(f"/api/tables/{code}/watchers", headers=bearer(ben)).json
    assert [(w["name"], w["behind"]) for w in listed["watchers"]] == [("Lola", None), ("Mama", 0)]


def test_a_code_made_again_or_pruned_takes_no_watchers_along(tmp_path):
    st = Store(str(tmp_path / "baraha.sqlite3"))
    st.create_table("ABCD", "tonk", 2, {}, {}, 1.0)
    h1, h2 = "1" * 64, "2" * 64         # sha256 hashes, as the store keeps them
    st.add_watcher("ABCD", "w1", "Lola", h1, None)
    st.add_action("ABCD", 1, 0, None, {"do": "close"}, "r1", closed=2.0)
    st.create_table("ABCD", "tonk", 2, {}, {}, 3.0)        # the closed table's code again
    assert [t["watchers"] for t in st.load_all()] == [[]]
    st.add_watcher("ABCD", "w2", "Ben", h2, 1)
    assert [t["watchers"] for t in st.load_all()] == [
        [{"id": "w2", "name": "Ben", "token_hash": h2, "behind": 1, "pending": False,
          "addr": None, "screen": False}]]
    st.add_action("ABCD", 1, 0, None, {"do": "close"}, "r2", closed=4.0)
    assert st.prune(before=5.0) == 2
    st.close()
    with sqlite3.connect(tmp_path / "baraha.sqlite3") as db:
        assert db.execute("SELECT COUNT(*) FROM watchers").fetchone() == (0,)


def test_watchers_hear_changed_with_their_token(app, api, socket_client):
    code = api.create("tonk", 2)
    ana = api.join(code, "Ana")
    lola = watcher(api, code)["token"]
    sc = socket_client(auth={"token": lola})
    assert sc.is_connected()
    sc.get_received()
    api.join(code, "Ben")
    got = sc.get_received()
    assert got and all(m["name"] == "changed" and list(m["args"][0]) == ["version"] for m in got)
    assert tables_of(app).get(code).seats[0].sockets == 0       # a watcher is no seat's phone
    assert not socket_client(auth={"token": "nope"}).is_connected()
    del ana


# An unshuffled deck: about one random deal in a hundred is a Tonk, won as dealt, and
# then every hand is shown to everyone.
@pytest.mark.parametrize("decks", [{1: list(range(52))}])
def test_the_watch_page_shows_no_hand_and_no_moves(app, api):
    code = api.create("tonk", 2)
    ana, _ = api.join(code, "Ana"), api.join(code, "Ben")
    browser = app.test_client()
    page = browser.get(f"/t/{code}/watch")
    assert page.status_code == 200 and b'name="name"' in page.data
    csrf = page.data.split(b'name="csrf_token" value="')[1].split(b'"')[0].decode()
    r = browser.post(f"/t/{code}/watch", data={"name": "Lola", "csrf_token": csrf})
    assert r.status_code == 303
    html = browser.get(f"/t/{code}/watch").get_data(as_text=True)
    assert 'data-watch' in html and 'id="hand"' not in html and 'class="act' not in html
    anas = api.view(code, ana)["hand"]
    assert not any(f'data-card="{c}"' in html for c in anas)
