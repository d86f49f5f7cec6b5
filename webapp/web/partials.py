"""A seat's table, drawn: `table/_table.html` from the seat's view, in the request of the
phone it is for. The page, its GET, a move's answer, the push and a watcher's page all
draw it here, the same way (render_template), so none can fail where another works.

A push has no request of its own: webapp/realtime/ keeps each phone's handshake (its
cookies, language and address, as a WSGI environ) and calls `pushed`, which draws in a
request made from it, as if that phone had asked for its partial (Flask's documented
`app.request_context`).
"""
from __future__ import annotations

import io

from flask import render_template, request, url_for
from flask_babel import get_locale

from ..tables import claims, tables_of, watchers
from . import guard, i18n, present
from .links import table_url

SORT_COOKIE = "baraha-sort"


def sort() -> str:
    """The order this phone shows its hand in: "arrange", "rank" or "suit"."""
    return present.sort_of(request.cookies.get(SORT_COOKIE))


def drawn_for() -> tuple:
    """What a drawing reads of this request's phone: its language, its order of the hand,
    its CSRF token and the path the app is served under. Two requests with the same draw
    the same table."""
    return str(get_locale()), sort(), guard.csrf_token(), request.script_root


def context(table, view: dict, watcher=None, act_url: str | None = None) -> dict:
    """What table/_table.html is drawn from: the view, and what the table knows beside it
    (seat requests, watchers), as this phone's seat or `watcher` may see it. `table` None:
    a guided hand's table (no seat requests, no watchers), its moves posted to `act_url`."""
    players = view["players"]
    seat = view["seat"]
    me = seat if watcher is None else watcher.behind     # whose hand is shown, if any
    mover = players[me] if me is not None and me < len(players) else {}
    botted = mover.get("bot") if seat is not None else None
    turn, over = view["turn"], view["result"] is not None
    hosting = seat is not None and view["host"] == seat
    own = seat if watcher is None and table is not None else None     # a seat's own phone
    asked = claims.waiting(table) if own is not None else []
    backs = sorted(table.backs) if hosting and own is not None else []
    said = present.Told(view)
    waiting_for = [p["seat"] for p in players if not p.get("bot") and not p.get("ready")] \
        if over and mover.get("ready") else []
    return {
        "view": view, "me": me, "watcher": watcher, "sort": sort(), "w": present.words(view),
        "waiting": view["phase"] == "waiting", "over": over, "turn": turn, "botted": botted,
        "mine": seat is not None and turn == seat and not botted, "hosting": hosting,
        "watching": watchers.listed(table) if hosting else [],
        # The watch link, which a wide window turns into the table screen (the host's offer).
        "watch_url": f"{table_url(view['code'])}/watch" if hosting else "",
        # Seat requests (claims.py): every pending claim and every person asking a bot for
        # their seat back, for the host (its sheet, _host_asks.html, counts them all in
        # `seat_asks`); the claims for its own seat, for a seat's phone.
        "seat_claims": asked if hosting else [c for c in asked if c["seat"] == own],
        "seat_backs": backs,
        "seat_asks": asked + backs if hosting else [],
        # Someone else's seat that is away, with no bot yet: the host may let one play it.
        "host_away": [p for p in players if p.get("away") and not p.get("bot")
                      and p["seat"] != seat] if hosting else [],
        "seat_asked": sorted(table.backs) if table is not None else [],
        "seat_refused": own is not None and claims.refused_back(table, own),
        "seat_handed": claims.handed(table, own) if own is not None else None,
        "waiting_for": waiting_for,
        "lines": said.lines, "spoken": said.spoken, "turn_words": said.turn,
        "feed": said.feed if watcher is None else [],      # "since your turn": a seat's
        "others": [(p, said.since.get(p["seat"], [])) for p in players if p["seat"] != me],
        "laid": present.laid_off(view), "taps": present.taps(view),
        "act_url": act_url or url_for("table.act", code=view["code"]),
    }


def draw(table, view: dict, watcher=None, act_url: str | None = None) -> str:
    """The seat's (or the watcher's) table for this view, for the phone of this request."""
    with i18n.one_catalog():
        return render_template("table/_table.html", **context(table, view, watcher, act_url))


# ---- the push (webapp/realtime/ keeps who asked for it, and sends it) --------------

def pushed(app, code: str, seat: int, phone: dict) -> tuple[int, str]:
    """(version, html): the partial of `seat` for the phone whose handshake was `phone` (a
    WSGI environ), drawn in a request of its own as that phone's GET of its partial. A
    fresh app context too: inside the mover's request this must not share its `g` (its
    CSRF token, its language)."""
    environ = dict(phone, REQUEST_METHOD="GET", PATH_INFO=f"/t/{code}/view", QUERY_STRING="",
                   HTTP_HX_REQUEST="true")
    environ["wsgi.input"] = io.BytesIO(b"")
    with app.app_context(), app.request_context(environ):
        table = tables_of(app).get(code)
        view = table.view(seat, worded=False)
        return view["version"], draw(table, view)
