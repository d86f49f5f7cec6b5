"""The words follow the names at the table, and a page gets compressed answers without any
session cookie."""
from __future__ import annotations

import gzip

from webapp import create_app
from webapp.web import present


def _view(names, game="tongits", seat=2):
    lay = {"seat": 1, "do": "layoff", "card": "7H", "onto": {"seat": 0, "meld": 0}, "version": 5}
    return {"game": game, "seat": seat, "players": [{"seat": i, "name": n} for i, n in enumerate(names)],
            "events": [lay], "hand": [], "melds": [], "discard_pile": [], "result": None}


def test_words_follow_the_names_and_the_game():
    assert present.story(_view(["Ana", "Ben", "Cy"]))[-1] == "Ben laid off 7♥ on Ana's meld"
    # The same event at another table (or after a seat changed hands) names its own people.
    assert present.story(_view(["Cy", None, "Di"]))[-1] == "Seat 2 laid off 7♥ on Cy's meld"
    assert present.story(_view(["Ana", "Ben", "Cy"], "tonk"))[-1] == "Ben hit Ana's spread with 7♥"
    assert present.story_spoken(_view(["Ana", "Ben", "Cy"]))[-1] == \
        "Ben laid off seven of hearts on Ana's meld"


def test_a_card_is_made_once_and_shared():
    assert present.card("10S") is present.card("10S")
    assert present.card("10S")["name"] == "ten of spades"


def test_a_partial_is_gzipped_and_no_session_cookie_is_set(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "t.sqlite3"), "TESTING": True, "BOT_DELAY": 0})
    c = app.test_client()
    code = c.post("/api/tables", json={"game": "tongits", "players": 3}).get_json()["code"]
    for name in ("Ana", "Ben", "Cy"):
        c.post(f"/api/tables/{code}/seats", json={"name": name})     # the last seat's cookie
    r = c.get(f"/t/{code}/view", headers={"Accept-Encoding": "gzip, deflate", "HX-Request": "true"})
    assert r.status_code == 200
    assert r.headers["Content-Encoding"] == "gzip"
    assert b'id="view"' in gzip.decompress(r.data)
    assert not any(h.startswith("session=") for h in r.headers.getlist("Set-Cookie"))
