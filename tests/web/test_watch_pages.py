"""The watchers' controls in pages: the lobby's options, "Sit behind me" on a seat's own
phone, and the host's list with its QR code and Remove buttons."""
from __future__ import annotations

import re

from webapp.tables import tables_of

from .test_pages import HX, create, sit, token_of


def test_the_lobby_sets_the_turn_timer_and_watchers(app, client):
    page = client.get("/").get_data(as_text=True)
    assert 'name="pace.turn_seconds"' in page and 'name="pace.watchers"' in page
    code = create(client, **{"pace.turn_seconds": "30", "pace.watchers": "false"})
    assert tables_of(app).get(code).pace.options == {"turn_seconds": 30, "watchers": False}
    plain = create(app.test_client())
    assert tables_of(app).get(plain).pace.options == {"turn_seconds": 0, "watchers": True}
    r = client.post("/create", data={"csrf_token": token_of(client), "name": "Ana",
                                     "game": "tonk", "pace.turn_seconds": "7"})
    assert r.status_code == 400 and "15" in r.get_data(as_text=True)


def test_sit_behind_me_makes_a_link_that_shows_that_seats_hand(app, client):
    code = create(client)
    ben = sit(app, code, "Ben", 1)
    sit(app, code, "Cy", 2)
    bens = ben.get(f"/t/{code}").get_data(as_text=True)
    assert 'id="sit-behind"' in bens
    assert ben.post(f"/t/{code}/behind", data={"name": "Mama"}).status_code == 403   # no token
    r = ben.post(f"/t/{code}/behind", data={"name": "Mama", "csrf_token": token_of(ben)},
                 headers=HX)
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and "<svg" in html
    link = re.search(r'href="(http[^"]+/watch/[^"]+)"', html).group(1)
    mama = app.test_client()
    shown = mama.get(link.split("localhost", 1)[1])        # opening it spends nothing
    assert shown.status_code == 200 and 'data-do="accept"' in shown.get_data(as_text=True)
    assert app.test_client().get(link.split("localhost", 1)[1]).status_code == 200
    r = mama.post(link.split("localhost", 1)[1], data={"csrf_token": token_of(mama)})
    assert r.status_code == 303
    page = mama.get(f"/t/{code}/watch").get_data(as_text=True)
    hand = tables_of(app).get(code).view(1)["hand"]
    assert all(f'data-card="{c}"' in page for c in hand) and 'class="act' not in page
    assert 'id="sit-behind"' not in page
    # The link works once: opened again (another phone, or the same) it is refused, and its
    # token was never the watcher's own (not as a Bearer, not as a cookie).
    path = link.split("localhost", 1)[1]
    token = path.rsplit("/", 1)[1]
    assert app.test_client().get(path).status_code == 401
    assert mama.get(path).status_code == 401
    auth = {"Authorization": f"Bearer {token}"}
    assert app.test_client().get(f"/api/tables/{code}", headers=auth).status_code == 401
    # A new invitation's token is refused before its link is opened too.
    r = ben.post(f"/t/{code}/behind", data={"name": "Papa", "csrf_token": token_of(ben)},
                 headers=HX)
    fresh = re.search(r'href="http[^"]+/watch/([^"]+)"', r.get_data(as_text=True)).group(1)
    auth = {"Authorization": f"Bearer {fresh}"}
    assert app.test_client().get(f"/api/tables/{code}", headers=auth).status_code == 401
    # Ben ends Mama from his own phone; her page asks for a name again.
    html = r.get_data(as_text=True)
    mamas = next(w for w in ben.get(f"/api/tables/{code}/watchers").json["watchers"]
                 if w["name"] == "Mama")
    url = f"/t/{code}/watchers/{mamas['id']}/remove"
    assert f'action="{url}"' in html
    listed = ben.get(f"/t/{code}/behind", headers=HX).get_data(as_text=True)
    assert "Mama" in listed and f'action="{url}"' in listed        # the sheet's list
    assert 'id="behind-list"' in bens and "/behind" in bens
    assert app.test_client().get(f"/t/{code}/behind").status_code == 204    # no seat: nothing
    r = ben.post(url, data={"csrf_token": token_of(ben), "slot": "behind"}, headers=HX)
    assert r.status_code == 200 and "Mama" not in r.get_data(as_text=True)
    assert 'name="name"' in mama.get(f"/t/{code}/watch").get_data(as_text=True)


def test_the_host_lists_watchers_with_a_qr_code_and_removes_one(app, client):
    code = create(client)
    ben = sit(app, code, "Ben", 1)
    assert 'id="watch-details"' not in ben.get(f"/t/{code}").get_data(as_text=True)
    assert "(0 watching)" in client.get(f"/t/{code}/view").get_data(as_text=True)
    lola = app.test_client()
    lola.post(f"/t/{code}/watch", data={"name": "Lola", "csrf_token": token_of(lola)})
    host = client.get(f"/t/{code}/view").get_data(as_text=True)     # same version, new list
    assert "(1 watching)" in host and "Lola" in host
    url = re.search(r'action="(/t/[^"]+/remove)"', host).group(1)
    assert ben.post(url, data={"csrf_token": token_of(ben)}).status_code == 403      # not the host
    r = client.post(url, data={"csrf_token": token_of(client)}, headers=HX)
    assert r.status_code == 200 and "(0 watching)" in r.get_data(as_text=True)
    assert 'name="name"' in lola.get(f"/t/{code}/watch").get_data(as_text=True)   # asked again
    qr = client.get(f"/t/{code}/watch/qr.svg")
    assert qr.mimetype == "image/svg+xml" and qr.data.startswith(b'<svg xmlns="http://www.w3.org/2000/svg"')
