"""The JSON API of docs/API.md: create a table, take a seat, see your view, act.

Paths, fields and status codes are fixed by API.md; additions are marked. The seat comes
from the token (`Authorization: Bearer TOKEN`, or the `baraha_<CODE>` cookie set on join).
"""
from __future__ import annotations

from flask import Blueprint, current_app, make_response, request

from ..server.pace import burst_over, pace_of
from ..tables import tables_of, watchers
from ..tables.errors import BadRequest, Forbidden, TooLarge, TooMany
from .guard import same_origin
from . import inputs
from ..tables.cookies import cookie_name
from .seats import seat_at, seated, watcher_of

bp = Blueprint("api", __name__, url_prefix="/api")

COOKIE_AGE = 30 * 24 * 3600     # a month: rejoin the same seat after the phone sleeps


@bp.record_once
def _setup(state) -> None:
    rate = state.app.config.get("RATE_LIMIT")
    state.app.extensions["baraha.request_pace"] = burst_over(*rate) if rate else None


@bp.before_app_request
def _pace():
    """Every client's pace, on the pages and their form posts as on the API (static files
    aside): one phone flooding the server gets 429 (plain words, Retry-After) and the others
    play on. Registered here so that the pages and the API share one count per client."""
    limit = current_app.extensions.get("baraha.request_pace")
    if limit is not None and request.endpoint != "static" \
            and not pace_of(current_app).allow(limit, "request", request.remote_addr or "?"):
        raise TooMany()


@bp.before_request
def guard_request():
    """Before any API work: the body's size, the page's origin (the pace: `_pace`)."""
    if (request.content_length or 0) > current_app.config["MAX_CONTENT_LENGTH"]:
        raise _too_large()
    if request.method == "POST" and not same_origin():
        raise Forbidden("this request came from another site, so it was refused")


def _too_large() -> TooLarge:
    return TooLarge(f"the request is too large "
                    f"({current_app.config['MAX_CONTENT_LENGTH'] // 1024} KB at most)")


def json_body() -> dict:
    if len(request.get_data()) >= current_app.config["MAX_CONTENT_LENGTH"]:
        raise _too_large()      # a body sent without a length is cut at the limit
    # force: the body is JSON whatever its Content-Type says; the token, not the type,
    # guards the writes.
    try:
        body = request.get_json(force=True, silent=True)
    except RecursionError:      # "[[[[...]]]]" a few thousand deep: the parser gives up
        raise BadRequest(f"the body is nested too deeply (at most {inputs.MAX_DEPTH} "
                         "levels)") from None
    if not isinstance(body, dict):
        raise BadRequest("the body must be a JSON object")
    return inputs.checked(body, "the body")


def _bounded(body: dict) -> None:
    """Numbers and sizes checked before any work (tables.py checks the values themselves):
    players=5000000 or a bots object of a thousand seats is refused at once."""
    players = body.get("players")
    if isinstance(players, int) and not 0 < players <= 16:
        raise BadRequest(f"players: {players if abs(players) < 10**6 else 'that'} is not a "
                         "number of players at one table (2 to 6)")
    bots, options = body.get("bots"), body.get("options")
    if isinstance(bots, dict) and (len(bots) > 16 or any(len(str(k)) > 2 for k in bots)):
        raise BadRequest("bots: one entry per seat, seats are 0 to 5")
    if isinstance(options, dict) and len(options) > 32:
        raise BadRequest("options: too many house rules (each game has a handful)")


@bp.post("/tables")
def create_table():
    body = json_body()
    _bounded(body)
    table = tables_of(current_app).create(body.get("game"), body.get("players"),
                                          body.get("options"), body.get("bots"),
                                          creator=request.remote_addr)
    return {"code": table.code, "url": f"{request.host_url}t/{table.code}"}, 201


@bp.post("/tables/<code>/seats")
def join(code: str):
    table = tables_of(current_app).get(code)
    body = json_body()
    seat, token = table.join(body.get("name"), body.get("seat"))
    resp = make_response({"seat": seat, "token": token}, 201)
    resp.set_cookie(cookie_name(table.code), token, max_age=COOKIE_AGE, path="/",
                    httponly=True, samesite="Lax", secure=request.is_secure)
    return resp


@bp.get("/tables/<code>")
def view(code: str):
    table = tables_of(current_app).get(code)
    watcher = watcher_of(table)       # a watcher's token: its view (web/watch.py)
    if watcher is not None:
        return watchers.view(table, watcher)
    return table.view(seat_at(table))


@bp.post("/tables/<code>/actions")
def act(code: str):
    table = tables_of(current_app).get(code)
    if watcher_of(table) is not None:
        raise Forbidden("a watcher cannot act: take a seat to play", code="watcher")
    seat = seat_at(table)
    body = json_body()
    return table.act(seat, body.get("version"), body.get("action"))


# Additions to API.md: the host's controls.

@bp.post("/tables/<code>/seats/<int:seat>/bot")
@seated()
def set_bot(table, by: int, seat: int):
    """{"level": "easy"|"normal"|"hard"|"expert"} puts a bot in the seat; {"level": null} takes it out."""
    body = json_body()
    if "level" not in body:
        raise BadRequest('level: say which bot ("easy", "normal", "hard", "expert"), or null for a person')
    return table.set_bot(seat, body["level"], by=by)


@bp.post("/tables/<code>/close")
@seated()
def close(table, seat: int):
    return table.close(by=seat)

