"""Watchers, in the API and in pages (webapp/tables/watchers.py).

API (docs/API.md "Pace and presence"):
  POST   /api/tables/CODE/watchers {"name"}            -> 201 {"token", "id"}
         with a seat's token and {"behind": true}: the watcher sits behind that seat
  GET    /api/tables/CODE/watchers                      -> {"watchers": [...]} (a seat's token)
  DELETE /api/tables/CODE/watchers/ID                   -> {"watchers": [...]} (the host,
         or the seat the watcher sits behind)
A watcher's token reads GET /api/tables/CODE (its view) and is refused every action (403):
webapp/web/api.py asks `watcher_of` (webapp/web/seats.py) first.

Pages: /t/CODE/watch asks a name, then shows the table with no hand and no moves (its
cookie `baraha_w_CODE`). In a window at least 960px wide and wider than tall it asks
nothing: it is the table screen (API.md "The table screen", static/css/screen.css), drawn
at once as any open watcher sees the table, and the page joins by itself as a table screen
(POST /t/CODE/watch/screen, static/js/ui/screen.js), then follows the table like any
watcher's page. /t/CODE/watch/view is its partial; /t/CODE/behind makes the
invitation to sit behind the asking seat (a link with a one-time token, and its QR code:
opened, it is traded for the watcher's own token, and refused after that);
/t/CODE/watchers/ID/remove is the host's, and a seat's for the watchers behind it.
"""
from __future__ import annotations

from flask import (Blueprint, Response, current_app, make_response, redirect, render_template,
                   request, url_for)
from markupsafe import Markup

from ..tables.errors import BadRequest, Unauthorized
from ..tables.cookies import watch_cookie
from .seats import seat_at, seat_token, seated, watcher_of
from ..tables import tables_of, watchers
from . import api, guard, partials
from .lobby import GAMES
from .table import answer, join_url, qr_svg

bp = Blueprint("watch", __name__)
bp.before_request(api.guard_request)    # the API's size and origin checks, pages included

# ---- the API -------------------------------------------------------------------------

@bp.post("/api/tables/<code>/watchers")
def add(code: str):
    table = tables_of(current_app).get(code)
    body = api.json_body()
    behind = body.get("behind", False)
    if not isinstance(behind, bool):
        raise BadRequest("behind: true (sit behind the seat whose token this is) or false")
    # A seat's token invites; without one it is open watching, bounded per address.
    asked = behind or "Authorization" in request.headers or seat_token(table.code)
    seat = seat_at(table) if asked else None
    watcher, token = watchers.add(table, body.get("name"), seat if behind else None, by=seat,
                                  addr=_addr())
    return {"token": token, "id": watcher.id}, 201


@bp.get("/api/tables/<code>/watchers")
def listed(code: str):
    table = tables_of(current_app).get(code)
    seat_at(table)
    return {"watchers": watchers.listed(table)}


@bp.delete("/api/tables/<code>/watchers/<wid>")
def remove(code: str, wid: str):
    table = tables_of(current_app).get(code)
    watchers.remove(table, wid, by=seat_at(table))
    return {"watchers": watchers.listed(table)}


# ---- the pages -----------------------------------------------------------------------

def _context(table, watcher) -> dict:
    """A watcher's table: the seats' own drawing (webapp/web/partials.py) of its view."""
    return partials.context(table, watchers.view(table, watcher, worded=False), watcher)


def _addr() -> str:
    return request.remote_addr or "?"


def _set_cookie(resp, code: str, token: str) -> None:
    resp.set_cookie(watch_cookie(code), token, max_age=api.COOKIE_AGE, path="/", httponly=True,
                    samesite="Lax", secure=request.is_secure)


@bp.get("/t/<code>/watch")
def page(code: str):
    table = tables_of(current_app).get(code)
    watcher = watcher_of(table)
    if watcher is None:
        taken = table.pace.options["watchers"]
        # The table as it is now, for a wide window to show while it joins as a screen.
        shown = partials.context(table, watchers.open_view(table), watchers.PREVIEW) \
            if taken else {}
        return render_template("table/watch_join.html", code=table.code,
                               game_name=GAMES[table.game], open=taken, **shown)
    return render_template("table/watch.html", **_context(table, watcher))


@bp.post("/t/<code>/watch/screen")
def screen(code: str):
    """A wide window that opened the watch link joins as a table screen: no name asked;
    answered with its cookie and nothing else (the page then follows the table)."""
    guard.check()
    table = tables_of(current_app).get(code)
    watcher, token = watchers.add(table, None, addr=_addr(), screen=True)
    resp = make_response("", 204)
    _set_cookie(resp, table.code, token)
    return resp


