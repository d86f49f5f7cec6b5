"""The family's season (webapp/tables/season.py), as a page and as JSON.

  GET  /season             the page: each month's table of the household, and the bots apart
  GET  /api/season         {"months": [{"month": "2026-12", "people": [...], "bots": [...]}],
                            "left_out": N, "kept_days": D}
  POST /season/out         a form's `name`: that person is left out of the season (CSRF)
  POST /season/back        a form's `name`: that person is put back in (CSRF)

No seat is asked: the season is the household's, like the home page. Left-out people are
shown nowhere, not even as a list to put back: putting one back takes their name typed.
"""
from __future__ import annotations

import datetime

from babel.dates import format_date
from flask import Blueprint, current_app, redirect, render_template, request, url_for
from flask_babel import get_locale

from ..tables import tables_of
from ..tables.errors import WebError
from ..tables.season import Season
from . import guard, present

bp = Blueprint("season", __name__)


def season_of(app) -> Season:
    found = app.extensions.get("baraha.season")
    if found is None:
        found = app.extensions["baraha.season"] = Season(tables_of(app).store)
    return found


def _month_words(month: str) -> str:
    """"December 2026", "Disyembre 2026": in the phone's language (Babel's calendar)."""
    year, number = (int(x) for x in month.split("-"))
    return format_date(datetime.date(year, number, 1), "LLLL y", locale=str(get_locale()))


@bp.get("/season")
def page(error: str | None = None):
    season = season_of(current_app)
    return render_template("season.html", months=season.months(), month_words=_month_words,
                           left_out=len(season.store.left_out()),
                           kept_days=int(current_app.config["HISTORY_DAYS"]),
                           said=request.args.get("said", ""), error=error)


@bp.get("/api/season")
def as_json():
    season = season_of(current_app)
    return {"months": season.months(), "left_out": len(season.store.left_out()),
            "kept_days": int(current_app.config["HISTORY_DAYS"])}


def _change(out: bool):
    guard.check()
    try:
        season_of(current_app).leave_out(request.form.get("name"), out)
    except WebError as e:       # a name that cannot be one: the page says why, nothing changes
        return page(error=present.refusal(None, e)), e.status
    return redirect(url_for("season.page", said="out" if out else "back", _anchor="season-said"), 303)


@bp.post("/season/out")
def leave_out():
    return _change(True)


@bp.post("/season/back")
def put_back():
    return _change(False)
