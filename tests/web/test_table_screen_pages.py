"""The table screen's pages (API.md "The table screen"): the host's "Show on a big screen"
(the watch link and its QR code, in both languages); the watch link itself, which holds
the table as any watcher sees it (for a wide window) beside the name form (for a phone);
the post that makes a wide window a table screen without a name; the host's list and the
API naming it a screen; the limits and refusals; and a restart keeping it."""
from __future__ import annotations

import html
import re

from webapp.tables import tables_of

from .test_pages import create, sit, token_of

SCREEN = {"HX-Request": "true"}


def _table(app, client, **fields):
    code = create(client, **fields)
    sit(app, code, "Ben", 1)
    sit(app, code, "Cy", 2)
    return code


def _screen(app, code, client=None):
    tv = client or app.test_client()
    tv.get(f"/t/{code}/watch")
    r = tv.post(f"/t/{code}/watch/screen", headers={"X-CSRF-Token": token_of(tv)})
    return tv, r


def test_the_host_is_offered_a_big_screen_with_its_link_and_qr_code(app, client):
    code = create(client, players="3")
    waiting = html.unescape(client.get(f"/t/{code}").get_data(as_text=True))
    assert "Show on a big screen" in waiting
    others = [sit(app, code, "Ben", 1), sit(app, code, "Cy", 2)]
    page = html.unescape(client.get(f"/t/{code}").get_data(as_text=True))
    offer = re.search(r'<details class="pace-watch" id="watch-details".*?</details>', page, re.S).group(0)
    assert "Watch this table · Show on a big screen" in offer
    link = re.search(r'<a href="([^"]+)" data-big-screen>([^<]+)</a>', offer)
    assert link.group(1) == f"/t/{code}/watch" and link.group(2) == f"http://localhost/t/{code}/watch"
    qr = re.search(r'<img class="qr" src="([^"]+)"', offer).group(1)
    assert qr == f"/t/{code}/watch/qr.svg"
    svg = client.get(qr)
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml" and b"<svg" in svg.data
    # The others' phones are not offered it; the host's, in Filipino, says it so.
    assert "data-big-screen" not in others[0].get(f"/t/{code}").get_data(as_text=True)
    client.set_cookie("baraha-lang", "fil")
    assert "Ipakita sa malaking screen" in client.get(f"/t/{code}").get_data(as_text=True)


def test_the_watch_link_holds_the_table_as_watchers_see_it_and_no_hidden_card(app, client):
    code = _table(app, client)
    table = tables_of(app).get(code)
    page = app.test_client().get(f"/t/{code}/watch").get_data(as_text=True)
    # A phone's name form, and the table a wide window shows at once (and joins with).
    assert 'name="name"' in page and f'data-join-screen="/t/{code}/watch/screen"' in page
    assert len(re.findall(r'<li class="opp[^"]*" data-seat="\d"', page)) == 3
    assert 'data-pile="stock"' in page and 'data-pile="discard"' in page
    assert 'id="hand"' not in page and 'class="act' not in page
    held = {c for s in range(3) for c in table.view(s)["hand"]}
    shown = set(re.findall(r'data-card="([^"]+)"', page))
    assert held and not held & shown, held & shown
    assert 'id="story"' in page and 'id="standing"' in page
    assert table.watchers == {}, "opening the link made no watcher"
    # Before the deal a watcher's page invites the room: the code, and the table's own QR code.
    waiting = create(client, players="3")
    page = app.test_client().get(f"/t/{waiting}/watch").get_data(as_text=True)
    assert f'src="/t/{waiting}/qr.svg"' in page and 'class="big-code"' in page
    svg = client.get(f"/t/{waiting}/qr.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml" and b"<svg" in svg.data


def test_a_wide_window_joins_as_a_table_screen_without_a_name(app, client):
    code = _table(app, client)
    table = tables_of(app).get(code)
    tv = app.test_client()
    tv.get(f"/t/{code}/watch")
    assert tv.post(f"/t/{code}/watch/screen").status_code == 403          # no CSRF token
    tv, r = _screen(app, code, tv)
    assert r.status_code == 204 and f"baraha_w_{code}=" in r.headers["Set-Cookie"]
    page = tv.get(f"/t/{code}/watch").get_data(as_text=True)
    assert "This screen shows the table to the room" in page and 'name="name"' not in page
    assert 'id="story"' in page and 'id="standing"' in page
    part = tv.get(f"/t/{code}/watch/view", headers=SCREEN).get_data(as_text=True)
    assert part.count('class="story-list"') == 1
    # The API and the host's list name it a table screen; the host may remove it.
    host = client
    listed = host.get(f"/api/tables/{code}/watchers").json["watchers"]
    assert [(w["screen"], w["behind"]) for w in listed] == [(True, None)]
    assert "Table screen" in host.get(f"/t/{code}").get_data(as_text=True)
    # Screens from one address are not the named watchers' two: two named ones still come.
    for name in ("Lola", "Mama"):
        r = app.test_client().post(f"/api/tables/{code}/watchers", json={"name": name})
        assert r.status_code == 201, r.json
    assert app.test_client().post(f"/api/tables/{code}/watchers", json={"name": "Tita"}).status_code == 409
    # Three screens from one address; a fourth takes the oldest's place, which stops working.
    assert _screen(app, code)[1].status_code == 204 and _screen(app, code)[1].status_code == 204
    fourth = _screen(app, code)[1]
    assert fourth.status_code == 204 and len(table.watchers) == 5
    assert tv.get(f"/t/{code}/watch/view", headers=SCREEN).status_code == 401
    assert 'name="name"' in tv.get(f"/t/{code}/watch").get_data(as_text=True)
    assert [w["screen"] for w in host.get(f"/api/tables/{code}/watchers").json["watchers"]].count(True) == 3


def test_a_table_without_watchers_has_no_screen(app, client):
    code = _table(app, client, **{"pace.watchers": "false"})
    page = app.test_client().get(f"/t/{code}/watch").get_data(as_text=True)
    assert "This table takes no watchers." in page and 'id="table"' not in page
    assert "data-big-screen" not in client.get(f"/t/{code}").get_data(as_text=True)
    r = _screen(app, code)[1]
    assert r.status_code == 403 and "watchers" in r.get_data(as_text=True)


def test_a_restart_keeps_the_table_screen(make_app, app, client):
    code = _table(app, client)
    tv, r = _screen(app, code)
    cookie = tv.get_cookie(f"baraha_w_{code}").value
    again = make_app()
    tv2 = again.test_client()
    tv2.set_cookie(f"baraha_w_{code}", cookie)
    page = tv2.get(f"/t/{code}/watch").get_data(as_text=True)
    assert "This screen shows the table to the room" in page
    host = again.test_client()
    host.set_cookie(f"baraha_{code}", client.get_cookie(f"baraha_{code}").value)
    assert [w["screen"] for w in host.get(f"/api/tables/{code}/watchers").json["watchers"]] == [True]