@bp.post("/t/<code>/watch")
def join(code: str):
    guard.check()
    table = tables_of(current_app).get(code)
    watcher, token = watchers.add(table, request.form.get("name"), addr=_addr())
    resp = redirect(url_for("watch.page", code=table.code), 303)
    _set_cookie(resp, table.code, token)
    return resp


@bp.get("/t/<code>/watch/<token>")
def invited(code: str, token: str):
    """The link a seat's phone shows to the person sitting behind it. Opening it spends
    nothing (a chat app's link preview opens it too): it shows one button, whose post does."""
    table = tables_of(current_app).get(code)
    watcher = watchers.invited(table, token)
    if watcher is None:
        raise Unauthorized("this invitation was already used, or is no longer valid: "
                           "ask for a new one")
    behind = table.seat_name(watcher.behind) if watcher.behind is not None else None
    resp = make_response(render_template(
        "table/watch_accept.html", code=table.code, game_name=GAMES[table.game],
        name=watcher.name, behind=behind, url=url_for("watch.accept", code=table.code,
                                                      token=token)))
    resp.headers["X-Robots-Tag"] = "noindex"
    return resp


@bp.post("/t/<code>/watch/<token>")
def accept(code: str, token: str):
    """The invitation's button: its token is spent, the watcher's own is this browser's."""
    guard.check()
    table = tables_of(current_app).get(code)
    watcher, own = watchers.accept(table, token)    # the link works once
    resp = redirect(url_for("watch.page", code=table.code), 303)
    _set_cookie(resp, table.code, own)
    return resp


@bp.get("/t/<code>/watch/view")
def partial(code: str) -> Response:
    table = tables_of(current_app).get(code)
    watcher = watcher_of(table)
    if watcher is None:
        raise Unauthorized("this browser is not watching this table: open the watch link again")
    resp = make_response(partials.draw(table, watchers.view(table, watcher, worded=False),
                                       watcher))
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.post("/t/<code>/behind")
@seated(bearer=False, first=guard.check)
def behind(table, seat: int):
    """A seat's phone invites someone to sit behind it: the link and QR code to show them."""
    watcher, token = watchers.add(table, request.form.get("name") or
                                  f"{table.seat_name(seat)} +", seat, by=seat, invitation=True)
    url = f"{join_url(table.code)}/watch/{token}"
    return render_template("table/_behind.html", url=url, qr_svg=Markup(qr_svg(url)),
                           code=table.code, behind_me=watchers.behind(table, seat))


@bp.get("/t/<code>/behind")
@seated(bearer=False, refused=lambda: ("", 204))
def behind_list(table, seat: int):
    """The watchers behind the asking seat, each with Remove (its "Sit behind me" sheet,
    which loads it with the page: a browser with no seat here is answered nothing)."""
    return render_template("table/_behind.html", url=None, code=table.code,
                           behind_me=watchers.behind(table, seat))


@bp.get("/t/<code>/watch/qr.svg")
def qr(code: str) -> Response:
    """The QR code of the watch link, as an image: the host's panel is also rendered for
    pushes, which have no request to know the server's address from."""
    table = tables_of(current_app).get(code)
    return _svg(qr_svg(f"{join_url(table.code)}/watch"))


@bp.get("/t/<code>/qr.svg")
def join_qr(code: str) -> Response:
    """The QR code of the table's own link (to sit down), as an image: a watcher's page
    shows it before the deal, so a table screen invites the room."""
    return _svg(qr_svg(join_url(tables_of(current_app).get(code).code)))


def _svg(svg: str) -> Response:
    resp = make_response(svg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1))
    resp.mimetype = "image/svg+xml"
    return resp


@bp.post("/t/<code>/watchers/<wid>/remove")
@seated(bearer=False, first=guard.check)
def remove_page(table, seat: int, wid: str):
    """The host's Remove button, or a seat's for a watcher behind it: answered with the
    host's partial (htmx), the seat's list of watchers behind it, or the page."""
    watchers.remove(table, wid, by=seat)
    if request.form.get("slot") == "behind" and request.headers.get("HX-Request") == "true":
        return render_template("table/_behind.html", url=None, code=table.code,
                               behind_me=watchers.behind(table, seat))
    return answer(table, table.view(seat, worded=False))
