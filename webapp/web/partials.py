"""A seat's rendered partial: made once per version and reused, and pushed over the socket.

What a partial shows is a function of the table's version, the seat, who is connected (the
"away" marks change without a new version), and the phone it is made for (a `Reader`: its
language, its sort order, its CSRF token in each form, the path the app is served under).
So the HTML is kept under exactly that key, in a small bounded cache, with the token left
as a hole (fragments.CSRF) filled in for each phone; a new version simply makes new keys
(old ones age out). The POST's answer and the socket push of the same seat then cost one
render, not two.

The push (docs/API.md, `want: "partial"`): webapp/realtime/ remembers a connection that
asked for it with the Reader of its handshake (`reader()` in that request), and after each
change sends it `view` {version, html}: `pushed()` makes that seat's partial for that
Reader, with no request of its own.
"""
from __future__ import annotations

from typing import NamedTuple

from flask import current_app, g, render_template, request
from flask_babel import get_locale

from . import i18n
from ..tables.errors import WebError
from ..tables import claims, tables_of, watchers
from . import fragments, guard, present

SORT_COOKIE = "baraha-sort"


class Reader(NamedTuple):
    """A phone as its partial is made for it."""
    locale: str         # "en", "fil"
    sort: str           # the order of its hand: "arrange", "rank", "suit"
    csrf: str           # its CSRF token, filled into every form
    root: str           # the path the app is served under (SCRIPT_NAME), for the forms' URLs


def reader() -> Reader:
    """This request's phone (found once a request: a move's post asks twice)."""
    found = g.get("baraha_reader")
    if found is None:
        found = g.baraha_reader = Reader(
            str(get_locale()), present.sort_of(request.cookies.get(SORT_COOKIE)),
            guard.csrf_token(), request.script_root)
    return found


def _table(view: dict):
    """The view's table, or None when it is gone (a view made just before it closed)."""
    try:
        return tables_of(current_app).get(view["code"])
    except WebError:
        return None


def _watching(table) -> list[dict]:
    """The table's watchers (the host's panel lists them, each with a Remove button)."""
    return watchers.listed(table) if table is not None else []


def context(view: dict, sort: str) -> dict:
    """What table/_table.html is rendered with (the page, a GET of the partial, a POST's
    answer and the push alike)."""
    ready = [p for p in view["players"] if not p.get("bot") and not p.get("ready")]
    me = next((p for p in view["players"] if p["seat"] == view["seat"]), {})
    table = _table(view)
    asks = dict(table.seat_requests) if table is not None else {}
    host = view.get("host") == view.get("seat")     # only the host sees who asks for a seat
    return {
        "watching": _watching(table) if host else [],
        "seat_asks": sorted((s, bool(h)) for s, h in asks.items()) if host else [],
        "seat_asked": sorted(asks),
        "seat_refused": table is not None and claims.refused_back(table, view["seat"]),
        "view": view,
        "waiting": view.get("phase") == "waiting",
        "sort": sort,
        "waiting_for": [p["seat"] for p in ready] if view.get("result") and me.get("ready") else [],
    }


def _seated(view: dict, sort: str) -> dict:
    """Everything table/_table.html shows that is not a kept region, made once here (a
    partial is made three times a move): the seat's facts as plain names, and its story as
    this reader is told it (present.Told)."""
    me, players = view["seat"], view["players"]
    said = present.Told(view)
    botted = players[me]["bot"] if me is not None and me < len(players) else None
    turn = view["turn"]
    return {**context(view, sort), "me": me, "botted": botted,
            "mine": turn is not None and turn == me and not botted,
            "hosting": view["host"] == me, "over": view["result"] is not None, "turn": turn,
            "lines": said.lines, "spoken": said.spoken, "turn_words": said.turn,
            "feed": said.feed, "others": [(p, said.since.get(p["seat"], "")) for p in players
                                          if p["seat"] != me]}


def render(view, phone: Reader) -> str:
    """The seat's `table/_table.html` for this view and phone, from the kept ones when it is
    there, with the phone's CSRF token filled in. Needs an app context, not a request."""
    kept = current_app.extensions["baraha.fragments"]["partials"]
    online = tuple(bool(p.get("connected")) for p in view["players"])
    # Watchers come and go without a new version: the host's partial is kept per list.
    watching = tuple(w["id"] for w in _watching(_table(view))) \
        if view.get("host") == view["seat"] else ()
    epoch = getattr(_table(view), "epoch", 0)     # seat requests and refusals
    key = (view.get("code"), view["version"], epoch, view["seat"], online, phone.locale,
           phone.sort, phone.root, watching)
    html = kept.get(key)
    if html is None:
        with i18n.speaking(i18n.catalog(phone.locale)), fragments.serving(phone.root):
            html = render_template("table/_table.html", **_seated(view, phone.sort))
        # ASCII, as its kept pieces are: what else it says (a name) is narrowed here.
        html = fragments.narrow(html)
        kept.put(key, html)
    return html.replace(fragments.CSRF, phone.csrf)


# ---- the push (webapp/realtime/ keeps who asked for it, and sends it) --------------

def pushed(app, code: str, seat: int, phone: Reader) -> tuple[str, int]:
    """The partial of `seat` for a connection that asked for it (`phone`: the Reader of its
    handshake): (html, version)."""
    # A fresh app context: inside the actor's POST this render must not share that
    # request's `g`.
    with app.app_context():
        view = tables_of(app).get(code).view(seat, worded=False)
        return render(view, phone), view["version"]
