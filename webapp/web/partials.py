"""A seat's table, drawn: `table/_table.html` from the seat's view, in the request of the
phone it is for. The page, its GET (what a phone fetches when told its table changed), a
move's answer and a watcher's page all draw it here, the same way (render_template), so
none can fail where another works.
"""
from __future__ import annotations

from flask import render_template, request, url_for

from ..tables import claims, watchers
from . import i18n, present
from .links import table_url

SORT_COOKIE = "baraha-sort"


def sort() -> str:
    """The order this phone shows its hand in: "arrange", "rank" or "suit"."""
    return present.sort_of(request.cookies.get(SORT_COOKIE))


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
