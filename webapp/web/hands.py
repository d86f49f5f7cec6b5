"""The evening's hands over JSON (API.md "The evening"): the list of a table's finished
hands, and each one's file, for that table's seats only (a token or the seat cookie)."""
from __future__ import annotations

from flask import Blueprint, current_app, make_response, request

from ..tables import history, report, tables_of
from .api import seat_of_request

bp = Blueprint("hands", __name__, url_prefix="/api")


@bp.get("/tables/<code>/hands")
def hand_list(code: str):
    table = tables_of(current_app).get(code)
    seat_of_request(table)
    return {"hands": history.hands(table)}


@bp.get("/tables/<code>/hands/<int:number>")
def hand_file(code: str, number: int):
    table = tables_of(current_app).get(code)
    seat_of_request(table)
    doc = history.file_of(table, number)
    if request.args.get("download"):
        resp = make_response(history.file_text(doc))
        resp.mimetype = "application/json"
        resp.headers["Content-Disposition"] = \
            f'attachment; filename="baraha-{table.code}-hand-{number}.json"'
        return resp
    return doc


@bp.get("/tables/<code>/match")
def match_report(code: str):
    """An addition: the match being played (or just over) at a glance, as the match screen
    shows it: each seat's total and running totals, hands won and how, the biggest hand."""
    table = tables_of(current_app).get(code)
    seat_of_request(table)
    return report.report(table)
