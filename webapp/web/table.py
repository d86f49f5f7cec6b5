"""A table's pages: join, the table itself, its partial, and action posts.

Everything goes through `Table.view` / `Table.act` (the same calls as the JSON API). The
seat comes from the HttpOnly seat cookie `baraha_<CODE>` (the one the API sets); an action
post carries the version of the view it was made on and the action in the action language,
and is answered with the actor's new partial. Errors come back as plain words: a stale tap
(409) redraws the table as it is now and says why; an illegal action (422) changes nothing
on screen but the toast.
"""
from __future__ import annotations

import json
from functools import lru_cache

import segno
from flask import (Blueprint, Response, current_app, make_response, redirect, render_template,
                   request, url_for)
from flask_babel import gettext as _, lazy_gettext as _l

from ..server.pace import pace_of, per_seconds
from ..tables import claims, clean_name, tables_of
from ..tables.errors import BadRequest, Forbidden, Stale, TooMany, Unauthorized, WebError
from ..tables.language import TABLE_ACTIONS
from . import guard, inputs, partials, present
from .lobby import GAMES, forget_seat_cookie, home_page, rules_for, set_seat_cookie
from .links import table_url
from .seats import seat_token, seated

bp = Blueprint("table", __name__, url_prefix="/t")

NUDGE_EVERY = per_seconds(1, 20)    # at most one nudge per player in 20 s, from anyone
# Asking for a person's seat: a phone does it once or twice; more is someone pestering the
# host. Per asking address; per table too, but only for addresses that asked it before, so
# strangers' claims never lock the seat's own person out (a new address is answered).
CLAIMS_PER_ADDRESS = per_seconds(3, 60)
CLAIMS_PER_TABLE = per_seconds(10, 60)
ASKED_BEFORE = per_seconds(1, 3600)     # an address's first claim at a table in an hour
STALE_WORDS = _l("Someone moved before your tap arrived; here is the table as it is now.")
NO_SEAT_WORDS = _l("This browser has no seat at this table: reload the page to join.")


@bp.record_once
def _setup(state) -> None:
    guard.install(state.app)
    present.install(state.app)


def _is_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"


def _seat(table) -> int | None:
    token = seat_token(table.code)
    if not token:
        return None
    try:
        return table.seat_of(token)
    except Unauthorized:
        return None


def _no_seat() -> Response:
    return _plain(str(NO_SEAT_WORDS), 401)


def _plain(message: str, status: int) -> Response:
    resp = make_response(message, status)
    resp.mimetype = "text/plain"
    return resp


def _words(view: dict | None, error) -> str:
    """A refusal for people (webapp/words, with names); `error` a WebError or plain words."""
    return present.refusal(view, error)


def join_url(code: str) -> str:
    return table_url(code)


@lru_cache(maxsize=256)
def qr_svg(url: str) -> str:
    # Drawing a QR code takes about 10 ms; a table's join link never changes.
    qr = segno.make(url, error="m")
    return qr.svg_inline(scale=4, border=2, dark="#000", light="#fff", omitsize=True)


def _page(table, view: dict, toast: str | None = None, status: int = 200):
    url = join_url(table.code)
    host = url.split("//", 1)[-1].split("/", 1)[0].rsplit(":", 1)[0].strip("[]")
    return render_template("table/page.html", join_url=url, qr_svg=qr_svg(url),
                           loopback=host in ("localhost", "::1") or host.startswith("127."),
                           rules=rules_for(table.game, view.get("options") or table.options),
                           toast_text=toast, **partials.context(table, view)), status


def _view(table, seat: int) -> dict:
    """The seat's view for a page, without the JSON view's `log` (a page words its story)."""
    return table.view(seat, worded=False)


def _partial(table, view: dict, status: int = 200, toast: str | None = None) -> Response:
    resp = make_response(partials.draw(table, view), status)
    resp.headers["Cache-Control"] = "no-store"
    if toast:
        resp.headers["HX-Trigger"] = json.dumps({"baraha-toast": str(toast)})
    return resp


def answer(table, view: dict, toast: str | None = None):
    """A post that changed the table: htmx gets the poster's new partial, a plain form post
    goes back to the table page (303)."""
    if _is_htmx():
        return _partial(table, view, toast=toast)
    return redirect(url_for("table.page", code=table.code), 303)


def _join_page(table, error: str | None = None, status: int = 200, name: str = "",
               waiting_for: dict | None = None):
    view = _view(table, 0)
    seats = []
    for p in view["players"]:
        taken = bool(p.get("name") or p.get("bot"))
        seats.append({"seat": p["seat"], "free": not taken, "name": p.get("name") or "",
                      "bot": bool(p.get("bot")),
                      "person": bool(table.seats[p["seat"]].token_hash)})
    free = [s["seat"] for s in seats if s["free"]]
    return render_template("table/join.html", code=table.code, seats=seats, free=free,
                           error=error, name=name or request.cookies.get("baraha-name", ""),
                           waiting_for=waiting_for,
                           game=table.game, game_name=GAMES.get(table.game, table.game)), status


