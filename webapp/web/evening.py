"""The evening on the phone: the Hands panel (each finished hand: how it ended, who won,
what each paid), a finished hand replayed step by step with every hand face up, and the
match screen with its chart. Pages for the seat cookie's seat only; the files and numbers
come from tables/history.py and tables/report.py, the words from webapp/words like the
table's own story. A hand still in play is never shown here (history refuses it)."""
from __future__ import annotations

from flask import Blueprint, make_response, render_template, request
from flask_babel import gettext as _

from ..engine import game as engine
from ..engine.actions import Action
from ..engine.cards import parse, texts
from ..engine.views import event_for, result_of
from ..tables import history, report, seal
from .. import words as W
from . import chart, inputs, present
from .seats import seated

bp = Blueprint("evening", __name__, url_prefix="/t")


def _names(table) -> list[dict]:
    return [{"seat": s, "name": st.name, "bot": st.bot} for s, st in enumerate(table.seats)]


def end_words(game: str, end: str | None) -> str:
    key = f"{game}.end.{end}"
    return present._translate()(W.CATALOG[key]) if key in W.CATALOG else (end or "")


def _html(body: str):
    resp = make_response(body)
    resp.mimetype = "text/html"
    return resp


@bp.get("/<code>/hands")
@seated(bearer=False)
def hands(table, seat: int):
    listed = history.hands(table)
    view = {"game": table.game, "seat": seat, "players": _names(table), "code": table.code}
    return _html(render_template("table/_hands.html", view=view, hands=listed[::-1],
                                 end_words=end_words))


def step_view(table, doc: dict, step: int, seat: int) -> dict:
    """Hand `doc` after its first `step` actions, every card face up: a view-shaped dict
    for the words, with each seat's hand, and the result once over."""
    hand = engine.new_hand(doc["game"], doc["players"], dealer=doc["dealer"],
                           options=doc["options"], match=doc["match"],
                           deck=[parse(c) for c in doc["deal"]["deck"]])
    for a in doc["actions"][:step]:
        hand = engine.apply(hand, Action.from_json(a))
    events = [event_for(e, e.seat if e.seat is not None else seat, hand.dealer)
              for e in hand.events]
    players = [{**p, "opened": hand.opened[p["seat"]], "cards": len(hand.hands[p["seat"]]),
                "connected": True, "ready": False, "away": False} for p in _names(table)]
    return {"code": table.code, "game": doc["game"], "seat": seat, "players": players,
            "options": doc["options"], "phase": hand.phase, "turn": hand.turn,
            "dealer": hand.dealer, "events": events, "hand": [],
            "hands": [texts(sorted(h)) for h in hand.hands],
            "melds": [{"seat": m.seat, "index": i, "cards": texts(m.cards),
                       "face_down": m.face_down}
                      for ms in hand.melds for i, m in enumerate(ms)],
            "discard_pile": texts(hand.discard), "discard_top": texts(hand.discard[-1:])[0]
            if hand.discard else None, "stock": len(hand.stock), "pot": hand.pot(),
            "result": result_of(hand) if hand.over else None, "legal": []}


@bp.get("/<code>/hands/<int:number>")
@seated(bearer=False)
def replay(table, seat: int, number: int):
    doc = history.file_of(table, number)
    total = len(doc["actions"])
    step = inputs.whole(request.args.get("step"), 4) or 0
    step = max(0, min(total, step))
    view = step_view(table, doc, step, seat)
    words = W.Words(view, viewer=seat, card=present.card_label, cards=present.cards_label,
                    translate=present._translate())
    words.visible = None            # a finished hand: every card may be named
    lines = words.lines()
    fair = doc["fairness"]
    matches = bool(fair["salt"]) and \
        seal.commitment(fair["salt"], doc["deal"]["deck"]) == fair["commitment"]
    return _html(render_template(
        "table/_replay.html", view=view, doc=doc, number=number, step=step, total=total,
        lines=lines, said=lines[-3:], matches=matches, short=seal.short(fair["commitment"]),
        end_words=end_words, settled=present.result_words(view) if view["result"] else None))


@bp.get("/<code>/match")
@seated(bearer=False)
def match_screen(table, seat: int):
    rep = report.report(table)
    view = {"game": table.game, "seat": seat, "players": _names(table), "code": table.code}
    svg = chart.running_totals([p["running"] for p in rep["players"]], rep["hands"],
                               _("Running totals after each hand"))
    return _html(render_template("table/_match.html", view=view, rep=rep, chart=svg,
                                 swatch=chart.swatch, end_words=end_words,
                                 version=table.version))

