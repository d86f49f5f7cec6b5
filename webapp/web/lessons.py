"""The guided first hands: GET /learn/tongits and /learn/tonk (API.md "Learning").

No table, no seat, no code: the step is in the address (`?step=K`), so a lesson can be
left, reloaded and started again at will, and each tap is a plain link to the next step.
The deal and every move come from webapp/lessons/<game>.json."""
from __future__ import annotations

from flask import Blueprint, abort, render_template, request

from .. import lessons, words as W
from . import present

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


@bp.get("/<game>")
def lesson(game: str):
    if game not in lessons.GAMES:
        abort(404)
    raw = request.args.get("step", "0")
    number = int(raw) if raw.isdigit() and len(raw) < 4 else 0
    step = lessons.step(game, number)
    view = step.view
    words = W.Words(view, viewer=lessons.LEARNER, card=present.card_label,
                    cards=present.cards_label, translate=present._translate())
    story = words.lines()
    others = story[len(story) - step.others:] if step.others else []
    return render_template(
        "learn/lesson.html", game=game, view=view, step=step, move=step.move,
        sentence=_sentence(words, step.facts), others=others,
        result=present.result_words(view) if view.get("result") else None,
        next_url=f"?step={step.number + 1}", total=step.last)