@bp.get("/<code>")
def page(code: str):
    tables = tables_of(current_app)
    try:
        table = tables.get(code)
    except WebError as e:
        return render_template("table/missing.html", code=code), e.status
    if code != table.code:
        return redirect(url_for("table.page", code=table.code))
    seat = _seat(table)
    if seat is None:
        token = seat_token(table.code)
        waits = claims.pending(table, token)
        refused = claims.refused_claim(table, token) if waits is None else None
        if refused is not None:
            return _join_page(table, _refused_words(*refused))
        return _join_page(table, waiting_for=waits.shown() if waits else None)
    return _page(table, _view(table, seat))


def _refused_words(seat: int, why: str) -> str:
    if why == "given":
        return _("The host gave Seat %(number)d to another phone. If that was not you, "
                 "ask again and tell the host your code.", number=seat + 1)
    if why == "seat":
        return _("The phone that holds Seat %(number)d said no. Ask again, or sit in a "
                 "free seat.", number=seat + 1)
    return _("The host did not give Seat %(number)d to this phone. Ask again, or sit in a "
             "free seat.", number=seat + 1)


@bp.get("/<code>/claim")
def claim_status(code: str):
    """The asking phone's page asks every few seconds whether its claim was answered: 204
    while it waits, else htmx is told to load the page again (the table, or why not)."""
    table = tables_of(current_app).get(code)
    if claims.pending(table, seat_token(table.code)) is not None:
        return "", 204
    resp = make_response("", 200)
    resp.headers["HX-Refresh"] = "true"
    return resp


@bp.post("/<code>/join")
def join(code: str):
    guard.check()
    table = tables_of(current_app).get(code)
    name = request.form.get("name", "")
    seat_wanted = inputs.whole(request.form.get("seat"), 2)
    try:
        seat, token = table.join(name, seat_wanted)
    except WebError as e:
        if e.status == 409 and seat_wanted is not None:
            msg = _("Seat %(number)d was just taken: choose another.", number=seat_wanted + 1)
        else:
            msg = _words(None, e)
        return _join_page(table, msg, e.status, name)
    resp = make_response(redirect(url_for("table.page", code=table.code)))
    set_seat_cookie(resp, table.code, token)
    resp.set_cookie("baraha-name", name.strip(), max_age=365 * 24 * 3600, samesite="Lax")
    return resp


@bp.get("/<code>/view")
@seated(bearer=False, refused=_no_seat)
def partial(table, seat: int):
    return _partial(table, _view(table, seat))


@bp.post("/<code>/act")
@seated(bearer=False, refused=_no_seat, first=guard.check)
def act(table, seat: int):
    version = inputs.whole(request.form.get("version"), 9)
    try:
        action = inputs.json_value(request.form.get("action"), "action")
    except BadRequest:
        action = None
    if version is None or action is None:
        return _fail(table, seat, BadRequest("that button sent something the server cannot read: reload the page"))
    do = action.get("do") if isinstance(action, dict) else None
    own = TABLE_ACTIONS.get(do) if isinstance(do, str) else None
    if own is not None and own.any_version:
        # It does not depend on what the screen showed (others pressing "Next hand" first
        # move the version): act on the current version instead of asking for a second tap.
        version = _view(table, seat)["version"]
    try:
        view = table.act(seat, version, action, worded=False)
    except Stale as e:
        if _is_htmx():
            return _partial(table, e.view, 409, STALE_WORDS)
        return _page(table, e.view, STALE_WORDS, 409)
    except WebError as e:
        return _fail(table, seat, e)
    return answer(table, view)


def _fail(table, seat: int, e: WebError):
    view = _view(table, seat)
    words = _words(view, e)
    if _is_htmx():
        return _plain(words, e.status)
    return _page(table, view, words, e.status)


@bp.post("/<code>/seats/<int:seat>/bot")
@seated(bearer=False, refused=_no_seat, first=guard.check)
def set_bot(table, me: int, seat: int):
    """The host puts a bot in a seat (a free one, or for someone who left), or takes it out."""
    level = request.form.get("level") or None
    try:
        view = table.set_bot(seat, level, by=me)
    except WebError as e:
        return _fail(table, me, e)
    return answer(table, view)


@bp.post("/<code>/seats/<int:seat>/claim")
def claim(code: str, seat: int):
    """A phone without the seat's cookie asks for that seat (its owner's phone lost it, or
    they moved phones), with the name its person types: it gets a new token and a 4-digit
    code now, the token good once the host approves the claim with that code."""
    guard.check()
    table = tables_of(current_app).get(code)
    name = request.form.get("name", "")
    mine = claims.pending(table, seat_token(table.code))
    if mine is not None and mine.seat == seat:          # asked twice: the same claim
        return redirect(url_for("table.page", code=table.code), 303)
    pace, addr = pace_of(current_app), request.remote_addr or "?"
    try:
        clean_name(name)        # a name that cannot be shown is refused before it is counted
        first = pace.allow(ASKED_BEFORE, "claim-first", table.code, addr)
        if not (pace.allow(CLAIMS_PER_ADDRESS, "claim", addr)
                and (first or pace.allow(CLAIMS_PER_TABLE, "claim", table.code))):
            raise TooMany("this phone asked for a seat a moment ago: wait a minute, then ask again")
        _, token = claims.claim(table, seat, name, addr, first)
    except WebError as e:
        return _join_page(table, _words(None, e), e.status, name)
    resp = make_response(redirect(url_for("table.page", code=table.code), 303))
    set_seat_cookie(resp, table.code, token)
    resp.set_cookie("baraha-name", name.strip(), max_age=365 * 24 * 3600, samesite="Lax")
    return resp


