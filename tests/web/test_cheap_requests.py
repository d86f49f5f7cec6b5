"""What the per-request savings must not change: the words still follow the names at the
table, and a page still gets compressed answers without any session cookie."""
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


def test_the_templates_escape_as_markupsafe_does():
    from markupsafe import Markup, escape
    from webapp.web.fragments import lean_escape

    class Html:
        def __html__(self):
            return "<b>kept</b>"
    for value in ("Ana & <Ben> \"Cy\" 'Di'", "", "7♥", Markup("<i>ok</i>"), 0, 42, -3, 1.5,
                  None, True, Html(), ["<x>"]):
        got = lean_escape(value)
        assert got == escape(value) and isinstance(got, Markup), value


def test_words_with_values_are_filled_as_markup_would():
    from markupsafe import Markup
    from webapp.web import i18n
    for words, values in (("%(name)s's turn", {"name": "<Ana>"}),
                          ("%(name)s's turn", {"name": Markup("<b>Ana</b>")}),
                          ("Stock: %(num)d cards", {"num": 12}),
                          ("100%% %(a)s %(b)s", {"a": None, "b": 2.5})):
        assert i18n._fill(words, values) == Markup(words) % values


def test_websocket_offers_ask_for_each_message_compressed_alone():
    from webapp.realtime import deflate
    assert deflate.without_takeover("permessage-deflate; client_max_window_bits") == (
        "permessage-deflate; client_max_window_bits; server_no_context_takeover; "
        "client_no_context_takeover")
    given = "permessage-deflate; server_no_context_takeover, x-other"
    assert deflate.without_takeover(given) == (
        "permessage-deflate; server_no_context_takeover; client_no_context_takeover, x-other")


def test_table_addresses_are_url_for_under_any_root(tmp_path):
    from flask import url_for
    from webapp.web import fragments
    app = create_app({"DATABASE": str(tmp_path / "t.sqlite3"), "TESTING": True})
    for root in ("", "/games"):
        with app.test_request_context("/", base_url=f"http://localhost{root}/"):
            for endpoint, values in (("table.act", {"code": "K7QF"}),
                                     ("table.set_bot", {"code": "K7QF", "seat": 2})):
                assert url_for(endpoint, **values).startswith(f"{root}/t/")
                assert fragments.table_url(endpoint, **values) == url_for(endpoint, **values)
                with fragments.serving(root):
                    assert fragments.table_url(endpoint, **values) == url_for(endpoint, **values)


def test_parts_only_some_readers_see_are_cut_for_the_others():
    from markupsafe import Markup
    from webapp.web.fragments import _cut, only
    b, e = Markup("<button>"), Markup("</button>")
    html = f"<a>{only('draw', b)}stock{only('draw', e)}" \
           f"{only('take', b)}discard{only('take', e)}</a>"
    assert _cut(html, {"draw": True, "take": False}) == "<a><button>stock</button>discard</a>"
    assert _cut(html, {}) == "<a>stockdiscard</a>"
    assert _cut("<p>none</p>", {"draw": True}) == "<p>none</p>"


def test_kept_html_writes_wide_characters_as_references():
    import html
    from webapp.web.fragments import narrow
    page = '<span class="c-s" aria-hidden="true">♥</span> <b>⟦Niña⟧</b> &amp; <i>10★</i>'
    kept = narrow(page)
    assert kept.isascii() and "Ni&#241;a" in kept and "&amp;" in kept
    assert html.unescape(kept) == html.unescape(page)
    assert narrow("<p>plain</p>") == "<p>plain</p>"
