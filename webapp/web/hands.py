"""The evening's hands over JSON (API.md "The evening"): the list of a table's finished
hands, and each one's file, for that table's seats only (a token or the seat cookie)."""
from __future__ import annotations

from flask import Blueprint, make_response, request

from ..tables import history, report
from .seats import seated

bp = Blueprint("hands", __name__, url_prefix="/api")


@bp.get("/tables/<code>/hands")
@seated()
def hand_list(table, seat: int):
    return {"hands": history.hands(table)}


@bp.get("/tables/<code>/hands/<int:number>")
@seated()
def hand_file(table, seat: int, number: int):
    doc = history.file_of(table, number)
    if request.args.get("download"):
        resp = make_response(history.file_text(doc))
        resp.mimetype = "application/json"
        resp.headers["Content-Disposition"] = \
            f'attachment; filename="baraha-{table.code}-hand-{number}.json"'
        return resp
    return doc


@bp.get("/tables/<code>/match")
@seated()
def match_report(table, seat: int):
    """An addition: the match being played (or just over) at a glance, as the match screen
    shows it: each seat's total and running totals, hands won and how, the biggest hand."""
    return report.report(table)
