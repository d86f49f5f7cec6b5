"""The guided first hands: GET /learn/tongits and /learn/tonk (API.md "Learning").

No table, no seat, no code: the step is in the address (`?step=K`), so a lesson can be
left, reloaded and started again at will. Each step is drawn as a real table is, by
partials.draw from the learner's view: the same regions, labels, buttons and confirmations,
and at the end the real settlement. The lesson adds one sentence above it and marks the
move to make; the table's move forms post here (POST ?step=K), and the move the lesson
plays leads to the next step. The deal and every move come from webapp/lessons/<game>.json."""
from __future__ import annotations

import json

from flask import Blueprint, abort, make_response, redirect, render_template, request
from flask_babel import gettext as _

from .. import lessons, words as W
from . import guard, inputs, partials, present

bp = Blueprint("lessons", __name__, url_prefix="/learn")


def _sentence(words: W.Words, facts: dict | None) -> str:
    if facts is None:
        return words.template("learn.over")
    values = {k: v for k, v in facts.items() if k != "key"}
    if "card" in values:
        values["card"] = words.card(values["card"])
    if "top" in values:
        values["top"] = words.card(values["top"])
    if "cards" in values:
        values["cards"] = words.cards(values["cards"])
    if "owner" in values:
        values["owner"] = words.name(values["owner"])
    vocabulary = W.vocabulary(words.game, words.t)
    return words.template(f"learn.{facts['key']}").format(
        meld=vocabulary["meld"], layoff=vocabulary["layoff"], **values)


NEXT = {"do": "next"}


def _step(game: str, number: int | None = None):
    """The step asked for (`?step=K`), as the learner's phone draws it: the learner is
    named "You"; once the hand is over, Next hand deals it again, as at a table."""
    if game not in lessons.GAMES:
        abort(404)
    if number is None:
        number = inputs.whole(request.args.get("step"), 3) or 0
    step = lessons.step(game, number)
    step.view["players"][lessons.LEARNER]["name"] = _("You")
    if step.view["result"] is not None:
        step.view["legal"] = [NEXT]
    return step


def _said(game: str, step, wrong: bool = False) -> dict:
    """What the lesson page draws around the table for `step`."""
    words = W.Words(step.view, viewer=lessons.LEARNER, card=present.card_label,
                    cards=present.cards_label, translate=present._translate())
    sentence = _sentence(words, step.facts)
    if wrong:
        sentence = words.template("learn.wrong") + " " + sentence
    return {"game": game, "step": step, "total": step.last, "sentence": sentence,
            "move_json": json.dumps(step.move) if step.move else "",
            "table": partials.draw(None, step.view, act_url=f"?step={step.number}")}


@bp.get("/<game>")
def lesson(game: str):
    step = _step(game)
    return render_template("learn/lesson.html", view=step.view, **_said(game, step))


@bp.post("/<game>")
def move(game: str):
    """A move from the table's forms: the lesson's move leads to the next step; another
    legal move leaves the step as it was, saying so. Checked as every form's post is,
    though it changes nothing kept."""
    guard.check()
    step = _step(game)
    played = inputs.json_value(request.form.get("action", "null"), "action")
    if step.move is None and played == NEXT:       # the hand again, from its deal
        return _moved(f"{request.path}?step=0", None)
    right = step.move is not None and played == step.move
    shown = _step(game, step.number + 1) if right else step
    return _moved(f"{request.path}?step={shown.number}", (game, shown, right))


def _moved(url: str, drawn):
    """The answer to a move: the next table and its words (htmx), or its address."""
    if not request.headers.get("HX-Request"):
        return redirect(url, code=303)
    if drawn is None:
        resp = make_response("", 204)
        resp.headers["HX-Redirect"] = url
        return resp
    game, shown, right = drawn
    said = _said(game, shown, wrong=not right)
    resp = make_response(render_template("learn/_answer.html", **said))
    resp.headers["HX-Push-Url"] = url
    return resp
