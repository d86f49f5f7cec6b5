"""Learning at the table (API.md "Learning"): a hint on your turn, a review of a finished
hand, and the guided first hands at /learn/<game>."""
from __future__ import annotations

from flask import Blueprint, current_app, make_response, render_template

from .. import words as W
from ..bots.hints import advise
from ..tables.errors import Conflict, Forbidden
from ..tables import history, tables_of
from ..tables.review import review
from ..words.teach import why
from . import present
from .seats import seat_at

bp = Blueprint("learn", __name__)


def reader_words(view: dict) -> W.Words:
    """The phone's words (its language, cards as "7♥") for this seat's view."""
    return W.Words(view, viewer=view.get("seat"), card=present.card_label,
                   cards=present.cards_label,
                   translate=current_app.extensions.get("baraha.translate") or W.english)


def hint_for(table, seat: int) -> dict:
    """The hint for `seat` now; Forbidden when hints are off, Conflict out of turn."""
    if not table.match_rules.get("hints"):
        raise Forbidden("hints are off at this table (the host turns them on with the "
                        "option hints, for learning)")
    with table.lock:
        view = table.view(seat, worded=False)
        version = table.version
    if view.get("result") is not None or not [a for a in view.get("legal") or []
                                              if a.get("do") not in ("next", "rematch")]:
        raise Conflict("it is not your move: a hint is for your turn")
    # Seeded by the moment: asking twice gives the same hint.
    advice = advise(view, f"{table.code}:{version}:{seat}")
    return {"action": advice["action"], "why": why(reader_words(view), advice["why"])}


@bp.get("/api/tables/<code>/hint")
def hint(code: str):
    table = tables_of(current_app).get(code)
    return hint_for(table, seat_at(table))


def reviewed(table, seat: int, number: int) -> dict:
    """Finished hand `number` reviewed for `seat`, its reasons worded for this phone; the
    moves the turn timer made for it are not its own, and are only counted ("timed")."""
    kept = table.reviews
    found = kept.get((number, seat))
    if found is None:
        doc, log = history.file_and_log(table, number)
        found = kept[(number, seat)] = review(doc, seat, history.timed(log))
    else:
        doc = history.file_of(table, number)
    # The hand is over: every card may be named; the names are the table's.
    words = reader_words({"game": table.game, "seat": seat, "result": doc["result"],
                          "players": [{"name": st.name} for st in table.seats]})
    return {"seat": seat, "timed": found["timed"], "moments": [
        {"version": m["version"], "played": m["played"], "better": m["better"],
         "why": moment_words(words, m["why"], m["better"]), "did": played_words(words, m["played"])}
        for m in found["moments"]]}


def played_words(words: W.Words, played: dict) -> str:
    """"You played: discarded 5♥." from the move's data (catalog "short.*")."""
    did = words.template(f"short.{played['do']}")
    if played.get("card"):
        did = did.format(card=words.card(played["card"]))
    return words.template("review.played").format(did=did)


def moment_words(words: W.Words, fact: dict, better: dict) -> str:
    """Why the better move, as a whole sentence, then the counts: the count your move left,
    and the one the better move leaves (a meld or a lay-off: with the best discard after it,
    which is where its count comes from; its reason's own numbers are before that discard)."""
    said = words.template("review.why").format(why=why(words, fact))
    if "played_after" in fact:
        key = "review.count" if better.get("do") == "discard" else "review.count.then"
        said += " " + words.template(key).format(mine=fact["played_after"], best=fact["better_after"])
    return said


@bp.get("/api/tables/<code>/hands/<int:number>/review")
def hand_review(code: str, number: int):
    table = tables_of(current_app).get(code)
    got = reviewed(table, seat_at(table), number)
    return {**got, "moments": [{k: v for k, v in m.items() if k != "did"}
                               for m in got["moments"]]}


@bp.get("/t/<code>/hands/<int:number>/review")
def review_panel(code: str, number: int):
    """"Your hand, reviewed": the panel under a finished hand's result (HTML)."""
    table = tables_of(current_app).get(code)
    got = reviewed(table, seat_at(table), number)
    resp = make_response(render_template("table/_review.html", moments=got["moments"],
                                         timed=got["timed"]))
    resp.mimetype = "text/html"
    return resp