@bp.post("/<code>/seats/<int:seat>/back")
@seated(bearer=False, refused=_no_seat, first=guard.check)
def ask_back(table, me: int, seat: int):
    """The person whose seat a bot plays asks the host for it back."""
    if me != seat:
        return _no_seat()
    try:
        claims.ask_back(table, seat)
    except WebError as e:
        return _fail(table, me, e)
    return answer(table, _view(table, me), _("The host is asked to give you your seat back."))


@bp.post("/<code>/seats/<int:seat>/approve")
@seated(bearer=False, refused=_no_seat, first=guard.check)
def approve(table, me: int, seat: int):
    """The host gives a seat to the phone of one claim (`claim`: its id; every other claim
    for the seat is refused), or back to its person from the bot (no claim)."""
    cid = request.form.get("claim") or None
    try:
        if request.form.get("refuse"):      # a page drawn before the refuse form had its own
            claims.refuse(table, seat, by=me, cid=cid)
        else:
            claims.approve(table, seat, by=me, cid=cid)
    except WebError as e:
        return _fail(table, me, e)
    return answer(table, _view(table, me))


@bp.post("/<code>/seats/<int:seat>/refuse")
@seated(bearer=False, refused=_no_seat, first=guard.check)
def refuse(table, me: int, seat: int):
    """The host says no to one claim (`claim`) or to a person asking a bot for their seat
    back; the seat's own phone may say no to a claim for its seat."""
    try:
        claims.refuse(table, seat, by=me, cid=request.form.get("claim") or None)
    except WebError as e:
        return _fail(table, me, e)
    return answer(table, _view(table, me))


@bp.post("/<code>/seats/<int:seat>/handed")
@seated(bearer=False, refused=_no_seat, first=guard.check)
def handed_seen(table, me: int, seat: int):
    """The new holder of a seat read what the hand-off ended: the note goes."""
    if me == seat:
        claims.told_handed(table, seat)
    return answer(table, _view(table, me))


@bp.post("/<code>/close")
@seated(bearer=False, refused=_no_seat, first=guard.check)
def close(table, me: int):
    """The host ends the table, as the JSON API's close does (from the list of a phone's
    tables on the home page, templates/lobby/_own_tables.html)."""
    try:
        table.close(by=me)
    except WebError as e:
        return _gone_home(e)
    return redirect(url_for("lobby.home", closed=table.code), 303)


@bp.post("/<code>/leave")
@seated(bearer=False, refused=_no_seat, first=guard.check)
def leave(table, me: int):
    """A person who is not the host leaves the table: a bot (normal) plays their seat from
    now on, as the host's "Bot plays for Ben" would, and this browser forgets the seat."""
    if me == table.host:
        return _gone_home(Forbidden("you are the host: close the table rather than leave it",
                                    code="host_leaves"))
    try:
        table.set_bot(me, "normal", by=None)
    except WebError as e:
        return _gone_home(e)
    resp = make_response(redirect(url_for("lobby.home", left=table.code), 303))
    forget_seat_cookie(resp, table.code)
    return resp


def _gone_home(e: WebError):
    """A close or leave the table refused: the home page says why, in the phone's words."""
    return home_page(_words(None, e), e.status)


@bp.post("/<code>/nudge")
@seated(bearer=False, refused=_no_seat, first=guard.check)
def nudge(table, me: int):
    """Tap the box of the player whose turn it is: their phones chime or buzz (a Socket.IO
    push to that seat's room only). At most once every NUDGE_EVERY per player."""
    view = _view(table, me)
    turn = view.get("turn")
    player = next((p for p in view["players"] if p["seat"] == turn), None)
    if turn is None or turn == me or player is None or player.get("bot") or view.get("result"):
        return _plain(_("There is nobody to nudge: it is not another person's turn."), 422)
    wait = pace_of(current_app).once(NUDGE_EVERY, "nudge", table.code, str(turn))
    name = present.name_of(view, turn)
    if wait > 0:
        return _plain(_("%(name)s was nudged a moment ago: try again in %(seconds)d s.", name=name, seconds=int(wait) + 1), 429)
    tables_of(current_app).nudge(table.code, turn, me, present.name_of(view, me))
    if _is_htmx():
        resp = make_response("", 204)
        resp.headers["HX-Trigger"] = json.dumps({"baraha-toast": _("%(name)s's phone chimes.", name=name)})
        return resp
    return redirect(url_for("table.page", code=table.code), 303)
